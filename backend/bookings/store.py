"""SQL of the bookings domain: the tables it owns — bookings, booking_revisions, booking_cards, booking_reports and
direct_channels — and its reads of others' (properties, channels, message_threads). The statements are written in the
common dialect of storage/, so they run on both SQLite and PostgreSQL. Callers keep their logic and transactions and
pass their connection (or the Store for single reads). What bookings read or write of the channels' tables alone
(a booking's channel, a direct channel's row) is in backend/channels/store.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from backend.core.listing import Column, ListQuery, View
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

# --- bookings and their revisions ------------------------------------------------------------------------------------

# A booking is acknowledged when none of its revisions waits in the feed.
ACKED = "NOT EXISTS (SELECT 1 FROM booking_revisions w WHERE w.booking_id = b.id AND w.acked_at IS NULL)"
THREAD = "(SELECT id FROM message_threads WHERE booking_id = b.id)"
BOOKING_COLUMNS = {
    "is_acked": Column(f"(CASE WHEN {ACKED} THEN 1 ELSE 0 END)", "bool"),  # a flag compares as 0/1 in both stores
    "id": Column("b.id", "id"), "property_id": Column("b.property_id", "id"), "channel_id": Column("b.channel_id", "id"),
    "status": Column("b.status", "enum"), "unique_id": Column("b.unique_id"), "reservation_id": Column("b.reservation_id"),
    "ota_reservation_code": Column("b.reservation_id", "id"),  # the service's name of it; a comma list is "in"
    "ota_name": Column("b.ota_name"), "arrival_date": Column("b.arrival_date", "date"),
    "departure_date": Column("b.departure_date", "date"), "inserted_at": Column("b.inserted_at"),
    "updated_at": Column("b.updated_at"), "is_overbooked": Column("b.is_overbooked", "bool"),
    "is_unmapped": Column("b.is_unmapped", "bool"),
    # Searches: any guest's name (backend/bookings/finding.py), and that or the booking's number.
    "guest_name": Column("coalesce(b.guest_names, '')", "words"),
    "search": Column("(coalesce(b.guest_names, '') || '\n' || lower(b.unique_id))", "words"),
}
REVISION_COLUMNS = {
    "id": Column("r.id", "id"), "booking_id": Column("r.booking_id", "id"), "property_id": Column("r.property_id", "id"),
    "status": Column("r.status", "enum"), "inserted_at": Column("r.inserted_at"),
}
# A booking with what the rules around it need: its property's group, time zone and settings, its channel's code.
BOOKING_ROW = ("SELECT b.*, p.group_id, p.timezone, p.settings, c.channel_code FROM bookings b "
               "JOIN properties p ON p.id = b.property_id LEFT JOIN channels c ON c.id = b.channel_id WHERE b.id = ?")


def booking_with_property(store: Store, booking_id: str) -> Row | None:
    return cast(Row | None, store.one(BOOKING_ROW, (booking_id,)))


def ended_stays(store: Store, channel_id: str, today: str, limit: int) -> list[str]:
    """Ids of the channel's bookings whose stay has ended (departure before `today`) and has no review yet, latest
    departures first (`frontdesk simulate` reviews these)."""
    return [row["id"] for row in store.query(
        "SELECT b.id FROM bookings b WHERE b.channel_id = ? AND b.departure_date < ? AND b.status <> 'cancelled' "
        "AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.booking_id = b.id) "
        "ORDER BY b.departure_date DESC, b.id LIMIT ?", (channel_id, today, limit))]


def booking_by_reservation(store: Store, channel_id: str, reservation_key: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM bookings WHERE channel_id = ? AND reservation_id = ?",
                                      (channel_id, reservation_key)))


def _booking_values(attributes: dict[str, Any], revision_id: str, body_hash: str, taken: list[Any], guest_names: str,
                    now: str) -> tuple[Any, ...]:
    """The columns a new revision sets on its booking, in the order of the statements below."""
    return (attributes["status"], attributes["arrival_date"], attributes["departure_date"], attributes["amount"],
            attributes["currency"], revision_id, body_hash, json.dumps(taken), int(attributes["is_overbooked"]),
            int(attributes["is_unmapped"]), guest_names, now)


def update_booking(conn: Connection, attributes: dict[str, Any], revision_id: str, body_hash: str, taken: list[Any],
                   guest_names: str, now: str) -> None:
    conn.execute("UPDATE bookings SET status = ?, arrival_date = ?, departure_date = ?, amount = ?, currency = ?, "
                 "revision_id = ?, body_hash = ?, taken = ?, is_overbooked = ?, is_unmapped = ?, guest_names = ?, "
                 "updated_at = ? WHERE id = ?",
                 (*_booking_values(attributes, revision_id, body_hash, taken, guest_names, now), attributes["id"]))


def insert_booking(conn: Connection, attributes: dict[str, Any], revision_id: str, body_hash: str, taken: list[Any],
                   guest_names: str, now: str, reservation_key: str) -> None:
    conn.execute("INSERT INTO bookings (status, arrival_date, departure_date, amount, currency, revision_id, "
                 "body_hash, taken, is_overbooked, is_unmapped, guest_names, updated_at, id, property_id, "
                 "channel_id, unique_id, reservation_id, ota_name, inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                 "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (*_booking_values(attributes, revision_id, body_hash, taken, guest_names, now), attributes["id"],
                  attributes["property_id"], attributes["channel_id"], attributes["unique_id"], reservation_key,
                  attributes["ota_name"], now))


def insert_revision(conn: Connection, revision_id: str, attributes: dict[str, Any], card_token: str | None,
                    now: str) -> None:
    conn.execute("INSERT INTO booking_revisions (id, booking_id, property_id, status, attributes, card_token, "
                 "inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (revision_id, attributes["id"], attributes["property_id"], attributes["status"],
                  json.dumps(attributes), card_token, now))


def booking_page(store: Store, query: ListQuery, actor: Actor, stay: View) -> tuple[list[Row], dict[str, Any]]:
    """One page of the bookings of the properties the actor reaches, newest first: each with its revision's
    attributes and card token, whether it is acknowledged and its message thread. The bookings are read first
    (SQLite would otherwise start from the few properties and sort every booking they have), along the newest-first
    index. Unfiltered, or filtered only by what booking_counts holds, the total is a sum over those kept counts: the page
    costs the same at 1,000 bookings as at 100,000."""
    scope, params = reach_scope(actor, "b.property_id")
    return page(store, query, {**BOOKING_COLUMNS, "stay": stay},
                select=f"b.revision_id, r.attributes, r.card_token, {ACKED} AS is_acked, {THREAD} AS thread_id",
                source=f"bookings b {store.dialect.join_in_order} properties p ON p.id = b.property_id "
                       "JOIN booking_revisions r ON r.id = b.revision_id",
                scope=scope, scope_params=params, default_order="b.inserted_at DESC, b.id",
                count=_kept_count(store, query, actor))


def _kept_count(store: Store, query: ListQuery, actor: Actor) -> Callable[[], int] | None:
    """The list's total from booking_counts (kept by triggers), when every filter is one it holds; else None.
    A filter's values are checked by the page's own conditions first, so they are taken here as given."""
    if any(f.field not in {"property_id", "status"} or f.op != "eq" for f in query.filters):
        return None
    scope, scoped = reach_scope(actor, "c.property_id")
    where, params = [scope], list(scoped)
    for f in query.filters:
        values = f.value.split(",")
        where.append(f"c.{f.field} IN ({placeholders(values)})")
        params += values
    return lambda: store.scalar(f"SELECT coalesce(sum(c.bookings), 0) FROM booking_counts c WHERE "
                                f"{' AND '.join(where)}", params)


def booking_shown(store: Store, booking_id: str) -> Row | None:
    """The booking as `booking_page` reads it, with its property and that property's group."""
    return cast(Row | None, store.one(
        f"SELECT r.attributes, r.card_token, b.property_id, p.group_id, {ACKED} AS is_acked, {THREAD} AS thread_id "
        "FROM bookings b JOIN properties p ON p.id = b.property_id "
        "JOIN booking_revisions r ON r.id = b.revision_id WHERE b.id = ?", (booking_id,)))


def revision_page(store: Store, query: ListQuery, actor: Actor, *, feed: bool) -> tuple[list[Row], dict[str, Any]]:
    """Revisions of the properties the actor reaches newest first; the feed (`feed`) is those not yet acknowledged,
    oldest first."""
    scope, params = reach_scope(actor, "r.property_id")
    scope += " AND r.acked_at IS NULL" if feed else ""
    return page(store, query, REVISION_COLUMNS, select="r.*",
                source="booking_revisions r JOIN properties p ON p.id = r.property_id", scope=scope,
                scope_params=params, default_order="r.inserted_at, r.id" if feed else "r.inserted_at DESC, r.id")


def revision_row(store: Store, revision_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT r.*, p.group_id FROM booking_revisions r JOIN properties p ON p.id = r.property_id "
                                      "WHERE r.id = ?", (revision_id,)))


def revision_attributes(store: Store, revision_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT attributes FROM booking_revisions WHERE id = ?", (revision_id,)))


def revision_card_token(store: Store, revision_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT card_token FROM booking_revisions WHERE id = ?", (revision_id,)))


def ack_revision(conn: Connection, revision_id: str, now: str) -> None:
    conn.execute("UPDATE booking_revisions SET acked_at = coalesce(acked_at, ?) WHERE id = ?", (now, revision_id))


def property_row(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM properties WHERE id = ?", (property_id,)))


def property_group(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT id, group_id FROM properties WHERE id = ?", (property_id,)))


# --- finding: guests' names and stays --------------------------------------------------------------------------------

# `filter[stay]`: each view's condition on a booking that is not cancelled, `{today}` its property's today.
STAYS = {
    "arriving_today": "b.arrival_date = {today}",
    "departing_today": "b.departure_date = {today}",
    "in_house": "b.arrival_date <= {today} AND b.departure_date > {today}",  # sleeps there tonight
}


def unnamed_bookings(conn: Connection) -> list[Row]:
    """(id, attributes of the latest revision) of the bookings stored before their guests' names were kept."""
    return conn.execute("SELECT b.id, r.attributes FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id "
                        "WHERE b.guest_names IS NULL").fetchall()


def set_guest_names(conn: Connection, names: list[tuple[str, str]]) -> None:
    """`names`: (guest names, booking id) pairs."""
    conn.executemany("UPDATE bookings SET guest_names = ? WHERE id = ?", names)


def property_timezones(store: Store) -> list[str]:
    return [row[0] for row in store.query("SELECT DISTINCT timezone FROM properties WHERE timezone IS NOT NULL")]


def property_today(zone_dates: list[tuple[str, str]], utc_date: str) -> tuple[str, list[Any]]:
    """An SQL expression for the today of the property `p`, and its parameters: the date of each (time zone, date)
    given, else UTC's."""
    if not zone_dates:
        return "?", [utc_date]
    params: list[Any] = [part for zone_date in zone_dates for part in zone_date]
    return f"(CASE p.timezone {' '.join('WHEN ? THEN ?' for _ in zone_dates)} ELSE ? END)", [*params, utc_date]


def stay_condition(view: str, today: str, today_params: list[Any]) -> tuple[str, list[Any]]:
    """The condition of a `filter[stay]` view, `today` the expression of the property's today (`property_today`)."""
    sql = STAYS[view]
    return f"(b.status != 'cancelled' AND {sql.format(today=today)})", today_params * sql.count("{today}")


# --- direct channels -------------------------------------------------------------------------------------------------

def direct_channel_id(conn: Connection, property_id: str) -> str | None:
    found = conn.execute("SELECT channel_id FROM direct_channels WHERE property_id = ?", (property_id,)).fetchone()
    return found[0] if found else None


def link_direct_channel(conn: Connection, property_id: str, channel_id: str) -> None:
    conn.execute("INSERT INTO direct_channels (property_id, channel_id) VALUES (?, ?)", (property_id, channel_id))


# --- reports ---------------------------------------------------------------------------------------------------------

REPORT = "r.id, r.booking_id, r.kind, r.waived_fees, r.inserted_at, r.delivered_at"
# The booking as its last revision shows it, for the reservation id there: the column holds a keyed hash of one that
# holds a card.
SHOWN = "(SELECT attributes FROM booking_revisions WHERE id = b.revision_id) AS shown"
# Reports are listed oldest first, ties (a clock that stands still) in the order they were made: by rowid.


def reported_kinds(store: Store, booking_id: str) -> dict[str, str]:
    """When each kind of report was made on the booking."""
    return {r["kind"]: r["inserted_at"] for r in store.query(
        "SELECT kind, inserted_at FROM booking_reports WHERE booking_id = ?", (booking_id,))}


def insert_report(conn: Connection, report_id: str, booking_id: str, channel_id: str, kind: str,
                  waived_fees: bool | None, user_id: str | None, now: str) -> None:
    conn.execute("INSERT INTO booking_reports (id, booking_id, channel_id, kind, waived_fees, user_id, "
                 "inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (report_id, booking_id, channel_id, kind, waived_fees, user_id, now))


def report_feed_page(store: Store, query: ListQuery, channel_id: str) -> tuple[list[Row], dict[str, Any]]:
    """One page of the channel's reports not yet delivered, oldest first, each with its booking's number, property
    and shown attributes (`shown`)."""
    return page(store, query, {}, select=f"{REPORT}, b.unique_id, {SHOWN}, b.property_id",
                source="booking_reports r JOIN bookings b ON b.id = r.booking_id",
                scope="r.channel_id = ? AND r.delivered_at IS NULL", scope_params=[channel_id],
                default_order="r.inserted_at, r.rowid")


def is_channel_report(store: Store, report_id: str, channel_id: str) -> bool:
    return bool(store.scalar("SELECT 1 FROM booking_reports WHERE id = ? AND channel_id = ?", (report_id, channel_id)))


def mark_report_delivered(conn: Connection, report_id: str, now: str) -> None:
    conn.execute("UPDATE booking_reports SET delivered_at = coalesce(delivered_at, ?) WHERE id = ?", (now, report_id))


def reports_of_bookings(store: Store, booking_ids: list[str]) -> list[Row]:
    """The reports of these bookings, oldest first."""
    return store.query(f"SELECT {REPORT} FROM booking_reports r WHERE r.booking_id IN "
                       f"({placeholders(booking_ids)}) ORDER BY r.inserted_at, r.rowid", booking_ids)


# --- cards that earlier versions kept per revision -------------------------------------------------------------------

def legacy_cards(conn: Connection) -> list[Row]:
    """Each card kept in `booking_cards`, with its revision's attributes and time."""
    return conn.execute("SELECT c.revision_id, c.nonce, c.ciphertext, r.attributes, r.inserted_at "
                        "FROM booking_cards c JOIN booking_revisions r ON r.id = c.revision_id").fetchall()


def set_revision_card_token(conn: Connection, revision_id: str, token: str) -> None:
    conn.execute("UPDATE booking_revisions SET card_token = ? WHERE id = ?", (token, revision_id))


def delete_legacy_cards(conn: Connection) -> None:
    conn.execute("DELETE FROM booking_cards")


def unacked_revisions(conn: Connection, before: str) -> list[Row]:
    """Up to 1000 booking revisions (id, booking_id, property_id) come before `before`, neither acknowledged nor
    told of."""
    return conn.execute("SELECT id, booking_id, property_id FROM booking_revisions WHERE acked_at IS NULL "
                        "AND non_acked_told_at IS NULL AND inserted_at < ? LIMIT 1000", (before,)).fetchall()


def mark_non_acked_told(conn: Connection, revision_id: str, at: str) -> None:
    conn.execute("UPDATE booking_revisions SET non_acked_told_at = ? WHERE id = ?", (at, revision_id))


def has_legacy_cards(store: Store) -> bool:
    """Whether cards are still kept per revision, as before the vault held them."""
    return bool(store.scalar("SELECT 1 FROM booking_cards LIMIT 1"))


def has_unnamed_bookings(store: Store) -> bool:
    """Whether bookings stored before their guests' names were kept are left."""
    return bool(store.scalar("SELECT 1 FROM bookings WHERE guest_names IS NULL LIMIT 1"))
