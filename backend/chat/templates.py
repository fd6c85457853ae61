"""Saved replies (message templates): text staff send again and again, for one property or for every property
of a group, with placeholders that the thread being answered fills in (backend/chat/placeholders.py).

Whoever reaches a property reaches its templates and its group's: a template of someone else's is a 401, as
every object is. The text is masked for card numbers before it is stored, as messages are.
"""

from __future__ import annotations

import builtins
from typing import Annotated, Any, cast

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr

from backend.chat.placeholders import (
    fill,
    guest_values,
    placeholders_in,
    thread_values,
    unknown_placeholders,
    unknown_text,
)
from backend.chat.service import MAX_TEXT, Chat
from backend.chat.store import (
    delete_template,
    insert_template,
    property_group,
    property_group_id,
    template_row,
    templates_in_group,
    templates_page,
    thread_templates,
    update_template,
)
from backend.core.card_data import mask_text
from backend.core.changes import note
from backend.core.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.core.fields import RequiredText
from backend.core.listing import ListQuery
from backend.core.validation import validate
from backend.identity.access import reaches, reaches_owner
from backend.identity.models import Actor
from backend.identity.service import require_group
from storage import Connection, Row, Store, new_id, utc_now

MAX_PER_GROUP = 500  # a group's templates and its properties': the picker lists them all
# Sent back by clients that PUT what they read: ignored.
READ_ONLY = {"id", "placeholders", "user_id", "inserted_at", "updated_at"}


def _known_placeholders(text: str) -> str:
    unknown = unknown_placeholders(text)
    if unknown:
        raise ValueError(unknown_text(unknown))
    return text


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("can't be blank")
    return text


TemplateText = Annotated[StrictStr, Field(max_length=MAX_TEXT), AfterValidator(_not_blank),
                         AfterValidator(_known_placeholders)]


class TemplateInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText
    message: TemplateText = Field(description="the reply, with placeholders such as {guest_name}")
    property_id: StrictStr | None = Field(None, description="the one property it is for; else group_id")
    group_id: StrictStr | None = Field(None, description="for every property of this group (default: your default "
                                                          "group), when property_id is not given")


class TemplateEnvelope(BaseModel):
    message_template: TemplateInput


class MessageTemplates:
    def __init__(self, store: Store, chat: Chat) -> None:
        self.store = store
        self.chat = chat

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The actor's templates, by title: those of their groups and of their groups' properties."""
        rows, meta = templates_page(self.store, query, actor)
        return [_template(r) for r in rows], meta

    def get(self, actor: Actor, template_id: str) -> dict[str, Any]:
        return _template(self._row(actor, template_id))

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = self._validate(actor, data)
        template_id, now = new_id(), utc_now()
        with self.store.transaction() as conn:
            note(conn, "saved_reply.changed")  # for consoles of other processes
            if templates_in_group(conn, self._group_of(conn, model)) >= MAX_PER_GROUP:
                raise ValidationFailed.one("message_template", f"a group keeps at most {MAX_PER_GROUP} saved replies")
            insert_template(conn, template_id, model.group_id, model.property_id, mask_text(model.title),
                            mask_text(model.message), actor.user_id, now)
        return self.get(actor, template_id)

    def update(self, actor: Actor, template_id: str, data: Any) -> dict[str, Any]:
        """Only the fields sent change; a property_id sent makes it that property's, a group_id its group's (which
        must have room for it). Read and written in one transaction: two changes at once each keep the other's."""
        if not isinstance(data, dict):
            raise BadRequest(["the message_template must be a JSON object"])
        sent = {k: v for k, v in data.items() if k not in READ_ONLY}
        with self.store.transaction() as conn:
            note(conn, "saved_reply.changed")  # for consoles of other processes
            current = self._row(actor, template_id)
            scope = {"property_id": current["property_id"], "group_id": current["group_id"]}
            if sent.get("property_id") is not None or sent.get("group_id") is not None:
                scope = {"property_id": None, "group_id": None}
            model = self._validate(actor, {"title": current["title"], "message": current["message"], **scope, **sent})
            group = self._group_of(conn, model)
            if group != current["owner"] and templates_in_group(conn, group) >= MAX_PER_GROUP:
                raise ValidationFailed.one("message_template", f"a group keeps at most {MAX_PER_GROUP} saved replies")
            update_template(conn, template_id, model.group_id, model.property_id, mask_text(model.title),
                            mask_text(model.message), utc_now())
        return self.get(actor, template_id)

    def delete(self, actor: Actor, template_id: str) -> None:
        self._row(actor, template_id)
        with self.store.transaction() as conn:
            note(conn, "saved_reply.changed")  # for consoles of other processes
            delete_template(conn, template_id)

    def for_thread(self, actor: Actor, thread_id: str) -> builtins.list[dict[str, Any]]:
        """The templates that apply to a thread (its property's and its group's), by title, each with
        `filled_message`: its text with the thread's values, and `unfilled`, the placeholders left as written."""
        thread = self.chat.reach(actor, thread_id)
        return _filled(thread_templates(self.store, thread["property_id"], thread["group_id"]),
                       thread_values(self.store, thread))

    def for_guest(self, actor: Actor, property_id: str, guest_name: str | None,
                  booking_id: str | None = None) -> builtins.list[dict[str, Any]]:
        """The templates of a property (its own and its group's), filled as `for_thread` fills them, for a guest
        outside a thread: a review's writer, with the booking the review is of (ignored unless the property's)."""
        row = property_group(self.store, property_id)
        if row is None:
            raise NotFound(f"property {property_id} does not exist")
        if not reaches(self.store, actor, property_id, row["group_id"]):
            raise Unauthorized("you have no access to this property")
        return _filled(thread_templates(self.store, property_id, row["group_id"]),
                       guest_values(self.store, property_id, guest_name, booking_id))

    # --- the pieces ----------------------------------------------------------------------------

    def _validate(self, actor: Actor, data: Any) -> TemplateInput:
        """The input, with its scope checked: a property or group of the actor's (422 naming it otherwise), one of
        them only, the actor's default group when neither is given."""
        model = validate(TemplateInput, data)
        errors = Errors()
        if model.property_id is not None and model.group_id is not None:
            errors.add("property_id", "give property_id (one property) or group_id (every property of a group), "
                                      "not both")
        elif model.property_id is not None:
            row = property_group(self.store, model.property_id)
            if row is None or not reaches(self.store, actor, model.property_id, row["group_id"]):
                errors.add("property_id", "is not a property of yours")
        else:
            model.group_id = model.group_id or actor.default_group_id
            if model.group_id not in actor.group_ids:
                errors.add("group_id", "is not a group of yours")
        errors.raise_if_any()
        return model

    @staticmethod
    def _group_of(conn: Connection, model: TemplateInput) -> str:
        """The group the saved reply counts in, as it is in the write's transaction: its own, or its property's
        (either deleted since it was checked is refused as one not the actor's)."""
        if model.group_id:
            require_group(conn, model.group_id)
            return model.group_id
        group_id = property_group_id(conn, cast(str, model.property_id))  # checked: without a group, a property
        if group_id is None:
            raise ValidationFailed.one("property_id", "is not a property of yours")
        return group_id

    def _row(self, actor: Actor, template_id: str) -> Row:
        row = template_row(self.store, template_id)
        if row is None:
            raise NotFound(f"message template {template_id} does not exist")
        if not reaches_owner(self.store, actor, row["property_id"], row["owner"]):
            raise Unauthorized("you have no access to this message template")
        return row


def _filled(rows: list[Any], values: dict[str, str | None]) -> list[dict[str, Any]]:
    """Each template with `filled_message`, its text with these values, and `unfilled`, the placeholders left as
    written."""
    templates = []
    for row in rows:
        template = _template(row)
        template["filled_message"] = fill(template["message"], values)
        template["unfilled"] = [name for name in template["placeholders"] if not values.get(name)]
        templates.append(template)
    return templates


def _template(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "title": row["title"], "message": row["message"], "property_id": row["property_id"],
            "group_id": row["group_id"], "placeholders": placeholders_in(row["message"]), "user_id": row["user_id"],
            "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}
