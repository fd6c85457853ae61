"""SQL of the real-time shopping API. Shopping owns no table: these are its read queries over the tables of other
domains (channels, channel_properties, properties, property_facilities, facilities). The statements are written in
the common dialect of storage/, so they run on both SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from backend.channels.store import named
from backend.core.listing import Column, ListQuery, where
from backend.core.store import page
from storage import Row, Store, placeholders

TEXT = ("title", "city", "country", "zip_code", "state", "address")
LIST_COLUMNS = {**{name: Column(f"p.{name}") for name in TEXT},
                # DOUBLE PRECISION in both: PostgreSQL's REAL has 6 digits (45.123456789 would be 45.12346).
                "latitude": Column("CAST(NULLIF(p.latitude, '') AS DOUBLE PRECISION)", "number"),
                "longitude": Column("CAST(NULLIF(p.longitude, '') AS DOUBLE PRECISION)", "number")}


# --- channels ----------------------------------------------------------------------------------------------------

def active_channels_named(store: Store, name: str, shopping_codes: Sequence[str]) -> list[Row]:
    """(id, provider_api_key_hash) of the active shopping channels the name reaches (backend/channels/store.py)."""
    reached, params = named(name, shopping_codes)
    return store.query(f"SELECT c.id, c.provider_api_key_hash FROM channels c WHERE c.is_active = 1 AND {reached}",
                       params)


def channels_named_selling(store: Store, name: str, shopping_codes: Sequence[str], property_id: str) -> list[Row]:
    """(id, provider_api_key_hash) of the active shopping channels the name reaches that the active property is
    connected to."""
    reached, params = named(name, shopping_codes)
    return store.query(
        f"SELECT c.id, c.provider_api_key_hash FROM channels c JOIN channel_properties cp ON cp.channel_id = c.id "
        f"JOIN properties p ON p.id = cp.property_id WHERE cp.property_id = ? AND c.is_active = 1 "
        f"AND p.is_active = 1 AND {reached}", (property_id, *params))


def channel_group_and_code(store: Store, channel_id: str) -> Row | None:
    return store.one("SELECT group_id, channel_code FROM channels WHERE id = ?", (channel_id,))


def channel_settings(store: Store, channel_id: str) -> str | None:
    return store.scalar("SELECT settings FROM channels WHERE id = ?", (channel_id,))


def sells_property(store: Store, channel_id: str, property_id: str) -> bool:
    """Whether the property is connected to the channel and active."""
    return bool(store.scalar("SELECT 1 FROM channel_properties cp JOIN properties p ON p.id = cp.property_id "
                             "WHERE cp.channel_id = ? AND cp.property_id = ? AND p.is_active = 1",
                             (channel_id, property_id)))


# --- properties --------------------------------------------------------------------------------------------------

def _sold_scope(channel_ids: list[str]) -> str:
    """The active properties connected to any of the channels."""
    return (f"p.is_active = 1 AND p.id IN (SELECT property_id FROM channel_properties "
            f"WHERE channel_id IN ({placeholders(channel_ids)}))")


def property_page(store: Store, query: ListQuery, channel_ids: list[str]) -> tuple[list[Row], dict]:
    """One page of the properties the channels sell, by title."""
    return page(store, query, LIST_COLUMNS, select="p.*", source="properties p", scope=_sold_scope(channel_ids),
                scope_params=channel_ids, default_order="p.title, p.id")


def sold_properties(store: Store, query: ListQuery, channel_ids: list[str]) -> list[Row]:
    """Every property the channels sell that the query's filters match, by title (not one page)."""
    conditions, values = where(query, LIST_COLUMNS, store.dialect)
    return store.query(f"SELECT p.* FROM properties p WHERE {_sold_scope(channel_ids)}{conditions} "
                       "ORDER BY p.title, p.id", [*channel_ids, *values])


def property_contexts(store: Store, property_ids: list[str]) -> list[Row]:
    """(id, timezone, settings) of each property."""
    return store.query(f"SELECT id, timezone, settings FROM properties WHERE id IN ({placeholders(property_ids)})",
                       property_ids)


def property_row(store: Store, property_id: str) -> Row | None:
    return store.one("SELECT * FROM properties WHERE id = ?", (property_id,))


def property_facilities(store: Store, property_id: str) -> list[Row]:
    """(category, title) of the property's facilities, in its order."""
    return store.query(
        "SELECT f.category, f.title FROM property_facilities pf JOIN facilities f ON f.id = pf.facility_id "
        "WHERE pf.property_id = ? ORDER BY pf.position", (property_id,))


def property_currency(store: Store, property_id: str) -> str | None:
    return store.scalar("SELECT currency FROM properties WHERE id = ?", (property_id,))
