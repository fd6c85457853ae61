"""Users, groups and API tokens.

A user is a user of groups (group users, each an `owner` or a `user`) and of properties given them alone (property
users: backend/identity/users.py); a property is in one group or more (group_properties), a channel in one. Tokens
are random, shown once, and stored only as a SHA-256 hash.

Groups over HTTP take the service's shape (https://docs.channex.io/api-v.1-documentation/groups-collection):
a group with its properties as relationships. Only its users see or change a group (someone else's is a 401,
as for every object); its creator is its first owner, and only an owner deletes it (403). A group is not deleted
while properties are in it (400, as the service answers), nor while channels are in it or it is someone's default
group (where their new properties go): a 422 names them. A property joins and leaves groups through the
properties domain (backend/properties/service.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from typing import Any

from backend.core.changes import note
from backend.core.errors import BadRequest, Errors, Forbidden, NotFound, Unauthorized, ValidationFailed
from backend.core.fields import email_error
from backend.core.validation import validate
from backend.identity.models import Actor, GroupInput, IssuedToken
from backend.identity.store import (
    actor_by_chat_session,
    actor_by_email,
    actor_by_token,
    all_group_ids,
    channel_titles_in_group,
    delete_group_row,
    email_taken,
    group_exists,
    group_owner,
    group_properties,
    group_row,
    group_rows,
    insert_group,
    insert_members,
    insert_token,
    insert_user,
    is_default_group,
    property_titles_in_group,
    revoke_active_token,
    set_group_title,
    token_rows,
    user_emails,
    user_id_of,
)
from storage import Connection, Row, Store, new_id, utc_now

TOKEN_PREFIX = "fd_"
CHAT_SESSION_PREFIX = "fdc_"  # web chat session tokens (backend/chat/embed.py)
OPERATOR_EMAIL = "operator@frontdesk.example"


def require_group(conn: Connection, group_id: str) -> None:
    """In a write's transaction: the group the write puts a row in is still there. The actor's groups were read when
    it was authenticated; one deleted since is refused as one not the actor's is, not left for the database's
    foreign key to refuse."""
    if not group_exists(conn, group_id):
        raise ValidationFailed.one("group_id", "is not a group of yours")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Identity:
    def __init__(self, store: Store) -> None:
        self.store = store

    # --- users -------------------------------------------------------------------------------

    def add_user(self, email: str) -> tuple[Actor, IssuedToken]:
        """A new user with a default group of their own, and a first token. Addresses are kept lower-cased, so that
        one address is one user whatever its case."""
        email = email.strip().lower()
        problem = email_error(email)
        if problem:
            raise ValidationFailed.one("email", problem)
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            if email_taken(conn, email):
                raise ValidationFailed.one("email", "has already been taken")
            token = self._issue(conn, new_user(conn, email))
        return self.actor_for(email), token

    def operator(self) -> Actor:
        """The local operator the console acts as: it sees every group of the database it opens."""
        if user_id_of(self.store, OPERATOR_EMAIL) is None:
            with contextlib.suppress(ValidationFailed):  # "already taken": another process made it meanwhile
                self.add_user(OPERATOR_EMAIL)
        actor = self.actor_for(OPERATOR_EMAIL)
        everything = frozenset(all_group_ids(self.store))
        return Actor(actor.user_id, actor.email, actor.default_group_id, everything, sees_all=True)

    def actor_for(self, email: str) -> Actor:
        row = actor_by_email(self.store, email.strip().lower())
        if row is None:
            raise NotFound(f"no user {email}")
        return _actor(row)

    def users(self) -> list[str]:
        return user_emails(self.store)

    # --- groups ------------------------------------------------------------------------------

    def add_group(self, title: str, member_emails: list[str]) -> str:
        title = title.strip()
        if not title or len(title) > 255:
            raise ValidationFailed.one("title", "must be 1 to 255 characters")
        members = [self.actor_for(email) for email in member_emails]
        group_id = new_id()
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            insert_group(conn, group_id, title, utc_now())
            insert_members(conn, group_id, [(new_id(), m.user_id) for m in members], "owner")
        return group_id

    def groups(self, actor: Actor) -> list[dict[str, Any]]:
        """The actor's groups, each with its properties (`{id, title}`)."""
        return self._groups(actor, group_rows(self.store, actor.group_list()))

    def group(self, actor: Actor, group_id: str) -> dict[str, Any]:
        return self._groups(actor, [group_of(self.store, actor, group_id)])[0]

    def create_group(self, actor: Actor, data: Any) -> dict[str, Any]:
        """A new group whose one user is its creator, its owner."""
        model = validate(GroupInput, data)
        group_id = new_id()
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            insert_group(conn, group_id, model.title, utc_now())
            insert_members(conn, group_id, [(new_id(), actor.user_id)], "owner")
        return self._groups(actor, [{"id": group_id, "title": model.title}])[0]

    def update_group(self, actor: Actor, group_id: str, data: Any) -> dict[str, Any]:
        row = group_of(self.store, actor, group_id)
        if not isinstance(data, dict):
            raise BadRequest(["the group must be a JSON object"])
        read_only = {"id", "is_default"}  # sent back by clients that PUT what they read
        model = validate(GroupInput, {"title": row["title"], **{k: v for k, v in data.items() if k not in read_only}})
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            set_group_title(conn, group_id, model.title)
        return self.group(actor, group_id)

    def delete_group(self, actor: Actor, group_id: str) -> None:
        group_of(self.store, actor, group_id)
        errors = Errors()
        with self.store.transaction() as conn:  # checked in the delete's transaction: nothing joins it meanwhile
            note(conn, "user.changed")  # for consoles of other processes
            if not (actor.sees_all or group_owner(conn, group_id, actor.user_id)):
                raise Forbidden("only an owner of the group may delete it")
            properties = property_titles_in_group(conn, group_id)
            if properties:
                raise BadRequest([_still_in(properties)])
            channels = channel_titles_in_group(conn, group_id)
            if channels:
                errors.add("channels", _still_in(channels))
            if is_default_group(conn, group_id):
                errors.add("group", "is a user's default group, where their new properties go")
            errors.raise_if_any()
            delete_group_row(conn, group_id)

    def _groups(self, actor: Actor, rows: list[Row] | list[dict[str, Any]]) -> list[dict[str, Any]]:
        ids = [r["id"] for r in rows]
        properties: dict[str, list[dict[str, str]]] = {i: [] for i in ids}
        for r in group_properties(self.store, ids):
            properties[r["group_id"]].append({"id": r["id"], "title": r["title"]})
        return [{"id": r["id"], "title": r["title"], "is_default": r["id"] == actor.default_group_id,
                 "properties": properties[r["id"]]} for r in rows]

    # --- tokens ------------------------------------------------------------------------------

    def add_token(self, email: str) -> IssuedToken:
        actor = self.actor_for(email)
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            return self._issue(conn, actor.user_id)

    def _issue(self, conn: Connection, user_id: str) -> IssuedToken:
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        issued = IssuedToken(new_id(), token[:10], token)
        insert_token(conn, issued.id, user_id, hash_secret(token), issued.prefix, utc_now())
        return issued

    def tokens(self, email: str) -> list[dict[str, Any]]:
        actor = self.actor_for(email)
        return [dict(r) for r in token_rows(self.store, actor.user_id)]

    def revoke_token(self, token_or_id: str) -> None:
        """Revoke by the token's id or by the token itself."""
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            if revoke_active_token(conn, token_or_id, hash_secret(token_or_id), utc_now()) == 0:
                raise NotFound("no active token with that id")

    def authenticate(self, token: str | None, *, chat: bool = False) -> Actor:
        """The actor behind an API token, or behind a web chat session token where `chat` allows one."""
        if not token:
            raise Unauthorized("missing API token")
        if token.startswith(CHAT_SESSION_PREFIX):
            if not chat:
                raise Unauthorized("a web chat token opens only the chat of its property")
            return self._chat_actor(token)
        row = actor_by_token(self.store, hash_secret(token))
        if row is None:
            raise Unauthorized("invalid or revoked API token")
        return _actor(row)

    def _chat_actor(self, token: str) -> Actor:
        row = actor_by_chat_session(self.store, hash_secret(token), utc_now())
        if row is None:
            raise Unauthorized("the web chat session has expired; open the chat again")
        return _actor(row)


def group_of(store: Store, actor: Actor, group_id: str) -> Row:
    """The group (id, title) if the actor is a user of it: 404 when there is none, 401 when it is not theirs."""
    row = group_row(store, group_id)
    if row is None:
        raise NotFound(f"group {group_id} does not exist")
    if group_id not in actor.group_ids:
        raise Unauthorized("you are not a member of this group")
    return row


def new_user(conn: Connection, email: str) -> str:
    """A new user (their address valid, lower-cased and free) with a default group of their own; their id."""
    now = utc_now()
    user_id, group_id = new_id(), new_id()
    insert_group(conn, group_id, f"{email} (default)", now)
    insert_user(conn, user_id, email, group_id, now)
    insert_members(conn, group_id, [(new_id(), user_id)], "owner")
    return user_id


def _still_in(titles: list[str]) -> str:
    names = ", ".join(repr(t) for t in titles)
    many = len(titles) > 1
    return f"{names} {'are' if many else 'is'} in this group: move or delete {'them' if many else 'it'} first"


def _actor(row: Row) -> Actor:
    keys = row.keys()
    return Actor(row["id"], row["email"], row["default_group_id"], frozenset((row["groups"] or "").split()),
                 token_id=row["token_id"] if "token_id" in keys else None,
                 only_property=row["property_id"] if "property_id" in keys else None,
                 session_id=row["session_id"] if "session_id" in keys else None)
