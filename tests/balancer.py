"""haproxy in front of `frontdesk serve` hosts, as the recipe in docs/operations.md's "Many hosts" runs it (Debian's package,
scripts/install-test-servers): each host's main listener behind one port, round robin, a host taken out once its
health route stops answering, and a request whose connection a dead host refuses sent to the other. A host busy
under load stays in: its health check may take up to `timeout check` (without it, the check's timeout is `inter`,
200 ms, and under wrk's load both hosts were taken out and every request answered 503), while a dead host's refused
connection fails its check at once."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

CONFIG = """global
    maxconn 2000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 5s
    retries 3
    option redispatch
    retry-on conn-failure
frontend main
    bind 127.0.0.1:{port}
    default_backend hosts
backend hosts
    balance roundrobin
    option httpchk GET /api/v1/health
{servers}
"""


@contextmanager
def haproxy(port: int, hosts: list[int]) -> Iterator[str]:
    """haproxy on `port` in front of the main listeners on `hosts` (their ports); its URL."""
    root = Path(tempfile.mkdtemp(prefix="frontdesk-haproxy-"))
    servers = "\n".join(f"    server host{n} 127.0.0.1:{host} check inter 200ms fall 1 rise 2"
                        for n, host in enumerate(hosts))
    (root / "haproxy.cfg").write_text(CONFIG.format(port=port, servers=servers))
    process = subprocess.Popen(["haproxy", "-db", "-f", str(root / "haproxy.cfg")], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not _answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"haproxy did not start (exit {process.poll()})")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False
