"""Users, groups and API tokens.

A user belongs to groups; every property and channel belongs to one group. Tokens are random,
shown once, and stored only as a SHA-256 hash.

Groups over HTTP take the service's shape (https://docs.channex.io/api-v.1-documentation/groups-collection):
a group with its properties as relationships. Only its members see or change a group (someone else's is a 401,
as for every object); its creator is its first member. A group is not deleted while properties or channels
are in it, nor while it is someone's default group (where their new properties go): a 422 names them.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from backend.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.fields import RequiredText, email_error
from backend.validation import validate
from storage import Store, new_id, placeholders, utc_now

TOKEN_PREFIX = "fd_"
CHAT_SESSION_PREFIX = "fdc_"  # web chat session tokens (backend/chat/embed.py)
OPERATOR_EMAIL = "operator@frontdesk.example"
# A user with their groups, in one statement: authentication runs it on every API request. With the token
# presented (what a web chat token is tied to), and a chat session's property.
ACTOR_SELECT = ("SELECT {extra}u.id, u.email, u.default_group_id, "
                "(SELECT {groups} FROM group_members WHERE user_id = u.id) AS groups FROM users u")
TOKEN_EXTRA = "t.id AS token_id, "
CHAT_EXTRA = "t.id AS token_id, c.property_id, c.id AS session_id, "


@dataclass(frozen=True)
class Actor:
    """Who is acting: every engine call that touches a user's data checks access through this."""

    user_id: str
    email: str
    default_group_id: str
    group_ids: frozenset[str]
    token_id: str | None = None  # the API token presented, if any: what a web chat token is tied to
    only_property: str | None = None  # a web chat session: the chat of this one property, nothing else
    session_id: str | None = None  # that session: its uploads are its own

    def reaches(self, group_id: str, property_id: str) -> bool:
        """Whether this actor may act on a property (of that group)."""
        return group_id in self.group_ids and self.only_property in (None, property_id)

    def group_params(self) -> tuple[str, list[str]]:
        """SQL placeholders and values for `group_id IN (...)`."""
        ids = sorted(self.group_ids)
        return placeholders(ids), ids


class GroupInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText


class GroupEnvelope(BaseModel):
    group: GroupInput


@dataclass(frozen=True)
class IssuedToken:
    id: str
    prefix: str
    token: str


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Identity:
    def __init__(self, store: Store) -> None:
        self.store = store
        groups = store.dialect.concat_agg("group_id", "' '")
        self.actor_select, self.token_actor_select, self.chat_actor_select = (
            ACTOR_SELECT.format(extra=extra, groups=groups) for extra in ("", TOKEN_EXTRA, CHAT_EXTRA))

    # --- users -------------------------------------------------------------------------------

    def add_user(self, email: str) -> tuple[Actor, IssuedToken]:
        """A new user with a default group of their own, and a first token. Addresses are kept lower-cased, so that
        one address is one user whatever its case."""
        email = email.strip().lower()
        problem = email_error(email)
        if problem:
            raise ValidationFailed.one("email", problem)
        now = utc_now()
        with self.store.transaction() as conn:
            if conn.execute("SELECT 1 FROM users WHERE email = ?", (email,)).fetchone():
                raise ValidationFailed.one("email", "has already been taken")
            user_id, group_id = new_id(), new_id()
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)",
                         (group_id, f"{email} (default)", now))
            conn.execute("INSERT INTO users (id, email, default_group_id, inserted_at) VALUES (?, ?, ?, ?)",
                         (user_id, email, group_id, now))
            conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (group_id, user_id))
            token = self._issue(conn, user_id)
        return self.actor_for(email), token

    def operator(self) -> Actor:
        """The local operator the console acts as: it sees every group of the database it opens."""
        row = self.store.one("SELECT id FROM users WHERE email = ?", (OPERATOR_EMAIL,))
        if row is None:
            with contextlib.suppress(ValidationFailed):  # "already taken": another process made it meanwhile
                self.add_user(OPERATOR_EMAIL)
        actor = self.actor_for(OPERATOR_EMAIL)
        everything = frozenset(r[0] for r in self.store.query("SELECT id FROM groups"))
        return Actor(actor.user_id, actor.email, actor.default_group_id, everything)

    def actor_for(self, email: str) -> Actor:
        row = self.store.one(f"{self.actor_select} WHERE u.email = ?", (email.strip().lower(),))
        if row is None:
            raise NotFound(f"no user {email}")
        return _actor(row)

    def users(self) -> list[str]:
        return [r[0] for r in self.store.query("SELECT email FROM users ORDER BY email")]

    # --- groups ------------------------------------------------------------------------------

    def add_group(self, title: str, member_emails: list[str]) -> str:
        title = title.strip()
        if not title or len(title) > 255:
            raise ValidationFailed.one("title", "must be 1 to 255 characters")
        members = [self.actor_for(email) for email in member_emails]
        group_id = new_id()
        with self.store.transaction() as conn:
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)", (group_id, title, utc_now()))
            conn.executemany("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                             [(group_id, m.user_id) for m in members])
        return group_id

    def groups(self, actor: Actor) -> list[dict[str, Any]]:
        """The actor's groups, each with its properties (`{id, title}`)."""
        marks, ids = actor.group_params()
        rows = self.store.query(f"SELECT id, title FROM groups WHERE id IN ({marks}) ORDER BY title", ids)
        return self._groups(actor, rows)

    def group(self, actor: Actor, group_id: str) -> dict[str, Any]:
        return self._groups(actor, [self._group_row(actor, group_id)])[0]

    def create_group(self, actor: Actor, data: Any) -> dict[str, Any]:
        """A new group whose one member is its creator."""
        model = validate(GroupInput, data)
        group_id = new_id()
        with self.store.transaction() as conn:
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)",
                         (group_id, model.title, utc_now()))
            conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (group_id, actor.user_id))
        return self._groups(actor, [{"id": group_id, "title": model.title}])[0]

    def update_group(self, actor: Actor, group_id: str, data: Any) -> dict[str, Any]:
        row = self._group_row(actor, group_id)
        if not isinstance(data, dict):
            raise BadRequest(["the group must be a JSON object"])
        read_only = {"id", "is_default"}  # sent back by clients that PUT what they read
        model = validate(GroupInput, {"title": row["title"], **{k: v for k, v in data.items() if k not in read_only}})
        with self.store.transaction() as conn:
            conn.execute("UPDATE groups SET title = ? WHERE id = ?", (model.title, group_id))
        return self.group(actor, group_id)

    def delete_group(self, actor: Actor, group_id: str) -> None:
        self._group_row(actor, group_id)
        errors = Errors()
        for table, field in (("properties", "properties"), ("channels", "channels")):
            titles = [r[0] for r in self.store.query(f"SELECT title FROM {table} WHERE group_id = ? ORDER BY title",
                                                     (group_id,))]
            if titles:
                names = ", ".join(repr(t) for t in titles)
                errors.add(field, f"{names} {'are' if len(titles) > 1 else 'is'} in this group: move or delete "
                                  f"{'them' if len(titles) > 1 else 'it'} first")
        if self.store.scalar("SELECT 1 FROM users WHERE default_group_id = ?", (group_id,)):
            errors.add("group", "is a user's default group, where their new properties go")
        errors.raise_if_any()
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM groups WHERE id = ?", (group_id,))

    def _group_row(self, actor: Actor, group_id: str):
        row = self.store.one("SELECT id, title FROM groups WHERE id = ?", (group_id,))
        if row is None:
            raise NotFound(f"group {group_id} does not exist")
        if group_id not in actor.group_ids:
            raise Unauthorized("you are not a member of this group")
        return row

    def _groups(self, actor: Actor, rows) -> list[dict[str, Any]]:
        ids = [r["id"] for r in rows]
        properties: dict[str, list[dict[str, str]]] = {i: [] for i in ids}
        for r in self.store.query(f"SELECT id, title, group_id FROM properties WHERE group_id IN "
                                  f"({placeholders(ids)}) ORDER BY title, id", ids):
            properties[r["group_id"]].append({"id": r["id"], "title": r["title"]})
        return [{"id": r["id"], "title": r["title"], "is_default": r["id"] == actor.default_group_id,
                 "properties": properties[r["id"]]} for r in rows]

    # --- tokens ------------------------------------------------------------------------------

    def add_token(self, email: str) -> IssuedToken:
        actor = self.actor_for(email)
        with self.store.transaction() as conn:
            return self._issue(conn, actor.user_id)

    def _issue(self, conn, user_id: str) -> IssuedToken:
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        issued = IssuedToken(new_id(), token[:10], token)
        conn.execute(
            "INSERT INTO api_tokens (id, user_id, token_hash, prefix, inserted_at) VALUES (?, ?, ?, ?, ?)",
            (issued.id, user_id, hash_secret(token), issued.prefix, utc_now()),
        )
        return issued

    def tokens(self, email: str) -> list[dict]:
        actor = self.actor_for(email)
        rows = self.store.query(
            "SELECT id, prefix, inserted_at, revoked_at FROM api_tokens WHERE user_id = ? ORDER BY inserted_at",
            (actor.user_id,),
        )
        return [dict(r) for r in rows]

    def revoke_token(self, token_or_id: str) -> None:
        """Revoke by the token's id or by the token itself."""
        with self.store.transaction() as conn:
            cursor = conn.execute(
                "UPDATE api_tokens SET revoked_at = ? WHERE (id = ? OR token_hash = ?) AND revoked_at IS NULL",
                (utc_now(), token_or_id, hash_secret(token_or_id)),
            )
            if cursor.rowcount == 0:
                raise NotFound("no active token with that id")

    def authenticate(self, token: str | None, *, chat: bool = False) -> Actor:
        """The actor behind an API token, or behind a web chat session token where `chat` allows one."""
        if not token:
            raise Unauthorized("missing API token")
        if token.startswith(CHAT_SESSION_PREFIX):
            if not chat:
                raise Unauthorized("a web chat token opens only the chat of its property")
            return self._chat_actor(token)
        row = self.store.one(
            f"{self.token_actor_select} JOIN api_tokens t ON t.user_id = u.id WHERE t.token_hash = ? AND t.revoked_at IS NULL",
            (hash_secret(token),),
        )
        if row is None:
            raise Unauthorized("invalid or revoked API token")
        return _actor(row)

    def _chat_actor(self, token: str) -> Actor:
        row = self.store.one(
            f"{self.chat_actor_select} JOIN api_tokens t ON t.user_id = u.id JOIN chat_tokens c ON c.api_token_id = t.id "
            "WHERE c.token_hash = ? AND c.kind = 'session' AND c.expires_at > ? AND t.revoked_at IS NULL",
            (hash_secret(token), utc_now()),
        )
        if row is None:
            raise Unauthorized("the web chat session has expired; open the chat again")
        return _actor(row)


def _actor(row) -> Actor:
    keys = row.keys()
    return Actor(row["id"], row["email"], row["default_group_id"], frozenset((row["groups"] or "").split()),
                 token_id=row["token_id"] if "token_id" in keys else None,
                 only_property=row["property_id"] if "property_id" in keys else None,
                 session_id=row["session_id"] if "session_id" in keys else None)
