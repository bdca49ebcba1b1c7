#!/usr/bin/python3
"""pqsift over HTTP(S) and S3, end to end, against real servers on loopback.

Starts nginx (Debian) on free ports, over HTTP and over HTTPS with a certificate made here,
s3rver (npm, tools/peers) for the S3 API, and tests/remote/fault_proxy.py in front of each, so
every request is seen, counted, delayed or broken on purpose. Then runs the pqsift command:
  - the same rows over http://, https:// and s3:// as from the local file;
  - exact request and round-trip counts for fixed plans, equal to what the server saw;
  - faults (5xx, 429, resets, truncated bodies, stalls) retried: zero wrong rows;
  - 403/404 fail at once with one line naming the URL and the status;
  - a file replaced mid-scan is an error, never mixed data;
  - S3: SigV4 signatures checked, listing with hive partitions, secrets never printed.

Usage: remote_test.py --cli PATH/TO/pqsift [--peers tools/peers] [--data DIR] [-k NAME]
Prints one line per test and "N passed, M failed"; exits non-zero on a failure. A missing
nginx, openssl, curl or s3rver skips the tests that need it (and says so).
"""

import argparse
import csv
import functools
import http.server
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_proxy  # noqa: E402

S3_KEY = "S3RVER"
S3_SECRET = "S3RVER"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


class Servers:
    """nginx (HTTP and HTTPS) over `root`, s3rver, and a fault proxy in front of each."""

    def __init__(self, work, root, peers):
        self.work, self.root, self.peers = work, root, peers
        self.processes = []
        self.skipped = {}

    def start_nginx(self):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        openssl = shutil.which("openssl")
        if not os.path.exists(nginx) or openssl is None:
            self.skipped["http"] = "nginx or openssl not installed (scripts/setup)"
            return
        prefix = os.path.join(self.work, "nginx")
        os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
        cert, key = os.path.join(prefix, "cert.pem"), os.path.join(prefix, "key.pem")
        subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        self.cert = cert
        self.http_port, self.https_port = free_port(), free_port()
        user = "user root;\n" if os.geteuid() == 0 else ""
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""{user}worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi; uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
  keepalive_requests 10000;
  server {{
    listen 127.0.0.1:{self.http_port};
    listen 127.0.0.1:{self.https_port} ssl;
    ssl_certificate {cert}; ssl_certificate_key {key};
    root {self.root};
  }}
}}
""")
        self.processes.append(subprocess.Popen([nginx, "-p", prefix, "-c", conf],
                                               stderr=subprocess.DEVNULL))
        if not wait_for_port(self.http_port) or not wait_for_port(self.https_port):
            raise RuntimeError("nginx did not start")
        self.http = fault_proxy.Control(f"127.0.0.1:{self.http_port}", root=self.root)
        self.http_proxy = fault_proxy.start(self.http)
        self.http_url = f"http://127.0.0.1:{self.http_proxy.server_address[1]}"

    def start_s3(self):
        s3rver = os.path.join(self.peers, "node_modules", ".bin", "s3rver")
        curl = shutil.which("curl")
        if not os.path.exists(s3rver) or curl is None:
            self.skipped["s3"] = "s3rver (npm peers) or curl not installed (scripts/setup)"
            return
        self.s3_port = free_port()
        data = os.path.join(self.work, "s3rver")
        os.makedirs(data)
        self.processes.append(subprocess.Popen(
            [s3rver, "-d", data, "-a", "127.0.0.1", "-p", str(self.s3_port), "-s",
             "--configure-bucket", "bkt"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # s3rver makes continuation tokens with DES, in OpenSSL 3's legacy provider.
            env={**os.environ, "NODE_OPTIONS": "--openssl-legacy-provider"}))
        if not wait_for_port(self.s3_port, 20):
            raise RuntimeError("s3rver did not start")
        self.s3 = fault_proxy.Control(f"127.0.0.1:{self.s3_port}", s3_secret=S3_SECRET)
        self.s3_proxy = fault_proxy.start(self.s3)
        self.s3_endpoint = f"http://127.0.0.1:{self.s3_proxy.server_address[1]}"

    def put_s3(self, local, key):
        subprocess.run(["curl", "-sS", "-f", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user",
                        f"{S3_KEY}:{S3_SECRET}", "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
                        "-T", local,
                        f"http://127.0.0.1:{self.s3_port}/bkt/{urllib.parse.quote(key)}"],
                       check=True, capture_output=True)

    def stop(self):
        for p in self.processes:
            p.send_signal(signal.SIGTERM)
        for p in self.processes:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


class Run:
    def __init__(self, code, out, err, stats):
        self.code, self.out, self.err, self.stats = code, out, err, stats


class Tests:
    def __init__(self, cli, servers, work, data):
        self.cli, self.s, self.work, self.data = cli, servers, work, data
        self.passed = self.failed = self.skipped = 0

    def pqsift(self, *args, env_extra=None, stats=True):
        stats_path = os.path.join(self.work, "stats.json")
        if os.path.exists(stats_path):
            os.remove(stats_path)
        argv = [self.cli, *args]
        if stats:
            argv += ["--stats-json", stats_path]
        env = dict(os.environ)
        for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                  "all_proxy"):
            env.pop(k, None)
        env.update({"AWS_ACCESS_KEY_ID": S3_KEY, "AWS_SECRET_ACCESS_KEY": S3_SECRET,
                    "HOME": self.work, "AWS_REGION": "us-east-1"})
        env.update(env_extra or {})
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        st = None
        if stats and os.path.exists(stats_path):
            with open(stats_path) as f:
                st = json.load(f)
        return Run(p.returncode, p.stdout, p.stderr, st)

    def local(self, name):
        return os.path.join(self.s.root, name)

    def check(self, cond, what):
        if not cond:
            raise AssertionError(what)

    # --- HTTP ------------------------------------------------------------------------------

    QUERY = ["--where", "id BETWEEN 100 AND 110", "--select", "id,string_col,bigint_col"]
    # The test files are smaller than a remote file's default first read (its last 512 KiB):
    # whole in one request. Tests of what is read after the footer ask for 64 KiB.
    TAIL_64K = ["--footer-read-bytes", "65536"]

    def test_http_rows_equal_local(self):
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        self.check(want.code == 0 and want.out.count("\n") == 12, want.err)
        got = self.pqsift("scan", self.s.http_url + "/tiny.parquet", *self.QUERY)
        self.check(got.code == 0, got.err)
        self.check(got.out == want.out, "rows over HTTP differ")
        every = self.pqsift("scan", self.local("tiny.parquet"), stats=False)
        over = self.pqsift("scan", self.s.http_url + "/tiny.parquet")
        self.check(over.code == 0 and over.out == every.out, "full scan over HTTP differs")

    def test_http_counts_are_the_servers(self):
        self.s.http.reset()
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", *self.QUERY, *self.TAIL_64K,
                        "--threads", "1")
        self.check(r.code == 0, r.err)
        seen = self.s.http.requests("/tiny.parquet")
        st = r.stats
        self.check(st["requests"] == len(seen),
                   f"pqsift counted {st['requests']} requests, the server saw {len(seen)}")
        self.check(all(e[0] == "GET" for e in seen), "a request that is not a GET (a HEAD?)")
        self.check(seen[0][2].startswith("bytes=-"), f"first request {seen[0]} is no suffix range")
        self.check(st["footer_requests"] == 1 and st["footer_round_trips"] == 1,
                   f"footer: {st['footer_requests']} requests, {st['footer_round_trips']} trips")
        page_index = [x for x in st["stages"] if x["stage"] == "page index"][0]
        self.check(page_index["round_trips"] == 1, f"page index stage: {page_index}")
        self.check(st["bytes_read"] < st["file_bytes"] / 5,
                   f"read {st['bytes_read']} of {st['file_bytes']}: {seen}")
        # Footer, page index, data: the fixed plan of this query.
        self.check(st["round_trips"] == 3, f"round trips: {st['round_trips']}: {seen}")
        self.check(st["retries"] == 0, "retries without faults")

    def test_http_default_tail_holds_the_page_index(self):
        # A remote file's first read is its last 512 KiB by default: a smaller file comes whole
        # in that one request; a larger one's page index, written before its footer, comes with
        # the footer, so the selective query takes 2 round trips (footer, data) instead of 3.
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        self.s.http.reset()
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", *self.QUERY, "--threads", "1")
        st = r.stats
        self.check(r.code == 0 and r.out == want.out, r.err)
        self.check(st["requests"] == 1 and st["round_trips"] == 1 and
                   st["bytes_read"] == st["file_bytes"] and
                   len(self.s.http.requests("/tiny.parquet")) == 1, f"small file: {st}")
        want = self.pqsift("scan", self.local("multi/f0.parquet"), *self.QUERY, stats=False)
        self.s.http.reset()
        r = self.pqsift("scan", self.s.http_url + "/multi/f0.parquet", *self.QUERY,
                        "--threads", "1")
        st = r.stats
        self.check(r.code == 0 and r.out == want.out, r.err)
        self.check(st["file_bytes"] > 2 * 512 * 1024 and st["footer_bytes"] == 512 * 1024,
                   f"larger file: {st}")
        page_index = self.stage(st, "page index")
        self.check(page_index["row_groups_considered"] >= 1 and page_index["requests"] == 0,
                   f"page index read apart from the footer: {page_index}")
        self.check(st["round_trips"] == 2 and st["waves"] == 2 and
                   st["requests"] == len(self.s.http.requests("/multi/f0.parquet")),
                   f"larger file: {st}")

    def test_http_files_open_in_one_wave(self):
        self.s.http.reset()
        urls = [self.s.http_url + f"/many/f{i}.parquet" for i in range(4)]
        r = self.pqsift("count", *urls, "--where", "id < 10")
        self.check(r.code == 0 and r.out.strip() == "40", r.out + r.err)
        self.check(r.stats["footer_requests"] == 4 and r.stats["footer_round_trips"] == 1,
                   f"footers: {r.stats['footer_requests']} / {r.stats['footer_round_trips']}")
        self.check(r.stats["requests"] == len(self.s.http.requests("/many/")), "request count")

    def test_http_inspect_of_many_files_in_one_wave(self):
        self.s.http.reset()
        urls = [self.s.http_url + f"/many/f{i}.parquet" for i in range(4)]
        # With no delay, requests one after another never overlap either: the proxy tells a
        # wave from a sequence only when each request takes a while.
        self.s.http.delay_ms = 200
        try:
            r = self.pqsift("inspect", "--json", *urls, stats=False)
        finally:
            self.s.http.delay_ms = 0
        self.check(r.code == 0 and len(json.loads(r.out)) == 4, r.err)
        seen = self.s.http.summary()
        # One request per file (its footer comes with the open), all side by side.
        self.check(seen["requests"] == 4 and seen["round_trips"] == 1, f"server saw {seen}")
        local = self.pqsift("inspect", "--json", *[self.local(f"many/f{i}.parquet")
                                                   for i in range(4)], stats=False)
        self.check([f["row_groups"] for f in json.loads(local.out)] ==
                   [f["row_groups"] for f in json.loads(r.out)], "footers differ")
        missing = self.pqsift("inspect", urls[0], self.s.http_url + "/many/absent.parquet",
                              stats=False)
        self.check(missing.code != 0 and "absent.parquet" in missing.err and
                   "num_rows" not in missing.err, missing.err)

    def test_http_origin_mode_serves_ranges_as_nginx(self):
        # The bench's full scans use the proxy as the server itself (sendfile, one hop): the same
        # rows, request counts and version pinning as through nginx.
        control = fault_proxy.Control(None, root=self.s.root)
        server = fault_proxy.start(control)
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            for query in (self.QUERY, []):
                want = self.pqsift("scan", self.local("tiny.parquet"), *query, stats=False)
                got = self.pqsift("scan", url + "/tiny.parquet", *query)
                self.check(got.code == 0 and got.out == want.out, "rows differ: " + got.err)
                self.check(got.stats["requests"] == len(control.requests("/tiny.parquet")),
                           "pqsift's request count is not the server's")
                control.reset()
            missing = self.pqsift("scan", url + "/absent.parquet")
            self.check(missing.code != 0 and "404" in missing.err, missing.err)
            statuses = {e[3] for e in control.requests("/absent.parquet")}
            self.check(statuses == {404}, f"statuses {statuses}")
            with urllib.request.urlopen(urllib.request.Request(
                    url + "/tiny.parquet", headers={"Range": "bytes=-8"})) as r:
                tail = r.read()
            with open(self.local("tiny.parquet"), "rb") as f:
                f.seek(-8, os.SEEK_END)
                self.check(tail == f.read() and tail.endswith(b"PAR1"), "suffix range")
            try:
                urllib.request.urlopen(urllib.request.Request(
                    url + "/tiny.parquet", headers={"If-Match": '"other"'}))
                self.check(False, "If-Match of another version answered")
            except urllib.error.HTTPError as e:
                self.check(e.code == 412, f"If-Match of another version: {e.code}")
        finally:
            server.shutdown()
            server.server_close()

    def test_https_verified(self):
        url = f"https://127.0.0.1:{self.s.https_port}/tiny.parquet"
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        bad = self.pqsift("scan", url, *self.QUERY, stats=False)
        self.check(bad.code == 1 and "certificate" in bad.err.lower(), bad.err)
        self.check(bad.err.count("\n") == 1, "one error line")
        ok = self.pqsift("scan", url, *self.QUERY, "--ca-bundle", self.s.cert, stats=False)
        self.check(ok.code == 0 and ok.out == want.out, ok.err)
        insecure = self.pqsift("scan", url, *self.QUERY, "--insecure", stats=False)
        self.check(insecure.code == 0 and insecure.out == want.out, insecure.err)

    def test_http_transient_faults_retried(self):
        want = self.pqsift("scan", self.local("tiny.parquet"), stats=False)
        self.s.http.reset()
        self.s.http.add_faults(["503", "429:0", "reset", "truncate", "500", "503"],
                               path="/tiny.parquet")
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", "--threads", "1")
        self.check(r.code == 0, r.err)
        self.check(r.out == want.out, "rows differ after retried faults")
        seen = self.s.http.requests("/tiny.parquet")
        # libcurl itself sends a request again, once, when the kept-alive connection it reused
        # turns out closed before any answer (the reset): that retry is libcurl's, uncounted.
        self.check(r.stats["retries"] in (5, 6),
                   f"retries: {r.stats['retries']}; server saw {[e[3] for e in seen]}")
        self.check(len(seen) - r.stats["requests"] - r.stats["retries"] in (0, 1),
                   f"server saw {len(seen)}, pqsift {r.stats['requests']} + {r.stats['retries']}")

    def test_http_merged_requests_retried_whole(self):
        # Slices of 500 rows in waves of 1, 2, 4 and 8: a wave's reads of a column are one
        # request, its body scattered to the slices' buffers. Every third request fails (503,
        # reset, cut short after half its body, 429, 500, in turn); each is sent again whole and
        # fills every buffer from its start: the rows are the local ones.
        want = self.pqsift("scan", self.local("small_pages.parquet"), stats=False)
        self.s.http.reset()
        self.s.http.fault_every = 3
        try:
            r = self.pqsift("scan", self.s.http_url + "/small_pages.parquet", "--slice-rows",
                            "500", "--threads", "2", *self.TAIL_64K)
        finally:
            self.s.http.fault_every = 0
        self.check(r.code == 0 and r.out == want.out, r.err)
        # (Which requests fail depends on the order they reach the server; in trials the cut
        # ones included merged reads of 4 slices.)
        cut = [e for e in self.s.http.requests("/small_pages.parquet") if e[3] == "truncate"]
        self.check(cut and r.stats["retries"] >= 5 and
                   r.stats["data_waves"] == self.ramp_waves(15), f"cut {cut}: {r.stats}")

    def test_http_stall_retried(self):
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        self.s.http.reset()
        self.s.http.add_faults(["stall:3"], path="/tiny.parquet")
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", *self.QUERY,
                        "--stall-timeout-ms", "1000")
        self.check(r.code == 0 and r.out == want.out, r.err)
        self.check(r.stats["retries"] == 1, f"retries: {r.stats['retries']}")

    def test_http_404_and_403_fail_at_once(self):
        self.s.http.reset()
        r = self.pqsift("scan", self.s.http_url + "/missing.parquet", stats=False)
        self.check(r.code == 1, f"exit {r.code}")
        self.check(r.err.count("\n") == 1 and "missing.parquet" in r.err and "404" in r.err,
                   r.err)
        self.check(len(self.s.http.requests("/missing.parquet")) == 1, "404 retried")
        self.s.http.add_faults(["403"], path="/tiny.parquet")
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", stats=False)
        self.check(r.code == 1 and "403 Forbidden" in r.err and "tiny.parquet" in r.err, r.err)

    def test_http_query_string_is_sent_not_globbed_nor_shown(self):
        # A signed URL (S3 presigned, a CDN token) ends with a query: its '?' is no wildcard, the
        # query goes with every request, and no message or statistic shows it.
        secret = "X-Amz-Signature=0123456789abcdef"
        url = self.s.http_url + "/tiny.parquet?X-Amz-Expires=60&" + secret
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        self.s.http.reset()
        got = self.pqsift("scan", url, *self.QUERY, "--stats")
        self.check(got.code == 0 and got.out == want.out, got.err)
        seen = self.s.http.requests("/tiny.parquet")
        self.check(seen and all(secret in e[1] for e in seen), f"requests without the query: {seen}")
        self.check(secret not in got.err and secret not in json.dumps(got.stats), "query shown")
        missing = self.pqsift("scan", self.s.http_url + "/absent.parquet?" + secret, stats=False)
        self.check(missing.code == 1 and "404" in missing.err and secret not in missing.err and
                   "absent.parquet" in missing.err, missing.err)

    def test_http_splits_of_a_signed_url_reach_the_file(self):
        # `pqsift splits` prints what `--split` needs to reach the file again: a signed URL with
        # its query (the split's file was printed without it, and its scan went unsigned). Each
        # split's requests carry the query, no message shows it, and the splits hold every row.
        secret = "X-Amz-Signature=fedcba9876543210"
        url = self.s.http_url + "/multi/f0.parquet?" + secret
        plan = self.pqsift("splits", url, "--target-bytes", "1", "--json", stats=False)
        self.check(plan.code == 0, plan.err)
        splits = json.loads(plan.out)
        self.check(len(splits) == 8 and all(s["path"] == url for s in splits), plan.out)
        want = self.pqsift("scan", self.local("multi/f0.parquet"), "--select", "id",
                           "--format", "jsonl", stats=False)
        self.s.http.reset()
        rows = []
        for s in splits:
            got = self.pqsift("scan", "--split", f"{s['path']}:{s['start']}:{s['end']}",
                              "--select", "id", "--format", "jsonl", "--stats")
            self.check(got.code == 0, got.err)
            self.check(secret not in got.err and secret not in json.dumps(got.stats), "query shown")
            rows += got.out.splitlines()
        self.check(sorted(rows) == sorted(want.out.splitlines()), "the splits' rows differ")
        seen = self.s.http.requests("/multi/f0.parquet")
        self.check(seen and all(secret in e[1] for e in seen), f"requests without the query: {seen}")
        wrong = self.pqsift("scan", "--split", url + ":0", stats=False)
        self.check(wrong.code != 0 and secret not in wrong.err, wrong.err)

    def test_http_url_with_spaces_and_symbols_as_typed(self):
        # A file name with a space or a non-ASCII letter, typed as it is or percent-encoded.
        for name in ("with space {1}.parquet", "\u00fcml\u00e4ut.parquet"):
            shutil.copyfile(self.local("tiny.parquet"), self.local(name))
            want = self.pqsift("scan", self.local(name), *self.QUERY, stats=False)
            for typed in (name, urllib.parse.quote(name)):
                got = self.pqsift("scan", self.s.http_url + "/" + typed, *self.QUERY)
                self.check(got.code == 0 and got.out == want.out, f"{typed}: {got.err}")

    def test_http_server_without_ranges_reads_files_whole(self):
        # Python's http.server answers every GET with the whole file, Range or not. A file of at
        # most --max-whole-file-bytes is then read whole by its first request and scanned from
        # memory; a larger one is an error that says why and what would allow it.
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = functools.partial(Quiet, directory=self.s.root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            size = os.path.getsize(self.local("tiny.parquet"))
            self.check(size > 2 * 65536, f"tiny.parquet is {size} bytes: not past the tail")
            for query in (self.QUERY, []):
                want = self.pqsift("scan", self.local("tiny.parquet"), *query, stats=False)
                got = self.pqsift("scan", url + "/tiny.parquet", *query, *self.TAIL_64K)
                self.check(got.code == 0 and got.out == want.out, "rows differ: " + got.err)
                st = got.stats
                self.check(st["requests"] == 1 and st["bytes_read"] == size,
                           f"{st['requests']} requests, {st['bytes_read']} of {size} bytes")
            files = [url + f"/multi/f{i}.parquet" for i in range(4)]
            want = self.pqsift("scan", *[self.local(f"multi/f{i}.parquet") for i in range(4)],
                               *self.QUERY, stats=False)
            got = self.pqsift("scan", *files, *self.QUERY, *self.TAIL_64K)
            self.check(got.code == 0 and got.out == want.out, got.err)
            self.check(got.stats["requests"] == 4, f"{got.stats['requests']} requests")
            small = self.pqsift("scan", url + "/tiny.parquet", *self.TAIL_64K,
                                "--max-whole-file-bytes", str(size - 1), stats=False)
            self.check(small.code == 1 and small.err.count("\n") == 1 and
                       "does not honour Range requests" in small.err and
                       f"the whole file is {size} bytes" in small.err and
                       "--max-whole-file-bytes" in small.err and "tiny.parquet" in small.err,
                       small.err)
        finally:
            server.shutdown()
            server.server_close()

    def test_http_retries_exhausted(self):
        self.s.http.reset()
        self.s.http.add_faults(["503"] * 3, path="/tiny.parquet")
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", "--retries", "2", stats=False)
        self.check(r.code == 1 and "503" in r.err and "3 tries" in r.err, r.err)

    def test_http_file_replaced_mid_scan(self):
        target = self.local("changing.parquet")
        shutil.copyfile(self.local("tiny.parquet"), target)
        other = os.path.join(self.work, "other.parquet")
        with open(self.local("tiny.parquet"), "rb") as f:
            data = bytearray(f.read())
        data[100] ^= 0xFF  # same size, other bytes: only the version tells
        with open(other, "wb") as f:
            f.write(data)
        os.utime(other, (time.time() + 5, time.time() + 5))
        self.s.http.reset()
        # The first request (footer) passes; the second finds another file in its place.
        self.s.http.add_faults(["pass", "replace:" + other], path="/changing.parquet")
        r = self.pqsift("scan", self.s.http_url + "/changing.parquet", *self.QUERY,
                        *self.TAIL_64K, "--threads", "1", stats=False)
        self.check(r.code == 1 and "changed" in r.err and "changing.parquet" in r.err,
                   f"exit {r.code}: {r.err} {r.out[:200]}")
        self.check(r.err.count("\n") == 1, "one error line")

    # --- waves: the fixed plans' exact requests and waves --------------------------------

    def multi(self, n):
        return [self.s.http_url + f"/multi/f{i}.parquet" for i in range(n)]

    def stage(self, st, name):
        return [x for x in st["stages"] if x["stage"] == name][0]

    def test_http_full_scan_prefetched_one_wave_per_slice(self):
        # Eight row groups, eight slices: each slice's pages of every column in one wave,
        # started ahead of its launch while the slices before it decode; no task reads for
        # itself, whatever the threads.
        want = self.pqsift("scan", self.local("multi/f0.parquet"), stats=False)
        for threads in ("1", "2"):
            self.s.http.reset()
            r = self.pqsift("scan", self.s.http_url + "/multi/f0.parquet", "--threads", threads)
            self.check(r.code == 0 and r.out == want.out, r.err)
            st = r.stats
            seen = self.s.http.requests("/multi/f0.parquet")
            self.check(st["requests"] == len(seen), f"{st['requests']} vs the server's {len(seen)}")
            self.check(st["footer_waves"] == 1 and st["data_waves"] == 8 and st["waves"] == 9,
                       f"{threads} threads: waves {st['waves']}, data {st['data_waves']}")

    @staticmethod
    def ramp_waves(slices):
        # The prefetch's waves for `slices` slices of one row group: 1, 2, 4, then 8 slices
        # each (src/scan/executor.cc, PrefetchAhead).
        waves, size = 0, 1
        while slices > 0:
            slices -= min(size, slices)
            waves += 1
            size = min(2 * size, 8)
        return waves

    def test_http_small_pages_slices_in_ramped_waves_each_byte_once(self):
        # Pages of 100 rows (cut at the same rows in every column): slices of 1000 and 500 rows
        # end at page starts, 8 and 15 of them, fetched in waves of 1, 2, 4, then 8 slices, a
        # request per column and wave (a slice's pages follow the slice before's in each
        # chunk). The file's bytes are read about once: a chunk's dictionary region is read
        # once for all its slices, and no read spans the pages of other slices between it and a
        # slice's pages (before: 2.1x and 3.1x the file, each slice reading its chunks from
        # their start).
        want = self.pqsift("scan", self.local("small_pages.parquet"), stats=False)
        for slice_rows, slices in (("1000", 8), ("500", 15)):
            for threads in ("1", "2"):
                self.s.http.reset()
                r = self.pqsift("scan", self.s.http_url + "/small_pages.parquet", "--slice-rows",
                                slice_rows, "--threads", threads, *self.TAIL_64K)
                self.check(r.code == 0 and r.out == want.out, r.err)
                st = r.stats
                what = f"slices of {slice_rows}, {threads} threads: {st}"
                self.check(st["requests"] == len(self.s.http.requests("/small_pages.parquet")),
                           what)
                self.check(st["footer_waves"] == 1 and
                           st["data_waves"] == self.ramp_waves(slices), what)
                self.check(st["bytes_read"] <= st["file_bytes"] * 1.05, what)
                # At most a request per column (13) and wave: a wave's slices' reads of a
                # column follow one another and are one request (a wave per slice made 8-15
                # requests per column).
                self.check(st["data_requests"] <= 13 * self.ramp_waves(slices), what)

    def test_http_tiny_pages_slices_in_ramped_waves(self):
        # alltypes_tiny_pages: pages of a few rows, cut at different rows in every column, so
        # slices cut pages and hand readers on. Slices of 1000 rows end where they cut the
        # fewest page bytes: 9 slices in waves of 1, 2, 4 and 2 (the offset indexes lie in the
        # tail read), and no byte read twice: a page two slices of a wave hold is one read
        # (before: 14-15 waves, 3.2x-3.4x the file).
        want = self.pqsift("scan", self.local("tiny.parquet"), stats=False)
        for threads in ("1", "2"):
            self.s.http.reset()
            r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", "--slice-rows", "1000",
                            "--threads", threads, *self.TAIL_64K)
            self.check(r.code == 0 and r.out == want.out, r.err)
            st = r.stats
            what = f"{threads} threads: {st}"
            self.check(st["requests"] == len(self.s.http.requests("/tiny.parquet")), what)
            self.check(st["footer_waves"] == 1 and st["data_waves"] == self.ramp_waves(9), what)
            self.check(st["bytes_read"] <= st["file_bytes"], what)

    def test_http_pages_cut_by_slices_read_once(self):
        # Pages of 2500 rows, slices of 1000: most slices begin inside a page the slice before
        # holds rows of. That slice's reader decodes it and is handed on; the later slice's
        # wave reads only the pages after it, so no byte is fetched twice (before: 1.34x the
        # file, the page in both slices' waves), with and without a filter.
        for where in ([], ["--where", "int_col > 5"]):
            want = self.pqsift("scan", self.local("big_pages.parquet"), *where, stats=False)
            for threads in ("1", "2"):
                self.s.http.reset()
                r = self.pqsift("scan", self.s.http_url + "/big_pages.parquet", *where,
                                "--slice-rows", "1000", "--footer-read-bytes", "8",
                                "--threads", threads)
                self.check(r.code == 0 and r.out == want.out, r.err)
                st = r.stats
                what = f"{where} {threads} threads: {st}"
                self.check(st["requests"] == len(self.s.http.requests("/big_pages.parquet")),
                           what)
                self.check(st["bytes_read"] <= st["file_bytes"], what)
                # At most the ramp's waves: a wave whose pages earlier waves hold all (the last
                # slice's, inside the page the slice before ends in) starts no request.
                self.check(1 <= st["data_waves"] <= self.ramp_waves(8), what)

    def test_http_explain_forecasts_the_data_requests_and_waves(self):
        # explain says, before any data page is read, the requests and waves the scan's data
        # will take (the prefetch's plan replayed); the scan then makes exactly those. With a
        # filter on dictionary columns the dictionary stage holds their dictionary pages: the
        # prefetch fetches the pages after them (before, each such chunk's pages were read by
        # its task, a round trip of its own per row group and column).
        # (The files larger than a first read of 512 KiB: the others come whole with it.)
        cases = [(1, []), (1, self.QUERY), (1, ["--where", "int_col > 5"]),
                 (1, ["--where", "bigint_col > 15 OR string_col = '3'"]),
                 (2, ["--where", "int_col > 5"])]
        for files, query in cases:
            urls = self.multi(files)
            e = self.pqsift("explain", *urls, *query, "--json", stats=False)
            self.check(e.code == 0, e.err)
            forecast = json.loads(e.out)["summary"]
            want = self.pqsift("scan", *[self.local(f"multi/f{i}.parquet") for i in range(files)],
                               *query, stats=False)
            r = self.pqsift("scan", *urls, *query)
            name = f"{files} files"
            st = r.stats
            what = f"{name} {query}: forecast {forecast}, scan {st}"
            self.check(r.code == 0 and r.out == want.out, r.err)
            self.check(forecast["remote_waves_to_read"] > 0 and
                       forecast["remote_waves_to_read"] == st["data_waves"] and
                       forecast["remote_requests_to_read"] == st["data_requests"], what)
        text = self.pqsift("explain", self.s.http_url + "/multi/f0.parquet", stats=False)
        self.check("remote reads: the column data in" in text.out, text.out)

    def test_http_dictionary_stage_one_wave_for_all_files(self):
        # bigint_col holds 0, 10, ..., 90 in every row group: 15 lies between the statistics'
        # bounds of every row group (and page), only the dictionaries rule it out: 8 row groups
        # per file, all their dictionaries in one wave whatever the file count.
        for n in (1, 4):
            self.s.http.reset()
            r = self.pqsift("scan", *self.multi(n), "--select", "id", "--where", "bigint_col = 15",
                            "--footer-read-bytes", "8", "--threads", "1")
            self.check(r.code == 0 and r.out.strip() in ("", "id"), r.out + r.err)
            st = r.stats
            d = self.stage(st, "dictionary")
            self.check(d["row_groups_skipped"] == 8 * n, f"{n} files: {d}")
            # (Requests: at most one per dictionary; neighbours may be coalesced.)
            self.check(d["waves"] == 1 and d["round_trips"] == 1 and 1 <= d["requests"] <= 8 * n,
                       f"{n} files: dictionary stage {d}")
            self.check(st["requests"] == len(self.s.http.requests("/multi/")),
                       f"{n} files: request count")
            # Footers: the files opened in one wave (a tail of 8 bytes), then the rest of every
            # file's footer in one more; page index 1, dictionaries 1; nothing left to read.
            self.check(st["footer_waves"] == 2, f"{n} files: footer waves {st}")
            self.check(st["waves"] == st["footer_waves"] + 2 and st["data_waves"] == 0,
                       f"{n} files: waves {st}")

    def test_http_dictionary_rounds_one_wave_each_for_all_files(self):
        # An OR over two columns whose statistics allow both values: a row group's first
        # dictionary cannot rule its term out alone, so a second round fetches the other
        # column's; each round is one wave for every file (before: the later rounds file by
        # file, 1 + n waves).
        for n in (1, 4):
            self.s.http.reset()
            r = self.pqsift("scan", *self.multi(n), "--select", "id", "--where",
                            "bigint_col = 15 OR string_col = '55'", "--footer-read-bytes", "8",
                            "--threads", "1")
            self.check(r.code == 0 and r.out.strip() in ("", "id"), r.out + r.err)
            st = r.stats
            d = self.stage(st, "dictionary")
            self.check(d["row_groups_skipped"] == 8 * n, f"{n} files: {d}")
            self.check(d["waves"] == 2 and d["round_trips"] == 2 and 2 <= d["requests"] <= 16 * n,
                       f"{n} files: dictionary stage {d}")
            self.check(st["requests"] == len(self.s.http.requests("/multi/")),
                       f"{n} files: request count")
            self.check(st["footer_waves"] == 2 and st["waves"] == 5 and st["data_waves"] == 0,
                       f"{n} files: waves {st}")

    def test_http_bloom_stage_two_waves_for_all_files(self):
        # string_col holds '0'..'9': '55' lies inside every row group's bounds; with dictionaries
        # off, the bloom filters (large: sized for 100,000 values) rule it out: their headers
        # for every file in one wave, then the blocks the hash falls in, in one more.
        for n in (1, 4):
            self.s.http.reset()
            r = self.pqsift("scan", *self.multi(n), "--select", "id", "--where", "string_col = '55'",
                            "--no-dictionary", "--footer-read-bytes", "8", "--threads", "1")
            self.check(r.code == 0 and r.out.strip() in ("", "id"), r.out + r.err)
            st = r.stats
            b = self.stage(st, "bloom filter")
            self.check(b["row_groups_skipped"] == 8 * n, f"{n} files: {b}")
            # A header and a block per filter (the filters lie too far apart to coalesce).
            self.check(b["waves"] == 2 and b["round_trips"] == 2 and b["requests"] == 16 * n,
                       f"{n} files: bloom stage {b}")
            self.check(st["requests"] == len(self.s.http.requests("/multi/")),
                       f"{n} files: request count")
            self.check(st["footer_waves"] == 2, f"{n} files: footer waves {st}")
            self.check(st["waves"] == st["footer_waves"] + 3 and st["data_waves"] == 0,
                       f"{n} files: waves {st}")

    def test_http_file_replaced_during_prefetch(self):
        target = self.local("changing.parquet")
        shutil.copyfile(self.local("tiny.parquet"), target)
        other = os.path.join(self.work, "other2.parquet")
        with open(self.local("tiny.parquet"), "rb") as f:
            data = bytearray(f.read())
        data[200] ^= 0xFF
        with open(other, "wb") as f:
            f.write(data)
        os.utime(other, (time.time() + 7, time.time() + 7))
        self.s.http.reset()
        # Footer and offset indexes pass; the file changes under the slices' waves, fetched
        # ahead: the scan fails naming it, never mixes the two files' bytes.
        self.s.http.add_faults(["pass", "pass", "pass", "replace:" + other],
                               path="/changing.parquet")
        r = self.pqsift("scan", self.s.http_url + "/changing.parquet", "--slice-rows", "1000",
                        *self.TAIL_64K, stats=False)
        self.check(r.code == 1 and "changed" in r.err and "changing.parquet" in r.err,
                   f"exit {r.code}: {r.err} {r.out[:200]}")
        self.check(r.err.count("\n") == 1, "one error line")

    def test_http_progress_only_on_a_terminal(self):
        self.s.http.reset()
        r = self.pqsift("scan", self.s.http_url + "/tiny.parquet", "--format", "none",
                        stats=False)
        self.check(r.code == 0 and r.err == "", f"stderr on a pipe: {r.err!r}")
        # On a terminal (a pty as stderr), with 300 ms per request: the line is drawn, then
        # erased.
        import pty
        self.s.http.delay_ms = 300
        try:
            master, slave = pty.openpty()
            p = subprocess.Popen([self.cli, "scan", self.s.http_url + "/tiny.parquet",
                                  "--format", "none", "--slice-rows", "1000", "--threads", "1",
                                  *self.TAIL_64K],
                                 stdout=subprocess.DEVNULL, stderr=slave)
            os.close(slave)
            err = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                err += chunk
            p.wait(timeout=60)
            os.close(master)
        finally:
            self.s.http.delay_ms = 0
        text = err.decode(errors="replace")
        self.check(p.returncode == 0, text)
        self.check("rows" in text and "MiB read" in text and "files" in text, repr(text))
        self.check(text.endswith("\r\x1b[K"), f"not erased: {text[-40:]!r}")

    # --- S3 --------------------------------------------------------------------------------

    def s3(self, *args, **kw):
        return self.pqsift(*args, "--s3-endpoint", self.s.s3_endpoint, **kw)

    def test_s3_rows_equal_local_signed(self):
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        self.s.s3.reset()
        r = self.s3("scan", "s3://bkt/tiny.parquet", *self.QUERY)
        self.check(r.code == 0 and r.out == want.out, r.err)
        seen = self.s.s3.requests("/bkt/tiny.parquet")
        self.check(self.s.s3.signature_failures == 0, "a request failed its SigV4 check")
        self.check(len(seen) == r.stats["requests"], f"{len(seen)} vs {r.stats['requests']}")

    def test_s3_wrong_secret_never_printed(self):
        secret = "WRONGSECRETabc123"
        r = self.s3("scan", "s3://bkt/tiny.parquet",
                    env_extra={"AWS_SECRET_ACCESS_KEY": secret})
        self.check(r.code == 1 and "403" in r.err and "s3://bkt/tiny.parquet" in r.err, r.err)
        self.check(secret not in r.err and secret not in r.out, "the secret was printed")

    def test_s3_profile_from_files(self):
        aws = os.path.join(self.work, ".aws")
        os.makedirs(aws, exist_ok=True)
        with open(os.path.join(aws, "credentials"), "w") as f:
            f.write(f"[test]\naws_access_key_id = {S3_KEY}\naws_secret_access_key = {S3_SECRET}\n")
        with open(os.path.join(aws, "config"), "w") as f:
            f.write("[profile test]\nregion = us-east-1\n")
        self.s.s3.reset()
        r = self.s3("count", "s3://bkt/tiny.parquet",
                    env_extra={"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
                               "AWS_PROFILE": "test"})
        self.check(r.code == 0 and r.out.strip() == "7300", r.err)
        self.check(self.s.s3.signature_failures == 0, "signature")

    def test_s3_hive_listing_and_partition_pruning(self):
        want = self.pqsift("count", self.local("tiny.parquet"), "--where", "id < 100",
                           stats=False).out.strip()
        self.s.s3.reset()
        r = self.s3("count", "s3://bkt/hive/", "--where", "day = 2 AND id < 100")
        self.check(r.code == 0 and r.out.strip() == str(2 * int(want)), r.out + r.err)
        st = r.stats
        self.check(st["files_total"] == 6 and st["files_skipped_by_partition"] == 4, str(st))
        self.check(st["footer_requests"] == 2 and st["footer_round_trips"] == 1, str(st))
        lists = [e for e in self.s.s3.requests("list-type=2")]
        self.check(len(lists) == 1, f"listings: {lists}")
        opened = {urllib.parse.unquote(e[1]) for e in self.s.s3.requests("/bkt/hive/")}
        self.check(all("day=2" in p for p in opened), f"opened other days: {opened}")
        self.check(self.s.s3.signature_failures == 0, "signature")

    def test_s3_glob(self):
        r = self.s3("count", "s3://bkt/hive/day=*/b.parquet")
        self.check(r.code == 0 and r.out.strip() == str(3 * 7300), r.out + r.err)

    def test_s3_keys_with_spaces_and_symbols(self):
        # S3 keys may hold any character: each is percent-encoded in the request (and signed so),
        # and listed keys come back decoded, whatever the listing's encoding.
        folder = "odd keys/day=2026-01-01 x+y"
        names = ["a b.parquet", "c+d=e,f.parquet", "\u00fc\u00f1i.parquet"]
        for name in names:
            self.s.put_s3(self.local("tiny.parquet"), f"{folder}/{name}")
        want = self.pqsift("scan", self.local("tiny.parquet"), *self.QUERY, stats=False)
        for name in names:
            r = self.s3("scan", f"s3://bkt/{folder}/{name}", *self.QUERY)
            self.check(r.code == 0 and r.out == want.out, f"{name}: {r.err}")
            self.check(self.s.s3.signature_failures == 0, f"{name}: a SigV4 check failed")
        listed = self.s3("count", f"s3://bkt/{folder}/")
        self.check(listed.code == 0 and listed.out.strip() == str(3 * 7300), listed.out + listed.err)
        globbed = self.s3("count", "s3://bkt/odd keys/*/c+d*.parquet")
        self.check(globbed.code == 0 and globbed.out.strip() == "7300", globbed.out + globbed.err)

    def test_s3_missing_key_fails_at_once(self):
        self.s.s3.reset()
        r = self.s3("scan", "s3://bkt/nope.parquet", stats=False)
        self.check(r.code == 1 and "404" in r.err and "s3://bkt/nope.parquet" in r.err, r.err)
        self.check(len(self.s.s3.requests("/bkt/nope.parquet")) == 1, "retried a 404")

    def run(self, only):
        for name in sorted(n for n in dir(self) if n.startswith("test_")):
            if only and only not in name:
                continue
            needs = "s3" if "_s3_" in name else "http"
            if needs in self.s.skipped:
                print(f"SKIP {name}: {self.s.skipped[needs]}")
                self.skipped += 1
                continue
            start = time.time()
            try:
                getattr(self, name)()
                self.passed += 1
                print(f"ok   {name} ({time.time() - start:.2f} s)")
            except Exception as e:  # noqa: BLE001 - every failure is reported and counted
                self.failed += 1
                print(f"FAIL {name}: {e}")
                if not isinstance(e, AssertionError):
                    traceback.print_exc()
            finally:
                if "_s3_" not in name and "http" in self.s.__dict__:
                    self.s.http.reset()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--peers", default=os.path.join(repo, "tools", "peers"))
    parser.add_argument("--data", default=os.environ.get(
        "PARQUET_TEST_DATA", os.path.join(repo, "..", "shared", "data", "parquet-testing")))
    parser.add_argument("-k", default="")
    args = parser.parse_args()
    source = os.path.join(args.data, "data", "alltypes_tiny_pages.parquet")
    if not os.path.exists(source):
        print(f"SKIP all: {source} not found")
        print("0 passed, 0 failed")
        return 0
    work = tempfile.mkdtemp(prefix="pqsift-remote-")
    root = os.path.join(work, "www")
    os.makedirs(os.path.join(root, "many"))
    shutil.copyfile(source, os.path.join(root, "tiny.parquet"))
    for i in range(4):
        shutil.copyfile(source, os.path.join(root, "many", f"f{i}.parquet"))
    # Eight row groups with dictionaries and large bloom filters (sized for 100,000 values, so
    # a lookup reads the header and one block), for the stages' waves.
    os.makedirs(os.path.join(root, "multi"))
    multi = os.path.join(root, "multi", "f0.parquet")
    subprocess.run([args.cli, "convert", source, multi, "--row-group-rows", "1000",
                    "--bloom-filter", "string_col:100000,bigint_col:100000"], check=True)
    for i in range(1, 4):
        shutil.copyfile(multi, os.path.join(root, "multi", f"f{i}.parquet"))
    # Pages of 100 rows, for the slices' waves and bytes; of 2500, for slices that cut pages.
    subprocess.run([args.cli, "convert", source, os.path.join(root, "small_pages.parquet"),
                    "--page-rows", "100"], check=True)
    subprocess.run([args.cli, "convert", source, os.path.join(root, "big_pages.parquet"),
                    "--page-rows", "2500"], check=True)
    servers = Servers(work, root, args.peers)
    start = time.time()
    try:
        servers.start_nginx()
        servers.start_s3()
        if "s3" not in servers.skipped:
            servers.put_s3(source, "tiny.parquet")
            for day in (1, 2, 3):
                for name in ("a", "b"):
                    servers.put_s3(source, f"hive/day={day}/{name}.parquet")
        print(f"servers up in {time.time() - start:.2f} s")
        tests = Tests(os.path.abspath(args.cli), servers, work, args.data)
        tests.run(args.k)
    finally:
        servers.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{tests.passed} passed, {tests.failed} failed"
          + (f", {tests.skipped} skipped" if tests.skipped else ""))
    return 1 if tests.failed else 0


if __name__ == "__main__":
    sys.exit(main())
