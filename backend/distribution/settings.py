"""What a channel's `settings` say of its ARI, beside the channel's other keys (which stay as sent):

- `ari_distribution`: `none` (the default: Frontdesk tells the channel nothing), `pull` (its adapter reads
  `GET /api/v1/inbound/:channel_id/ari` and acks) or `push` (Frontdesk POSTs to `ari_url`);
- `ari_url`: where a push channel's batches go, http or https; behind the address guard of every call out
  (backend/core/addresses.py: no loopback, private or link-local address unless `fetch_private_addresses`);
- `ari_format`: `json` (the service's `{"values": [...]}` shapes) or `ota` (OpenTravel XML);
- `hotel_codes`: the channel's own code of each property (`{property_id: code}`, OTA's `HotelCode`); a property
  without one is sent by its ID.

A channel that takes ARI (pull or push) is a destination of the outbox (kind `channel`), added in the transaction
that sets it and dropped when it goes back to `none` (or the channel is deleted): it gets what changes from then on
(a plan mapped later included: backend/distribution/remap.py), and a full sync sends the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationInfo, field_validator

from backend.channels.store import set_ari_secret
from backend.core.addresses import host_problem
from backend.core.fields import Url
from backend.distribution.store import ari_secret
from backend.outbox.deliverer import add_destination, drop_destination
from backend.outbox.sending import new_secret
from backend.outbox.signing_secrets import seal
from storage import Connection

if TYPE_CHECKING:
    from backend.core.keys import Keys

KIND = "channel"  # destinations.kind
Mode = Literal["none", "pull", "push"]


class DistributionSettings(BaseModel):
    model_config = ConfigDict(extra="allow")

    ari_distribution: Mode = "none"
    ari_url: Url = Field(None, validate_default=True)
    ari_format: Literal["json", "ota"] = "json"
    hotel_codes: dict[StrictStr, Annotated[StrictStr, Field(min_length=1, max_length=64)]] = Field(
        default_factory=dict)

    @field_validator("ari_url")
    @classmethod
    def _push_needs_url(cls, url: str | None, info: ValidationInfo) -> str | None:
        if url is None and info.data.get("ari_distribution") == "push":
            raise ValueError("is required when ari_distribution is push")
        return url


def mode_of(settings: dict[str, Any] | None) -> str:
    return cast(str, (settings or {}).get("ari_distribution", "none"))


def url_problem(settings: dict[str, Any], private_addresses: bool) -> str | None:
    """Why a push channel's `ari_url` may not be called (its host resolves to a private address), or None."""
    url = settings.get("ari_url")
    if mode_of(settings) != "push" or not url:
        return None
    problem = host_problem(urlsplit(url).hostname or "", private_addresses)
    return f"the address {problem}" if problem else None


def track(conn: Connection, channel_id: str, settings: dict[str, Any] | None,
          keys: Callable[[], Keys]) -> str | None:
    """Keep the channel's destination as its settings say (None: the channel is gone), in the transaction that
    changes them. A channel that turns to push without a signing secret gets one: returned, for the caller to show
    once."""
    mode = mode_of(settings)
    if mode == "none":
        drop_destination(conn, channel_id)
        return None
    add_destination(conn, channel_id, KIND)
    secret = ari_secret(conn, channel_id)
    return rotate_secret(conn, channel_id, keys) if mode == "push" and secret is None else None


def rotate_secret(conn: Connection, channel_id: str, keys: Callable[[], Keys]) -> str:
    """A new signing secret for the channel, kept sealed (backend/outbox/signing_secrets.py); returned in clear."""
    secret = new_secret()
    set_ari_secret(conn, channel_id, seal(keys(), secret, channel_id))
    return secret
