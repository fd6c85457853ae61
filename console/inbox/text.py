"""How the inbox writes threads and messages: ages against the engine's clock, providers by name,
one-line previews, message labels and the Airbnb inquiry card. Pure functions, easy to test."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from backend.chat.authors import YOU, reply_author, reply_short, short_name
from console.kit.words import channel, counted, day, one_line, size, stamp, when

UNREAD, READ = "●", " "
SENDERS = {"guest": "Guest", "property": "Staff", "system": "System"}
# A reply the channel's adapter has not taken yet: it is in Frontdesk's outbox, not yet with the guest.
WAITING = "◷ waiting for the channel"
DELIVERED = "✓ delivered"


def age(value: str | None, now: datetime) -> str:
    """How long ago, in the largest whole unit: "now", "5m", "3h", "2d", "6w"."""
    if not value:
        return ""
    seconds = max(0, int((now - stamp(value)).total_seconds()))
    for unit, span in (("w", 7 * 86400), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= span and (unit != "w" or seconds >= 14 * 86400):
            return f"{seconds // span}{unit}"
    return "now"


def preview(thread: dict[str, Any], reader_id: str) -> str:
    last = thread.get("last_message")
    if not last:
        return "no messages yet"
    text = one_line(last["message"]) if last["sender"] != "system" else "Inquiry"
    if not text and last["attachments"]:
        text = counted(len(last["attachments"]), "attachment")
    if last["sender"] != "property":
        return text
    return f"{reply_short(last, reader_id)}: {text}"


def assignee_cell(thread: dict[str, Any], reader_id: str) -> Text:
    """Whose thread it is: "you", a colleague's name, or a dim "nobody"."""
    name = short_name(thread["assignee_id"], thread["assignee_email"], reader_id)
    return Text(name, overflow="ellipsis", no_wrap=True) if name else Text("nobody", style="dim italic")


def thread_cells(thread: dict[str, Any], now: datetime, reader_id: str) -> tuple[Text, Text, Text, Text]:
    """Two lines a thread: guest (bold when unread) with channel and property, then the last message; whose it is;
    its age."""
    unread = thread["unread_count"] > 0
    mark = Text(UNREAD if unread else READ, style="bold")
    who = Text(thread["title"], style="bold" if unread else "", overflow="ellipsis", no_wrap=True)
    where = f"  {channel(thread['provider'])} · {thread['property_title']}"
    who.append(where, style="dim")
    who.append("\n")
    if thread["is_closed"]:
        who.append("[closed] ", style="italic")
    who.append(preview(thread, reader_id), style="" if unread else "dim")
    ago = Text(age(thread["last_message_received_at"], now), justify="right", style="bold" if unread else "dim")
    if unread:
        ago.append(f"\n{thread['unread_count']} new", style="bold")
    return mark, who, assignee_cell(thread, reader_id), ago


QUEUED_ROOM = 54  # the status line's message at 80 columns (70% of the line)


def queued_text(guest: str, provider: str) -> str:
    """After a reply: it is in the outbox, not with the guest, until the channel's adapter takes it. One line at
    80 columns: a long name gives way to its first word."""
    said = f"Reply to {guest} queued for {channel(provider)}: {WAITING[0]} waiting"
    if len(said) > QUEUED_ROOM:
        said = f"Reply to {guest.split()[0] if guest.split() else guest} queued for {channel(provider)}"
    return said


def pending_text(attachment: dict[str, Any]) -> str:
    """A file waiting to go with the reply."""
    return f"📎 {attachment['file_name']} ({size(attachment['size'])})"


def attachment_lines(message: dict[str, Any]) -> Text:
    lines = Text()
    for item in message["attachments"]:
        lines.append(f"\n↳ {item['file_name']}", style="bold")
        lines.append(f"  {item['file_type']} · {size(item['size'])}", style="dim")
    return lines


def named(messages: list[dict[str, Any]], reader_id: str) -> list[dict[str, Any]]:
    """The replies among `messages` with their `author` as `reader_id` reads it (backend/chat/authors.py)."""
    return [{**m, "author": reply_author(m, reader_id)} if m["sender"] == "property" else m for m in messages]


def author(message: dict[str, Any], guest: str) -> str:
    if message["sender"] == "guest":
        return guest
    return message.get("author") or SENDERS.get(message["sender"], message["sender"])


def whose_message(message: dict[str, Any], guest: str) -> str:
    """"Emma Clarke's message", "your message": a message named in a sentence."""
    return "your message" if author(message, guest) == YOU else f"{author(message, guest)}'s message"


def label(message: dict[str, Any], guest: str) -> Text:
    """Who wrote it and when; a reply also says whether the channel has taken it."""
    text = Text(author(message, guest), style="bold")
    text.append(f" · {when(message['inserted_at'])}", style="dim")
    if message.get("delivery"):
        text.append(f" · {DELIVERED if message['delivery'] == 'delivered' else WAITING}", style="dim")
    return text


def bubble(message: dict[str, Any], guest: str) -> Text:
    body = label(message, guest)
    if message["message"]:
        body.append("\n" + message["message"])
    body.append_text(attachment_lines(message))
    return body


PARTY = (("number_of_adults", "adult", "adults"), ("number_of_children", "child", "children"),
         ("number_of_infants", "infant", "infants"), ("number_of_pets", "pet", "pets"))


def guests(details: dict[str, Any]) -> str:
    parts = [f"{details[key]} {one if details[key] == 1 else many}" for key, one, many in PARTY if details.get(key)]
    return f"{details.get('number_of_guests', 0)}" + (f" ({', '.join(parts)})" if parts else "")


def inquiry_card(message: dict[str, Any]) -> RenderableType:
    """The Airbnb inquiry's system message: what the guest asks to book, and for how much."""
    details = (message.get("meta") or {}).get("booking_details") or {}
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    if details.get("checkin_date") and details.get("checkout_date"):
        grid.add_row("Dates", f"{day(details['checkin_date'])} → {day(details['checkout_date'])}"
                              f" · {details.get('nights', '?')} nights")
    if details.get("number_of_guests") is not None:  # an inquiry may leave its party out
        grid.add_row("Guests", guests(details))
    if details.get("expected_payout_amount_accurate"):
        grid.add_row("Payout", f"{details['expected_payout_amount_accurate']} {details.get('currency', '')}".strip())
    if details.get("listing_name"):
        grid.add_row("Listing", details["listing_name"])
    return Group(Text(f"Received {when(message['inserted_at'])}", style="dim"), grid)


def inquiry_title(message: dict[str, Any]) -> str:
    status = (message.get("meta") or {}).get("status")
    return f"Airbnb inquiry · {status}" if status else "Airbnb inquiry"
