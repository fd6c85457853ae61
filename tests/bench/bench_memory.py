"""Peak memory of `frontdesk serve` under the two loads that once took it past a gigabyte.

Figures: the server's peak RSS (VmHWM of /proc/PID/status) in each scenario, each on a fresh server — the
real CLI in a subprocess, over a demo database — against the aim of 500 MB:

- four concurrent unauthenticated push_booking calls of 14 MiB each, rooms of millions of empty objects (on the
  demo's public shopping channel, so nothing but the route's body limit stands in the way);
- four concurrent tokenize calls of an 8 MB OTA_ResRetrieveRS (the sample's reservations repeated, a real
  pci key and the sample's profile).

The answers' statuses are printed too: what the limits made of each call (413, 503, or done: 200).

    .venv/bin/python tests/bench/bench_memory.py
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from backend.vault import samples

HOST = "127.0.0.1"
CALLS = 4
BOOKING_BYTES = 14 * 1024 * 1024
XML_BYTES = 8_000_000
AIM_MB = 500


def frontdesk(*args: str, db: Path) -> str:
    """The last line of a CLI command's output: the secret it issued."""
    done = subprocess.run([sys.executable, "-m", "console", *args, "--db", str(db)], capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip().splitlines()[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def served(db: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """`frontdesk serve` on free ports: its pid and the listeners' URLs."""
    ports = {"main": free_port(), "secure": free_port(), "pci": free_port()}
    process = subprocess.Popen([sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports["main"]),
                                "--secure-port", str(ports["secure"]), "--pci-port", str(ports["pci"])],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    urls = {name: f"http://{HOST}:{port}" for name, port in ports.items()}
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{urls['pci']}/api/v1/health").status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        yield process.pid, urls
    finally:
        process.terminate()
        process.wait(30)


def memory_mb(pid: int, field: str) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.M).group(1)) / 1024


def concurrently(call: Callable[[], str]) -> Counter[str]:
    with ThreadPoolExecutor(CALLS) as pool:
        return Counter(pool.map(lambda _: call(), range(CALLS)))


def post(url: str, body: bytes, content_type: str) -> str:
    """The status of a POST over a raw socket (a tokenised answer's headers hold a token per reservation, more
    than HTTP clients take), or how the connection ended without one."""
    target = urlsplit(url)
    request = (f"POST {target.path}?{target.query} HTTP/1.1\r\nHost: {target.netloc}\r\n"
               f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection((target.hostname, target.port), timeout=300) as sock:
        try:
            sock.sendall(request + body)
        except OSError:
            pass  # refused before it was all sent: the answer may be waiting all the same
        try:
            head = sock.recv(64)
            while sock.recv(1 << 20):
                pass
        except OSError as error:
            return f"reset ({type(error).__name__})"
    return head.split(b" ", 2)[1].decode() if head else "closed without an answer"


def hostile_booking() -> bytes:
    """14 MiB of the costliest JSON to parse: millions of empty objects, ~30 times their size once parsed."""
    head, tail = b'{"booking": {"rooms": [', b"{}]}}"
    return head + b"{}," * ((BOOKING_BYTES - len(head) - len(tail)) // 3) + tail


def big_xml() -> bytes:
    """The sample's reservations, repeated to XML_BYTES: a real OTA_ResRetrieveRS with thousands of cards."""
    message = samples.message("ota_res_retrieve")
    head, rest = message.split(b"<ReservationsList>", 1)
    reservations, tail = rest.split(b"</ReservationsList>", 1)
    copies = (XML_BYTES - len(head) - len(tail)) // len(reservations)
    return head + b"<ReservationsList>" + reservations * copies + b"</ReservationsList>" + tail


def push_bookings(db: Path) -> tuple[float, float, Counter[str]]:
    with served(db) as (pid, urls):
        properties = httpx.get(f"{urls['main']}/api/v1/meta/OpenShopping/property_list").json()["data"]
        url = f"{urls['main']}/api/v1/meta/OpenShopping/{properties[0]['id']}/push_booking"
        body = hostile_booking()
        idle = memory_mb(pid, "VmRSS")
        statuses = concurrently(lambda: post(url, body, "application/json"))
        return idle, memory_mb(pid, "VmHWM"), statuses


def tokenize(db: Path, pci_key: str) -> tuple[float, float, Counter[str]]:
    xml = big_xml()
    with served(db) as (pid, urls):
        profile = samples.profile("ota_res_retrieve")
        httpx.post(f"{urls['pci']}/api/v1/tokenization_profiles", params={"api_key": pci_key},
                   json={"tokenization_profile": profile}).raise_for_status()
        idle = memory_mb(pid, "VmRSS")
        url = f"{urls['pci']}/api/v1/tokenize?api_key={pci_key}&profile={profile['name']}"
        statuses = concurrently(lambda: post(url, xml, "application/xml"))
        return idle, memory_mb(pid, "VmHWM"), statuses


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "frontdesk.db"
        frontdesk("demo", db=db)
        pci_key = frontdesk("pci-keys", "add", db=db)
        figures = {"4 x 14 MiB push_booking, unauthenticated": push_bookings(db),
                   f"4 x {XML_BYTES / 1e6:g} MB XML tokenize": tokenize(db, pci_key)}
    for what, (idle, peak, statuses) in figures.items():
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
        print(f"{what}: RSS idle {idle:.0f} MB, peak {peak:.0f} MB; answers: {answers}")
    worst = max(peak for _, peak, _ in figures.values())
    print("SUMMARY peak RSS of frontdesk serve: " + ", ".join(f"{what} {peak:.0f} MB" for what, (_, peak, _)
                                                            in figures.items())
          + f" (aim < {AIM_MB} MB: {'within aim' if worst < AIM_MB else 'ABOVE AIM'})")


if __name__ == "__main__":
    main()
