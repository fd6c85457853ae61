"""The embeddable web chat's tokens: how a page in someone else's iframe gets to one property's chat.

An integrator's server asks for a one-time token with its API token (`POST /api/v1/auth/one_time_token`)
and puts the returned `embed_url` in an iframe. The page exchanges the one-time token, once and within
minutes, for a chat session token that reaches the chat endpoints of that one property and nothing
else (see `Identity.authenticate(chat=True)` and `Actor.reaches`). The API token never reaches the
browser. Both tokens are kept only as hashes and end with the API token that issued them.

Expiry follows the wall clock, not the engine's clock: it is a security rule, not a business one.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from backend.chat.service import Chat
from backend.chat.store import delete_expired_chat_tokens, insert_chat_token, property_title, spend_one_time_token
from backend.core.errors import Unauthorized
from backend.core.validation import validate
from backend.identity.models import Actor
from backend.identity.service import CHAT_SESSION_PREFIX, hash_secret
from storage import Connection, Store, new_id, utc_now

# kind: (token prefix, lifetime). A session lasts a front-desk shift; then the host page issues a new one.
KINDS = {"one_time": ("fdo_", timedelta(minutes=5)), "session": (CHAT_SESSION_PREFIX, timedelta(hours=12))}


class OneTimeTokenInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    property_id: StrictStr


class OneTimeTokenEnvelope(BaseModel):
    one_time_token: OneTimeTokenInput


class ChatSessionInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    one_time_token: StrictStr


class ChatSessionEnvelope(BaseModel):
    chat_session: ChatSessionInput


class ChatEmbed:
    def __init__(self, store: Store, chat: Chat) -> None:
        self.store = store
        self.chat = chat

    def one_time_token(self, actor: Actor, data: Any, base_url: str) -> dict[str, Any]:
        """A token for the page of one property the actor may chat for (401/403 as the chat API), and
        the page's address under `base_url`: the public address of the listener the caller used, so TLS
        stays TLS."""
        if actor.token_id is None or actor.only_property is not None:
            raise Unauthorized("a one-time token is issued only to an API token")
        model = validate(OneTimeTokenInput, data)
        self.chat.check_property(actor, model.property_id)
        with self.store.transaction() as conn:
            issued = _issue(conn, "one_time", actor.token_id, model.property_id)
        return {**issued, "property_id": model.property_id, "embed_url": f"{base_url.rstrip('/')}/chat?token={issued['token']}"}

    def exchange(self, data: Any) -> dict[str, Any]:
        """Spend a one-time token for a chat session. A token is good once: a second try is a 401."""
        model = validate(ChatSessionInput, data)
        now = utc_now()
        with self.store.transaction() as conn:
            # A token whose API token was revoked meanwhile is refused too: it ends with the token that issued it.
            row = spend_one_time_token(conn, hash_secret(model.one_time_token), now)
            if row is None:
                raise Unauthorized("the one-time token is unknown, used or expired; ask for a new one")
            issued = _issue(conn, "session", row["api_token_id"], row["property_id"])
            title = property_title(conn, row["property_id"])
        return {**issued, "property_id": row["property_id"], "property_title": title}


def _issue(conn: Connection, kind: str, api_token_id: str, property_id: str) -> dict[str, str]:
    """A new token of `kind` (its id, the token and its expiry), in the caller's transaction."""
    prefix, ttl = KINDS[kind]
    issued = {"id": new_id(), "token": prefix + secrets.token_urlsafe(32),
              "expires_at": _stamp(datetime.now(UTC) + ttl)}
    # Expired tokens are swept whenever a new one is made, so the table holds only live ones.
    delete_expired_chat_tokens(conn, utc_now())
    insert_chat_token(conn, hash_secret(issued["token"]), issued["id"], kind, api_token_id, property_id,
                      issued["expires_at"])
    return issued


def _stamp(moment: datetime) -> str:
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds")
