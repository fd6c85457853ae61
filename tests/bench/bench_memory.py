"""Peak memory of `frontdesk serve` under the loads that once took it past a gigabyte.

Figures: the server's peak RSS (VmHWM of /proc/PID/status) in each scenario, each on a fresh server — the
real CLI in a subprocess, over a demo database:

- four concurrent unauthenticated push_booking calls of 14 MiB each, rooms of millions of empty objects (on the
  demo's public shopping channel, so nothing but the route's body limit stands in the way), against 500 MB;
- four concurrent tokenize calls of an 8 MB OTA_ResRetrieveRS (the sample's reservations repeated, a real
  pci key and the sample's profile), against 500 MB;
- one tokenize of 8 MiB, against 300 MB, with the size of its answer's headers against 8 KB (issue 22, item 7):
  the OTA_ResRetrieveRS of 6,657 reservations; a JSON message of as many nodes as a message may have (99,000
  objects with an id each, no card); one of as many distinct cards as 8 MiB holds (53,000); and the shapes that
  are refused before they cost anything: a million empty objects, four million zeros, two million empty elements.

The answers' statuses are printed too: what the limits made of each call (413, 503, or done: 200).

    .venv/bin/python tests/bench/bench_memory.py
"""

from __future__ import annotations

import itertools
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
from backend.core.card_data import luhn_ok
from backend.vault import samples

HOST = "127.0.0.1"
CALLS = 4
BOOKING_BYTES = 14 * 1024 * 1024
XML_BYTES = 8_000_000
AIM_MB = 500
ONE_BYTES = 8 * 1024 * 1024 - 1024  # one tokenize: as much as its route takes
ONE_AIM_MB = 300


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
    """The status of a POST over a raw socket (an answer's headers could once hold a token per reservation, more
    than HTTP clients take), or how the connection ended without one."""
    return answered(url, body, content_type)[0]


def answered(url: str, body: bytes, content_type: str) -> tuple[str, int]:
    """The status of a POST and the size of its answer's headers, in bytes."""
    target = urlsplit(url)
    request = (f"POST {target.path}?{target.query} HTTP/1.1\r\nHost: {target.netloc}\r\n"
               f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection((target.hostname, target.port), timeout=300) as sock:
        try:
            sock.sendall(request + body)
        except OSError:
            pass  # refused before it was all sent: the answer may be waiting all the same
        received = b""
        try:
            while chunk := sock.recv(1 << 20):
                received += chunk
        except OSError as error:
            if not received:
                return f"reset ({type(error).__name__})", 0
    if not received:
        return "closed without an answer", 0
    head = received.split(b"\r\n\r\n", 1)[0]
    return head.split(b" ", 2)[1].decode(), len(head) + 4


def hostile_booking() -> bytes:
    """14 MiB of the costliest JSON to parse: millions of empty objects, ~30 times their size once parsed."""
    head, tail = b'{"booking": {"rooms": [', b"{}]}}"
    return head + b"{}," * ((BOOKING_BYTES - len(head) - len(tail)) // 3) + tail


def big_xml(size: int = XML_BYTES) -> bytes:
    """The sample's reservations, repeated to `size`: a real OTA_ResRetrieveRS with thousands of cards."""
    message = samples.message("ota_res_retrieve")
    head, rest = message.split(b"<ReservationsList>", 1)
    reservations, tail = rest.split(b"</ReservationsList>", 1)
    copies = (size - len(head) - len(tail)) // len(reservations)
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
        with_profile(urls, pci_key, profile["name"])
        idle = memory_mb(pid, "VmRSS")
        url = f"{urls['pci']}/api/v1/tokenize?api_key={pci_key}&profile={profile['name']}"
        statuses = concurrently(lambda: post(url, xml, "application/xml"))
        return idle, memory_mb(pid, "VmHWM"), statuses


def with_profile(urls: dict[str, str], pci_key: str, sample: str) -> None:
    """The sample's profile on the server's database, made unless an earlier scenario made it."""
    made = httpx.get(f"{urls['pci']}/api/v1/tokenization_profiles", params={"api_key": pci_key}).json()["data"]
    if sample not in {profile["attributes"]["name"] for profile in made}:
        httpx.post(f"{urls['pci']}/api/v1/tokenization_profiles", params={"api_key": pci_key},
                   json={"tokenization_profile": samples.profile(sample)}).raise_for_status()


def one_tokenize(db: Path, pci_key: str, body: bytes, profile: str) -> tuple[float, float, str, int]:
    """One tokenize of `body` on a fresh server: RSS idle and peak, the status and the size of the headers."""
    with served(db) as (pid, urls):
        if profile != "frontdesk":
            with_profile(urls, pci_key, profile)
        idle = memory_mb(pid, "VmRSS")
        status, header_bytes = answered(f"{urls['pci']}/api/v1/tokenize?api_key={pci_key}&profile={profile}", body,
                                        "application/xml" if body.startswith(b"<") else "application/json")
        return idle, memory_mb(pid, "VmHWM"), status, header_bytes


def json_list(items: Iterator[bytes]) -> bytes:
    """{"data": [...]} of as many of `items` as fit in ONE_BYTES."""
    parts, size = [], 20
    for item in items:
        if size + len(item) + 1 > ONE_BYTES:
            break
        parts.append(item)
        size += len(item) + 1
    return b'{"data":[' + b",".join(parts) + b"]}"


def distinct_cards() -> Iterator[bytes]:
    for n in itertools.count():
        head = f"4{n:014d}"
        number = next(head + digit for digit in "0123456789" if luhn_ok(head + digit))
        yield (b'{"attributes":{"departure_date":"2027-05-06","guarantee":{"card_number":"%s",'
               b'"expiration_date":"12/2031","cvv":"123","cardholder_name":"A B"}}}' % number.encode())


def one_call_bodies() -> dict[str, tuple[bytes, str]]:
    return {
        "OTA_ResRetrieveRS, 6,657 reservations": (big_xml(ONE_BYTES), "ota_res_retrieve"),
        "JSON, 99,000 message nodes without cards": (json_list(b'{"id":"%06d"}' % n for n in range(99_000)),
                                                      "frontdesk"),
        "JSON, the most distinct cards 8 MiB holds": (json_list(distinct_cards()), "frontdesk"),
        "JSON, a million empty objects": (json_list(itertools.repeat(b"{}")), "frontdesk"),
        "JSON, four million zeros": (json_list(itertools.repeat(b"0")), "frontdesk"),
        "XML, two million empty elements": (b"<r>" + b"<a/>" * ((ONE_BYTES - 7) // 4) + b"</r>", "ota_res_retrieve"),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "frontdesk.db"
        frontdesk("demo", db=db)
        pci_key = frontdesk("pci-keys", "add", db=db)
        figures = {"4 x 14 MiB push_booking, unauthenticated": push_bookings(db),
                   f"4 x {XML_BYTES / 1e6:g} MB XML tokenize": tokenize(db, pci_key)}
        ones = {what: one_tokenize(db, pci_key, body, profile) for what, (body, profile) in one_call_bodies().items()}
    for what, (idle, peak, statuses) in figures.items():
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
        print(f"{what}: RSS idle {idle:.0f} MB, peak {peak:.0f} MB; answers: {answers}")
    for what, (idle, peak, status, header_bytes) in ones.items():
        print(f"one 8 MiB tokenize, {what}: RSS idle {idle:.0f} MB, peak {peak:.0f} MB; answer {status}, "
              f"headers {header_bytes:,} bytes")
    worst = max(peak for _, peak, _ in figures.values())
    worst_one = max(peak for _, peak, _, _ in ones.values())
    largest = max(header_bytes for _, _, _, header_bytes in ones.values())
    print("SUMMARY peak RSS of frontdesk serve: " + ", ".join(f"{what} {peak:.0f} MB" for what, (_, peak, _)
                                                            in figures.items())
          + f" (aim < {AIM_MB} MB: {'within aim' if worst < AIM_MB else 'ABOVE AIM'}); one 8 MiB tokenize at most "
          f"{worst_one:.0f} MB (aim < {ONE_AIM_MB} MB: {'within aim' if worst_one < ONE_AIM_MB else 'ABOVE AIM'}), "
          f"headers at most {largest:,} bytes (aim < 8 KB: {'within aim' if largest < 8192 else 'ABOVE AIM'})")


if __name__ == "__main__":
    main()
