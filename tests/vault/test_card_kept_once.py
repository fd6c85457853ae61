"""A card the vault holds is kept once (issue 22, item 2; PCI DSS 3.3.1.2): found by its fingerprint when it comes in
again, by capture above all, which never extends its CVV's life; two keeps of one card at once make one card; and
the copies that earlier versions made fold into one."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import httpx

from backend.core.config import Config
from backend.engine import Engine
from backend.vault import samples
from backend.vault.cards import CardData
from tests.at_once import at_once
from tests.conftest import serve_site
from tests.shopping.shop import CARD, booking, check, day, make_shop
from tests.stores import Database

VISA = CardData(card_number="4111111111111111", cardholder_name="Ingrid Solberg", expiration_month="12",
                expiration_year="2031", service_code="737")


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def cards(engine: Engine) -> int:
    return engine.store.scalar("SELECT count(*) FROM vault_cards")


def cvv_expiry(engine: Engine, token: str) -> str | None:
    return engine.store.scalar("SELECT expires_at FROM vault_cvv WHERE token = ?", (token,))


def keep(engine: Engine, card: CardData = VISA, departure: date | None = None, **options) -> str:
    with engine.store.transaction() as conn:
        return engine.vault.keep(conn, [card], [departure], profile_name="tests", actor="tests", **options)[0]


def test_a_capture_every_71_hours_never_extends_a_cvvs_life(new_db):
    """The issue's case: each capture sealed the booking's card, CVV too, into a new copy with a fresh 72 hours."""
    start = datetime.now(UTC)
    clock = Clock(start)
    with serve_site(new_db(), clock=clock) as site:
        shop = make_shop(site.user(), rooms=3)
        with httpx.Client(base_url=site.secure.url, timeout=10) as secure:
            made = check(secure.post(f"{shop.meta}/push_booking", json=booking(
                shop, day(2), day(4), guarantee=CARD, reservation_id="CVV-71")), 201)["data"]
        engine = site.engine
        own = engine.store.scalar("SELECT card_token FROM booking_revisions WHERE id = ?",
                                  (made["attributes"]["revision_id"],))
        first_expiry = cvv_expiry(engine, own)
        key = engine.pci_keys.add("tests").token
        with httpx.Client(base_url=site.pci.url, timeout=30, params={"api_key": key},
                          headers={"Authorization": f"Bearer {shop.user.token}"}) as pci:
            for hours in (71, 142, 213):
                clock.now = start + timedelta(hours=hours)
                captured = check(pci.post("/api/v1/capture", params={
                    "profile": "frontdesk_entity", "method": "get",
                    "url": f"{site.secure.url}/api/v1/bookings/{made['id']}"}))
                assert captured["data"]["attributes"]["guarantee"]["token"] == own  # the booking's own card
                assert cards(engine) == 1
                live = engine.store.scalar("SELECT count(*) FROM vault_cvv WHERE expires_at > ?",
                                           (clock.now.replace(tzinfo=None).isoformat(),))
                assert live == (1 if hours < 72 else 0), hours  # no copy keeps the CVV past its 72 hours
        assert cvv_expiry(engine, own) in (first_expiry, None)


def keep_at_once(database: Database, barrier) -> None:
    engine = database.engine()
    barrier.wait()
    engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests")


def test_two_keeps_of_one_card_at_once_make_one_card(new_db):
    """Processes on one database, each tokenising the same message at the same moment: the sample's two cards, once."""
    database = new_db()
    engine = database.engine()
    assert at_once(keep_at_once, database) == [0, 0, 0, 0]
    assert cards(engine) == 2
    assert engine.store.scalar("SELECT count(*) FROM vault_audit WHERE action = 'store'") == 2


def test_a_card_kept_meanwhile_by_another_writer_is_the_one_returned(engine, monkeypatch):
    """A store without one write lock could let two writers both look before either inserts: the unique fingerprint
    turns the second insert away, and the card it returns is the first one's."""
    first = keep(engine)
    held, looks = engine.vault._held, []

    def stale_first_look(conn, prints, now):
        looks.append(prints)
        return {} if len(looks) == 1 else held(conn, prints, now)

    monkeypatch.setattr(engine.vault, "_held", stale_first_look)
    assert keep(engine) == first and cards(engine) == 1 and len(looks) == 2


def test_a_card_presented_again_keeps_its_cvvs_first_expiry(new_db):
    clock = Clock(datetime(2027, 5, 1, 9, 0, tzinfo=UTC))
    engine = new_db("vault").engine(Config(clock=clock))
    token = keep(engine, departure=date(2027, 5, 6))
    first = cvv_expiry(engine, token)
    clock.now += timedelta(hours=10)
    assert keep(engine, departure=date(2027, 5, 4)) == token and cvv_expiry(engine, token) == first
    assert engine.vault.card(token, "tests")["departure_date"] == "2027-05-06"  # the later departure stands
    assert keep(engine, departure=date(2027, 6, 1)) == token
    assert engine.vault.card(token, "tests")["departure_date"] == "2027-06-01"
    # Once its CVV is gone, a card presented anew (a booking, a form, a message) brings one with its own hours...
    clock.now += timedelta(hours=70)
    assert engine.vault.card(token, "tests")["has_cvv"] is False
    assert keep(engine) == token and cvv_expiry(engine, token) == "2027-05-07T17:00:00.000000"
    # ... but capture never does: its CVV came out of the vault.
    engine.vault.wipe_cvv(token, "tests")
    assert keep(engine, cvvs_from_vault=True) == token and cvv_expiry(engine, token) is None
    assert cards(engine) == 1
    assert [row["action"] for row in engine.vault.audit(token) if row["action"] in ("store", "found")] == [
        "found", "found", "found", "found", "store"]


def test_copies_that_earlier_versions_kept_fold_into_one(new_db):
    """Three copies of one card as earlier versions kept them (the booking's, then two captures' with later CVV
    clocks), and a card of its own: when a new version first opens the database, the copy whose CVV expires first
    stands, with the latest departure and the booking; the others lose their CVV."""
    old = new_db("old")
    clock = Clock(datetime(2027, 5, 1, 9, 0, tzinfo=UTC))
    engine = old.engine(Config(clock=clock))
    copies = []
    for hours, departure in ((0, date(2027, 5, 6)), (30, date(2027, 5, 6)), (60, date(2027, 5, 9))):
        clock.now = datetime(2027, 5, 1, 9, 0, tzinfo=UTC) + timedelta(hours=hours)
        copies.append(keep(engine, departure=departure))
        engine.store.conn.execute("UPDATE vault_cards SET fingerprint = NULL")  # as earlier versions kept it
    own = keep(engine, CardData(card_number="5555555555554444", expiration_month="01", expiration_year="2030"))
    engine.store.conn.execute("UPDATE vault_cards SET fingerprint = NULL")
    engine.store.conn.execute("INSERT INTO card_form_sessions (id, token_hash, channel_ids, expires_at, card_token, "
                              "inserted_at) VALUES ('s', 'h', '[]', '2027-05-01', ?, '2027-05-01')", (copies[2],))
    engine.store.conn.execute("DELETE FROM data_steps WHERE name = 'vault_card_fingerprints'")  # before the step
    engine.store.close()

    reopened = old.engine(Config(clock=clock))

    assert reopened.store.scalar("SELECT changed FROM data_steps WHERE name = 'vault_card_fingerprints'") == 2
    standing = reopened.store.query("SELECT token, departure_date FROM vault_cards WHERE fingerprint IS NOT NULL "
                                    "ORDER BY token")
    assert sorted(row["token"] for row in standing) == sorted([copies[0], own])
    assert reopened.vault.card(copies[0], "tests")["departure_date"] == "2027-05-09"
    assert [cvv_expiry(reopened, token) for token in copies] == ["2027-05-04T09:00:00.000000", None, None]
    assert reopened.store.scalar("SELECT card_token FROM card_form_sessions WHERE id = 's'") == copies[0]
    assert keep(reopened) == copies[0]  # found from now on
    assert reopened.vault.card(copies[2], "tests")["has_cvv"] is False  # a token handed out before still answers
