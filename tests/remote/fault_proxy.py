#!/usr/bin/python3
"""A small HTTP/1.1 reverse proxy that adds latency and faults between pqsift and a server.

This kernel has no netem: delays live here, in user space. Every request waits `delay_ms`
before it is forwarded (so a request costs one added latency, as a round trip over a network
would: requests sent side by side wait side by side). Scripted faults are taken in order by the
requests that match their path filter:

  "503", "404", "429:SECONDS"   answer with that status (429 with Retry-After)
  "pass"                        forward this request untouched (to aim the next fault)
  "reset"                       close the connection without answering (a reset)
  "truncate"                    send the headers and half the body, then close
  "stall:SECONDS"               send the headers, then nothing for that long, then close
  "replace:SRC"                 before forwarding, replace the requested file (under `root`)
                                by SRC (atomically): the file changes mid-scan

Every request is recorded (method, path, Range, status sent), so tests assert exact counts.
With `s3_secret`, the proxy checks each request's SigV4 signature (Authorization header) as S3
would and answers 403 SignatureDoesNotMatch when it is wrong: the S3 emulator used by the tests
does not check signatures itself.

Origin mode (`--root DIR` without `--upstream`): the proxy is the server itself. It answers
HEAD and single-range GETs for the files under DIR (ETag and Last-Modified as nginx makes them,
If-Match honoured) and sends bodies with sendfile, so a gigabyte costs one loopback TCP hop in
the kernel: the bench's full scans measure latency hiding, not the CPU of a second hop through
a proxy (about 1.3 s per GiB through Python even with splice) on the engine's two cores.
Scripted faults need the proxy mode.

Used in-process by tests/remote/remote_test.py, and from the command line by the bench:
  fault_proxy.py (--upstream 127.0.0.1:8080 | --root DIR) [--port 0] [--delay-ms 20]
prints "port N" on stdout once listening, then serves until killed.
"""

import argparse
import email.utils
import fcntl
import hashlib
import hmac
import http.client
import json
import os
import select
import shutil
import socket
import socketserver
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler

PIPE_BYTES = 1 << 20
# SPLICE_F_MORE on a socket corks it (as MSG_MORE): only while more of the body follows, else
# the response's last segment waits ~200 ms for data that never comes, added to every round trip.
SPLICE_FLAGS = os.SPLICE_F_MOVE
UPSTREAM_TIMEOUT_S = 30
HOP_HEADERS = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
               "te", "trailer"}


class Control:
    """What the proxy does; shared with the handlers (attributes read under `lock`)."""

    def __init__(self, upstream, delay_ms=0, root=None, s3_secret=None):
        self.upstream = upstream  # "host:port"; None: origin mode, serving `root`
        self.delay_ms = delay_ms
        self.root = root  # where "replace:" finds the served files
        self.s3_secret = s3_secret
        self.lock = threading.Lock()
        self.faults = []  # [(path_substring, fault)]
        self.log = []  # [(method, path, range, status)]
        self.signature_failures = 0
        # Busy periods: a request arriving while none is in flight starts a new round trip.
        self.in_flight = 0
        self.round_trips = 0
        self.bytes_sent = 0
        # Every `fault_every`-th request (0: none) takes the next fault of `fault_cycle`.
        self.fault_every = 0
        self.fault_cycle = ["503", "reset", "truncate", "429:0", "500"]
        self.seen = 0

    def add_faults(self, faults, path=""):
        with self.lock:
            self.faults.extend((path, f) for f in faults)

    def take_fault(self, path):
        with self.lock:
            self.seen += 1
            if self.fault_every and self.seen % self.fault_every == 0:
                return self.fault_cycle[(self.seen // self.fault_every) % len(self.fault_cycle)]
            for i, (want, fault) in enumerate(self.faults):
                if want in path:
                    del self.faults[i]
                    return fault
        return None

    def record(self, method, path, rng, status):
        with self.lock:
            self.log.append((method, path, rng, status))

    def reset(self):
        with self.lock:
            self.log = []
            self.faults = []
            self.signature_failures = 0
            self.round_trips = 0
            self.bytes_sent = 0

    def begin(self):
        with self.lock:
            if self.in_flight == 0:
                self.round_trips += 1
            self.in_flight += 1

    def end(self, sent):
        with self.lock:
            self.in_flight -= 1
            self.bytes_sent += sent

    def summary(self):
        with self.lock:
            return {"requests": len(self.log), "round_trips": self.round_trips,
                    "bytes": self.bytes_sent}

    def requests(self, path=""):
        with self.lock:
            return [e for e in self.log if path in e[1]]


def _parse_range(header, size):
    """(first, last) of a single "bytes=" range inside a file of `size` bytes, else (None, None)."""
    unit, _, spec = header.partition("=")
    if unit.strip() != "bytes" or "," in spec or "-" not in spec:
        return None, None
    first, _, last = spec.strip().partition("-")
    try:
        if not first:  # the last N bytes
            n = int(last)
            return (max(0, size - n), size - 1) if n > 0 and size > 0 else (None, None)
        first = int(first)
        last = min(int(last), size - 1) if last else size - 1
    except ValueError:
        return None, None
    return (first, last) if first <= last else (None, None)


def _sigv4_ok(handler, secret):
    """Whether the request's SigV4 Authorization header is right for `secret`."""
    auth = handler.headers.get("Authorization")
    if not auth:
        return True  # anonymous
    try:
        algo, rest = auth.split(" ", 1)
        parts = dict(p.strip().split("=", 1) for p in rest.split(","))
        _, date, region, service, _ = parts["Credential"].split("/")
        signed = parts["SignedHeaders"].split(";")
        signature = parts["Signature"]
    except (ValueError, KeyError):
        return False
    if algo != "AWS4-HMAC-SHA256":
        return False
    url = urllib.parse.urlsplit(handler.path)
    # The canonical URI as S3 computes it: the path segments, each URI-encoded once.
    path = urllib.parse.unquote(url.path)
    canonical_uri = urllib.parse.quote(path, safe="/~")
    pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
    canonical_query = "&".join(
        f"{urllib.parse.quote(k, safe='~')}={urllib.parse.quote(v, safe='~')}"
        for k, v in sorted(pairs))
    headers = {}
    for name in signed:
        value = handler.headers.get(name, "")
        headers[name] = " ".join(value.strip().split())
    canonical_headers = "".join(f"{name}:{headers[name]}\n" for name in signed)
    payload = handler.headers.get("x-amz-content-sha256", "UNSIGNED-PAYLOAD")
    request = "\n".join([handler.command, canonical_uri, canonical_query, canonical_headers,
                         ";".join(signed), payload])
    amz_date = handler.headers.get("x-amz-date", "")
    scope = f"{date}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                         hashlib.sha256(request.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # A response is written in pieces (status and headers, the body's first bytes, the rest):
    # without TCP_NODELAY a small piece may wait for the client's ACK of the one before. (The
    # ~200 ms the proxy added per round trip was SPLICE_F_MORE, below; this is a precaution.)
    disable_nagle_algorithm = True
    control = None  # set per server class

    def log_message(self, fmt, *args):  # quiet
        pass

    def _send_head(self, status, headers, length):
        """The status line, `headers` and a Content-Length of `length`."""
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def _reply(self, status, body=b"", headers=()):
        self._send_head(status, headers, len(body))
        if body and self.command != "HEAD":
            self.wfile.write(body)
            self.sent = getattr(self, "sent", 0) + len(body)

    def _handle(self):
        c = self.control
        rng = self.headers.get("Range", "")
        body = b""
        length = int(self.headers.get("Content-Length", "0") or "0")
        if length:
            body = self.rfile.read(length)
        if c.delay_ms:
            time.sleep(c.delay_ms / 1000.0)
        if c.s3_secret is not None and not _sigv4_ok(self, c.s3_secret):
            with c.lock:
                c.signature_failures += 1
            c.record(self.command, self.path, rng, 403)
            self._reply(403, b"<Error><Code>SignatureDoesNotMatch</Code></Error>")
            return
        fault = c.take_fault(self.path)
        if fault == "pass":
            fault = None  # this request goes through untouched
        if fault is not None:
            kind, _, arg = fault.partition(":")
            if kind.isdigit() and kind != "429":
                c.record(self.command, self.path, rng, int(kind))
                self._reply(int(kind), b"injected")
                return
            if kind == "429":
                c.record(self.command, self.path, rng, 429)
                self._reply(429, b"slow down", [("Retry-After", arg or "0")])
                return
            if kind == "reset":
                c.record(self.command, self.path, rng, "reset")
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           b"\x01\x00\x00\x00\x00\x00\x00\x00")
                self.close_connection = True
                self.connection.close()
                return
            if kind == "replace":
                target = os.path.join(c.root, urllib.parse.unquote(
                    urllib.parse.urlsplit(self.path).path).lstrip("/"))
                temporary = target + ".replacing"
                shutil.copy2(arg, temporary)  # its mtime too: nginx ETags are mtime-size
                os.replace(temporary, target)
                fault = None  # then forwarded as usual
            elif kind not in ("truncate", "stall"):
                raise ValueError("unknown fault " + fault)
        if c.upstream is None:
            if fault is not None:
                raise ValueError("origin mode cannot apply the fault " + fault)
            self._serve_file()
            return
        upstream = http.client.HTTPConnection(c.upstream, timeout=UPSTREAM_TIMEOUT_S)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_HEADERS}
        upstream.request(self.command, self.path, body=body or None, headers=headers)
        response = upstream.getresponse()
        out_headers = [(k, v) for k, v in response.getheaders()
                       if k.lower() not in HOP_HEADERS and k.lower() != "content-length"]
        if fault is None and self.command == "GET" and response.getheader("Content-Length"):
            self._stream(response, out_headers, upstream.sock)
            upstream.close()
            return
        data = response.read()
        upstream.close()
        if self.command == "HEAD":
            # No body, but the length of the one a GET would get.
            c.record(self.command, self.path, rng, response.status)
            self._send_head(response.status, out_headers,
                            response.getheader("Content-Length", "0"))
            return
        if fault is not None and kind == "truncate":
            c.record(self.command, self.path, rng, "truncate")
            self._send_head(response.status, out_headers, len(data))
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if fault is not None and kind == "stall":
            c.record(self.command, self.path, rng, "stall")
            self._send_head(response.status, out_headers, len(data))
            self.wfile.flush()
            time.sleep(float(arg or "5"))
            self.close_connection = True
            return
        c.record(self.command, self.path, rng, response.status)
        self._reply(response.status, data, out_headers)

    def _stream(self, response, out_headers, upstream_socket):
        """Forwards a plain response as it arrives (no faults to apply)."""
        c = self.control
        # Recorded before the client can have its answer: a client that exits on the last byte
        # must find its request in the log (recorded after the body, a test that counted at once
        # under load could miss it).
        c.record(self.command, self.path, self.headers.get("Range", ""), response.status)
        self._send_head(response.status, out_headers, response.getheader("Content-Length", "0"))
        remaining = int(response.getheader("Content-Length", "0"))
        # What the response's buffered reader already holds past the headers goes first.
        if remaining:
            head = response.fp.peek(1)[:remaining]
            response.fp.read(len(head))
            self.connection.sendall(head)
            self.sent = getattr(self, "sent", 0) + len(head)
            remaining -= len(head)
        # The rest moves from socket to socket through a pipe inside the kernel (splice): a
        # copy through Python cost the proxy ~2.5 s of CPU per GiB, CPU taken from the engine it
        # measures on a two-core machine.
        if remaining:
            self._splice(upstream_socket, remaining)

    def _serve_file(self):
        """Origin mode: the file under `root` named by the path, whole or one byte range."""
        c = self.control
        rng = self.headers.get("Range", "")
        relative = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
        target = os.path.realpath(os.path.join(c.root, relative))
        if not target.startswith(os.path.realpath(c.root) + os.sep) or not os.path.isfile(target):
            c.record(self.command, self.path, rng, 404)
            self._reply(404, b"not found")
            return
        with open(target, "rb") as f:
            st = os.fstat(f.fileno())
            etag = '"%x-%x"' % (int(st.st_mtime), st.st_size)
            headers = [("ETag", etag), ("Accept-Ranges", "bytes"),
                       ("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True)),
                       ("Content-Type", "application/octet-stream")]
            wanted = self.headers.get("If-Match")
            if wanted is not None and wanted.strip() not in ("*", etag):
                c.record(self.command, self.path, rng, 412)
                self._reply(412, b"precondition failed")
                return
            start, length, status = 0, st.st_size, 200
            if rng:
                first, last = _parse_range(rng, st.st_size)
                if first is None:
                    c.record(self.command, self.path, rng, 416)
                    self._reply(416, b"", [("Content-Range", f"bytes */{st.st_size}")])
                    return
                start, length, status = first, last - first + 1, 206
                headers.append(("Content-Range", f"bytes {first}-{last}/{st.st_size}"))
            c.record(self.command, self.path, rng, status)
            self._send_head(status, headers, length)
            if self.command != "GET":
                return
            while length:
                n = os.sendfile(self.connection.fileno(), f.fileno(), start, length)
                if n == 0:
                    raise ConnectionResetError("file shrank while sent")
                start += n
                length -= n
                self.sent = getattr(self, "sent", 0) + n

    def _pipe(self):
        pipe = getattr(self, "pipe", None)
        if pipe is None:
            pipe = self.pipe = os.pipe()
            try:
                fcntl.fcntl(pipe[1], fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            except OSError:
                pass  # the default pipe size works, in smaller pieces
        return pipe

    def _splice(self, upstream, count):
        """Moves `count` bytes from the upstream socket to the client's, in the kernel."""
        read_end, write_end = self._pipe()
        source, target = upstream.fileno(), self.connection.fileno()
        while count:
            try:
                n = os.splice(source, write_end, min(count, PIPE_BYTES), flags=SPLICE_FLAGS)
            except BlockingIOError:  # the upstream socket has a timeout, so it is non-blocking
                if not select.select([upstream], [], [], UPSTREAM_TIMEOUT_S)[0]:
                    raise TimeoutError("upstream sent nothing for 30 s")
                continue
            if n == 0:
                raise ConnectionResetError("upstream closed before the whole body")
            count -= n
            flags = SPLICE_FLAGS | (os.SPLICE_F_MORE if count else 0)
            while n:
                moved = os.splice(read_end, target, n, flags=flags)
                n -= moved
                self.sent = getattr(self, "sent", 0) + moved

    def finish(self):
        super().finish()
        pipe = getattr(self, "pipe", None)
        if pipe is not None:
            os.close(pipe[0])
            os.close(pipe[1])
            self.pipe = None

    def do_GET(self):
        c = self.control
        if self.path.startswith("/__proxy/"):
            # The bench's control: /__proxy/stats (JSON), /__proxy/reset.
            if self.path == "/__proxy/reset":
                c.reset()
            body = json.dumps(c.summary()).encode()
            self._reply(200, body, [("Content-Type", "application/json")])
            return
        c.begin()
        self.sent = 0
        try:
            self._handle()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            c.end(self.sent)

    do_HEAD = do_GET
    do_PUT = do_GET


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


def start(control, port=0):
    """Starts the proxy on 127.0.0.1:port (0: a free one) in a thread; returns the server."""
    handler = type("BoundHandler", (Handler,), {"control": control})
    server = Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--upstream", help="HOST:PORT of the server to forward to")
    where.add_argument("--root", help="serve the files under ROOT (origin mode)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=float, default=0)
    parser.add_argument("--fault-every", type=int, default=0,
                        help="every Nth request gets a 503, reset, truncation, 429 or 500")
    args = parser.parse_args()
    control = Control(args.upstream, args.delay_ms, root=args.root)
    control.fault_every = args.fault_every
    server = start(control, args.port)
    print("port", server.server_address[1], flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
