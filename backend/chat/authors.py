"""Who wrote a reply or a note, as staff read it: "You" for the reader's own, a colleague by their address, an
integration (a reply sent with an API token) as one, and a writer no longer known (a withdrawn user, a reply from
before writers were recorded) as such. One rule for the conversation, the thread list and its assignee column."""

from __future__ import annotations

from typing import Any

YOU = "You"
FORMER = "A former colleague"
UNRECORDED = "Staff"  # a reply from before its writer was recorded
INTEGRATION = "Integration (API)"
RULE = "Rule"  # a message a message rule sent (backend/message_rules/): "Rule · <its title>"


def staff_name(user_id: str | None, email: str | None, reader_id: str) -> str:
    """A user who wrote something (a note, a reply from the console): "You", their address, or a former colleague."""
    if user_id is not None and user_id == reader_id:
        return YOU
    return email or FORMER


def reply_author(message: dict[str, Any], reader_id: str) -> str:
    """A property reply's writer (the engine's message with its `user_id`, `author_email`, `via_api`,
    `message_rule_id` and `message_rule_title`)."""
    if message.get("message_rule_id"):
        return f"{RULE} · {message['message_rule_title']}" if message.get("message_rule_title") else RULE
    if message.get("via_api"):
        email = message.get("author_email")
        return f"{INTEGRATION} · {email}" if email else INTEGRATION
    if message.get("user_id") is None:
        return UNRECORDED
    return staff_name(message.get("user_id"), message.get("author_email"), reader_id)


def reply_short(message: dict[str, Any], reader_id: str) -> str:
    """A reply's writer in a one-line preview: "You", "API", "Rule", "Staff", or a colleague's name."""
    if message.get("message_rule_id"):
        return RULE
    if message.get("via_api"):
        return "API"
    if message.get("user_id") is None:
        return UNRECORDED
    return YOU if message["user_id"] == reader_id else short_name(message["user_id"], message.get("author_email"),
                                                                  reader_id)


def short_name(user_id: str | None, email: str | None, reader_id: str) -> str:
    """A narrow column's name for a user: "you", else the address before its @ ("" for nobody)."""
    if user_id is None:
        return ""
    if user_id == reader_id:
        return YOU.lower()
    return (email or FORMER).split("@", 1)[0]
