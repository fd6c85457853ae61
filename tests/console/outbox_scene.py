"""Events out, staged for the snapshots and the screenshots: channels and webhooks in every state staff meet, at
fixed times on the frozen clock's day. The settings, the full syncs and the webhooks go through the engine; what
only the deliverer writes (its times, attempts, errors and log) is stamped in the database, so that nothing
depends on a receiver or on when the test runs."""

from __future__ import annotations

from typing import Any

from backend.core.listing import ListQuery
from backend.engine import Engine
from storage import new_id

DAY = "2026-11-22T"  # the frozen clock's day (tests/console/helpers.py NOW, 09:00)
PUSH_URL = "https://ota.example.com/frontdesk/ari"
BDC_DOWN = "answered 503: Service Unavailable. The ARI service is down for maintenance until 10:00 UTC."
HOOK_DOWN = "answered 500: Internal Server Error"


def stage_events_out(engine: Engine) -> None:
    """Booking.com is pushed to and failing, Airbnb pulls and has a change of Casa do Mar's rates to read, Expedia is
    pushed to and up to date, OpenShopping gets no ARI; three webhooks: up to date, failing, and paused. Booking.com's
    changes are the oldest waiting (since 08:02)."""
    actor = engine.identity.operator()
    channels = {c["title"]: c["id"] for c in engine.channels.list(actor, ListQuery(limit=10))[0]}
    group = engine.store.scalar("SELECT group_id FROM channels WHERE id = ?", (channels["Booking.com"],))
    push = {"ari_distribution": "push", "ari_url": PUSH_URL}
    engine.channels.update(actor, channels["Booking.com"], {"settings": push})
    engine.distribution.full_sync(actor, channels["Booking.com"])
    with engine.store.transaction() as conn:  # 12 ranges went at 07:55; the next call failed, for good at 08:02
        _log(conn, channels["Booking.com"], _next(conn, channels["Booking.com"], 12), "delivered", 1, 200, None,
             DAY + "07:55:00")
        _stamp(conn, channels["Booking.com"], advance=12, last_delivered_at=DAY + "07:55:00",
               failing_since=DAY + "08:02:00", attempts=8, last_error=BDC_DOWN)
        _log(conn, channels["Booking.com"], _next(conn, channels["Booking.com"], 12), "failed", 8, 503, BDC_DOWN,
             DAY + "08:02:00")
    engine.channels.update(actor, channels["Airbnb"], {"settings": {"ari_distribution": "pull"}})
    casa = _property(engine, "Casa do Mar")
    engine.inventory.ari.set_restrictions(actor, [
        {"property_id": casa, "rate_plan_id": plan["id"], "date_from": "2026-12-20", "date_to": "2027-01-03",
         "rate": "180.00"} for plan in engine.inventory.rate_plans.for_property(actor, casa)])
    expedia = engine.channels.create(actor, {"title": "Expedia", "channel": "BookingCom", "group_id": group,
                                             "settings": {**push, "ari_format": "ota"}})["id"]
    hooks = [engine.webhooks.create(actor, {"property_id": _property(engine, title), "callback_url": url,
                                            "event_mask": mask})["id"]
             for title, url, mask in (("Hotel Edelweiss", "https://pms.example.com/frontdesk/hooks", "*"),
                                      ("Casa do Mar", "https://crm.example.org/events", "booking,message"),
                                      ("Riad Yasmine", "https://revenue.example.net/in", "ari,sync_error"))]
    engine.webhooks.update(actor, hooks[2], {"is_active": False})
    with engine.store.transaction() as conn:
        _stamp(conn, channels["Airbnb"], last_delivered_at=DAY + "08:41:00")
        _stamp(conn, expedia, last_delivered_at=DAY + "08:55:00")
        _stamp(conn, hooks[0], last_delivered_at=DAY + "08:50:00")
        told = [row[0] for row in conn.execute("SELECT seq FROM events WHERE property_id = ? AND event IN "
                                               "('booking_new', 'message') ORDER BY seq DESC LIMIT 3", (casa,))]
        _log(conn, hooks[1], told[1:], "delivered", 1, 200, None, DAY + "07:12:00")
        _log(conn, hooks[1], told[:1], "failed", 8, 500, HOOK_DOWN, DAY + "08:40:00")
        conn.execute("UPDATE destinations SET cursor = ? WHERE id = ?", (told[0] - 1, hooks[1]))
        _stamp(conn, hooks[1], last_delivered_at=DAY + "07:12:00", failing_since=DAY + "08:40:00", attempts=8,
               last_error=HOOK_DOWN)
        _stamp(conn, hooks[2], advance=-2)
        # The changes happened this morning, Booking.com's full sync first: the oldest one waiting is its.
        conn.execute("UPDATE events SET inserted_at = CASE WHEN channel_id = ? THEN ? ELSE ? END",
                     (channels["Booking.com"], DAY + "08:02:00.000000", DAY + "08:30:00.000000"))


def _property(engine: Engine, title: str) -> str:
    return engine.store.scalar("SELECT id FROM properties WHERE title = ?", (title,))


def _stamp(conn, destination_id: str, advance: int = 0, **state: Any) -> None:
    """The deliverer's record of a destination: its cursor moved by `advance` events, and its state."""
    sets = "".join(f", {name} = ?" for name in state)
    conn.execute(f"UPDATE destinations SET cursor = cursor + ?{sets} WHERE id = ?",
                 (advance, *state.values(), destination_id))


def _next(conn, destination_id: str, count: int) -> list[int]:
    """The seqs of the `count` events after the destination's cursor."""
    cursor = conn.execute("SELECT cursor FROM destinations WHERE id = ?", (destination_id,)).fetchone()[0]
    return list(range(cursor + 1, cursor + count + 1))


def _log(conn, destination_id: str, seqs: list[int], status: str, attempts: int, response: int | None,
         error: str | None, at: str, next_retry_at: str | None = None) -> None:
    conn.executemany("INSERT INTO deliveries (id, destination_id, event_seq, status, attempts, response_status, "
                     "last_error, next_retry_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [(new_id(), destination_id, seq, status, attempts, response, error, next_retry_at, at)
                      for seq in seqs])
