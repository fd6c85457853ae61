"""Guest chat: threads, messages, attachments, inquiries, and the channels' inbound path and outbox."""

from backend.chat.service import Chat

__all__ = ["Chat"]
