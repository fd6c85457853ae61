"""Tokenising a message of 1,000 bookings, against reading and writing the same body plainly.

Figures (aim ≤ 3× each, issue 22 item 7; measured in the same run, warm, interleaved):

- JSON: `tokenise` with the built-in `frontdesk` profile on a booking list of 1,000 bookings, each
  with a card, over `json.loads` + `json.dumps` of the same body (the same compact separators and
  ensure_ascii=False that the tokeniser writes with).
- XML: `tokenise` on an OTA_HotelResNotifRQ of 1,000 reservations (the sample's profile: PaymentCard
  attributes, headers placement) and on an OTA_ResRetrieveRS of 1,000 (CardNumber/PlainText, token
  placed as CardNumber/@Token), each over lxml parse + serialise of the same body.
- The JSON list through the engine into a real vault database: 1,000 new cards each time (a list of cards
  the vault has not seen), and the same list again (every card found by its fingerprint, as a capture finds
  its bookings' cards).

`issue` is a stand-in that returns random tokens, so the first figures are the engine's own work (strict
parsing, extraction, checks, masking, placement, the departures for the vault), without the vault's
storage. Cards/s is 1,000 over the tokeniser's p50.

    .venv/bin/python tests/bench/bench_tokenise.py
"""

from __future__ import annotations

import copy
import json
import random
import re
import secrets
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

from lxml import etree
from timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from backend.core.card_data import luhn_ok
from backend.engine import Engine
from backend.vault import samples
from backend.vault.builtin import builtin_profile
from backend.vault.profiles import compile_profile
from backend.vault.tokenise import tokenise

COUNT = 1_000
RUNS = 40
AIM = 3.0
CARDS = ["4111111111111111", "5555555555554444", "378282246310005", "4000056655665556"]
MAX_BYTES = 64 * 1024 * 1024


def issue(cards: list, departures: list) -> list[str]:
    return [secrets.token_hex(16) for _ in cards]


def booking_list(first_card: int | None = None) -> bytes:
    """COUNT bookings; their cards are the four public test numbers in turn, or (`first_card`) COUNT numbers of
    their own from that one on: the vault keeps a card once."""
    template = json.loads(samples.message("bookings"))["data"][0]
    ids = random.Random(7)
    data = []
    for n in range(COUNT):
        booking = copy.deepcopy(template)
        # Version-4 UUIDs, as ids are, from a seeded generator: the same list every run. (All-digit ids such as
        # 00000000-…-000000000001 would each be a run of digits that the last look must take apart.)
        booking["id"] = booking["attributes"]["id"] = str(uuid.UUID(int=ids.getrandbits(128), version=4))
        booking["attributes"]["guarantee"]["card_number"] = (CARDS[n % len(CARDS)] if first_card is None
                                                             else card_number(first_card + n))
        data.append(booking)
    return json.dumps({"data": data, "meta": {"page": 1, "limit": COUNT, "total": COUNT}}).encode()


def card_number(n: int) -> str:
    """The nth of a run of Luhn-valid Visa numbers."""
    head = f"4{n:014d}"
    return next(head + digit for digit in "0123456789" if luhn_ok(head + digit))


def ota(name: str, container: str) -> bytes:
    """The sample with its first reservation repeated COUNT times, card numbers varied."""
    text = samples.message(name).decode()
    first = re.findall(r"<HotelReservation .*?</HotelReservation>", text, re.DOTALL)[0]
    copies = [first.replace("378282246310005" if "378282246310005" in first else "4111111111111111",
                            CARDS[n % len(CARDS)]) for n in range(COUNT)]
    head, tail = text.split(f"<{container}>")[0], text.split(f"</{container}>")[1]
    return f"{head}<{container}>{''.join(copies)}</{container}>{tail}".encode()


def plain_json(body: bytes) -> Callable[[], int]:
    return lambda: len(json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")).encode())


def plain_xml(body: bytes) -> Callable[[], int]:
    def run() -> int:
        tree = etree.fromstring(body).getroottree()
        return len(etree.tostring(tree, xml_declaration=True, encoding="UTF-8"))
    return run


def tokenised(profile, body: bytes) -> Callable[[], int]:
    return lambda: len(tokenise(profile, body, issue, max_bytes=MAX_BYTES).body)


def main() -> None:
    cases = [
        ("JSON booking list, frontdesk profile", builtin_profile("frontdesk"), booking_list(), plain_json,
         "json.loads+dumps"),
        ("OTA_HotelResNotifRQ, headers placement", compile_profile(samples.profile("ota_hotel_res_notif")),
         ota("ota_hotel_res_notif", "HotelReservations"), plain_xml, "lxml parse+serialise"),
        ("OTA_ResRetrieveRS, token in CardNumber/@Token", compile_profile(samples.profile("ota_res_retrieve")),
         ota("ota_res_retrieve", "ReservationsList"), plain_xml, "lxml parse+serialise"),
    ]
    ratios = []
    for label, profile, body, plain, plain_label in cases:
        result = tokenise(profile, body, issue, max_bytes=MAX_BYTES)
        assert sum(1 for token in result.tokens if token) == COUNT, "every card must get a token"
        assert not any(card.encode() in result.body for card in CARDS), "no full card number in the output"
        figures = measure({"tokenise": tokenised(profile, body), "plain": plain(body)}, RUNS, warm=3)
        (ms, cpu), (plain_ms, plain_cpu) = figures["tokenise"], figures["plain"]
        ratios.append(ms / plain_ms)
        print(f"  {label} ({len(body) / 1e6:.2f} MB, {COUNT:,} cards): tokenise p50 {ms:.1f} ms "
              f"(min CPU {cpu:.1f}), {plain_label} p50 {plain_ms:.1f} ms (min CPU {plain_cpu:.1f}), "
              f"ratio {ratios[-1]:.2f}x, {COUNT / ms * 1000:,.0f} cards/s")
    ratios += kept_in_the_vault()
    verdict = "within aim" if max(ratios) <= AIM else "ABOVE AIM"
    print(f"SUMMARY tokenise {COUNT:,} cards: JSON {ratios[0]:.2f}x, OTA notif {ratios[1]:.2f}x, "
          f"OTA retrieve {ratios[2]:.2f}x, JSON kept in the vault {ratios[3]:.2f}x (new cards) and {ratios[4]:.2f}x "
          f"(found again) over plain parse+serialise (aim <= {AIM:.0f}x: {verdict})")


def kept_in_the_vault() -> list[float]:
    """The JSON list through the engine, as `POST /api/v1/tokenize` runs it: every card sealed and kept in a real
    database file, in one transaction a message; then the same list again, every card found."""
    bodies = iter([booking_list(first_card=run * COUNT) for run in range(RUNS + 3)])
    again = booking_list(first_card=0)
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        engine = Engine.open(Path(folder) / "bench.db")
        for label, body in (("new cards", lambda: next(bodies)), ("the same cards again", lambda: again)):
            figures = measure({"kept": lambda: len(engine.tokenisation.tokenise("frontdesk", body(), "bench").body),
                               "plain": plain_json(again)}, RUNS, warm=3)
            (ms, cpu), (plain_ms, plain_cpu) = figures["kept"], figures["plain"]
            ratios.append(ms / plain_ms)
            print(f"  JSON booking list kept in the vault, {label} (engine, real database): p50 {ms:.1f} ms "
                  f"(min CPU {cpu:.1f}), json.loads+dumps p50 {plain_ms:.1f} ms (min CPU {plain_cpu:.1f}), "
                  f"ratio {ratios[-1]:.2f}x, {COUNT / ms * 1000:,.0f} cards/s")
        assert engine.store.scalar("SELECT count(*) FROM vault_cards") == COUNT * (RUNS + 3)
    return ratios


if __name__ == "__main__":
    main()
