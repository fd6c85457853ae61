"""Guest chat: message threads of bookings (and Airbnb inquiries), their messages, and the channels' side.

Staff read and reply through the main API or the console; channel adapters bring guest messages
and inquiries in, and take property replies from an outbox, acknowledging each. Every check of
the spec's error table lives here: 404 unknown, 401 someone else's, 403 without the chat app,
422 not_supported for a booking of a channel without messaging.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from pydantic_core import from_json

from backend.bookings.access import booking_row
from backend.card_data import mask_cards_in, mask_text
from backend.chat.attachments import Attachments
from backend.errors import (
    BadRequest,
    Forbidden,
    NotFound,
    NotSupported,
    Unauthorized,
    ValidationFailed,
)
from backend.events import EventBus
from backend.identity import Actor
from backend.listing import Column, Filter, ListQuery, page, parse_bool
from backend.money import in_currency
from backend.outbox import record as outbox
from backend.validation import validate
from storage import Store, new_id, placeholders

CHAT_PROVIDERS = ("BookingCom", "AirBNB")
MAX_TEXT = 10_000
THREAD_COLUMNS = {
    "id": Column("t.id", "id"), "property_id": Column("t.property_id", "id"), "provider": Column("t.provider", "enum"),
    "is_closed": Column("t.is_closed", "bool"),
    "booking_id": Column("t.booking_id", "id"), "title": Column("t.title"),
    "search": Column("(t.title || '\n' || coalesce((SELECT message FROM messages WHERE id = t.last_message_id), ''))"),
    "last_message_received_at": Column("t.last_message_received_at"),
    "assignee_id": Column("t.assignee_id", "id"),
    "is_assigned": Column("(CASE WHEN t.assignee_id IS NULL THEN 0 ELSE 1 END)", "bool"),
}
ME = "me"  # `filter[assignee_id]=me`: the caller's threads
# A thread's other attributes, which clients that PUT what they read send back: ignored.
THREAD_READ_ONLY = {"id", "title", "is_closed", "provider", "message_count", "unread_count", "last_message",
                    "last_message_received_at", "inserted_at", "updated_at", "assignee_email"}
MESSAGE_COLUMNS = {"sender": Column("m.sender", "enum"), "inserted_at": Column("m.inserted_at")}
NEWEST_FIRST = {"order_by": "inserted_at", "order_direction": "desc"}
NO_CHAT = "the property does not have the chat application; install it first"
CHAT_APP = ("EXISTS (SELECT 1 FROM application_installations a WHERE a.property_id = t.property_id "
            "AND a.application_code = 'chat')")
# Whether a message has files: most have none, and then no second query is needed for them.
WITH_FILES = "m.*, EXISTS (SELECT 1 FROM attachments a WHERE a.message_id = m.id) AS has_files"


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
    def __init__(self, store: Store, events: EventBus, attachments: Attachments, clock) -> None:
        self.store = store
        self.events = events
        self.attachments = attachments
        self.clock = clock

    def now(self) -> str:
        """The engine's clock as the spec writes timestamps: UTC, no zone, microseconds."""
        return self.clock().astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")

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
        scope = f"{self.store.dialect.unindexed('t.property_id')} IN ({placeholders(allowed)})" + unread
        rows, meta = page(
            self.store, query, THREAD_COLUMNS, select="t.*, p.title AS property_title",
            source=f"message_threads t {self.store.dialect.join_in_order} properties p ON p.id = t.property_id",
            scope=scope,
            scope_params=allowed, default_order=f"t.last_message_received_at {self.store.dialect.order('DESC')}, t.id DESC",
            count=self._counter(query, allowed, unread))
        return self._threads(rows), {**meta, "order_by": "last_message_received_at", "order_direction": "desc"}

    def properties(self, actor: Actor) -> list[dict[str, Any]]:
        """The actor's properties that have the chat app (id and title), by title: the inbox's scope."""
        marks, groups = actor.group_params()
        only = " AND id = ?" if actor.only_property else ""
        return [dict(r) for r in self.store.query(
            f"SELECT id, title FROM properties WHERE group_id IN ({marks}){only} AND id IN "
            "(SELECT property_id FROM application_installations WHERE application_code = 'chat') ORDER BY title, id",
            [*groups, *([actor.only_property] if only else [])])]

    def _counter(self, query: ListQuery, allowed: list[str], unread: str):
        """The total from the trigger-kept thread_counts, when the filters are ones it holds; else None."""
        columns = {"property_id": "property_id", "provider": "provider", "is_closed": "is_closed"}
        if any(f.field not in columns or f.op != "eq" for f in query.filters):
            return None
        where = [f"property_id IN ({placeholders(allowed)})"]
        params: list[Any] = list(allowed)
        for f in query.filters:
            values = f.value.split(",")
            if f.field == "is_closed":
                values = [parse_bool(v) for v in values]  # already checked by the list's own filters
            where.append(f"{columns[f.field]} IN ({placeholders(values)})")
            params += values
        if unread:
            where.append("unread = ?")
            params.append(int("> 0" in unread))
        return lambda: self.store.scalar(f"SELECT coalesce(sum(threads), 0) FROM thread_counts WHERE "
                                         f"{' AND '.join(where)}", params)

    def unread_threads(self, actor: Actor) -> int:
        """How many of the actor's threads have guest messages staff have not read (the inbox's `unread` filter's
        total): a sum over the trigger-kept thread_counts, a few rows per property, whatever the number of threads."""
        allowed = [p["id"] for p in self.properties(actor)]
        return self.store.scalar(f"SELECT coalesce(sum(threads), 0) FROM thread_counts WHERE unread = 1 AND "
                                 f"property_id IN ({placeholders(allowed)})", allowed)

    def inquiry_details(self, actor: Actor, thread_id: str) -> dict[str, Any] | None:
        """What an Airbnb inquiry asks to book (its system message's booking_details), None for another thread."""
        row = self._thread_row(actor, thread_id)
        meta = self.store.scalar("SELECT meta FROM messages WHERE thread_id = ? AND sender = 'system' AND meta IS NOT "
                                 "NULL ORDER BY inserted_at, id LIMIT 1", (row["id"],))
        return from_json(meta).get("booking_details") if meta and row["booking_id"] is None else None

    def thread(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._threads([self._thread_row(actor, thread_id)])[0]

    def thread_messages(self, actor: Actor, thread_id: str, query: ListQuery) -> tuple[list[dict[str, Any]], dict]:
        thread = self._thread_row(actor, thread_id)
        return self._messages(thread_id, query, thread["message_count"])

    def booking_messages(self, actor: Actor, booking_id: str, query: ListQuery) -> tuple[list[dict[str, Any]], dict]:
        booking = self._booking(actor, booking_id)
        thread = self.store.one("SELECT id, message_count FROM message_threads WHERE booking_id = ?", (booking["id"],))
        if thread is None:
            return [], {**query.meta(0), **NEWEST_FIRST}
        return self._messages(thread["id"], query, thread["message_count"])

    def _messages(self, thread_id: str, query: ListQuery, message_count: int) -> tuple[list[dict[str, Any]], dict]:
        """A page of the thread's messages; without filters the thread's own counter is the total."""
        rows, meta = page(self.store, query, MESSAGE_COLUMNS, select=WITH_FILES, source="messages m",
                          scope="m.thread_id = ?", scope_params=[thread_id], default_order="m.inserted_at DESC, m.id DESC",
                          count=None if query.filters else lambda: message_count)
        return self._message_list(rows), {**meta, **NEWEST_FIRST}

    # --- staff: writing ------------------------------------------------------------------------

    def send_to_booking(self, actor: Actor, booking_id: str, data: Any, *, at: str | None = None) -> dict[str, Any]:
        """`at` back-dates the message (importing history, the demo); the API never sets it."""
        booking = self._booking(actor, booking_id)
        model = _message_input(data)
        with self.store.transaction() as conn:
            thread_id = self._thread_of_booking(conn, booking)
            message = self._add(conn, thread_id, "property", model.message or "", attachment_id=model.attachment_id,
                                user_id=actor.user_id, session_id=actor.session_id, at=at)
        self.events.publish("message.sent", message["id"], thread_id=thread_id)
        return message

    def reply(self, actor: Actor, thread_id: str, data: Any) -> dict[str, Any]:
        self._thread_row(actor, thread_id)
        model = _message_input(data)
        with self.store.transaction() as conn:
            message = self._add(conn, thread_id, "property", model.message or "", attachment_id=model.attachment_id,
                                user_id=actor.user_id, session_id=actor.session_id)
        self.events.publish("message.sent", message["id"], thread_id=thread_id)
        return message

    def close(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._set_closed(actor, thread_id, True)

    def reopen(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        return self._set_closed(actor, thread_id, False)

    def mark_read(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        self._thread_row(actor, thread_id)
        with self.store.transaction() as conn:
            conn.execute("UPDATE message_threads SET unread_count = 0 WHERE id = ?", (thread_id,))
        self.events.publish("thread.changed", thread_id, action="read")
        return self.thread(actor, thread_id)

    def mark_unread(self, actor: Actor, thread_id: str) -> dict[str, Any]:
        """Back to unread, as staff leave a thread for later: counted again as the guest messages since the last
        reply (at least one), so the badge and the unread counts are as they were before it was read."""
        self.reach(actor, thread_id)
        with self.store.transaction() as conn:
            unanswered = conn.execute(
                "SELECT count(*) FROM messages WHERE thread_id = ? AND sender = 'guest' AND inserted_at > coalesce("
                "(SELECT max(inserted_at) FROM messages WHERE thread_id = ? AND sender = 'property'), '')",
                (thread_id, thread_id)).fetchone()[0]
            conn.execute("UPDATE message_threads SET unread_count = ? WHERE id = ?", (max(1, unanswered), thread_id))
        self.events.publish("thread.changed", thread_id, action="unread")
        return self.thread(actor, thread_id)

    def update_thread(self, actor: Actor, thread_id: str, data: Any) -> dict[str, Any]:
        """`assignee_id`: who answers the thread, a user of its property's group; null unassigns it. The thread's
        read-only attributes, sent back as read, are ignored."""
        thread = self.reach(actor, thread_id)
        if not isinstance(data, dict):
            raise BadRequest(["the message_thread must be a JSON object"])
        model = validate(ThreadInput, {k: v for k, v in data.items() if k not in THREAD_READ_ONLY})
        if "assignee_id" in model.model_fields_set:
            member = "SELECT 1 FROM group_members WHERE group_id = ? AND user_id = ?"
            if model.assignee_id is not None and not self.store.scalar(member, (thread["group_id"], model.assignee_id)):
                raise ValidationFailed.one("assignee_id", "is not a user of the property's group")
            with self.store.transaction() as conn:
                conn.execute("UPDATE message_threads SET assignee_id = ?, updated_at = ? WHERE id = ?",
                             (model.assignee_id, self.now(), thread_id))
            self.events.publish("thread.changed", thread_id, action="assigned")
        return self.thread(actor, thread_id)

    def assignees(self, actor: Actor, thread_id: str) -> list[dict[str, Any]]:
        """Whom the thread may be assigned to: the users of its property's group, by email."""
        thread = self.reach(actor, thread_id)
        return [dict(r) for r in self.store.query(
            "SELECT u.id, u.email FROM group_members g JOIN users u ON u.id = g.user_id WHERE g.group_id = ? "
            "ORDER BY u.email", (thread["group_id"],))]

    def _set_closed(self, actor: Actor, thread_id: str, closed: bool) -> dict[str, Any]:
        self._thread_row(actor, thread_id)
        with self.store.transaction() as conn:
            thread = conn.execute("SELECT property_id, booking_id, is_closed FROM message_threads WHERE id = ?",
                                  (thread_id,)).fetchone()
            conn.execute("UPDATE message_threads SET is_closed = ?, updated_at = ? WHERE id = ?",
                         (int(closed), self.now(), thread_id))
            if bool(thread["is_closed"]) != closed:  # closing a closed thread changes nothing anyone must hear of
                _closed_or_reopened(conn, thread_id, thread, closed)
        self.events.publish("thread.changed", thread_id, action="closed" if closed else "opened")
        return self.thread(actor, thread_id)

    # --- channels: inbound and outbox ----------------------------------------------------------

    def receive(self, channel, data: Any) -> dict[str, Any]:
        """A guest message from the channel's adapter, for a booking of the channel or one of its threads.
        It reopens a closed thread and counts as unread."""
        _require_chat_channel(channel)
        model = validate(InboundMessageInput, data)
        if (model.booking_id is None) == (model.thread_id is None):
            raise ValidationFailed.one("booking_id", "give booking_id or thread_id")
        if not (model.message or "").strip() and not model.attachments:
            raise ValidationFailed.one("message", "can't be blank without attachments")
        with self.store.transaction() as conn:
            if model.booking_id is not None:
                booking = self.store.one("SELECT * FROM bookings WHERE id = ? AND channel_id = ?",
                                         (model.booking_id, channel["id"]))
                if booking is None:
                    raise ValidationFailed.one("booking_id", "is not a booking of this channel")
                thread_id = self._thread_of_booking(conn, booking)
            else:
                thread_id = model.thread_id
                if not self.store.scalar("SELECT 1 FROM message_threads WHERE id = ? AND channel_id = ?",
                                         (thread_id, channel["id"])):
                    raise ValidationFailed.one("thread_id", "is not a thread of this channel")
            message = self._add(conn, thread_id, "guest", model.message or "", attachment_ids=model.attachments,
                                channel_id=channel["id"], at=_sent_at(model.sent_at, self.now()))
        self.events.publish("message.received", message["id"], thread_id=thread_id)
        return message

    def inquiry(self, channel, data: Any) -> dict[str, Any]:
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
        if not self.store.scalar("SELECT 1 FROM channel_properties WHERE channel_id = ? AND property_id = ?",
                                 (channel["id"], details.property_id)):
            raise ValidationFailed.one("booking_details.property_id", "is not a property connected to this channel")
        if details.room_type_id and not self.store.scalar("SELECT 1 FROM room_types WHERE id = ? AND property_id = ?",
                                                          (details.room_type_id, details.property_id)):
            raise ValidationFailed.one("booking_details.room_type_id", "is not a room type of the property")
        meta = mask_cards_in({"status": "active", "live_feed_event_id": new_id(),
                              "booking_details": details.model_dump(mode="json")})  # kept and sent alike
        now = _sent_at(model.sent_at, self.now())
        with self.store.transaction() as conn:
            thread_id = new_id()
            conn.execute("INSERT INTO message_threads (id, property_id, channel_id, provider, title, inserted_at, "
                         "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (thread_id, details.property_id, channel["id"], channel["channel_code"],
                          mask_text(model.guest_name), now, now))
            self._add(conn, thread_id, "system", "inquiry", meta=meta, at=now)
            outbox.record(conn, "inquiry", details.property_id, {
                "message_thread_id": thread_id, "channel_id": channel["id"], "guest_name": mask_text(model.guest_name),
                "message": mask_text(model.message) if model.message else None, **meta})
            if model.message:
                # A microsecond after the inquiry: same-stamp messages would list in the random order of their ids.
                self._add(conn, thread_id, "guest", model.message, at=_microsecond_after(now))
        self.events.publish("message.received", thread_id, thread_id=thread_id)
        return self._threads([self.store.one("SELECT t.*, p.title AS property_title FROM message_threads t "
                                             "JOIN properties p ON p.id = t.property_id WHERE t.id = ?",
                                             (thread_id,))])[0]

    def outbox(self, channel, query: ListQuery) -> tuple[list[dict[str, Any]], dict]:
        """Property replies the channel has not taken yet, oldest first."""
        rows, meta = page(self.store, query, {}, select="m.*",
                          source="messages m JOIN message_threads t ON t.id = m.thread_id",
                          scope="t.channel_id = ? AND m.delivery = 'pending'", scope_params=[channel["id"]],
                          default_order="m.inserted_at, m.id")
        messages = self._message_list(rows)
        threads = {r["id"]: r for r in rows}
        return [{**m, "thread_id": threads[m["id"]]["thread_id"]} for m in messages], meta

    def delivered(self, channel, message_id: str) -> None:
        row = self.store.one("SELECT m.id FROM messages m JOIN message_threads t ON t.id = m.thread_id "
                             "WHERE m.id = ? AND t.channel_id = ? AND m.sender = 'property'", (message_id, channel["id"]))
        if row is None:
            raise NotFound(f"message {message_id} is not a reply on this channel")
        with self.store.transaction() as conn:
            conn.execute("UPDATE messages SET delivery = 'delivered', delivered_at = coalesce(delivered_at, ?), "
                         "updated_at = ? WHERE id = ?", (self.now(), self.now(), message_id))
        self.events.publish("message.delivered", message_id)

    def attachment(self, actor: Actor, attachment_id: str):
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

    def channel_attachment(self, channel, attachment_id: str):
        """An attachment for a channel's adapter: its own uploads, or files on its threads' messages."""
        row = self.attachments.content(attachment_id)
        on_channel = row is not None and (row["channel_id"] == channel["id"] or (
            row["thread_id"] is not None and self.store.scalar(
                "SELECT 1 FROM message_threads WHERE id = ? AND channel_id = ?", (row["thread_id"], channel["id"]))))
        if not on_channel:
            raise NotFound(f"attachment {attachment_id} is not on this channel")
        return row

    # --- the pieces ----------------------------------------------------------------------------

    def _add(self, conn, thread_id: str, sender: str, text: str, *, attachment_id: str | None = None,
             attachment_ids: list[str] | None = None, user_id: str | None = None, channel_id: str | None = None,
             session_id: str | None = None, meta: dict[str, Any] | None = None,
             at: str | None = None) -> dict[str, Any]:
        """One message and its thread's counters, in the caller's transaction. Card numbers in it are masked
        before it is stored, as an OTA's own messaging does: a guest who types one never has it kept."""
        message_id, now = new_id(), at or self.now()
        text, meta = mask_text(text), mask_cards_in(meta)
        conn.execute("INSERT INTO messages (id, thread_id, sender, message, meta, delivery, inserted_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (message_id, thread_id, sender, text, json.dumps(meta) if meta else None,
                      "pending" if sender == "property" else None, now, now))
        for attachment in ([attachment_id] if attachment_id else []) + (attachment_ids or []):
            self.attachments.claim(conn, attachment, message_id, user_id=user_id, channel_id=channel_id,
                                   session_id=session_id)
        guest = int(sender == "guest")
        if guest:
            thread = conn.execute("SELECT property_id, booking_id, is_closed FROM message_threads WHERE id = ?",
                                  (thread_id,)).fetchone()
            if thread["is_closed"]:  # a guest's message reopens a closed thread (the update below)
                _closed_or_reopened(conn, thread_id, thread, False)
        conn.execute("UPDATE message_threads SET message_count = message_count + 1, unread_count = unread_count + ?, "
                     "last_message_id = ?, last_message_received_at = ?, updated_at = ?, "
                     "is_closed = CASE WHEN ? = 1 THEN 0 ELSE is_closed END WHERE id = ?",
                     (int(guest), message_id, now, now, int(guest), thread_id))
        message = self._message_list([conn.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()])[0]
        if guest:
            outbox.record(conn, "message", thread["property_id"], {
                "booking_id": thread["booking_id"], "have_attachment": bool(message["attachments"]),
                "attachments": [a["url"] for a in message["attachments"]], "id": message_id,
                "message": message["message"], "message_thread_id": thread_id, "ota_message_id": None,
                "sender": "guest"})
        return message

    def _thread_of_booking(self, conn, booking) -> str:
        thread_id = conn.execute("SELECT id FROM message_threads WHERE booking_id = ?", (booking["id"],)).fetchone()
        if thread_id:
            return thread_id[0]
        attributes = from_json(conn.execute("SELECT attributes FROM booking_revisions WHERE id = ?",
                                            (booking["revision_id"],)).fetchone()[0])
        customer = attributes.get("customer") or {}
        title = " ".join(p for p in (customer.get("name"), customer.get("surname")) if p) or booking["unique_id"]
        channel = conn.execute("SELECT channel_code FROM channels WHERE id = ?", (booking["channel_id"],)).fetchone()
        thread_id, now = new_id(), self.now()
        conn.execute("INSERT INTO message_threads (id, property_id, channel_id, booking_id, provider, title, "
                     "inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (thread_id, booking["property_id"], booking["channel_id"], booking["id"], channel[0], title,
                      now, now))
        return thread_id

    def _booking(self, actor: Actor, booking_id: str):
        row = booking_row(self.store, actor, booking_id)
        self._require_chat(row["property_id"])
        if row["channel_code"] not in CHAT_PROVIDERS:
            raise NotSupported("the booking's channel does not support messages")
        return row

    def reach(self, actor: Actor, thread_id: str):
        """The thread's row (with its property's group_id), once the actor's access is checked as every chat call
        checks it: 404 unknown, 401 someone else's, 403 without the chat app."""
        return self._thread_row(actor, thread_id)

    def _thread_row(self, actor: Actor, thread_id: str):
        row = self.store.one(f"SELECT t.*, p.group_id, p.title AS property_title, {CHAT_APP} AS chat "
                             "FROM message_threads t JOIN properties p ON p.id = t.property_id WHERE t.id = ?",
                             (thread_id,))
        if row is None:
            raise NotFound(f"message thread {thread_id} does not exist")
        if not actor.reaches(row["group_id"], row["property_id"]):
            raise Unauthorized("you have no access to this thread")
        if not row["chat"]:
            raise Forbidden(NO_CHAT)
        return row

    def check_property(self, actor: Actor, property_id: str) -> None:
        row = self.store.one("SELECT group_id FROM properties WHERE id = ?", (property_id,))
        if row is None or not actor.reaches(row["group_id"], property_id):
            raise Unauthorized("you have no access to this property")
        self._require_chat(property_id)

    def _require_chat(self, property_id: str) -> None:
        if not self.store.scalar("SELECT 1 FROM application_installations WHERE property_id = ? "
                                 "AND application_code = 'chat'", (property_id,)):
            raise Forbidden(NO_CHAT)

    def _threads(self, rows: list) -> list[dict[str, Any]]:
        last = {m["id"]: m for m in self._message_list(self.store.query(
            f"SELECT * FROM messages WHERE id IN ({placeholders(rows)})",
            [r["last_message_id"] for r in rows]))} if rows else {}
        assigned = sorted({r["assignee_id"] for r in rows if r["assignee_id"]})
        emails = dict(self.store.query(f"SELECT id, email FROM users WHERE id IN ({placeholders(assigned)})",
                                       assigned)) if assigned else {}
        return [{"id": r["id"], "title": r["title"], "is_closed": bool(r["is_closed"]), "provider": r["provider"],
                 "message_count": r["message_count"], "unread_count": r["unread_count"],
                 "last_message": last.get(r["last_message_id"]), "last_message_received_at": r["last_message_received_at"],
                 "inserted_at": r["inserted_at"], "updated_at": r["updated_at"], "property_id": r["property_id"],
                 "property_title": r["property_title"], "channel_id": r["channel_id"], "booking_id": r["booking_id"],
                 "assignee_id": r["assignee_id"], "assignee_email": emails.get(r["assignee_id"])}
                for r in rows]

    def _message_list(self, rows: list) -> list[dict[str, Any]]:
        flagged = bool(rows) and "has_files" in rows[0].keys()  # read WITH_FILES: only those need a look
        with_files = [r["id"] for r in rows if not flagged or r["has_files"]]
        attachments = self.attachments.of_messages(with_files)
        messages = []
        for r in rows:
            message = {"id": r["id"], "message": r["message"], "sender": r["sender"],
                       "attachments": attachments.get(r["id"], []), "inserted_at": r["inserted_at"],
                       "updated_at": r["updated_at"], "thread_id": r["thread_id"]}
            if r["meta"]:
                message["meta"] = from_json(r["meta"])
            if r["sender"] == "property":
                message["delivery"] = r["delivery"]
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


def _unread(query: ListQuery) -> str:
    """`filter[unread]` as the literal condition of the unread partial index (and out of the generic filters)."""
    found = [f for f in query.filters if f.field == "unread"]
    query.filters = [f for f in query.filters if f.field != "unread"]
    if not found:
        return ""
    value = parse_bool(found[-1].value)
    if found[-1].op != "eq" or value is None:
        raise ValidationFailed.one("filter[unread]", "must be true or false")
    return " AND t.unread_count > 0" if value else " AND t.unread_count = 0"


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


def _closed_or_reopened(conn, thread_id: str, thread, closed: bool) -> None:
    """The outbox's event of a thread closed or reopened (by staff, or by a guest's message), in the caller's
    transaction."""
    outbox.record(conn, "thread_closed" if closed else "thread_reopened", thread["property_id"],
                  {"message_thread_id": thread_id, "booking_id": thread["booking_id"]})


def _require_chat_channel(channel) -> None:
    if channel["channel_code"] not in CHAT_PROVIDERS:
        raise NotSupported(f"{channel['channel_code']} channels have no guest messaging")
