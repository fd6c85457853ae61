"""Files sent with messages: uploaded as base64, checked against what they claim to be, size-capped.

An upload belongs to whoever made it (a user, a user's web chat session, or a channel's adapter) until
a message takes it; nobody else may see or attach it. Once on a message, whoever may read the thread
may fetch it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, StrictStr

from backend.chat.store import (
    attach,
    attachment_content,
    attachment_owner,
    attachment_row,
    delete_unsent_upload,
    insert_attachment,
    message_attachments,
)
from backend.core.errors import PayloadTooLarge, ValidationFailed
from backend.core.fields import RequiredText
from backend.core.validation import validate
from backend.properties.media import sniff_image
from storage import Connection, Row, Store, new_id, utc_now

FILE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain")


class AttachmentInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: StrictStr
    file_name: RequiredText
    file_type: StrictStr


class AttachmentEnvelope(BaseModel):
    attachment: AttachmentInput


def sniff(data: bytes) -> str | None:
    """The type the bytes themselves show: an image signature, a PDF header, or UTF-8 text."""
    found = sniff_image(data)
    if found:
        return found
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "text/plain" if "\x00" not in text else None


class Attachments:
    def __init__(self, store: Store, base_url: str, max_bytes: int) -> None:
        self.store = store
        self.base_url = base_url
        self.max_bytes = max_bytes

    def upload(self, data: Any, *, user_id: str | None = None, channel_id: str | None = None,
               session_id: str | None = None) -> dict[str, Any]:
        model = validate(AttachmentInput, data)
        if len(model.file) > self.max_bytes * 4 // 3 + 4:
            raise PayloadTooLarge([f"an attachment may be at most {self.max_bytes // (1024 * 1024)} MiB"])
        try:
            content = base64.b64decode(model.file, validate=True)
        except (binascii.Error, ValueError):
            raise ValidationFailed.one("file", "must be base64") from None
        if len(content) > self.max_bytes:
            raise PayloadTooLarge([f"an attachment may be at most {self.max_bytes // (1024 * 1024)} MiB"])
        if not content:
            raise ValidationFailed.one("file", "is empty")
        if model.file_type not in FILE_TYPES:
            raise ValidationFailed.one("file_type", f"must be one of {', '.join(FILE_TYPES)}")
        if sniff(content) != model.file_type:
            raise ValidationFailed.one("file", f"is not {model.file_type} content")
        attachment_id = new_id()
        with self.store.transaction() as conn:
            insert_attachment(conn, attachment_id, user_id, channel_id, session_id, model.file_name, model.file_type,
                              len(content), hashlib.sha256(content).hexdigest(), content, utc_now())
        return self.describe(cast(Row, attachment_row(self.store, attachment_id)))  # inserted above

    def claim(self, conn: Connection, attachment_id: Any, message_id: str, *, user_id: str | None = None,
              channel_id: str | None = None, session_id: str | None = None) -> None:
        """Put an upload of the sender's on a message; anything else is a 422 naming attachment_id. Taken by a
        conditional update: two messages of different properties, written at once, never both take one upload."""
        row = attachment_owner(conn, attachment_id) if isinstance(attachment_id, str) else None
        if (row is None or row[3] is not None or tuple(row)[:3] != (user_id, channel_id, session_id)
                or not attach(conn, attachment_id, message_id)):
            raise ValidationFailed.one("attachment_id", "is not an attachment you uploaded and have not sent yet")

    def discard(self, attachment_id: str, *, user_id: str) -> bool:
        """Delete the user's upload if no message has taken it; whether there was one."""
        with self.store.transaction() as conn:
            gone = delete_unsent_upload(conn, attachment_id, user_id)
        return gone == 1

    def of_messages(self, message_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        if not message_ids:
            return {}
        rows = message_attachments(self.store, message_ids)
        found: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            found.setdefault(row["message_id"], []).append(self.describe(row))
        return found

    def describe(self, row: Row) -> dict[str, Any]:
        return {"id": row["id"], "file_name": row["file_name"], "file_type": row["file_type"], "size": row["size"],
                "url": f"{self.base_url}/api/v1/attachments/{row['id']}", "inserted_at": row["inserted_at"]}

    def content(self, attachment_id: str) -> Row | None:
        return attachment_content(self.store, attachment_id)
