"""Who may act on a property and on what it holds (its rooms, rates, bookings, threads): whoever a group holding it
counts among its users, whoever was given it alone (a property user), and the operator; a web chat session only its
one property. This is the one rule, for a single object; lists filter by the same rule in SQL
(backend/identity/store.py `reach_scope`). It is read on every call, so a user withdrawn loses the property at
their next request."""

from __future__ import annotations

from backend.core.errors import NotFound, Unauthorized
from backend.identity.models import Actor
from backend.identity.store import reaches_property
from storage import Row, Store


def reaches(store: Store, actor: Actor, property_id: str, group_id: str | None = None) -> bool:
    """Whether the actor may act on the property; `group_id`, its `relationships.group` when the caller has read it,
    answers without a read when that group is theirs."""
    if actor.only_property not in (None, property_id):
        return False
    if actor.sees_all or (group_id is not None and group_id in actor.group_ids):
        return True
    return reaches_property(store, property_id, actor.group_list(), actor.user_id)


def reaches_owner(store: Store, actor: Actor, property_id: str | None, owner: str) -> bool:
    """Whether the actor reaches what a property (`property_id`) or a group (`owner`, when it is no property's) owns, as
    saved replies and message rules are: a group's, its users, and no web chat session (which reaches one property)."""
    if property_id is not None:
        return reaches(store, actor, property_id, owner)
    return owner in actor.group_ids and actor.only_property is None


def owned_property(store: Store, actor: Actor, row: Row | None, noun: str, ident: str, *,
                   property_id: str | None = None, unreached: str | None = None) -> Row:
    """The row of a property's `noun` (with its `property_id`, else the `property_id` given, and its property's
    `group_id`) if the actor may reach that property: 404 when there is none, 401 when it is out of their reach
    (`unreached`: what to call it then, the noun by default)."""
    if row is None:
        raise NotFound(f"{noun} {ident} does not exist")
    if not reaches(store, actor, property_id or row["property_id"], row["group_id"]):
        raise Unauthorized(f"you have no access to this {unreached or noun}")
    return row
