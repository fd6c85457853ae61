"""Guest chat: message threads of bookings (and Airbnb inquiries), their messages, and the channels' side.

Staff read and reply through the main API or the console; channel adapters bring guest messages
and inquiries in, and take property replies from an outbox, acknowledging each. Every check of
the spec's error table lives here: 404 unknown, 401 someone else's, 403 without the chat app,
422 not_supported for a booking of a channel without messaging.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from pydantic_core import from_json

from backend.bookings.access import booking_row
from backend.channels.store import is_connected
from backend.chat.attachments import Attachments
from backend.chat.search import completed, joined, word_queries
from backend.chat.store import (
    THREAD_COUNT_COLUMNS,
    booking_thread,
    channel_booking,
    channel_code,
    channel_reply,
    channel_thread_property,
    chat_properties,
    completions,
    count_message,
    drop_draft,
    has_chat_app,
    inquiry_meta,
    insert_message,
    insert_thread,
    is_property_room_type,
    mark_delivered,
    mark_thread_read,
    message_row,
    messages_by_id,
    messages_page,
    pending_replies_page,
    property_group,
    revision_attributes,
    rule_titles,
    search_page,
    set_assignee,
    set_closed,
    set_unread_count,
    thread_count,
    thread_of_booking,
    thread_row,
    thread_state,
    thread_with_property,
    threads_page,
    unanswered_guest_messages,
    unread_thread_count,
)
from backend.core.card_data import mask_cards_in, mask_text
from backend.core.errors import BadRequest, Forbidden, NotFound, NotSupported, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import SEARCH_MAX, Filter, ListQuery, parse_bool
from backend.core.money import in_currency
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.access import reaches
from backend.identity.models import Actor
from backend.identity.store import emails_by_id, property_people, sees_property
from backend.outbox import record as outbox
from storage import Connection, Row, Store, new_id, timestamp

CHAT_PROVIDERS = ("BookingCom", "AirBNB")
MAX_TEXT = 10_000
ME = "me"  # `filter[assignee_id]=me`: the caller's threads
# A thread's other attributes, which clients that PUT what they read send back: ignored.
THREAD_READ_ONLY = {"id", "title", "is_closed", "provider", "message_count", "unread_count", "last_message",
                    "last_message_received_at", "inserted_at", "updated_at", "assignee_email"}
NEWEST_FIRST = {"order_by": "inserted_at", "order_direction": "desc"}
NO_CHAT = "the property does not have the chat application; install it first"
NO_MESSAGING = "the booking's channel does not support messages"


class MessageInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: StrictStr | None = Field(None, max_length=MAX_TEXT)
    attachment_id: StrictStr | None = None


class MessageEnvelope(BaseModel):
    message: MessageInput


class ThreadInput(BaseModel):
    """What a PUT of a thread changes."""

    model_config = ConfigDict(extra="forbid")

    assignee_id: StrictStr | None = Field(None, description="a user of the property's group; null unassigns")


class ThreadEnvelope(BaseModel):
    message_thread: ThreadInput


class InboundMessageInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    booking_id: StrictStr | None = None
    thread_id: StrictStr | None = None
    message: StrictStr | None = Field(None, max_length=MAX_TEXT)
    attachments: list[StrictStr] = Field([], max_length=20)
    sent_at: StrictStr | None = Field(None, description="when the guest wrote it (UTC, ISO 8601); default: now")


class Chat:
    def __init__(self, store: Store, events: EventBus, attachments: Attachments, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.events = events
        self.attachments = attachments
        self.clock = clock

    def now(self) -> str:
        """The engine's clock as the spec writes timestamps: UTC, no zone, microseconds."""
        return timestamp(self.clock())

    # --- staff: reading ------------------------------------------------------------------------

    def threads(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Threads of the actor's properties that have the chat app, newest conversation first.

        The allowed properties are listed first and tested row by row (`+t.property_id`), so the page
        is read along the inbox-order index and stops at its 50th row, whatever the number of threads."""
        query.filters = [_mine(f, actor) for f in query.filters]
        for f in query.filters:
            if f.field == "property_id" and f.op == "eq":
                for property_id in f.value.split(","):
                    self.check_property(actor, property_id)
        allowed = [p["id"] for p in self.properties(actor)]
        unread = _unread(query)
        query, typed, terms = self._search(query)
        if not terms:
            rows, meta = threads_page(self.store, query, allowed, unread, count=self._counter(query, allowed, unread))
            return self._threads(rows), {**meta, "order_by": "last_message_received_at", "order_direction": "desc"}
        rows, meta, snippets, order = search_page(self.store, query, allowed, unread, terms, typed)
        threads = self._threads(rows)
        for thread, snippet in zip(threads, snippets):
            thread["search_snippet"] = snippet
        return threads, {**meta, "order_by": order, "order_direction": "desc"}

    def _search(self, query: ListQuery) -> tuple[ListQuery, str, list[str]]:
        """The query without `filter[search]` (eq or has; other ops stay, for the list's own 422), the text as
        typed and its words' queries of the full-text index (none when it has no word: no search). The caller's
        query is left whole."""
        searches = [f for f in query.filters if f.field == "search" and f.op in {"eq", "has"}]
        typed = " ".join(f.value for f in searches)
        if len(typed) > SEARCH_MAX:
            raise ValidationFailed.one("filter[search]", f"must be at most {SEARCH_MAX} characters")
        rest = replace(query, filters=[f for f in query.filters if f not in searches])
        return rest, typed, self.word_queries(typed)

    def word_queries(self, typed: str) -> list[str]:
        """The queries of the store's full-text index for each word typed (backend/chat/search.py), the last
        completed from SQLite's index."""
        dialect = self.store.dialect.name
        start = completed(typed) if dialect == "sqlite" else None
        return word_queries(typed, dialect, completions(self.store, start) if start else None)

    def full_text_query(self, typed: str) -> str | None:
        """The query of the store's full-text index for the text typed (every word's), None for no word."""
        terms = self.word_queries(typed)
        return joined(terms, self.store.dialect.name) if terms else None

    def properties(self, actor: Actor) -> list[dict[str, Any]]:
        """The actor's properties that have the chat app (id and title), by title: the inbox's scope."""
        return [dict(r) for r in chat_properties(self.store, actor)]

    def _counter(self, query: ListQuery, allowed: list[str], unread: bool | None) -> Callable[[], int] | None:
        """The total from the trigger-kept thread_counts, when the filters are ones it holds; else None."""
        if any(f.field not in THREAD_COUNT_COLUMNS or f.op != "eq" for f in query.filters):
            return None
        filters: list[tuple[str, list[Any]]] = []
        for f in query.filters:
            values: list[Any] = f.value.split(",")
            if f.field == "is_closed":
                values = [parse_bool(v) for v in values]  # already checked by the list's own filters
            filters.append((f.field, values))
        return lambda: thread_count(self.store, allowed, filters, unread)

    def unread_threads(self, actor: Actor) -> int:
        """How many of the actor's threads have guest messages staff have not read (the inbox's `unread` filter's
        total): a sum over the trigger-kept thread_counts, a few rows per property, whatever the number of threads."""
        return unread_thread_count(self.store, [p["id"] for p in self.properties(actor)])

    def inquiry_details(self, actor: Actor, thread_id: str) -> dict[str, Any] | None:
        """What an Airbnb inquiry asks to book (its system message's booking_details), None for another thread."""
        row = self._thread_row(actor, thread_id)
        meta = inquiry_meta(self.store, row["id"])
        return from_json(meta).get("booking_details") if meta and row["booking_id"] is None else None

    def thread(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._threads([self._thread_row(actor, thread_id)])[0]

    def thread_messages(self, actor: Actor, thread_id: str, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        thread = self._thread_row(actor, thread_id)
        return self._messages(thread_id, query, thread["message_count"])

    def booking_messages(self, actor: Actor, booking_id: str, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        booking = self._booking(actor, booking_id)
        thread = booking_thread(self.store, booking["id"])
        if thread is None:
            return [], {**query.meta(0), **NEWEST_FIRST}
        return self._messages(thread["id"], query, thread["message_count"])

    def _messages(self, thread_id: str, query: ListQuery, message_count: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """A page of the thread's messages; without filters the thread's own counter is the total."""
        rows, meta = messages_page(self.store, query, thread_id,
                                   count=None if query.filters else lambda: message_count)
        return self._message_list(rows), {**meta, **NEWEST_FIRST}

    # --- staff: writing ------------------------------------------------------------------------

    def send_to_booking(self, actor: Actor, booking_id: str, data: Any, *, at: str | None = None) -> dict[str, Any]:
        """`at` back-dates the message (importing history, the demo); the API never sets it."""
        booking = self._booking(actor, booking_id)
        model = _message_input(data)
        message = self.post(booking, model.message or "", attachment_id=model.attachment_id, user_id=actor.user_id,
                            session_id=actor.session_id, api_token_id=actor.token_id, at=at)
        assert message is not None  # nothing to claim: always sent
        return message

    def post(self, booking: Row, text: str, *, attachment_id: str | None = None, user_id: str | None = None,
             session_id: str | None = None, api_token_id: str | None = None, message_rule_id: str | None = None,
             at: str | None = None, claim: Callable[[Connection, str], bool] | None = None) -> dict[str, Any] | None:
        """A property message on the booking's thread (made with its first message), in one transaction under the
        property's write scope: staff's (`send_to_booking`) and a message rule's (backend/message_rules/). `claim`
        runs first in it with the message's id to be: when it says False, nothing is sent (a rule's message another
        sweep sent) and None is given."""
        with self.store.transaction(property_scope(booking["property_id"])) as conn:
            message_id = new_id()
            if claim is not None and not claim(conn, message_id):
                return None
            thread_id = self._thread_of_booking(conn, booking)
            message = self._add(conn, thread_id, "property", text, attachment_id=attachment_id, user_id=user_id,
                                session_id=session_id, api_token_id=api_token_id, message_rule_id=message_rule_id,
                                message_id=message_id, at=at)
        self.events.publish("message.sent", message["id"], subject=thread_id)
        return message

    def unsendable(self, booking: Row) -> str | None:
        """Why no message can be sent to a booking (a row with its `channel_code`), as `_booking` refuses it; None
        when one can."""
        if not has_chat_app(self.store, booking["property_id"]):
            return NO_CHAT
        if booking["channel_code"] not in CHAT_PROVIDERS:
            return NO_MESSAGING
        return None

    def reply(self, actor: Actor, thread_id: str, data: Any) -> dict[str, Any]:
        thread = self._thread_row(actor, thread_id)
        model = _message_input(data)
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            message = self._add(conn, thread_id, "property", model.message or "", attachment_id=model.attachment_id,
                                user_id=actor.user_id, session_id=actor.session_id, api_token_id=actor.token_id)
            # The draft it was written in goes with it, unless written on since (backend/chat/drafts.py).
            drop_draft(conn, actor.user_id, thread_id, message["message"])
        self.events.publish("message.sent", message["id"], subject=thread_id)
        return message

    def close(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._set_closed(actor, thread_id, True)

    def reopen(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._set_closed(actor, thread_id, False)

    def mark_read(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        thread = self._thread_row(actor, thread_id)
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            mark_thread_read(conn, thread_id)
        self.events.publish("thread.changed", thread_id, subject=thread_id, action="read")
        return self.thread(actor, thread_id)

    def mark_unread(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        """Back to unread, as staff leave a thread for later: counted again as the guest messages since the last
        reply (at least one), so the badge and the unread counts are as they were before it was read."""
        thread = self.reach(actor, thread_id)
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            set_unread_count(conn, thread_id, max(1, unanswered_guest_messages(conn, thread_id)))
        self.events.publish("thread.changed", thread_id, subject=thread_id, action="unread")
        return self.thread(actor, thread_id)

    def update_thread(self, actor: Actor, thread_id: str, data: Any) -> dict[str, Any]:
        """`assignee_id`: who answers the thread, a user of its property's group; null unassigns it. The thread's
        read-only attributes, sent back as read, are ignored."""
        thread = self.reach(actor, thread_id)
        if not isinstance(data, dict):
            raise BadRequest(["the message_thread must be a JSON object"])
        model = validate(ThreadInput, {k: v for k, v in data.items() if k not in THREAD_READ_ONLY})
        if "assignee_id" in model.model_fields_set:
            if model.assignee_id is not None and not sees_property(self.store, thread["property_id"], model.assignee_id):
                raise ValidationFailed.one("assignee_id", "is not a user of the property's group")
            with self.store.transaction(property_scope(thread["property_id"])) as conn:
                set_assignee(conn, thread_id, model.assignee_id, self.now())
            self.events.publish("thread.changed", thread_id, subject=thread_id, action="assigned")
        return self.thread(actor, thread_id)

    def assignees(self, actor: Actor, thread_id: str) -> list[dict[str, Any]]:
        """Whom the thread may be assigned to: the users of its property's group, by email."""
        thread = self.reach(actor, thread_id)
        return [dict(r) for r in property_people(self.store, thread["property_id"])]

    def _set_closed(self, actor: Actor, thread_id: str, closed: bool) -> dict[str, Any]:
        row = self._thread_row(actor, thread_id)
        with self.store.transaction(property_scope(row["property_id"])) as conn:
            thread = thread_state(conn, thread_id)
            set_closed(conn, thread_id, closed, self.now())
            if bool(thread["is_closed"]) != closed:  # closing a closed thread changes nothing anyone must hear of
                _closed_or_reopened(conn, thread_id, thread, closed)
        self.events.publish("thread.changed", thread_id, subject=thread_id, action="closed" if closed else "opened")
        return self.thread(actor, thread_id)

    # --- channels: inbound and outbox ----------------------------------------------------------

    def receive(self, channel: Row, data: Any) -> dict[str, Any]:
        """A guest message from the channel's adapter, for a booking of the channel or one of its threads.
        It reopens a closed thread and counts as unread."""
        _require_chat_channel(channel)
        model = validate(InboundMessageInput, data)
        if (model.booking_id is None) == (model.thread_id is None):
            raise ValidationFailed.one("booking_id", "give booking_id or thread_id")
        if not (model.message or "").strip() and not model.attachments:
            raise ValidationFailed.one("message", "can't be blank without attachments")
        # A booking's or thread's property never changes, so it is read before the transaction it scopes.
        booking = None
        if model.booking_id is not None:
            booking = channel_booking(self.store, model.booking_id, channel["id"])
            if booking is None:
                raise ValidationFailed.one("booking_id", "is not a booking of this channel")
            property_id = booking["property_id"]
        elif (property_id := channel_thread_property(self.store, cast(str, model.thread_id), channel["id"])) is None:
            raise ValidationFailed.one("thread_id", "is not a thread of this channel")
        with self.store.transaction(property_scope(property_id)) as conn:
            thread_id = self._thread_of_booking(conn, booking) if booking is not None else cast(str, model.thread_id)
            message = self._add(conn, thread_id, "guest", model.message or "", attachment_ids=model.attachments,
                                channel_id=channel["id"], at=_sent_at(model.sent_at, self.now()))
        self.events.publish("message.received", message["id"], outboxed=True, subject=thread_id)
        return message

    def inquiry(self, channel: Row, data: Any) -> dict[str, Any]:
        """An Airbnb guest asking before booking: a thread without a booking, holding the system
        `inquiry` message with its meta, then the guest's own words."""
        # Imported here: its models bring the booking and inventory models, 50 ms that a console listing threads
        # would otherwise spend on its first page.
        from backend.chat.inquiry import InquiryInput

        if channel["channel_code"] != "AirBNB":
            raise NotSupported("inquiries come from Airbnb channels only")
        details = data.get("booking_details") if isinstance(data, dict) else None
        model = validate(InquiryInput, data, in_currency(details.get("currency") if isinstance(details, dict) else None))
        details = model.booking_details
        if not is_connected(self.store, channel["id"], details.property_id):
            raise ValidationFailed.one("booking_details.property_id", "is not a property connected to this channel")
        if details.room_type_id and not is_property_room_type(self.store, details.room_type_id, details.property_id):
            raise ValidationFailed.one("booking_details.room_type_id", "is not a room type of the property")
        meta = mask_cards_in({"status": "active", "live_feed_event_id": new_id(),
                              "booking_details": details.model_dump(mode="json")})  # kept and sent alike
        now = _sent_at(model.sent_at, self.now())
        with self.store.transaction(property_scope(details.property_id)) as conn:
            thread_id = new_id()
            insert_thread(conn, thread_id, details.property_id, channel["id"], None, channel["channel_code"],
                          mask_text(model.guest_name), now)
            self._add(conn, thread_id, "system", "inquiry", meta=meta, at=now)
            outbox.record(conn, "inquiry", details.property_id, {
                "message_thread_id": thread_id, "channel_id": channel["id"], "guest_name": mask_text(model.guest_name),
                "message": mask_text(model.message) if model.message else None, **meta})
            if model.message:
                # A microsecond after the inquiry: same-stamp messages would list in the random order of their ids.
                self._add(conn, thread_id, "guest", model.message, at=_microsecond_after(now))
        self.events.publish("message.received", thread_id, outboxed=True, subject=thread_id)
        return self._threads([thread_with_property(self.store, thread_id)])[0]

    def outbox(self, channel: Row, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Property replies the channel has not taken yet, oldest first."""
        rows, meta = pending_replies_page(self.store, query, channel["id"])
        messages = self._message_list(rows)
        threads = {r["id"]: r for r in rows}
        return [{**m, "thread_id": threads[m["id"]]["thread_id"]} for m in messages], meta

    def delivered(self, channel: Row, message_id: str) -> None:
        reply = channel_reply(self.store, message_id, channel["id"])
        if reply is None:
            raise NotFound(f"message {message_id} is not a reply on this channel")
        with self.store.transaction(property_scope(reply["property_id"])) as conn:
            mark_delivered(conn, message_id, self.now(), self.now())
        self.events.publish("message.delivered", message_id, subject=reply["thread_id"])

    def attachment(self, actor: Actor, attachment_id: str) -> Row:
        """An attachment's row for download: its uploader's until sent, then the thread's readers'."""
        row = self.attachments.content(attachment_id)
        if row is None:
            raise NotFound(f"attachment {attachment_id} does not exist")
        if row["thread_id"] is not None:
            self._thread_row(actor, row["thread_id"])
        elif (row["user_id"], row["session_id"]) != (actor.user_id, actor.session_id):
            raise Unauthorized("you have no access to this attachment")
        return row

    def upload(self, actor: Actor, data: Any) -> dict[str, Any]:
        """A file for a message the actor is about to send: theirs (their web chat session's) until sent."""
        return self.attachments.upload(data, user_id=actor.user_id, session_id=actor.session_id)

    def discard_upload(self, actor: Actor, attachment_id: str) -> None:
        """Delete an upload of the actor's that no message has taken (the console drops a pending file),
        so that a file chosen and then dropped does not stay in the database."""
        if not self.attachments.discard(attachment_id, user_id=actor.user_id):
            raise NotFound(f"attachment {attachment_id} is not an upload of yours waiting to be sent")

    def channel_attachment(self, channel: Row, attachment_id: str) -> Row:
        """An attachment for a channel's adapter: its own uploads, or files on its threads' messages."""
        row = self.attachments.content(attachment_id)
        on_channel = row is not None and (row["channel_id"] == channel["id"] or (
            row["thread_id"] is not None
            and channel_thread_property(self.store, row["thread_id"], channel["id"]) is not None))
        if row is None or not on_channel:
            raise NotFound(f"attachment {attachment_id} is not on this channel")
        return row

    # --- the pieces ----------------------------------------------------------------------------

    def _add(self, conn: Connection, thread_id: str, sender: str, text: str, *, attachment_id: str | None = None,
             attachment_ids: list[str] | None = None, user_id: str | None = None, channel_id: str | None = None,
             session_id: str | None = None, api_token_id: str | None = None, meta: dict[str, Any] | None = None,
             at: str | None = None, message_rule_id: str | None = None,
             message_id: str | None = None) -> dict[str, Any]:
        """One message and its thread's counters, in the caller's transaction. Card numbers in it are masked
        before it is stored, as an OTA's own messaging does: a guest who types one never has it kept."""
        message_id, now = message_id or new_id(), at or self.now()
        text, meta = mask_text(text), mask_cards_in(meta)
        insert_message(conn, message_id, thread_id, sender, text, json.dumps(meta) if meta else None,
                       "pending" if sender == "property" else None, now,
                       user_id if sender == "property" else None, api_token_id, message_rule_id)
        for attachment in ([attachment_id] if attachment_id else []) + (attachment_ids or []):
            self.attachments.claim(conn, attachment, message_id, user_id=user_id, channel_id=channel_id,
                                   session_id=session_id)
        guest = int(sender == "guest")
        if guest:
            thread = thread_state(conn, thread_id)
            if thread["is_closed"]:  # a guest's message reopens a closed thread (the update below)
                _closed_or_reopened(conn, thread_id, thread, False)
        count_message(conn, thread_id, message_id, now, guest=bool(guest))
        message = self._message_list([message_row(conn, message_id)])[0]
        if guest:
            outbox.record(conn, "message", thread["property_id"], {
                "booking_id": thread["booking_id"], "have_attachment": bool(message["attachments"]),
                "attachments": [a["url"] for a in message["attachments"]], "id": message_id,
                "message": message["message"], "message_thread_id": thread_id, "ota_message_id": None,
                "sender": "guest"})
        return message

    def _thread_of_booking(self, conn: Connection, booking: Row) -> str:
        thread_id = thread_of_booking(conn, booking["id"])
        if thread_id:
            return thread_id
        attributes = from_json(revision_attributes(conn, booking["revision_id"]))
        customer = attributes.get("customer") or {}
        title = " ".join(p for p in (customer.get("name"), customer.get("surname")) if p) or booking["unique_id"]
        provider = channel_code(conn, booking["channel_id"])
        thread_id, now = new_id(), self.now()
        insert_thread(conn, thread_id, booking["property_id"], booking["channel_id"], booking["id"], provider, title,
                      now)
        return thread_id

    def _booking(self, actor: Actor, booking_id: str) -> Row:
        row = booking_row(self.store, actor, booking_id)
        self._require_chat(row["property_id"])
        if row["channel_code"] not in CHAT_PROVIDERS:
            raise NotSupported(NO_MESSAGING)
        return row

    def reach(self, actor: Actor, thread_id: str) -> Row:
        """The thread's row (with its property's group_id), once the actor's access is checked as every chat call
        checks it: 404 unknown, 401 someone else's, 403 without the chat app."""
        return self._thread_row(actor, thread_id)

    def _thread_row(self, actor: Actor, thread_id: str) -> Row:
        row = thread_row(self.store, thread_id)
        if row is None:
            raise NotFound(f"message thread {thread_id} does not exist")
        if not reaches(self.store, actor, row["property_id"], row["group_id"]):
            raise Unauthorized("you have no access to this thread")
        if not row["chat"]:
            raise Forbidden(NO_CHAT)
        return row

    def check_property(self, actor: Actor, property_id: str) -> None:
        row = property_group(self.store, property_id)
        if row is None or not reaches(self.store, actor, property_id, row["group_id"]):
            raise Unauthorized("you have no access to this property")
        self._require_chat(property_id)

    def _require_chat(self, property_id: str) -> None:
        if not has_chat_app(self.store, property_id):
            raise Forbidden(NO_CHAT)

    def _threads(self, rows: list[Any]) -> list[dict[str, Any]]:
        last = {m["id"]: m for m in self._message_list(
            messages_by_id(self.store, [r["last_message_id"] for r in rows]))} if rows else {}
        assigned = sorted({r["assignee_id"] for r in rows if r["assignee_id"]})
        emails = emails_by_id(self.store, assigned) if assigned else {}
        return [{"id": r["id"], "title": r["title"], "is_closed": bool(r["is_closed"]), "provider": r["provider"],
                 "message_count": r["message_count"], "unread_count": r["unread_count"],
                 "last_message": last.get(r["last_message_id"]), "last_message_received_at": r["last_message_received_at"],
                 "inserted_at": r["inserted_at"], "updated_at": r["updated_at"], "property_id": r["property_id"],
                 "property_title": r["property_title"], "channel_id": r["channel_id"], "booking_id": r["booking_id"],
                 "assignee_id": r["assignee_id"], "assignee_email": emails.get(r["assignee_id"])}
                for r in rows]

    def _message_list(self, rows: list[Any]) -> list[dict[str, Any]]:
        flagged = bool(rows) and "has_files" in rows[0].keys()  # read WITH_FILES: only those need a look
        with_files = [r["id"] for r in rows if not flagged or r["has_files"]]
        attachments = self.attachments.of_messages(with_files)
        writers = sorted({r["user_id"] for r in rows if r["user_id"]})
        emails = emails_by_id(self.store, writers) if writers else {}
        ruled = sorted({r["message_rule_id"] for r in rows if r["message_rule_id"]})
        rules = rule_titles(self.store, ruled) if ruled else {}
        messages = []
        for r in rows:
            message = {"id": r["id"], "message": r["message"], "sender": r["sender"],
                       "attachments": attachments.get(r["id"], []), "inserted_at": r["inserted_at"],
                       "updated_at": r["updated_at"], "thread_id": r["thread_id"]}
            if r["meta"]:
                message["meta"] = from_json(r["meta"])
            if r["sender"] == "property":  # who wrote it: authors.py names them
                message.update(delivery=r["delivery"], user_id=r["user_id"], author_email=emails.get(r["user_id"]),
                               via_api=r["api_token_id"] is not None, message_rule_id=r["message_rule_id"],
                               message_rule_title=rules.get(r["message_rule_id"]))
            messages.append(message)
        return messages


def _message_input(data: Any) -> MessageInput:
    if not isinstance(data, dict):
        raise BadRequest(["the message must be a JSON object"])
    model = validate(MessageInput, data)
    if not (model.message or "").strip() and model.attachment_id is None:
        raise ValidationFailed.one("message", "can't be blank without an attachment_id")
    return model


def _mine(f: Filter, actor: Actor) -> Filter:
    """`filter[assignee_id]=me` (also in a list of ids) as the caller's own id."""
    if f.field != "assignee_id" or ME not in f.value.split(","):
        return f
    return replace(f, value=",".join(actor.user_id if v == ME else v for v in f.value.split(",")))


def _unread(query: ListQuery) -> bool | None:
    """`filter[unread]`, taken out of the generic filters (the store reads it along the unread partial index)."""
    found = [f for f in query.filters if f.field == "unread"]
    query.filters = [f for f in query.filters if f.field != "unread"]
    if not found:
        return None
    value = parse_bool(found[-1].value)
    if found[-1].op != "eq" or value is None:
        raise ValidationFailed.one("filter[unread]", "must be true or false")
    return bool(value)


def _microsecond_after(stamp: str) -> str:
    return (datetime.fromisoformat(stamp) + timedelta(microseconds=1)).isoformat(timespec="microseconds")


def _sent_at(value: str | None, now: str) -> str:
    """A guest's own send time as the adapter reports it, in the spec's format; never in the future."""
    if value is None:
        return now
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationFailed.one("sent_at", "must be an ISO 8601 timestamp, e.g. 2026-11-21T10:03:29Z") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    stamp = moment.isoformat(timespec="microseconds")
    if stamp > now:
        raise ValidationFailed.one("sent_at", "is in the future")
    return stamp


def _closed_or_reopened(conn: Connection, thread_id: str, thread: Row, closed: bool) -> None:
    """The outbox's event of a thread closed or reopened (by staff, or by a guest's message), in the caller's
    transaction."""
    outbox.record(conn, "thread_closed" if closed else "thread_reopened", thread["property_id"],
                  {"message_thread_id": thread_id, "booking_id": thread["booking_id"]})


def _require_chat_channel(channel: Row) -> None:
    if channel["channel_code"] not in CHAT_PROVIDERS:
        raise NotSupported(f"{channel['channel_code']} channels have no guest messaging")
