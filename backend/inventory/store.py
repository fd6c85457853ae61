"""The inventory domain's SQL: every statement on the tables it owns — room_types, rate_plans, hotel_policies,
availability, restrictions and photos — written in the common dialect of storage/ (both SQLite and PostgreSQL), and
its reads of the properties and channel mappings they belong to. Services keep the logic and the transactions and pass
their connection in (or the Store, for single reads)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from pydantic_core import from_json

from backend.core.listing import Column, ListQuery, order_by, where
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from backend.inventory.ranges import Table
from storage import Connection, Reads, Row, Store, chunked, placeholders

if TYPE_CHECKING:
    from backend.inventory.calendar import Scope

# The list filters and orders of each table, on the aliases of the statements below (r: the room type or rate plan,
# h: the hotel policy, p: their property).
ROOM_COLUMNS = {"id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"), "title": Column("r.title"),
                "count_of_rooms": Column("r.count_of_rooms", "number")}
PLAN_COLUMNS = {"id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"),
                "room_type_id": Column("r.room_type_id", "id"), "title": Column("r.title"),
                "currency": Column("r.currency", "enum"), "meal_type": Column("r.meal_type", "enum"),
                "meal_plan": Column("r.meal_type", "enum"), "sell_mode": Column("r.sell_mode", "enum"),
                "parent_rate_plan_id": Column("r.parent_rate_plan_id", "id")}
POLICY_COLUMNS = {"id": Column("h.id", "id"), "property_id": Column("h.property_id", "id")}
PHOTO_COLUMNS = {"id": Column("ph.id", "id"), "property_id": Column("ph.property_id", "id"),
                 "room_type_id": Column("ph.room_type_id", "id"), "kind": Column("ph.kind", "enum"),
                 "position": Column("ph.position", "number"), "inserted_at": Column("ph.inserted_at"),
                 "updated_at": Column("ph.updated_at")}
OWNED_COLUMNS = {"room_types": ROOM_COLUMNS, "rate_plans": PLAN_COLUMNS}
# A restrictions row as calendar reads it: its key, then ROW_FIELDS (backend/inventory/stays.py) in their order.
RESTRICTION_SELECT = ("rate_plan_id, date, rate, min_stay_arrival, min_stay_through, max_stay, closed_to_arrival, "
                      "closed_to_departure, stop_sell")


# --- properties, as inventory reads them -------------------------------------------------------------------------

def property_row(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM properties WHERE id = ?", (property_id,)))


def property_row_in(conn: Connection, property_id: str) -> Row | None:
    """The property as this transaction reads it."""
    return cast(Row | None, conn.execute("SELECT * FROM properties WHERE id = ?", (property_id,)).fetchone())


def property_access(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT id, group_id, currency FROM properties WHERE id = ?", (property_id,)))


def property_group(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT group_id FROM properties WHERE id = ?", (property_id,)))


def property_currency(store: Store, property_id: str, actor: Actor) -> str | None:
    """The property's currency when the actor reaches it."""
    scope, params = reach_scope(actor, "id")
    return cast(str | None, store.scalar(f"SELECT currency FROM properties WHERE id = ? AND {scope}", (property_id, *params)))


def property_settings(store: Store, property_id: str) -> str:
    return cast(str, store.scalar("SELECT settings FROM properties WHERE id = ?", (property_id,)))


# --- room types and rate plans (`table`: room_types or rate_plans) ----------------------------------------------

def owned_row(store: Store, table: str, item_id: str) -> Row | None:
    """The room type or rate plan with its property's group_id."""
    return cast(Row | None, store.one(f"SELECT r.*, p.group_id FROM {table} r JOIN properties p ON p.id = r.property_id "
                                      "WHERE r.id = ?", (item_id,)))


def owned_page(store: Store, table: str, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    scope, params = reach_scope(actor, "r.property_id")
    return page(store, query, OWNED_COLUMNS[table], select="r.*",
                source=f"{table} r JOIN properties p ON p.id = r.property_id",
                scope=scope, scope_params=params, default_order="r.title, r.id")


def owned_options(store: Store, table: str, query: ListQuery, actor: Actor) -> list[Row]:
    """Every one of the properties the actor reaches, the list's filters and order applied, unpaginated."""
    columns = OWNED_COLUMNS[table]
    conditions, params = where(query, columns, store.dialect)
    ordered = order_by(query, columns, "r.title, r.id", store.dialect)
    scope, scoped = reach_scope(actor, "r.property_id")
    return store.query(
        f"SELECT r.* FROM {table} r JOIN properties p ON p.id = r.property_id "
        f"WHERE {scope}{conditions} ORDER BY {ordered}", [*scoped, *params])


def owned_of_property(store: Store, table: str, property_id: str) -> list[Row]:
    return store.query(f"SELECT * FROM {table} WHERE property_id = ? ORDER BY title, id", (property_id,))


def owned_row_in(conn: Connection, table: str, item_id: str) -> Row | None:
    return cast(Row | None, conn.execute(f"SELECT * FROM {table} WHERE id = ?", (item_id,)).fetchone())


def insert_owned(conn: Connection, table: str, item_id: str, values: dict[str, Any], now: str) -> None:
    conn.execute(f"INSERT INTO {table} (id, {', '.join(values)}, inserted_at, updated_at) "
                 f"VALUES (?, {', '.join('?' * len(values))}, ?, ?)", (item_id, *values.values(), now, now))


def update_owned(conn: Connection, table: str, item_id: str, values: dict[str, Any], now: str) -> None:
    conn.execute(f"UPDATE {table} SET {', '.join(f'{k} = ?' for k in values)}, updated_at = ? WHERE id = ?",
                 (*values.values(), now, item_id))


def delete_owned(conn: Connection, table: str, item_id: str) -> None:
    conn.execute(f"DELETE FROM {table} WHERE id = ?", (item_id,))


def versions(store: Reads, table: str, ids: list[str]) -> Iterable[tuple[str, str]]:
    """(id, updated_at) of these rows of the table (asked in chunks: a channel's list may name tens of thousands)."""
    return [row for chunk in chunked(ids) for row in
            store.tuples(f"SELECT id, updated_at FROM {table} WHERE id IN ({placeholders(chunk)})", chunk)]


def plan_room_versions(store: Reads, plan_ids: list[str]) -> list[tuple[str, str, str, str]]:
    """(id, updated_at, room_type_id, the room type's updated_at) of these rate plans, asked in chunks as `versions`."""
    return [row for chunk in chunked(plan_ids) for row in store.tuples(
        "SELECT p.id, p.updated_at, r.id, r.updated_at FROM rate_plans p JOIN room_types r ON r.id = p.room_type_id "
        f"WHERE p.id IN ({placeholders(chunk)})", chunk)]


def rows_by_id(store: Reads, table: str, ids: list[str]) -> list[Row]:
    return [row for chunk in chunked(ids) for row in
            store.query(f"SELECT * FROM {table} WHERE id IN ({placeholders(chunk)})", chunk)]


def room_type(store: Store, room_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM room_types WHERE id = ?", (room_id,)))


def room_type_ids(store: Store, property_id: str) -> list[str]:
    return [r[0] for r in store.query("SELECT id FROM room_types WHERE property_id = ? ORDER BY title, id",
                                      (property_id,))]


def room_plan_details(store: Store, room_id: str) -> list[Row]:
    """Title and details of the room type's rate plans."""
    return store.query("SELECT title, details FROM rate_plans WHERE room_type_id = ?", (room_id,))


def room_plan_ids(conn: Connection, room_id: str) -> list[str]:
    return [row[0] for row in conn.execute("SELECT id FROM rate_plans WHERE room_type_id = ?", (room_id,))]


def derived_elsewhere(store: Store, room_id: str) -> list[Row]:
    """Titles of the plans of other room types derived from a plan of this one."""
    return store.query("SELECT c.title FROM rate_plans c JOIN rate_plans p "
                       "ON p.id = c.parent_rate_plan_id WHERE p.room_type_id = ? AND c.room_type_id != ? "
                       "ORDER BY c.title", (room_id, room_id))


def parent_plan(store: Store, plan_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT title, property_id, currency, parent_rate_plan_id FROM rate_plans WHERE id = ?",
                                      (plan_id,)))


def child_plans(store: Store, plan_id: str) -> list[Row]:
    """Title and currency of the plans derived from this one, by title."""
    return store.query("SELECT title, currency FROM rate_plans WHERE parent_rate_plan_id = ? ORDER BY title",
                       (plan_id,))


def plan_title(store: Store, plan_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT title FROM rate_plans WHERE id = ?", (plan_id,)))


def property_plans(store: Store, property_id: str) -> list[Row]:
    """Id, room_type_id and currency of the property's rate plans, by title."""
    return store.query("SELECT id, room_type_id, currency FROM rate_plans WHERE property_id = ? "
                       "ORDER BY title, id", (property_id,))


def has_rates(store: Store, plan_id: str) -> Any:
    """1 when some night of the plan has a rate stored, else None."""
    return store.scalar("SELECT 1 FROM restrictions WHERE rate_plan_id = ? AND rate IS NOT NULL LIMIT 1", (plan_id,))


def mapped_plan_versions(store: Reads, channel_ids: list[str],
                         property_ids: list[str] | None = None) -> Iterable[tuple[str, str]]:
    """(id, updated_at) of the rate plans mapped to the channels (optionally of some properties only): a subquery
    rather than a long IN list, for the property list over thousands of properties; of some properties, their plans
    each looked up in the mappings (a page's few, however many the channels map)."""
    mapped = f"SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id IN ({placeholders(channel_ids)})"
    if property_ids is None:
        return store.tuples(f"SELECT id, updated_at FROM rate_plans WHERE id IN ({mapped})", channel_ids)
    return store.tuples(f"SELECT id, updated_at FROM rate_plans p WHERE p.property_id IN ({placeholders(property_ids)}) "
                        f"AND EXISTS ({mapped} AND rate_plan_id = p.id)", [*property_ids, *channel_ids])


# --- nights: availability and restrictions ----------------------------------------------------------------------

def _scope_plans(scope: Scope) -> tuple[str, list[str]]:
    """What goes in `IN (…)` for the scope's rate plans: its ids, or a subquery of the channels' mapped plans."""
    if scope.channel_ids:
        return (f"SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id IN ({placeholders(list(scope.channel_ids))})",
                list(scope.channel_ids))
    return placeholders(list(scope.ids)), list(scope.ids)


def _scope_rooms(scope: Scope) -> tuple[str, list[str]]:
    """What goes in `IN (…)` for the scope's room types: its ids, or those of the channels' mapped plans."""
    if scope.channel_ids:
        return ("SELECT p.room_type_id FROM rate_plans p JOIN channel_rate_plans c ON c.rate_plan_id = p.id "
                f"WHERE c.channel_id IN ({placeholders(list(scope.channel_ids))})", list(scope.channel_ids))
    return placeholders(list(scope.ids)), list(scope.ids)


def scope_plan_versions(store: Reads, scope: Scope) -> Iterable[tuple[str, str]]:
    """(id, updated_at) of the scope's rate plans."""
    condition, params = _scope_plans(scope)
    return store.tuples(f"SELECT id, updated_at FROM rate_plans WHERE id IN ({condition})", params)


def restriction_nights(store: Reads, scope: Scope, first: str, last: str) -> Iterable[tuple[Any, ...]]:
    """The scope's stored restrictions rows from first to last (both included), as RESTRICTION_SELECT reads them."""
    condition, params = _scope_plans(scope)
    return store.tuples(f"SELECT {RESTRICTION_SELECT} FROM restrictions WHERE rate_plan_id IN ({condition}) "
                        "AND date >= ? AND date <= ?", [*params, first, last])


# stay_summaries packs some values in one integer each, so that the database sums a night up in fewer aggregates:
# a stop counts STOPPED over any min stay (values of both kinds are at most 730, backend/inventory/ari.py), and an
# arrival's three values take PACKED each, plus one so that 0 stands for none. The packing and its reading are here.
STOPPED = PACKED = 1024


class Summary(NamedTuple):
    """A plan's stay summed up. None stands for no value of its own; NO_ROWS for a plan without a row in the stay."""

    rates: list[int | None]  # of the nights with a row, in date order
    stopped: bool  # some night is
    through: int | None  # the highest min stay through
    arrival: tuple[int | None, int | None, int | None]  # the arrival's (min_stay_arrival, max_stay, closed_to_arrival)
    departure_closed: int | None  # the departure date's closed_to_departure


NO_ROWS = Summary([], False, None, (None, None, None), None)


def stay_summaries(store: Reads, plan_ids: list[str], arrival: str, departure: str) -> dict[str, Summary]:
    """Each plan's stay summed up, of the plans with a row in it. One row a plan instead of one a night: the reader
    makes no object per night."""
    night = "FILTER (WHERE date < ?)"
    rows = store.tuples(
        f"SELECT rate_plan_id, coalesce({store.dialect.json_list('rate', 'date', 'date < ?')}, '[]'), "
        f"max(coalesce(stop_sell, 0) * {STOPPED} + coalesce(min_stay_through, 0)) {night}, "
        f"max(CASE WHEN date = ? THEN coalesce(min_stay_arrival + 1, 0) + coalesce(max_stay + 1, 0) * {PACKED} "
        f"+ coalesce(closed_to_arrival + 1, 0) * {PACKED * PACKED} END), "
        "max(CASE WHEN date = ? THEN closed_to_departure END) FROM restrictions WHERE rate_plan_id IN "
        f"({placeholders(plan_ids)}) AND date >= ? AND date <= ? GROUP BY rate_plan_id",
        [departure, departure, arrival, departure, *plan_ids, arrival, departure])
    return {plan_id: Summary(from_json(rates), *_unpack_nights(nights), _unpack_arrival(arriving), ctd)
            for plan_id, rates, nights, arriving, ctd in rows}


def _unpack_nights(packed: int | None) -> tuple[bool, int | None]:
    if packed is None:
        return False, None
    stopped, through = divmod(packed, STOPPED)
    return bool(stopped), through or None


def _unpack_arrival(packed: int | None) -> tuple[int | None, int | None, int | None]:
    if packed is None:
        return None, None, None
    rest, msa = divmod(packed, PACKED)
    cta, most = divmod(rest, PACKED)
    return msa - 1 if msa else None, most - 1 if most else None, cta - 1 if cta else None


def availability_nights(store: Reads, scope: Scope, first: str, last: str) -> Iterable[tuple[str, str, int]]:
    """(room_type_id, date, availability) of the scope's room types from first to last (both included)."""
    condition, params = _scope_rooms(scope)
    return store.tuples(f"SELECT room_type_id, date, availability FROM availability WHERE room_type_id IN ({condition}) "
                        "AND date >= ? AND date <= ?", [*params, first, last])


def insert_ari_task(conn: Connection, task_id: str, property_id: str, kind: str, user_id: str | None,
                    value_count: int, now: str) -> None:
    conn.execute("INSERT INTO ari_tasks (id, property_id, kind, user_id, value_count, inserted_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (task_id, property_id, kind, user_id, value_count, now))


def write_nights(conn: Connection, table: Table, target_id: str, days: list[str], fields: dict[str, Any]) -> None:
    """These columns on these nights of the room type or rate plan; the row's other columns stay as they are."""
    columns = list(fields)
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns)
    conn.executemany(
        f"INSERT INTO {table.name} ({table.key}, date, {', '.join(columns)}) "
        f"VALUES (?, ?{', ?' * len(columns)}) ON CONFLICT({table.key}, date) DO UPDATE SET {updates}",
        [(target_id, day, *fields.values()) for day in days])


def night_rows(conn: Connection, table: Table, target_id: str, first: str, last: str) -> dict[str, tuple[Any, ...]]:
    """ISO date → the night's stored columns (table.columns), of the nights from first to last that have a row."""
    return {row[0]: tuple(row[1:]) for row in conn.execute(
        f"SELECT date, {', '.join(table.columns)} FROM {table.name} WHERE {table.key} = ? AND date >= ? AND date <= ?",
        (target_id, first, last))}


def target_row(store: Store, table: Table, target_id: str) -> Row | None:
    """The room type or rate plan the table's nights are for."""
    return cast(Row | None, store.one(f"SELECT * FROM {table.targets} WHERE id = ?", (target_id,)))


def target_exists(conn: Connection, table: Table, target_id: str) -> bool:
    """Whether the room type or rate plan the table's nights are for is still there."""
    return conn.execute(f"SELECT 1 FROM {table.targets} WHERE id = ?", (target_id,)).fetchone() is not None


def put_nights(conn: Connection, table: Table, target_id: str, wanted: dict[str, tuple[Any, ...] | None]) -> None:
    """These rows exactly: None deletes the night's row, a tuple replaces it whole (its NULLs too)."""
    conn.executemany(f"DELETE FROM {table.name} WHERE {table.key} = ? AND date = ?",
                     [(target_id, day) for day, row in wanted.items() if row is None])
    marks = ", ".join("?" * (len(table.columns) + 2))
    replace = ", ".join(f"{column} = excluded.{column}" for column in table.columns)
    conn.executemany(f"INSERT INTO {table.name} ({table.key}, date, {', '.join(table.columns)}) VALUES ({marks}) "
                     f"ON CONFLICT ({table.key}, date) DO UPDATE SET {replace}",
                     [(target_id, day, *row) for day, row in wanted.items() if row is not None])


# --- hotel policies -----------------------------------------------------------------------------------------------

def hotel_policy(store: Reads, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM hotel_policies WHERE property_id = ?", (property_id,)))


def hotel_policy_row(store: Store, policy_id: str) -> Row | None:
    """The policy, with its group_id: a policy made on its own is its group's."""
    return cast(Row | None, store.one("SELECT * FROM hotel_policies WHERE id = ?", (policy_id,)))


def hotel_policies_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    """A page of the policies of the properties the actor reaches, and of their groups' policies of no property."""
    groups = actor.group_list()
    reached, params = reach_scope(actor, "h.property_id")
    return page(store, query, POLICY_COLUMNS, select="h.*",
                source="hotel_policies h LEFT JOIN properties p ON p.id = h.property_id",
                scope=f"(h.property_id IS NULL AND h.group_id IN ({placeholders(groups)}) OR {reached})",
                scope_params=[*groups, *params], default_order="p.title, h.id")


def policies_of(store: Reads, property_ids: list[str]) -> list[Row]:
    """(property_id, policy) of these properties' policies."""
    return [row for chunk in chunked(property_ids) for row in store.query(
        f"SELECT property_id, policy FROM hotel_policies WHERE property_id IN ({placeholders(chunk)})", chunk)]


def put_hotel_policy(conn: Connection, policy_id: str, property_id: str, group_id: str, policy: str,
                     now: str) -> None:
    """The property's policy, made (under policy_id) or replaced (keeping its id)."""
    conn.execute("INSERT INTO hotel_policies (id, property_id, group_id, policy, updated_at) VALUES (?, ?, ?, ?, ?) "
                 "ON CONFLICT(property_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at",
                 (policy_id, property_id, group_id, policy, now))


def insert_free_hotel_policy(conn: Connection, policy_id: str, group_id: str, policy: str, now: str) -> None:
    """A policy of no property yet."""
    conn.execute("INSERT INTO hotel_policies (id, property_id, group_id, policy, updated_at) VALUES (?, NULL, ?, ?, ?)",
                 (policy_id, group_id, policy, now))


def set_hotel_policy(conn: Connection, policy_id: str, policy: str, now: str) -> None:
    conn.execute("UPDATE hotel_policies SET policy = ?, updated_at = ? WHERE id = ?", (policy, now, policy_id))


def link_hotel_policy(conn: Connection, property_id: str, policy_id: str | None, group_id: str) -> bool:
    """The property's policy becomes `policy_id` (None: none), its former one left to its group, unlinked. Whether
    it could: the policy is its group's and no other property's, as the conditional UPDATE finds it."""
    conn.execute("UPDATE hotel_policies SET property_id = NULL WHERE property_id = ? AND id != ?",
                 (property_id, policy_id or ""))
    if policy_id is None:
        return True
    return bool(conn.execute("UPDATE hotel_policies SET property_id = ? WHERE id = ? AND group_id = ? AND "
                             "(property_id IS NULL OR property_id = ?)",
                             (property_id, policy_id, group_id, property_id)).rowcount)


def move_hotel_policy(conn: Connection, property_id: str) -> None:
    """The property's policy is of the property's group (`properties.group_id`) once that changed."""
    conn.execute("UPDATE hotel_policies SET group_id = (SELECT group_id FROM properties WHERE id = ?) "
                 "WHERE property_id = ?", (property_id, property_id))


def delete_hotel_policy(conn: Connection, policy_id: str) -> None:
    conn.execute("DELETE FROM hotel_policies WHERE id = ?", (policy_id,))


def take_rooms(conn: Connection, wanted: Mapping[tuple[str, str], int]) -> set[tuple[str, str]]:
    """Of these (room type, night): rooms wanted, those whose nights had that many left, taken in one statement (per
    thousand nights: a statement's parameters are bounded): the conditional decrement, which holds when two writers
    take the last room at once; a night with fewer is left as it was."""
    taken: set[tuple[str, str]] = set()
    for chunk in chunked(list(wanted.items()), 1000):
        taken.update((r[0], r[1]) for r in conn.execute(
            f"WITH wanted (room_id, night, n) AS (VALUES {', '.join('(?, ?, ?)' for _ in chunk)}) "
            "UPDATE availability AS a SET availability = a.availability - w.n FROM wanted w "
            "WHERE a.room_type_id = w.room_id AND a.date = w.night AND a.availability >= w.n "
            "RETURNING room_type_id, date", [v for (room_type_id, day), n in chunk for v in (room_type_id, day, n)]))
    return taken


def give_back_rooms(conn: Connection, units: list[tuple[str, str]]) -> None:
    """Each (room type, night) one room more (none: no round trip, which an empty executemany still makes)."""
    if units:
        conn.executemany("UPDATE availability SET availability = availability + 1 WHERE room_type_id = ? AND date = ?",
                         units)


def plan_currency(store: Store, plan_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT currency FROM rate_plans WHERE id = ?", (plan_id,)))


# --- the sellable index (backend/inventory/sellable.py) -----------------------------------------------------------

SELLABLE_COLUMNS = ("channel_id", "date", "property_id", "currency", "adults", "children", "infants", "persons",
                    "nights", "timezone", "cut_off_time", "cut_off_days", "state_length")


def mapped_plans_of(conn: Connection, property_id: str, codes: Sequence[str]) -> list[tuple[str, str, str, str, str]]:
    """(channel_id, rate_plan_id, its updated_at, room_type_id, its updated_at) of every mapping of the property's
    rate plans to a channel of these codes that it is connected to, while it is active (what those channels sell of
    it): the versions with them, so that the plans and rooms are not asked for again (backend/inventory/calendar.py)."""
    return [tuple(r) for r in conn.execute(
        "SELECT m.channel_id, m.rate_plan_id, p.updated_at, r.id, r.updated_at FROM rate_plans p "
        "JOIN channel_rate_plans m ON m.rate_plan_id = p.id JOIN room_types r ON r.id = p.room_type_id "
        "WHERE p.property_id = ? AND EXISTS (SELECT 1 FROM properties h WHERE h.id = p.property_id AND h.is_active = 1) "
        "AND EXISTS (SELECT 1 FROM channel_properties c WHERE c.channel_id = m.channel_id AND c.property_id = ?) "
        f"AND EXISTS (SELECT 1 FROM channels ch WHERE ch.id = m.channel_id AND ch.channel_code IN ({placeholders(codes)}))",
        (property_id, property_id, *codes))]


def property_channel_ids(conn: Connection, property_id: str) -> list[str]:
    """The channels the property is connected to."""
    return [r[0] for r in conn.execute("SELECT channel_id FROM channel_properties WHERE property_id = ?",
                                       (property_id,))]


def count_sold(conn: Connection, channel_ids: list[str], codes: Sequence[str]) -> None:
    """Each channel's (of these codes) count of the active properties connected to it, counted again."""
    conn.executemany(
        "INSERT INTO channel_sold_counts (channel_id, properties) SELECT c.id, (SELECT count(*) FROM channel_properties "
        "cp JOIN properties p ON p.id = cp.property_id WHERE cp.channel_id = c.id AND p.is_active = 1) FROM channels c "
        f"WHERE c.id = ? AND c.channel_code IN ({placeholders(codes)}) "
        "ON CONFLICT (channel_id) DO UPDATE SET properties = excluded.properties",
        [(channel_id, *codes) for channel_id in channel_ids])


def restriction_span(conn: Connection, plan_ids: list[str]) -> tuple[str | None, str | None]:
    """The first and last night that any of these plans has a row for."""
    row = conn.execute(f"SELECT min(date), max(date) FROM restrictions WHERE rate_plan_id IN ({placeholders(plan_ids)})",
                       plan_ids).fetchone()
    return row[0], row[1]


def all_property_ids(conn: Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT id FROM properties")]


def all_channel_ids(conn: Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT id FROM channels")]


def put_sellable(conn: Connection, property_id: str, first: str | None, last: str | None,
                 rows: list[tuple[Any, ...]]) -> None:
    """The property's index rows from first to last (every one, both None) replaced by these, in one batch."""
    with conn.batch():
        if first is None:
            conn.execute("DELETE FROM sellable_nights WHERE property_id = ?", (property_id,))
        else:
            conn.execute("DELETE FROM sellable_nights WHERE property_id = ? AND date >= ? AND date <= ?",
                         (property_id, first, last))
        if rows:
            conn.executemany(f"INSERT INTO sellable_nights ({', '.join(SELLABLE_COLUMNS)}) "
                             f"VALUES ({', '.join('?' * len(SELLABLE_COLUMNS))})", rows)


def plan_properties(conn: Connection, plan_ids: list[str]) -> list[str]:
    """The properties of these rate plans (asked for in chunks: a channel may map tens of thousands)."""
    found: dict[str, None] = {}
    for chunk in chunked(plan_ids):
        found.update((r[0], None) for r in conn.execute(
            f"SELECT DISTINCT property_id FROM rate_plans WHERE id IN ({placeholders(chunk)})", chunk))
    return list(found)


# --- availability rules (backend/inventory/channel_rules.py, backend/inventory/availability_rules.py) -----------

RULE_COLUMNS = {"id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"), "title": Column("r.title"),
                "type": Column("r.type", "enum"), "start_date": Column("r.start_date", "date"),
                "end_date": Column("r.end_date", "date"), "inserted_at": Column("r.inserted_at")}


def rule_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    """A page of the rules of the properties the actor reaches (newest first unless the query orders it)."""
    scope, params = reach_scope(actor, "r.property_id")
    return page(store, query, RULE_COLUMNS, select="r.*", source="channel_availability_rules r",
                scope=scope, scope_params=params,
                default_order="r.inserted_at DESC, r.id DESC")


def rule_row(store: Store, rule_id: str) -> Row | None:
    """The rule with its property's group_id."""
    return cast(Row | None, store.one("SELECT r.*, p.group_id FROM channel_availability_rules r "
                                      "JOIN properties p ON p.id = r.property_id WHERE r.id = ?", (rule_id,)))


def rule_channels(store: Store, rule_ids: list[str]) -> dict[str, list[str]]:
    """Each rule's channels, in the order they were given."""
    found: dict[str, list[str]] = {rule_id: [] for rule_id in rule_ids}
    for rule_id, channel_id in store.query(
            "SELECT rule_id, channel_id FROM channel_availability_rule_channels "
            f"WHERE rule_id IN ({placeholders(rule_ids)}) ORDER BY rule_id, ordinal", rule_ids):
        found[rule_id].append(channel_id)
    return found


def rules_of_channels(store: Reads, channel_ids: list[str], first: str, last: str) -> list[Row]:
    """The rules naming any of these channels that reach into first..last, one row per rule and channel named."""
    return store.query(
        "SELECT r.id, r.type, r.value, r.days, r.start_date, r.end_date, r.affected_room_types, c.channel_id "
        "FROM channel_availability_rule_channels c JOIN channel_availability_rules r ON r.id = c.rule_id "
        f"WHERE c.channel_id IN ({placeholders(channel_ids)}) AND r.start_date <= ? "
        "AND (r.end_date IS NULL OR r.end_date >= ?)", (*channel_ids, last, first))


def rules_of_property(conn: Connection, property_id: str) -> list[Row]:
    """Every rule of the property, one row per rule and channel named, as this transaction reads them."""
    return conn.execute(
        "SELECT r.id, r.type, r.value, r.days, r.start_date, r.end_date, r.affected_room_types, c.channel_id "
        "FROM channel_availability_rules r JOIN channel_availability_rule_channels c ON c.rule_id = r.id "
        "WHERE r.property_id = ?", (property_id,)).fetchall()


def connected_channel_ids(conn: Connection, property_id: str, channel_ids: list[str]) -> set[str]:
    """Those of these channels that the property is connected to."""
    return {r[0] for r in conn.execute(
        f"SELECT channel_id FROM channel_properties WHERE property_id = ? AND channel_id IN ({placeholders(channel_ids)})",
        (property_id, *channel_ids))}


def property_room_ids(conn: Connection, property_id: str, room_ids: list[str]) -> set[str]:
    """Those of these room types that are the property's."""
    return {r[0] for r in conn.execute(
        f"SELECT id FROM room_types WHERE property_id = ? AND id IN ({placeholders(room_ids)})",
        (property_id, *room_ids))}


def put_rule(conn: Connection, values: dict[str, Any], channel_ids: list[str], now: str, *, new: bool) -> None:
    """The rule made (`new`) or replaced, with its channels in their order. `values`: id, property_id, title, type,
    value, days, start_date, end_date, affected_room_types (the lists as JSON)."""
    names = ("property_id", "title", "type", "value", "days", "start_date", "end_date", "affected_room_types")
    if new:
        conn.execute(f"INSERT INTO channel_availability_rules (id, {', '.join(names)}, inserted_at, updated_at) "
                     f"VALUES ({', '.join('?' * (len(names) + 3))})",
                     (values["id"], *(values[n] for n in names), now, now))
    else:
        conn.execute(f"UPDATE channel_availability_rules SET {', '.join(f'{n} = ?' for n in names)}, updated_at = ? "
                     "WHERE id = ?", (*(values[n] for n in names), now, values["id"]))
        conn.execute("DELETE FROM channel_availability_rule_channels WHERE rule_id = ?", (values["id"],))
    conn.executemany("INSERT INTO channel_availability_rule_channels (rule_id, channel_id, ordinal) VALUES (?, ?, ?)",
                     [(values["id"], channel_id, n) for n, channel_id in enumerate(channel_ids)])


def delete_rule(conn: Connection, rule_id: str) -> None:
    conn.execute("DELETE FROM channel_availability_rules WHERE id = ?", (rule_id,))


# --- taxes and tax sets (backend/inventory/tax_sets.py) -----------------------------------------------------------

TAX_COLUMNS = {"id": Column("t.id", "id"), "property_id": Column("t.property_id", "id"), "title": Column("t.title"),
               "logic": Column("t.logic", "enum"), "type": Column("t.type", "enum")}
TAX_SET_COLUMNS = {"id": Column("t.id", "id"), "property_id": Column("t.property_id", "id"),
                   "title": Column("t.title"), "currency": Column("t.currency", "enum")}
TAX_FIELDS = ("title", "logic", "type", "rate", "currency", "is_inclusive", "skip_nights", "max_nights",
              "applicable_date_ranges")
# A set's taxes as pricing and reads take them: the tax's row, its level and position in the set.
SET_TAX_SELECT = "m.tax_set_id, m.level, m.position, t.*"


def tax_or_set_row(store: Store, table: str, item_id: str) -> Row | None:
    """A tax or tax set (`table`: taxes or tax_sets) with its property's group_id."""
    return cast(Row | None, store.one(f"SELECT t.*, p.group_id FROM {table} t JOIN properties p ON p.id = t.property_id "
                                      "WHERE t.id = ?", (item_id,)))


def tax_or_set_page(store: Store, table: str, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    scope, params = reach_scope(actor, "t.property_id")
    return page(store, query, TAX_COLUMNS if table == "taxes" else TAX_SET_COLUMNS, select="t.*",
                source=f"{table} t", scope=scope, scope_params=params,
                default_order="t.title, t.id")


def insert_tax(conn: Connection, tax_id: str, property_id: str, rate_plan_id: str | None, values: dict[str, Any],
               now: str) -> None:
    conn.execute(f"INSERT INTO taxes (id, property_id, rate_plan_id, {', '.join(TAX_FIELDS)}, inserted_at, updated_at) "
                 f"VALUES (?, ?, ?{', ?' * len(TAX_FIELDS)}, ?, ?)",
                 (tax_id, property_id, rate_plan_id, *(values[f] for f in TAX_FIELDS), now, now))


def update_tax(conn: Connection, tax_id: str, values: dict[str, Any], now: str) -> None:
    """The tax, and the stamp of every set holding it: what a set prices at has changed."""
    conn.execute(f"UPDATE taxes SET {', '.join(f'{f} = ?' for f in TAX_FIELDS)}, updated_at = ? WHERE id = ?",
                 (*(values[f] for f in TAX_FIELDS), now, tax_id))
    conn.execute("UPDATE tax_sets SET updated_at = ? WHERE id IN (SELECT tax_set_id FROM tax_set_taxes "
                 "WHERE tax_id = ?)", (now, tax_id))


def delete_tax(conn: Connection, tax_id: str) -> None:
    conn.execute("DELETE FROM taxes WHERE id = ?", (tax_id,))


def sets_holding(conn: Connection, tax_id: str) -> list[Row]:
    """Id, title and currency of the sets a tax is in, by title."""
    return conn.execute("SELECT s.id, s.title, s.currency FROM tax_sets s JOIN tax_set_taxes m ON m.tax_set_id = s.id "
                        "WHERE m.tax_id = ? ORDER BY s.title, s.id", (tax_id,)).fetchall()


def taxes_by_id(conn: Connection, ids: list[str]) -> dict[str, Row]:
    return {row["id"]: row for row in conn.execute(
        f"SELECT * FROM taxes WHERE id IN ({placeholders(ids)})", ids).fetchall()} if ids else {}


def insert_tax_set(conn: Connection, set_id: str, property_id: str, rate_plan_id: str | None, title: str,
                   currency: str, now: str) -> None:
    conn.execute("INSERT INTO tax_sets (id, property_id, rate_plan_id, title, currency, is_default, inserted_at, "
                 "updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)", (set_id, property_id, rate_plan_id, title, currency,
                                                                 now, now))


def update_tax_set(conn: Connection, set_id: str, title: str, currency: str, now: str) -> None:
    conn.execute("UPDATE tax_sets SET title = ?, currency = ?, updated_at = ? WHERE id = ?",
                 (title, currency, now, set_id))


def put_set_taxes(conn: Connection, set_id: str, members: list[tuple[str, int]]) -> None:
    """The set's taxes exactly these (tax id, level), in this order."""
    conn.execute("DELETE FROM tax_set_taxes WHERE tax_set_id = ?", (set_id,))
    conn.executemany("INSERT INTO tax_set_taxes (tax_set_id, tax_id, level, position) VALUES (?, ?, ?, ?)",
                     [(set_id, tax_id, level, position) for position, (tax_id, level) in enumerate(members)])


def delete_tax_set(conn: Connection, set_id: str) -> None:
    conn.execute("DELETE FROM tax_sets WHERE id = ?", (set_id,))


def claim_default(conn: Connection, set_id: str, property_id: str) -> bool:
    """The set becomes its property's default if it has none: the conditional UPDATE's rowcount says so (the unique
    index tax_sets_default holds it whatever runs at once)."""
    return bool(conn.execute("UPDATE tax_sets SET is_default = 1 WHERE id = ? AND NOT EXISTS (SELECT 1 FROM tax_sets "
                             "WHERE property_id = ? AND is_default = 1)", (set_id, property_id)).rowcount)


def set_default(conn: Connection, set_id: str, property_id: str, is_default: bool) -> None:
    """The set the property's default (the one before no longer), or not the default."""
    if is_default:
        conn.execute("UPDATE tax_sets SET is_default = 0 WHERE property_id = ? AND id != ? AND is_default = 1",
                     (property_id, set_id))
    conn.execute("UPDATE tax_sets SET is_default = ? WHERE id = ?", (int(is_default), set_id))


def default_tax_set(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one(
        "SELECT id, currency FROM tax_sets WHERE property_id = ? AND is_default = 1", (property_id,)))


def set_taxes(store: Reads, set_ids: list[str]) -> list[Row]:
    """The taxes of these sets (SET_TAX_SELECT), by set, level (highest first) and position."""
    return [row for chunk in chunked(set_ids) for row in store.query(
        f"SELECT {SET_TAX_SELECT} FROM tax_set_taxes m JOIN taxes t ON t.id = m.tax_id "
        f"WHERE m.tax_set_id IN ({placeholders(chunk)}) ORDER BY m.tax_set_id, m.level DESC, m.position", chunk)]


def set_plans(store: Store, set_ids: list[str]) -> list[tuple[str, str]]:
    """(tax_set_id, rate plan id) of the plans priced with these sets, by title."""
    return [row for chunk in chunked(set_ids) for row in store.tuples(
        f"SELECT tax_set_id, id FROM rate_plans WHERE tax_set_id IN ({placeholders(chunk)}) ORDER BY title, id", chunk)]


def plans_with_set(conn: Connection, set_id: str) -> list[Row]:
    """Id, title and currency of the plans priced with the set, by title."""
    return conn.execute("SELECT id, title, currency FROM rate_plans WHERE tax_set_id = ? ORDER BY title, id",
                        (set_id,)).fetchall()


def point_plans(conn: Connection, plan_ids: list[str], set_id: str | None, now: str) -> None:
    """These plans priced with the set (None: none); stamped, so that a kept parsed plan is read anew."""
    for chunk in chunked(plan_ids):
        conn.execute(f"UPDATE rate_plans SET tax_set_id = ?, updated_at = ? WHERE id IN ({placeholders(chunk)})",
                     (set_id, now, *chunk))


def own_tax_set(conn: Connection, plan_id: str) -> str | None:
    """The rate plan's own set (made from its embedded taxes), if it has one."""
    row = conn.execute("SELECT id FROM tax_sets WHERE rate_plan_id = ?", (plan_id,)).fetchone()
    return None if row is None else row[0]


def delete_own_taxes(conn: Connection, plan_id: str) -> None:
    """The rate plan's own set and own taxes."""
    conn.execute("DELETE FROM tax_sets WHERE rate_plan_id = ?", (plan_id,))
    conn.execute("DELETE FROM taxes WHERE rate_plan_id = ?", (plan_id,))


def tax_set_versions(store: Store, set_ids: list[str]) -> Iterable[tuple[str, str]]:
    return versions(store, "tax_sets", set_ids)


# --- photos (a property's own have no room type; `room` is '' for them in the statements on one's photos) ----------

PHOTO_PLACE = "property_id = ? AND COALESCE(room_type_id, '') = ?"


def property_group_in(conn: Connection, property_id: str) -> str | None:
    row = conn.execute("SELECT group_id FROM properties WHERE id = ?", (property_id,)).fetchone()
    return None if row is None else row[0]


def room_property_in(conn: Connection, room_id: str) -> str | None:
    """The property of the room type, if there is one."""
    row = conn.execute("SELECT property_id FROM room_types WHERE id = ?", (room_id,)).fetchone()
    return None if row is None else row[0]


def photos_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    scope, params = reach_scope(actor, "ph.property_id")
    return page(store, query, PHOTO_COLUMNS, select="ph.*", source="photos ph", scope=scope, scope_params=params,
                default_order="ph.property_id, COALESCE(ph.room_type_id, ''), ph.position")


def photo_row(store: Store, photo_id: str) -> Row | None:
    """The photo with its property's group_id."""
    return cast(Row | None, store.one("SELECT ph.*, p.group_id FROM photos ph JOIN properties p ON p.id = ph.property_id "
                                      "WHERE ph.id = ?", (photo_id,)))


def photo_row_in(conn: Connection, photo_id: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT * FROM photos WHERE id = ?", (photo_id,)).fetchone())


def photos_in(conn: Connection, property_id: str, room: str) -> list[Row]:
    """One property's or room type's photos, in order, as this transaction reads them."""
    return conn.execute(f"SELECT * FROM photos WHERE {PHOTO_PLACE} ORDER BY position", (property_id, room)).fetchall()


def photo_count(conn: Connection, property_id: str, room: str) -> int:
    return cast(int, conn.execute(f"SELECT count(*) FROM photos WHERE {PHOTO_PLACE}", (property_id, room)).fetchone()[0])


def property_photos(store: Reads, property_ids: list[str]) -> list[Row]:
    """The own photos of these properties, each one's in order."""
    return [row for chunk in chunked(property_ids) for row in store.query(
        f"SELECT * FROM photos WHERE property_id IN ({placeholders(chunk)}) AND room_type_id IS NULL "
        "ORDER BY property_id, position", chunk)]


def room_photos(store: Reads, room_ids: list[str]) -> list[Row]:
    """The photos of these room types, each one's in order."""
    return [row for chunk in chunked(room_ids) for row in store.query(
        f"SELECT * FROM photos WHERE room_type_id IN ({placeholders(chunk)}) ORDER BY room_type_id, position", chunk)]


def shift_photos(conn: Connection, property_id: str, room: str, low: int, high: int, delta: int) -> None:
    """Move the photos at places `low` to `high` by `delta`: through negative places first, so that no two rows share
    a place at any moment (the unique index checks each row as it is written, on PostgreSQL as on SQLite)."""
    conn.execute(f"UPDATE photos SET position = -position - 1 WHERE {PHOTO_PLACE} AND position BETWEEN ? AND ?",
                 (property_id, room, low, high))
    conn.execute(f"UPDATE photos SET position = ? - 1 - position WHERE {PHOTO_PLACE} AND position < 0",
                 (delta, property_id, room))


def insert_photo(conn: Connection, photo_id: str, values: dict[str, Any], media_id: str | None, now: str) -> None:
    """`media_id`: the upload the photo's url names, kept only when there is one (it may have been pruned)."""
    conn.execute(f"INSERT INTO photos (id, {', '.join(values)}, media_id, inserted_at, updated_at) "
                 f"VALUES (?, {', '.join('?' * len(values))}, (SELECT id FROM media WHERE id = ?), ?, ?)",
                 (photo_id, *values.values(), media_id, now, now))


def update_photo(conn: Connection, photo_id: str, values: dict[str, Any], now: str) -> None:
    conn.execute(f"UPDATE photos SET {', '.join(f'{k} = ?' for k in values)}, updated_at = ? WHERE id = ?",
                 (*values.values(), now, photo_id))


def set_photo_media(conn: Connection, photo_id: str, media_id: str | None) -> None:
    conn.execute("UPDATE photos SET media_id = (SELECT id FROM media WHERE id = ?) WHERE id = ?", (media_id, photo_id))


def delete_photo(conn: Connection, photo_id: str) -> None:
    conn.execute("DELETE FROM photos WHERE id = ?", (photo_id,))
