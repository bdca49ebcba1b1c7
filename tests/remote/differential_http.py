#!/usr/bin/python3
"""The differential property test over HTTP with faults: pruned runs read every file through
nginx and tests/remote/fault_proxy.py, which breaks every 7th request (503, reset, truncated
body, 429, 500, in turn); the unpruned runs and DuckDB read the same files locally. Zero wrong
rows: pruned == --no-prune == DuckDB, as tests/property/differential.mjs checks.

Usage: differential_http.py --cli PATH [differential.mjs arguments...]
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_proxy  # noqa: E402
from remote_test import free_port, wait_for_port  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    argv = sys.argv[1:]
    cli = argv[argv.index("--cli") + 1]
    rest = [a for i, a in enumerate(argv) if a != "--cli" and (i == 0 or argv[i - 1] != "--cli")]
    work = tempfile.mkdtemp(prefix="pqsift-differential-http-")
    served = os.path.join(work, "served")  # differential.mjs's workdir
    prefix = os.path.join(work, "nginx")
    os.makedirs(os.path.join(prefix, "logs"))
    port = free_port()
    conf = os.path.join(prefix, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""{'user root;' if os.geteuid() == 0 else ''}
worker_processes 1; daemon off; pid {prefix}/nginx.pid; error_log {prefix}/logs/error.log;
events {{ worker_connections 256; }}
http {{ access_log off; keepalive_requests 100000;
  client_body_temp_path {prefix}/b; proxy_temp_path {prefix}/p; fastcgi_temp_path {prefix}/f;
  uwsgi_temp_path {prefix}/u; scgi_temp_path {prefix}/s;
  server {{ listen 127.0.0.1:{port}; root {served}; }} }}
""")
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", prefix, "-c",
                              conf], stderr=subprocess.DEVNULL)
    try:
        if not wait_for_port(port):
            print("nginx did not start")
            return 1
        control = fault_proxy.Control(f"127.0.0.1:{port}")
        control.fault_every = 7
        proxy = fault_proxy.start(control)
        url = f"http://127.0.0.1:{proxy.server_address[1]}"
        r = subprocess.run(["node", os.path.join(repo, "tests", "property", "differential.mjs"),
                            "--pqsift", cli, "--workdir", served, "--url-base", url, *rest])
        faults = sum(1 for e in control.log if e[3] in (503, 500, 429, "reset", "truncate"))
        print(f"faults injected: {faults} of {len(control.log)} requests")
        if r.returncode == 0 and faults == 0:
            print("differential_http: FAIL no fault was injected")
            return 1
        return r.returncode
    finally:
        nginx.send_signal(signal.SIGTERM)
        nginx.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
