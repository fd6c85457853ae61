"""Card data that an earlier version stored in clear is masked in place by a data step, once, in every column that
holds free text or JSON; the database file and its write-ahead log hold none of it afterwards, and a booking whose
reservation id was a card is still found by it."""

from __future__ import annotations

import json
import random

from backend.core.card_data import luhn_ok
from backend.engine import Engine
from backend.tools.demo import load_demo
from backend.upgrades.steps import run_pending
from backend.upgrades.stored_cards import STEP


def cards(count: int) -> list[str]:
    generator = random.Random(3)
    found: list[str] = []
    while len(found) < count:
        number = "4" + "".join(generator.choice("0123456789") for _ in range(15))
        if luhn_ok(number) and number not in found:
            found.append(number)
    return found


def dotted(number: str) -> str:
    return ".".join(number[i:i + 4] for i in range(0, 16, 4))


def test_the_step_masks_what_an_earlier_version_kept_in_clear_and_counts_it(tmp_path):
    engine = Engine.open(tmp_path / "old.db")
    load_demo(engine)
    (reservation, note, key, phone, message, meta, title, thread_note, reply, event, error, audit) = clear = cards(12)
    conn = engine.store.conn
    booking = engine.store.one("SELECT b.id, b.property_id, r.id AS revision_id, r.attributes FROM bookings b "
                               "JOIN booking_revisions r ON r.id = b.revision_id "
                               "JOIN channels c ON c.id = b.channel_id "
                               "WHERE c.channel_code = 'BookingCom' AND b.status = 'new' LIMIT 1")
    attributes = json.loads(booking["attributes"])
    attributes.update(reservation_id=reservation, unique_id=f"BDC-{reservation}", notes=f"card {dotted(note)}",
                      meta={key: "as a key"}, agent={"name": "Agent", "phone": phone})
    thread = engine.store.one("SELECT id, last_message_id FROM message_threads "
                              "WHERE last_message_id IS NOT NULL LIMIT 1")
    user = engine.identity.operator().user_id
    # As an earlier version kept them: the rule of the day missed these forms, and identifiers were exempt.
    conn.execute("UPDATE bookings SET reservation_id = ?, unique_id = ? WHERE id = ?",
                 (reservation, f"BDC-{reservation}", booking["id"]))
    conn.execute("UPDATE booking_revisions SET attributes = ? WHERE id = ?",
                 (json.dumps(attributes), booking["revision_id"]))
    conn.execute("UPDATE messages SET message = ?, meta = ? WHERE id = ?",
                 (f"VISA{message}exp", json.dumps({"card": f"{meta[:8]}\n{meta[8:]}"}), thread["last_message_id"]))
    conn.execute("UPDATE message_threads SET title = ? WHERE id = ?", (f"Guest {title}", thread["id"]))
    conn.execute("INSERT INTO thread_notes (id, thread_id, user_id, note, inserted_at, updated_at) VALUES "
                 "('n1', ?, ?, ?, '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000')",
                 (thread["id"], user, f"card {thread_note.replace('4', '４')}"))
    conn.execute("INSERT INTO message_templates (id, property_id, title, message, user_id, inserted_at, updated_at) "
                 "VALUES ('t1', ?, 'Card', ?, ?, '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000')",
                 (booking["property_id"], f"Pay with {reply}, cvv: 737", user))
    conn.execute("UPDATE events SET payload = ? WHERE seq = (SELECT max(seq) FROM events)",
                 (json.dumps({"booking": {"notes": event}}),))
    conn.execute("INSERT INTO destinations (id, kind, cursor, last_error) VALUES ('d1', 'webhook', 0, ?)",
                 (f"answered 400: bad card {error}",))
    conn.execute("INSERT INTO vault_audit (at, action, token, actor, detail) VALUES "
                 "('2026-01-01T00:00:00.000000', 'reveal', 't', 'a', ?)", (f"card {audit}",))
    conn.execute("DELETE FROM data_steps")
    engine.store.forget_history()

    # 11 values: the booking's key and number, its revision (four cards), the message and its meta, the thread's
    # title, the note, the reply, the event, the delivery error and the audit entry.
    assert run_pending(engine, [STEP]) == {STEP.name: 11}
    assert run_pending(engine, [STEP]) == {}
    engine.store.close()

    wal = tmp_path / "old.db-wal"
    on_disk = (tmp_path / "old.db").read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    for number in clear:
        assert number.encode() not in on_disk and dotted(number).encode() not in on_disk
    saved_reply = on_disk.split(b"Pay with")[1]
    assert saved_reply[:saved_reply.index(b"cvv: ") + 8].endswith(b"cvv: ***")  # what follows is other data

    reopened = Engine.open(tmp_path / "old.db")
    stored = json.loads(reopened.store.scalar("SELECT attributes FROM booking_revisions WHERE id = ?",
                                              (booking["revision_id"],)))
    assert (stored["reservation_id"], stored["notes"], stored["agent"]["phone"]) == (
        f"{reservation[:6]}******{reservation[-4:]}", f"card {note[:6]}******{note[-4:]}",
        f"{phone[:6]}******{phone[-4:]}")
    channel = reopened.store.one("SELECT * FROM channels WHERE channel_code = 'BookingCom'")
    cancelled, _ = reopened.bookings.inbound(channel, {"status": "cancelled", "reservation_id": reservation,
                                                       "property_id": booking["property_id"]}, secure=False)
    assert (cancelled["id"], cancelled["status"]) == (booking["id"], "cancelled")
