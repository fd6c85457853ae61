"""How the console words what goes out: a channel's or a webhook's sync state, a delivery, an event mask.
Staff read these, so no field names; times are the engine's (UTC), the day left out when it is today's."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from rich.text import Text

from backend.outbox.status import age
from console.kit.fit_table import Fitted
from console.kit.words import counted, stamp, when

EVENTS = {"ari": "ARI change", "booking_new": "new booking", "booking_modification": "booking modified",
          "booking_cancellation": "booking cancelled", "non_acked_booking": "booking not acknowledged",
          "message": "guest message", "inquiry": "inquiry", "thread_closed": "conversation closed",
          "thread_reopened": "conversation reopened", "sync_error": "channel sync error", "test": "test event"}
# What an event mask's items get, as a list says it ("bookings, messages").
MASK_ITEMS = {"*": "everything", "ari": "ARI", "booking": "bookings", "booking_new": "new bookings",
              "booking_modification": "booking changes", "booking_cancellation": "cancellations",
              "non_acked_booking": "unacknowledged bookings", "message": "messages", "inquiry": "inquiries",
              "thread_closed": "closed conversations", "thread_reopened": "reopened conversations",
              "sync_error": "sync errors"}
ARI_KINDS = {"*": "ARI", "rate": "rates", "availability": "availability"}
# A read replica's state, first in its line (storage/reads.py `ReplicaStatus`), and what follows its address.
REPLICA_STATES = {"in_use": "in use", "down": "down", "lagging": "behind", "refused": "refused"}
REPLICA_DETAILS = {"in_use": ", {lag} s behind at most", "down": "", "lagging": ", {why}", "refused": ", it {why}"}
STATUSES = {"delivered": Text("sent", style="green"), "retrying": Text("retrying", style="bold yellow"),
            "failed": Text("failed", style="bold red")}


def moment(value: str, now: datetime) -> str:
    """"14:02" today, "21 Nov 14:02" another day."""
    return stamp(value).strftime("%H:%M") if stamp(value).date() == now.date() else when(value)


def sync_state(state: dict[str, Any] | None, now: datetime, noun: str, sent: str = "last sent") -> Fitted:
    """A destination's state in a few words, with the last error or the last delivery after them where there is
    room: "failing since 14:02", "retrying at 14:06", "3 changes waiting", "up to date". None: "—"."""
    if state is None:
        return Fitted(Text("—", style="dim"), None)
    last = state["last_delivered_at"] and f"{sent} {moment(state['last_delivered_at'], now)}"
    if state["failing_since"]:
        return Fitted(Text(f"failing since {moment(state['failing_since'], now)}", style="bold red"),
                      state["last_error"], croppable=True)
    if state["attempts"]:
        retry = state["next_attempt_at"]
        words = f"retrying at {moment(retry, now)}" if retry else "retrying"
        return Fitted(Text(words, style="bold yellow"), state["last_error"], croppable=True)
    if state["waiting"]:
        return Fitted(Text(f"{counted(state['waiting'], noun)} waiting", style="yellow"), last)
    return Fitted(Text("up to date", style="green"), last)


def state_lines(state: dict[str, Any], noun: str, sent: str = "last sent") -> list[str]:
    """The whole state for a detail view: what is wrong first (failing, or retrying), its last error, then what
    waits and what was last delivered."""
    lines = []
    if state["failing_since"]:
        lines.append(f"Failing since {when(state['failing_since'])}: nothing more goes until it is resumed.")
    elif state["next_attempt_at"]:
        lines.append(f"Retrying: next try at {when(state['next_attempt_at'])}.")
    if state["last_error"]:
        lines.append(f"Last error, after {counted(state['attempts'], 'attempt')}: {state['last_error']}")
    waiting = f"{counted(state['waiting'], noun)} waiting." if state["waiting"] else "Up to date."
    last = (f"{sent.capitalize()} {when(state['last_delivered_at'])}." if state["last_delivered_at"]
            else f"Nothing {sent.removeprefix('last ')} yet.")
    return [*lines, f"{waiting} {last}"]


def mask_words(mask: str) -> str:
    """An event mask as a list of what it gets: "everything", "bookings, messages", "rates of chosen rate plans"."""
    words: list[str] = []
    for item in (part.strip() for part in mask.split(",")):
        said = ari_mask_words(item) if item.startswith("ari:") else MASK_ITEMS.get(item, item.replace("_", " "))
        if said not in words:
            words.append(said)
    return "everything" if "everything" in words else ", ".join(words)


def ari_mask_words(item: str) -> str:
    kind, room, plan = (item.split(":")[1:] + ["*", "*"])[:3]
    said = ARI_KINDS.get(kind, kind.replace("_", " "))
    if plan != "*":
        return f"{said} of chosen rate plans"
    return f"{said} of chosen room types" if room != "*" else said


def event_words(event: str | None) -> str:
    return "(no longer kept)" if event is None else EVENTS.get(event, event.replace("_", " "))


def nights(date_from: str, date_to: str, today: date) -> str:
    """"1 Dec–31 Dec", "20 Dec–3 Jan 2027": a year is said once, and not when it is this one."""
    first, last = date.fromisoformat(date_from), date.fromisoformat(date_to)
    end = last.strftime("%-d %b" if last.year == today.year else "%-d %b %Y")
    if first == last:
        return end
    return first.strftime("%-d %b" if first.year in (today.year, last.year) else "%-d %b %Y") + "–" + end


def warning_words(warnings: list[str] | None) -> str | None:
    """What a channel warned of while taking a delivery (an OTA answer's Warnings), as staff read it."""
    return f"Taken with {'a warning' if len(warnings) == 1 else 'warnings'}: {'; '.join(warnings)}" if warnings \
        else None


def status_words(status: str) -> Text:
    return STATUSES.get(status, Text(status)).copy()


def oldest_waiting(status: dict[str, Any] | None) -> str:
    """How far behind deliveries are, in a line: "Oldest undelivered change: 2 min ago (channel “Booking.com”)",
    "Every change has been delivered", or, for staff with no webhook or channel, that nothing goes out."""
    if status is None:
        return "No webhook or channel takes changes yet."
    held = status["oldest_waiting_for"]
    if held is None:
        return "Every change has been delivered."
    return f"Oldest undelivered change: {ago(status['oldest_waiting_age'])} ({held['type']} {held['name']})"


def read_replicas(replicas: list[dict[str, Any]], now: datetime) -> str:
    """A line for each read replica, its state first (the line is cropped): "Read replica in use since 2 min ago:
    postgresql://db2:5432/frontdesk, 0.2 s behind at most", "Read replica down since just now: …; the primary
    answers its reads"; nothing without any (a console over SQLite)."""
    lines = []
    for replica in replicas:
        state = replica["state"]
        detail = REPLICA_DETAILS[state].format(lag=replica["lag_seconds"], why=replica["why"])
        tail = "" if state == "in_use" else "; the primary answers its reads"
        lines.append(f"Read replica {REPLICA_STATES[state]} since {ago(age(replica['since'], now))}: "
                     f"{replica['location']}{detail}{tail}")
    return "\n".join(lines)


def ago(seconds: int) -> str:
    """"just now", "2 min ago", "3 h ago", "2 days ago"."""
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    return f"{counted(seconds // 86400, 'day')} ago"
