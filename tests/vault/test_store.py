"""The vault on a real database file: sealed cards bound to their tokens, CVVs that expire apart, the
purge after departure, and an audit log without card data."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.exceptions import InvalidTag

from backend.core.config import Config
from backend.engine import Engine
from backend.vault import samples


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2027, 5, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(new_db, clock) -> Engine:
    return new_db("vault").engine(Config(clock=clock))


def tokenise_sample(engine: Engine) -> list[str]:
    """The sample booking list through the built-in profile: its departures are 2027-05-06 and later."""
    tokenised = engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests")
    return [token for token in tokenised.tokens if token]


def test_cards_are_sealed_and_bound_to_their_token(engine, tmp_path):
    first, second = tokenise_sample(engine)
    keys = engine.keys.path
    assert stat.S_IMODE(os.stat(keys).st_mode) == 0o600
    with engine.store.transaction() as conn:
        # Swap two ciphertexts: neither opens under the other's token.
        a = conn.execute("SELECT nonce, ciphertext FROM vault_cards WHERE token = ?", (first,)).fetchone()
        b = conn.execute("SELECT nonce, ciphertext FROM vault_cards WHERE token = ?", (second,)).fetchone()
        conn.execute("UPDATE vault_cards SET nonce = ?, ciphertext = ? WHERE token = ?", (b[0], b[1], first))
        conn.execute("UPDATE vault_cards SET nonce = ?, ciphertext = ? WHERE token = ?", (a[0], a[1], second))
    with pytest.raises(InvalidTag):
        engine.vault.card(first, "tests")


def test_cvv_expires_apart_and_the_purge_follows_departure(engine, clock):
    token = tokenise_sample(engine)[0]
    assert engine.vault.card(token, "tests")["has_cvv"] is True
    clock.now += timedelta(hours=engine.config.vault_cvv_hours + 1)
    assert engine.vault.card(token, "tests")["has_cvv"] is False
    assert engine.vault.purge("tests") == {"cards": 0, "cvvs": 2}
    # Departure 2027-05-06, kept 30 days after it: still there on 2027-06-05, gone on 06-06.
    assert engine.vault.card(token, "tests")["purge_after"] == "2027-06-05"
    clock.now = datetime(2027, 6, 5, 23, 0, tzinfo=UTC)
    engine.vault.purge("tests")
    assert engine.vault.card(token, "tests")
    clock.now = datetime(2027, 6, 6, 0, 1, tzinfo=UTC)
    removed = engine.vault.purge("tests")
    assert removed["cards"] >= 1
    assert engine.store.scalar("SELECT count(*) FROM vault_cards WHERE token = ?", (token,)) == 0


def test_a_shorter_period_applies_to_cards_already_kept(engine, clock):
    first, second = tokenise_sample(engine)
    clock.now = datetime(2027, 5, 12, 9, 0, tzinfo=UTC)  # six days after the first guest left
    assert engine.vault.purge("tests", days=7)["cards"] == 0
    assert engine.vault.purge("tests", days=5)["cards"] == 1
    assert engine.store.scalar("SELECT count(*) FROM vault_cards WHERE token = ?", (first,)) == 0
    assert engine.vault.card(second, "tests")["departure_date"] > "2027-05-06"


def test_a_message_that_fails_midway_keeps_no_card(engine, monkeypatch):
    keep = engine.vault.keep

    def fail_after_first(conn, cards, departures, **kwargs):
        keep(conn, cards[:1], departures[:1], **kwargs)
        raise RuntimeError("disk full")

    monkeypatch.setattr(engine.vault, "keep", fail_after_first)
    with pytest.raises(RuntimeError):
        engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests")
    assert engine.store.scalar("SELECT count(*) FROM vault_cards") == 0


def test_the_audit_log_names_operations_never_cards(engine):
    token = tokenise_sample(engine)[0]
    engine.vault.card(token, "key-1")
    engine.vault.wipe_cvv(token, "key-1")
    engine.vault.delete(token, "key-2")
    log = engine.vault.audit(token)
    assert [(row["action"], row["actor"]) for row in log] == [
        ("delete", "key-2"), ("read", "key-1"), ("wipe_cvv", "key-1"), ("read", "key-1"), ("store", "tests")]
    text = json.dumps(engine.vault.audit(limit=1000))
    for secret in ("4111111111111111", "5555555555554444", "Ingrid"):
        assert secret not in text
