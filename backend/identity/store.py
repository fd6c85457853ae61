"""All SQL on the identity domain's tables: users, groups, group_members and api_tokens; and the reads of what
other domains keep in a group (its properties' and channels' titles), and of web chat sessions (chat_tokens).

The statements are written in the common dialect of storage/, so each runs unchanged on SQLite and PostgreSQL.
Plain functions taking the connection (or the Store for single reads); the services keep the logic and the
transactions."""

from __future__ import annotations

from functools import cache

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


# --- users -------------------------------------------------------------------------------------

def email_taken(conn: Connection, email: str) -> bool:
    return conn.execute("SELECT 1 FROM users WHERE email = ?", (email,)).fetchone() is not None


def user_id_of(store: Store, email: str) -> str | None:
    return store.scalar("SELECT id FROM users WHERE email = ?", (email,))


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
    return store.one(f"{_actor_select(store.dialect, '')} WHERE u.email = ?", (email,))


def actor_by_token(store: Store, token_hash: str) -> Row | None:
    """As `actor_by_email`, for the API token of that hash if it is not revoked, with its id (`token_id`)."""
    return store.one(f"{_actor_select(store.dialect, TOKEN_EXTRA)} JOIN api_tokens t ON t.user_id = u.id "
                     "WHERE t.token_hash = ? AND t.revoked_at IS NULL", (token_hash,))


def actor_by_chat_session(store: Store, token_hash: str, now: str) -> Row | None:
    """As `actor_by_token`, for the unexpired web chat session of that hash whose API token is not revoked, with its
    `property_id` and `session_id`."""
    return store.one(f"{_actor_select(store.dialect, CHAT_EXTRA)} JOIN api_tokens t ON t.user_id = u.id "
                     "JOIN chat_tokens c ON c.api_token_id = t.id "
                     "WHERE c.token_hash = ? AND c.kind = 'session' AND c.expires_at > ? AND t.revoked_at IS NULL",
                     (token_hash, now))


def is_default_group(conn: Connection, group_id: str) -> bool:
    """Whether the group is some user's default group."""
    return conn.execute("SELECT 1 FROM users WHERE default_group_id = ?", (group_id,)).fetchone() is not None


# --- groups and their members ------------------------------------------------------------------

def insert_group(conn: Connection, group_id: str, title: str, now: str) -> None:
    conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)", (group_id, title, now))


def insert_member(conn: Connection, group_id: str, user_id: str) -> None:
    conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (group_id, user_id))


def insert_members(conn: Connection, group_id: str, user_ids: list[str]) -> None:
    conn.executemany("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                     [(group_id, user_id) for user_id in user_ids])


def all_group_ids(store: Store) -> list[str]:
    """Every group's id."""
    return [r[0] for r in store.query("SELECT id FROM groups")]


def group_rows(store: Store, group_ids: list[str]) -> list[Row]:
    """These groups (id, title), by title."""
    return store.query(f"SELECT id, title FROM groups WHERE id IN ({placeholders(group_ids)}) ORDER BY title",
                       group_ids)


def group_row(store: Store, group_id: str) -> Row | None:
    return store.one("SELECT id, title FROM groups WHERE id = ?", (group_id,))


def set_group_title(conn: Connection, group_id: str, title: str) -> None:
    conn.execute("UPDATE groups SET title = ? WHERE id = ?", (title, group_id))


def delete_group_row(conn: Connection, group_id: str) -> None:
    conn.execute("DELETE FROM groups WHERE id = ?", (group_id,))


def is_group_member(store: Store, group_id: str, user_id: str) -> bool:
    return bool(store.scalar("SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?", (group_id, user_id)))


def group_users(store: Store, group_id: str) -> list[Row]:
    """The group's users (id, email), by email."""
    return store.query("SELECT u.id, u.email FROM group_members g JOIN users u ON u.id = g.user_id "
                       "WHERE g.group_id = ? ORDER BY u.email", (group_id,))


def group_properties(store: Store, group_ids: list[str]) -> list[Row]:
    """The properties (id, title, group_id) of these groups, by title."""
    return store.query(f"SELECT id, title, group_id FROM properties WHERE group_id IN ({placeholders(group_ids)}) "
                       "ORDER BY title, id", group_ids)


IN_GROUPS = ("properties", "channels")  # the tables `titles_in_group` reads


def titles_in_group(conn: Connection, table: str, group_id: str) -> list[str]:
    """The titles of the group's rows of `table` (one of IN_GROUPS), in order."""
    if table not in IN_GROUPS:
        raise ValueError(f"no titles read from {table}")
    return [r[0] for r in conn.execute(f"SELECT title FROM {table} WHERE group_id = ? ORDER BY title", (group_id,))]


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
