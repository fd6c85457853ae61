"""Property users and group users (reference §11.2): who else may act on a property, or on every property of a group,
and in which role.

Roles: an `owner` invites users, changes their role or overrides and withdraws them, and deletes the property or the
group; a `user` does everything else (reads and writes the property and what it holds, its rooms, rates, bookings and
chat; adds it to a group or takes it out of one). The operator (the console) does all. A `user` asking an owner's
thing gets 403; someone who does not reach the property or the group at all gets 401, as everywhere.

Rules, each checked in the write's transaction: a user is invited once to a property or a group (400 "User already
invited"); nobody withdraws themselves (400 "User can not withdraw themself"); the last owner is neither withdrawn nor
demoted (400) — of a group, its last owner among its users; of a property, its last owner among its own users and its
groups' users — so that someone can always manage it. An address that has no user yet gets one (with a default group
of their own, as `frontdesk users add` makes); their API token is made by `frontdesk tokens add EMAIL`, never shown
over HTTP. `overrides` is an object kept and shown back as sent; Frontdesk grants nothing by it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from backend.core.changes import note
from backend.core.errors import BadRequest, Forbidden, ResourceNotFound, Unauthorized, ValidationFailed
from backend.core.fields import email_error
from backend.core.listing import MAX_LIMIT, Filter, ListQuery
from backend.core.validation import validate
from backend.identity.access import reaches
from backend.identity.models import Actor, InviteInput, RoleInput
from backend.identity.service import new_user
from backend.identity.store import (
    delete_member,
    group_owner,
    group_row,
    insert_member,
    member_row,
    member_taken,
    members_page,
    property_exists,
    property_owner,
    set_member,
    user_id_of,
)
from storage import Connection, Row, Store, new_id

LAST_OWNER = "is the last owner: make another user an owner first"
Members = list[dict[str, Any]]  # named out of the class, whose own `list` the builtin's name would read as


class Users:
    """One of the two collections: `kind` is `property` (property users) or `group` (group users)."""

    def __init__(self, store: Store, kind: str,
                 withdrawn: Callable[[Connection, str], None] = lambda conn, user_id: None) -> None:
        self.store = store
        self.kind = kind
        self.withdrawn = withdrawn  # in the withdrawal's transaction: what the user leaves (their assigned threads)
        self.holder = f"{kind}_id"

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = members_page(self.store, self.kind, query, actor)
        return [self._shown(r) for r in rows], meta

    def get(self, actor: Actor, member_id: str) -> dict[str, Any]:
        return self._shown(self._row(actor, member_id))

    def of(self, actor: Actor, holder_id: str) -> Members:
        """Every user given the property or the group, by email (`frontdesk users list --property`)."""
        self._reach(actor, holder_id)
        shown: Members = []
        while True:
            rows, _ = members_page(self.store, self.kind, self._query(holder_id, page=len(shown) // MAX_LIMIT + 1),
                                   actor)
            shown += (self._shown(r) for r in rows)
            if len(rows) < MAX_LIMIT:
                return shown

    def find(self, actor: Actor, holder_id: str, email: str) -> dict[str, Any]:
        """The user of that address given the property or the group (`frontdesk users role`, `remove`); 404 if
        they were not given it."""
        self._reach(actor, holder_id)
        rows, _ = members_page(self.store, self.kind, self._query(holder_id, Filter("email", "eq", email.lower())),
                               actor)
        if not rows:
            raise ResourceNotFound(f"{email} is not a user of {self.kind} {holder_id}")
        return self._shown(rows[0])

    def invite(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(InviteInput, data)
        other = "group_id" if self.kind == "property" else "property_id"
        if getattr(model, other) is not None:
            raise ValidationFailed.one(other, "is not a known field")
        holder_id = getattr(model, self.holder)
        if holder_id is None:
            raise ValidationFailed.one(self.holder, "can't be blank")
        email = model.user_email.lower()
        problem = email_error(email)
        if problem:
            raise ValidationFailed.one("user_email", problem)
        self._reach(actor, holder_id)
        member_id = new_id()
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            self._owner(conn, actor, holder_id)
            user_id = user_id_of(self.store, email) or new_user(conn, email)
            if member_taken(conn, self.kind, holder_id, user_id):
                raise BadRequest({"user_email": ["User already invited"]})
            insert_member(conn, self.kind, member_id, holder_id, user_id, model.role, _stored(model.overrides))
        return self.get(actor, member_id)

    def update(self, actor: Actor, member_id: str, data: Any) -> dict[str, Any]:
        model = validate(RoleInput, data)
        self._row(actor, member_id)
        with self.store.transaction() as conn:
            note(conn, "user.changed")  # for consoles of other processes
            current = member_row(conn, self.kind, member_id)
            if current is None:
                raise ResourceNotFound(f"{self.kind} user {member_id} does not exist")
            self._owner(conn, actor, current["holder_id"])
            role = model.role or current["role"]
            overrides = _stored(model.overrides) if "overrides" in model.model_fields_set else current["overrides"]
            if not set_member(conn, self.kind, current, role, overrides):
                raise BadRequest({"role": [LAST_OWNER]})
        return self.get(actor, member_id)

    def withdraw(self, actor: Actor, member_id: str) -> None:
        self._row(actor, member_id)
        with self.store.transaction() as conn:  # the write lock first: two owners withdrawing each other count
            note(conn, "user.changed")  # for consoles of other processes
            current = member_row(conn, self.kind, member_id)
            if current is None:
                raise ResourceNotFound(f"{self.kind} user {member_id} does not exist")
            self._owner(conn, actor, current["holder_id"])
            if current["user_id"] == actor.user_id:
                raise BadRequest({"user_id": ["User can not withdraw themself"]})
            if not delete_member(conn, self.kind, current):
                raise BadRequest({"role": [LAST_OWNER]})
            self.withdrawn(conn, current["user_id"])

    def _query(self, holder_id: str, *filters: Filter, page: int = 1) -> ListQuery:
        return ListQuery(page=page, limit=MAX_LIMIT, filters=[Filter(self.holder, "eq", holder_id), *filters])

    def _row(self, actor: Actor, member_id: str) -> Row:
        row = member_row(self.store.conn, self.kind, member_id)
        if row is None:
            raise ResourceNotFound(f"{self.kind} user {member_id} does not exist")
        if not self._reaches(actor, row["holder_id"]):
            raise Unauthorized(f"you have no access to this {self.kind}")
        return row

    def _reach(self, actor: Actor, holder_id: str) -> None:
        known = property_exists(self.store, holder_id) if self.kind == "property" else group_row(self.store, holder_id)
        if not known:
            raise ResourceNotFound(f"{self.kind} {holder_id} does not exist")
        if not self._reaches(actor, holder_id):
            raise Unauthorized(f"you have no access to this {self.kind}")

    def _reaches(self, actor: Actor, holder_id: str) -> bool:
        if self.kind == "property":
            return reaches(self.store, actor, holder_id)
        return actor.sees_all or holder_id in actor.group_ids

    def _owner(self, conn: Connection, actor: Actor, holder_id: str) -> None:
        """An owner's thing: 403 for a `user` (read in the write's transaction, so a role taken away counts)."""
        owner = property_owner if self.kind == "property" else group_owner
        if not (actor.sees_all or owner(conn, holder_id, actor.user_id)):
            raise Forbidden(f"only an owner of the {self.kind} may manage its users")

    def _shown(self, row: Row) -> dict[str, Any]:
        return {"id": row["id"], "overrides": json.loads(row["overrides"]) if row["overrides"] else None,
                self.holder: row["holder_id"], "role": row["role"], "user_id": row["user_id"],
                "user": {"id": row["user_id"], "type": "user", "email": row["email"], "name": None}}


def _stored(overrides: dict[str, Any] | None) -> str | None:
    return None if overrides is None else json.dumps(overrides)
