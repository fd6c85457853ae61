"""Who acts, and the shapes identity takes in and hands out: the actor every engine call checks access through, a
group's input, a token as issued."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from backend.core.errors import NotFound, Unauthorized
from backend.core.fields import RequiredText
from storage import Row


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

    def owned(self, row: Row | None, noun: str, ident: str, *, unreached: str | None = None) -> Row:
        """The row of a `noun` (with its `group_id`) if this actor may reach it: 404 when there is none, 401 when it
        is another group's (`unreached`: what to call it then, the noun by default)."""
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
