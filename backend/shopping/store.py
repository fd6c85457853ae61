"""SQL of the real-time shopping API. Shopping owns no table: these are its read queries over the tables of other
domains (channels, channel_properties, properties, property_facilities, facilities). The statements are written in
the common dialect of storage/, so they run on both SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from backend.channels.store import named
from backend.core.listing import Column, ListQuery, where
from backend.core.store import page
from storage import Reads, Row, chunked, placeholders

TEXT = ("title", "city", "country", "zip_code", "state", "address")
LIST_COLUMNS = {**{name: Column(f"p.{name}") for name in TEXT},
                # DOUBLE PRECISION in both: PostgreSQL's REAL has 6 digits (45.123456789 would be 45.12346).
                "latitude": Column("CAST(NULLIF(p.latitude, '') AS DOUBLE PRECISION)", "number"),
                "longitude": Column("CAST(NULLIF(p.longitude, '') AS DOUBLE PRECISION)", "number")}


# --- channels ----------------------------------------------------------------------------------------------------

def active_channels_named(store: Reads, name: str, shopping_codes: Sequence[str]) -> list[Row]:
    """(id, provider_api_key_hash) of the active shopping channels the name reaches (backend/channels/store.py)."""
    reached, params = named(name, shopping_codes)
    return store.query(f"SELECT c.id, c.provider_api_key_hash FROM channels c WHERE c.is_active = 1 AND {reached}",
                       params)


def channels_named_selling(store: Reads, name: str, shopping_codes: Sequence[str], property_id: str) -> list[Row]:
    """(id, provider_api_key_hash) of the active shopping channels the name reaches that the active property is
    connected to."""
    reached, params = named(name, shopping_codes)
    return store.query(
        f"SELECT c.id, c.provider_api_key_hash FROM channels c JOIN channel_properties cp ON cp.channel_id = c.id "
        f"JOIN properties p ON p.id = cp.property_id WHERE cp.property_id = ? AND c.is_active = 1 "
        f"AND p.is_active = 1 AND {reached}", (property_id, *params))


def channel_group_and_code(store: Reads, channel_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT group_id, channel_code FROM channels WHERE id = ?", (channel_id,)))


def channel_settings(store: Reads, channel_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT settings FROM channels WHERE id = ?", (channel_id,)))


def sells_property(store: Reads, channel_id: str, property_id: str) -> bool:
    """Whether the property is connected to the channel and active."""
    return bool(store.scalar("SELECT 1 FROM channel_properties cp JOIN properties p ON p.id = cp.property_id "
                             "WHERE cp.channel_id = ? AND cp.property_id = ? AND p.is_active = 1",
                             (channel_id, property_id)))


# --- properties --------------------------------------------------------------------------------------------------

def _sold_scope(channel_ids: list[str]) -> str:
    """The active properties connected to any of the channels (a probe per property: a page walks the titles)."""
    return (f"p.is_active = 1 AND EXISTS (SELECT 1 FROM channel_properties cp WHERE cp.channel_id IN "
            f"({placeholders(channel_ids)}) AND cp.property_id = p.id)")


def property_page(store: Reads, query: ListQuery, channel_ids: list[str]) -> tuple[list[Row], dict[str, Any]]:
    """One page of the properties the channels sell, by title; the total of an unfiltered one of one channel is the
    count kept (backend/inventory/sellable.py)."""
    kept = None
    if not query.filters and len(channel_ids) == 1:
        kept = store.scalar("SELECT properties FROM channel_sold_counts WHERE channel_id = ?", channel_ids)
    return page(store, query, LIST_COLUMNS, select="p.*", source="properties p", scope=_sold_scope(channel_ids),
                scope_params=channel_ids, default_order="p.title, p.id",
                count=None if kept is None else lambda: kept)


@dataclass(frozen=True)
class Sellable:
    """What a property list asks of the sellable index (backend/inventory/sellable.py): a stay's arrival and its
    length's bit, the party's adults, children and infants (None: any), the currency (None: any), and the arrival
    and departure in days from today in UTC, for the windows."""

    channel_ids: list[str]
    arrival: str
    bit: int
    party: tuple[int, int, int] | None
    currency: str | None
    arrives: int
    departs: int

    def rows(self) -> tuple[str, list[Any]]:
        """SQL on `sellable_nights s`: the rows of a kind that sells the stay, its window aside."""
        sql = f"s.channel_id IN ({placeholders(self.channel_ids)}) AND s.date = ? AND (s.nights & ?) <> 0"
        params: list[Any] = [*self.channel_ids, self.arrival, self.bit]
        if self.party is not None:
            adults, children, infants = self.party
            sql += " AND s.adults >= ? AND s.children >= ? AND s.infants >= ? AND s.persons >= ?"
            params += [adults, children, infants, adults + children]
        if self.currency is not None:
            sql += " AND s.currency = ?"
            params.append(self.currency)
        return sql, params

    @property
    def safe(self) -> tuple[str, list[Any]]:
        """SQL on `s`: a window that holds the stay whatever the property's time zone says the date is (the local
        date is within a day of UTC's)."""
        return "s.cut_off_days + 2 <= ? AND s.state_length - 1 >= ?", [self.arrives, self.departs]


def unsafe_zones(store: Reads, ask: Sellable) -> list[str]:
    """The time zones of the properties whose window the stay may not fit in, by where their date is now."""
    rows, params = ask.rows()
    safe, safe_params = ask.safe
    return [r[0] for r in store.query(f"SELECT DISTINCT s.timezone FROM sellable_nights s WHERE {rows} AND NOT ({safe})",
                                      [*params, *safe_params])]


def sellable_page(store: Reads, query: ListQuery, ask: Sellable, zones: dict[str, tuple[int, str]],
                  wanted: bool) -> tuple[list[Row], dict[str, Any]]:
    """One page of the properties the channels sell that can (`wanted`) or can't sell the stay, by the index.
    `zones`: for each time zone that unsafe_zones named, its date (in days from today in UTC) and time now."""
    rows, params = ask.rows()
    window, window_params = ask.safe
    if zones:
        table = " UNION ALL ".join(["SELECT CAST(? AS TEXT) AS tz, CAST(? AS INTEGER) AS t, CAST(? AS TEXT) AS clock"]
                                   * len(zones))
        window = (f"({window} OR EXISTS (SELECT 1 FROM ({table}) z WHERE z.tz = s.timezone AND ? >= z.t + CASE WHEN "
                  "s.cut_off_time <> '00:00:00' AND z.clock >= s.cut_off_time THEN s.cut_off_days + 1 ELSE 0 END "
                  "AND ? <= z.t + s.state_length))")
        window_params += [*(value for zone, (today, clock) in zones.items() for value in (zone, today, clock)),
                          ask.arrives, ask.departs]
    found = f"FROM sellable_nights s WHERE {rows} AND {window}"
    found_params = [*params, *window_params]
    if not wanted:
        return page(store, query, LIST_COLUMNS, select="p.*", source="properties p",
                    scope=f"{_sold_scope(ask.channel_ids)} AND NOT EXISTS (SELECT 1 {found} AND s.property_id = p.id)",
                    scope_params=[*ask.channel_ids, *found_params], default_order="p.title, p.id")
    # The index holds only what the channels sell: without filters, it counts the total alone.
    count = None if query.filters else lambda: store.scalar(
        f"SELECT count(*) FROM (SELECT s.property_id {found} GROUP BY s.property_id) x",
        found_params)
    return page(store, query, LIST_COLUMNS, select="p.*", source="properties p",
                scope=f"EXISTS (SELECT 1 {found} AND s.property_id = p.id)", scope_params=found_params,
                default_order="p.title, p.id", count=count)


def sold_properties(store: Reads, query: ListQuery, channel_ids: list[str]) -> list[Row]:
    """Every property the channels sell that the query's filters match, by title (not one page)."""
    conditions, values = where(query, LIST_COLUMNS, store.dialect)
    return store.query(f"SELECT p.* FROM properties p WHERE {_sold_scope(channel_ids)}{conditions} "
                       "ORDER BY p.title, p.id", [*channel_ids, *values])


def property_contexts(store: Reads, property_ids: list[str]) -> list[Row]:
    """(id, timezone, settings) of each property (asked in chunks: every property a channel sells, when priced)."""
    return [row for chunk in chunked(property_ids) for row in store.query(
        f"SELECT id, timezone, settings FROM properties WHERE id IN ({placeholders(chunk)})", chunk)]


def property_row(store: Reads, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM properties WHERE id = ?", (property_id,)))


def property_facilities(store: Reads, property_id: str) -> list[Row]:
    """(category, title) of the property's facilities, in its order."""
    return store.query(
        "SELECT f.category, f.title FROM property_facilities pf JOIN facilities f ON f.id = pf.facility_id "
        "WHERE pf.property_id = ? ORDER BY pf.position", (property_id,))


def property_currency(store: Reads, property_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT currency FROM properties WHERE id = ?", (property_id,)))
