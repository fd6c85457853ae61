"""All SQL on the identity domain's tables: users, groups, group_members (a group's users), property_users and
api_tokens; the condition every domain's lists filter properties by (`reach_scope`, over group_properties, which
the properties domain writes); and the reads of what other domains keep in a group (its properties' and channels' titles), and
of web chat sessions (chat_tokens).

The statements are written in the common dialect of storage/, so each runs unchanged on SQLite and PostgreSQL.
Plain functions taking the connection (or the Store for single reads); the services keep the logic and the
transactions."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from backend.core.listing import Column, ListQuery
from backend.core.store import page
from backend.identity.models import Actor
from storage import Connection, Dialect, Row, Store, placeholders

# A user with their groups, in one statement: authentication runs it on every API request. With the token
# presented (what a web chat token is tied to), and a chat session's property.
ACTOR_SELECT = ("SELECT {extra}u.id, u.email, u.default_group_id, "
                "(SELECT {groups} FROM group_members WHERE user_id = u.id) AS groups FROM users u")
TOKEN_EXTRA = "t.id AS token_id, "
CHAT_EXTRA = "t.id AS token_id, c.property_id, c.id AS session_id, "


@cache
def _actor_select(dialect: Dialect, extra: str) -> str:
    return ACTOR_SELECT.format(extra=extra, groups=dialect.concat_agg("group_id", "' '"))


# --- access: the one place it is decided --------------------------------------------------------

def reach_scope(actor: Actor, column: str) -> tuple[str, list[Any]]:
    """The condition (and its parameters) that the property id in `column` is one the actor reaches: a group they
    are a user of holds it (group_properties), or it was given to them alone (property_users); a web chat session's
    one property only; the operator's every property. The subquery is read once a statement, by indexes
    (group_properties_group, property_users_user), and the list's rows are checked against what it found."""
    only, tail = (f" AND {column} = ?", [actor.only_property]) if actor.only_property else ("", [])
    if actor.sees_all:
        return "1 = 1" + only, tail
    groups = actor.group_list()
    return (f"{column} IN (SELECT gp.property_id FROM group_properties gp WHERE gp.group_id IN "
            f"({placeholders(groups)}) UNION ALL SELECT pu.property_id FROM property_users pu WHERE pu.user_id = ?)"
            f"{only}", [*groups, actor.user_id, *tail])


def reaches_property(store: Store, property_id: str, group_ids: list[str], user_id: str) -> bool:
    """Whether one of these groups holds the property, or the user was given it alone."""
    return store.scalar(f"SELECT 1 FROM group_properties WHERE property_id = ? AND group_id IN "
                        f"({placeholders(group_ids)}) UNION ALL SELECT 1 FROM property_users WHERE property_id = ? "
                        "AND user_id = ?", [property_id, *group_ids, property_id, user_id]) is not None


def property_owner(conn: Connection, property_id: str, user_id: str) -> bool:
    """Whether the user is an owner of the property: its owner alone, or an owner of a group holding it."""
    return conn.execute(
        "SELECT 1 FROM property_users WHERE property_id = ? AND user_id = ? AND role = 'owner' UNION ALL "
        "SELECT 1 FROM group_members m JOIN group_properties gp ON gp.group_id = m.group_id "
        "WHERE gp.property_id = ? AND m.user_id = ? AND m.role = 'owner'",
        (property_id, user_id, property_id, user_id)).fetchone() is not None


def group_owner(conn: Connection, group_id: str, user_id: str) -> bool:
    return conn.execute("SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ? AND role = 'owner'",
                        (group_id, user_id)).fetchone() is not None


def property_people(store: Store, property_id: str) -> list[Row]:
    """The users (id, email) who see the property, alone or through a group, by email."""
    return store.query("SELECT u.id, u.email FROM users u WHERE u.id IN (SELECT user_id FROM property_users WHERE "
                       "property_id = ? UNION ALL SELECT m.user_id FROM group_members m JOIN group_properties gp ON "
                       "gp.group_id = m.group_id WHERE gp.property_id = ?) ORDER BY u.email", (property_id, property_id))


def sees_property(store: Store, property_id: str, user_id: str) -> bool:
    """Whether the user sees the property, alone or through a group."""
    return store.scalar("SELECT 1 FROM property_users WHERE property_id = ? AND user_id = ? UNION ALL "
                        "SELECT 1 FROM group_members m JOIN group_properties gp ON gp.group_id = m.group_id "
                        "WHERE gp.property_id = ? AND m.user_id = ?",
                        (property_id, user_id, property_id, user_id)) is not None


# --- users -------------------------------------------------------------------------------------

def email_taken(conn: Connection, email: str) -> bool:
    return conn.execute("SELECT 1 FROM users WHERE email = ?", (email,)).fetchone() is not None


def user_id_of(store: Store, email: str) -> str | None:
    return cast(str | None, store.scalar("SELECT id FROM users WHERE email = ?", (email,)))


def insert_user(conn: Connection, user_id: str, email: str, default_group_id: str, now: str) -> None:
    conn.execute("INSERT INTO users (id, email, default_group_id, inserted_at) VALUES (?, ?, ?, ?)",
                 (user_id, email, default_group_id, now))


def user_emails(store: Store) -> list[str]:
    return [r[0] for r in store.query("SELECT email FROM users ORDER BY email")]


def emails_by_id(store: Store, user_ids: list[str]) -> dict[str, str]:
    """id -> email of these users."""
    return dict(store.query(f"SELECT id, email FROM users WHERE id IN ({placeholders(user_ids)})", user_ids))


def actor_by_email(store: Store, email: str) -> Row | None:
    """The user (id, email, default_group_id) with their group ids, space-separated (`groups`)."""
    return cast(Row | None, store.one(f"{_actor_select(store.dialect, '')} WHERE u.email = ?", (email,)))


def actor_by_token(store: Store, token_hash: str) -> Row | None:
    """As `actor_by_email`, for the API token of that hash if it is not revoked, with its id (`token_id`)."""
    return cast(Row | None, store.one(f"{_actor_select(store.dialect, TOKEN_EXTRA)} JOIN api_tokens t ON t.user_id = u.id "
                                      "WHERE t.token_hash = ? AND t.revoked_at IS NULL", (token_hash,)))


def actor_by_chat_session(store: Store, token_hash: str, now: str) -> Row | None:
    """As `actor_by_token`, for the unexpired web chat session of that hash whose API token is not revoked, with its
    `property_id` and `session_id`."""
    return cast(Row | None, store.one(
        f"{_actor_select(store.dialect, CHAT_EXTRA)} JOIN api_tokens t ON t.user_id = u.id "
        "JOIN chat_tokens c ON c.api_token_id = t.id "
        "WHERE c.token_hash = ? AND c.kind = 'session' AND c.expires_at > ? AND t.revoked_at IS NULL",
        (token_hash, now)))


def is_default_group(conn: Connection, group_id: str) -> bool:
    """Whether the group is some user's default group."""
    return conn.execute("SELECT 1 FROM users WHERE default_group_id = ?", (group_id,)).fetchone() is not None


# --- groups and their members ------------------------------------------------------------------

def insert_group(conn: Connection, group_id: str, title: str, now: str) -> None:
    conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)", (group_id, title, now))


def insert_members(conn: Connection, group_id: str, members: list[tuple[str, str]], role: str) -> None:
    """The group's new users, each `(id, user_id)`, with this role."""
    conn.executemany("INSERT INTO group_members (id, group_id, user_id, role) VALUES (?, ?, ?, ?)",
                     [(member_id, group_id, user_id, role) for member_id, user_id in members])


def all_group_ids(store: Store) -> list[str]:
    """Every group's id."""
    return [r[0] for r in store.query("SELECT id FROM groups")]


def group_rows(store: Store, group_ids: list[str]) -> list[Row]:
    """These groups (id, title), by title."""
    return store.query(f"SELECT id, title FROM groups WHERE id IN ({placeholders(group_ids)}) ORDER BY title",
                       group_ids)


def group_row(store: Store, group_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT id, title FROM groups WHERE id = ?", (group_id,)))


def set_group_title(conn: Connection, group_id: str, title: str) -> None:
    conn.execute("UPDATE groups SET title = ? WHERE id = ?", (title, group_id))


def delete_group_row(conn: Connection, group_id: str) -> None:
    conn.execute("DELETE FROM groups WHERE id = ?", (group_id,))


def group_properties(store: Store, group_ids: list[str]) -> list[Row]:
    """The properties (id, title, group_id) of these groups, by title."""
    return store.query("SELECT p.id, p.title, gp.group_id FROM group_properties gp JOIN properties p ON "
                       f"p.id = gp.property_id WHERE gp.group_id IN ({placeholders(group_ids)}) ORDER BY p.title, p.id",
                       group_ids)


def property_titles_in_group(conn: Connection, group_id: str) -> list[str]:
    return [r[0] for r in conn.execute("SELECT p.title FROM group_properties gp JOIN properties p ON "
                                       "p.id = gp.property_id WHERE gp.group_id = ? ORDER BY p.title", (group_id,))]


def channel_titles_in_group(conn: Connection, group_id: str) -> list[str]:
    return [r[0] for r in conn.execute("SELECT title FROM channels WHERE group_id = ? ORDER BY title", (group_id,))]


def property_exists(store: Store, property_id: str) -> bool:
    return store.scalar("SELECT 1 FROM properties WHERE id = ?", (property_id,)) is not None


# --- property users and group users ----------------------------------------------------------------

# The two collections of reference §11.2: table, and the column naming what each row gives.
HOLDERS = {"property": ("property_users", "property_id"), "group": ("group_members", "group_id")}
MEMBER_COLUMNS: dict[str, Column] = {"id": Column("m.id", "id"), "user_id": Column("m.user_id", "id"),
                                     "role": Column("m.role", "enum"), "email": Column("u.email")}


def _holder(kind: str) -> tuple[str, str]:
    return HOLDERS[kind]


def members_page(store: Store, kind: str, query: ListQuery, actor: Actor) -> tuple[list[Row], dict[str, Any]]:
    """A page of a kind's rows (id, property_id or group_id as `holder_id`, user_id, role, overrides, email) of the
    properties the actor reaches, or of the groups they are a user of; by email."""
    table, holder = _holder(kind)
    column = f"m.{holder}"
    if kind == "property":
        scope, params = reach_scope(actor, column)
    else:
        groups = actor.group_list()
        scope, params = ("1 = 1", []) if actor.sees_all else (f"{column} IN ({placeholders(groups)})", groups)
    return page(store, query, {**MEMBER_COLUMNS, holder: Column(column, "id")},
                select=f"m.id, {column} AS holder_id, m.user_id, m.role, m.overrides, u.email",
                source=f"{table} m JOIN users u ON u.id = m.user_id", scope=scope, scope_params=params,
                default_order="u.email, m.id")


def member_row(conn: Connection, kind: str, member_id: str) -> Row | None:
    table, holder = _holder(kind)
    return cast(Row | None, conn.execute(f"SELECT m.id, m.{holder} AS holder_id, m.user_id, m.role, m.overrides, u.email FROM "
                                         f"{table} m JOIN users u ON u.id = m.user_id WHERE m.id = ?", (member_id,)).fetchone())


def member_taken(conn: Connection, kind: str, holder_id: str, user_id: str) -> bool:
    table, holder = _holder(kind)
    return conn.execute(f"SELECT 1 FROM {table} WHERE {holder} = ? AND user_id = ?",
                        (holder_id, user_id)).fetchone() is not None


def insert_member(conn: Connection, kind: str, member_id: str, holder_id: str, user_id: str, role: str,
                  overrides: str | None) -> None:
    table, holder = _holder(kind)
    conn.execute(f"INSERT INTO {table} (id, {holder}, user_id, role, overrides) VALUES (?, ?, ?, ?, ?)",
                 (member_id, holder_id, user_id, role, overrides))


def _keeps_an_owner(kind: str, member: Row) -> tuple[str, list[Any]]:
    """The condition, on the row being changed, that it is not an owner or that another owner stays: of a group,
    among its users; of a property, among its own users and its groups' users."""
    holder, member_id = member["holder_id"], member["id"]
    if kind == "group":
        return ("(role != 'owner' OR EXISTS (SELECT 1 FROM group_members o WHERE o.group_id = ? AND o.role = 'owner' "
                "AND o.id != ?))", [holder, member_id])
    return ("(role != 'owner' OR EXISTS (SELECT 1 FROM property_users o WHERE o.property_id = ? AND o.role = 'owner' "
            "AND o.id != ?) OR EXISTS (SELECT 1 FROM group_members o JOIN group_properties gp ON "
            "gp.group_id = o.group_id WHERE gp.property_id = ? AND o.role = 'owner'))", [holder, member_id, holder])


def set_member(conn: Connection, kind: str, member: Row, role: str, overrides: str | None) -> bool:
    """The row's role and overrides, unless it would take the last owner's role away (whether it changed)."""
    table, _ = _holder(kind)
    guard, params = ("1 = 1", []) if role == "owner" else _keeps_an_owner(kind, member)
    return bool(conn.execute(f"UPDATE {table} SET role = ?, overrides = ? WHERE id = ? AND {guard}",
                             [role, overrides, member["id"], *params]).rowcount)


def delete_member(conn: Connection, kind: str, member: Row) -> bool:
    """The row withdrawn, unless it is the last owner (whether it went)."""
    table, _ = _holder(kind)
    guard, params = _keeps_an_owner(kind, member)
    return bool(conn.execute(f"DELETE FROM {table} WHERE id = ? AND {guard}", [member["id"], *params]).rowcount)


# --- API tokens --------------------------------------------------------------------------------

def insert_token(conn: Connection, token_id: str, user_id: str, token_hash: str, prefix: str, now: str) -> None:
    conn.execute("INSERT INTO api_tokens (id, user_id, token_hash, prefix, inserted_at) VALUES (?, ?, ?, ?, ?)",
                 (token_id, user_id, token_hash, prefix, now))


def token_rows(store: Store, user_id: str) -> list[Row]:
    """The user's tokens (id, prefix, inserted_at, revoked_at), oldest first."""
    return store.query("SELECT id, prefix, inserted_at, revoked_at FROM api_tokens WHERE user_id = ? "
                       "ORDER BY inserted_at", (user_id,))


def revoke_active_token(conn: Connection, token_id: str, token_hash: str, now: str) -> int:
    """Revoke the active token of that id or that hash; the rows revoked."""
    return conn.execute("UPDATE api_tokens SET revoked_at = ? WHERE (id = ? OR token_hash = ?) AND revoked_at IS NULL",
                        (now, token_id, token_hash)).rowcount


def group_exists(conn: Connection, group_id: str) -> bool:
    return conn.execute("SELECT 1 FROM groups WHERE id = ?", (group_id,)).fetchone() is not None
