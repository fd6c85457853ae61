"""Capture of 100 bookings end to end over HTTP, over a plain GET of the same secure URL.

Figure: the p50 wall time of `POST {pci}/api/v1/capture?profile=frontdesk&method=get&url=<secure
bookings, 100 a page>` — the pci listener fetches the page from the secure listener with the internal
credential, tokenises the 100 cards into the vault in one transaction and answers — over the p50 of
the same GET made directly to the secure listener with the internal credential (the very bytes the
capture fetches, every card revealed from the vault and audited), in the same run, alternating. Aim: ≤ 3×. Both
listeners are uvicorn in threads of this process, as tests/conftest.py `LiveServer` runs them; a capture finds the
bookings' own 100 cards in the vault (it keeps a card once: issue 22, item 2), so the vault holds as many cards
afterwards as before.

    .venv/bin/python tests/bench/bench_capture.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # for tests.conftest

import httpx
from bench_push_booking import Bookings, build
from timing import measure

from tests.conftest import LiveServer, free_port

BOOKINGS = 100
RUNS = 30
AIM = 3.0


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        engine, prop, room, plan, today = build(Path(folder) / "bench.db", port, "FULL")
        bodies = Bookings(room, plan, today)
        token = engine.identity.add_token(engine.identity.operator().email).token
        key = engine.pci_keys.add("bench").token
        with LiveServer(engine, "secure", port) as secure, LiveServer(engine, "pci", free_port()) as pci, \
                httpx.Client(base_url=secure.url, timeout=60) as main_api, \
                httpx.Client(base_url=pci.url, timeout=60) as vault:
            for _ in range(BOOKINGS):
                made = main_api.post(f"/api/v1/meta/OpenShopping/{prop}/push_booking", json=bodies.next())
                assert made.status_code == 201, made.text
            url = f"{secure.url}/api/v1/bookings?pagination[limit]={BOOKINGS}"
            auth = {"Authorization": f"Bearer {token}"}
            internal = {**auth, "X-Frontdesk-Internal": engine.keys.internal_secret, "X-Frontdesk-Reveal": "list"}
            params = {"api_key": key, "profile": "frontdesk", "method": "get", "url": url}

            def plain() -> int:
                response = main_api.get(url, headers=internal)
                assert response.status_code == 200 and "4111111111111111" in response.text
                return len(response.content)

            def capture() -> int:
                response = vault.post("/api/v1/capture", params=params, headers=auth)
                tokens = [t for t in response.headers["x-pci-frontdesk-tokens"].split(",") if t]
                assert response.status_code == 200 and len(tokens) == BOOKINGS, response.text[:300]
                assert "4111111111111111" not in response.text
                return len(response.content)

            figures = measure({"plain GET": plain, "capture": capture}, runs=RUNS, warm=3)
        (plain_ms, plain_cpu), (capture_ms, capture_cpu) = figures["plain GET"], figures["capture"]
        ratio = capture_ms / plain_ms
        print(f"capture of {BOOKINGS} bookings: p50 {capture_ms:.1f} ms (min CPU {capture_cpu:.1f} ms); "
              f"{BOOKINGS / capture_ms * 1000:.0f} cards/s")
        print(f"plain GET of the same secure URL: p50 {plain_ms:.1f} ms (min CPU {plain_cpu:.1f} ms)")
        print(f"ratio {ratio:.2f}x (aim <= {AIM}x: {'met' if ratio <= AIM else 'NOT met'})")
        print(f"cards in the vault afterwards: {engine.store.scalar('SELECT count(*) FROM vault_cards')}")


if __name__ == "__main__":
    main()
