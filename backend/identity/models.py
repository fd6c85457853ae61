"""Who acts, and the shapes identity takes in and hands out: the actor every engine call checks access through, a
group's input, a token as issued, an invitation and a change of role."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, StrictStr

from backend.core.errors import NotFound, Unauthorized
from backend.core.fields import RequiredText
from storage import Row

MAX_OVERRIDES = 4096  # characters of an invitation's overrides, as JSON


@dataclass(frozen=True)
class Actor:
    """Who is acting: every engine call that touches a user's data checks access through this."""

    user_id: str
    email: str
    default_group_id: str
    group_ids: frozenset[str]  # the groups they are a user of; the properties given them alone are read when asked
    token_id: str | None = None  # the API token presented, if any: what a web chat token is tied to
    only_property: str | None = None  # a web chat session: the chat of this one property, nothing else
    session_id: str | None = None  # that session: its uploads are its own
    sees_all: bool = False  # the local operator: every property, every group, every role

    def owned(self, row: Row | None, noun: str, ident: str, *, unreached: str | None = None) -> Row:
        """The row of a group's `noun` (with its `group_id`: a channel, a hotel policy) if this actor is a user of that
        group: 404 when there is none, 401 when it is another group's (`unreached`: what to call it then, the noun by
        default). A property's objects are checked by backend/identity/access.py."""
        if row is None:
            raise NotFound(f"{noun} {ident} does not exist")
        if row["group_id"] not in self.group_ids:
            raise Unauthorized(f"you have no access to this {unreached or noun}")
        return row

    def group_list(self) -> list[str]:
        """The actor's groups in a stable order, as a statement's parameters."""
        return sorted(self.group_ids)


@dataclass(frozen=True)
class IssuedToken:
    id: str
    prefix: str
    token: str


class GroupInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText


class GroupEnvelope(BaseModel):
    group: GroupInput


def _overrides(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is not None and len(json.dumps(value)) > MAX_OVERRIDES:
        raise ValueError(f"must be at most {MAX_OVERRIDES} characters as JSON")
    return value


Role = Literal["owner", "user"]
Overrides = Annotated[dict[StrictStr, Any] | None, AfterValidator(_overrides)]


class InviteInput(BaseModel):
    """`{"invite": {...}}` (reference §11.2): whom to give a property (`property_id`) or a group (`group_id`)."""

    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr | None = None
    group_id: StrictStr | None = None
    user_email: RequiredText
    role: Role = "user"
    overrides: Overrides = None


class InviteEnvelope(BaseModel):
    invite: InviteInput


class RoleInput(BaseModel):
    """A property user's or a group user's change: only these two fields (reference §11.2)."""

    model_config = ConfigDict(extra="forbid")

    role: Role | None = None
    overrides: Overrides = None


class PropertyUserEnvelope(BaseModel):
    property_user: RoleInput


class GroupUserEnvelope(BaseModel):
    group_user: RoleInput
