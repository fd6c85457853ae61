"""What a webhook is made of, as the service's Webhooks API names it, and the limits that keep one small: a
webhook's headers and query parameters travel with every event it gets."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictStr

from backend.core.fields import RequiredUrl
from backend.webhooks import masks

MAX_ENTRIES = 20  # headers, and query parameters, of one webhook
MAX_NAME = 64
MAX_VALUE = 1024
MAX_MASK = 4096
TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # an HTTP header name (RFC 9110 token)
VISIBLE = re.compile(r"[\t\x20-\x7e]*")
# Set by Frontdesk on every request, or about the connection itself: a webhook's own headers may not replace them.
RESERVED = frozenset(("host", "content-length", "content-type", "transfer-encoding", "connection", "keep-alive",
                      "proxy-authorization", "proxy-authenticate", "proxy-connection", "te", "trailer", "upgrade",
                      "expect"))
SIGNATURE_PREFIX = "webhook-"  # webhook-id, webhook-timestamp, webhook-signature


def _mask(value: str) -> str:
    if len(value) > MAX_MASK:
        raise ValueError(f"must be at most {MAX_MASK} characters")
    masks.parse(value)
    return value


def _sizes(entries: dict[str, str]) -> None:
    for name, value in entries.items():
        if not 0 < len(name) <= MAX_NAME:
            raise ValueError(f"{name[:MAX_NAME]!r}: names must be 1 to {MAX_NAME} characters")
        if len(value) > MAX_VALUE:
            raise ValueError(f"{name!r}: values must be at most {MAX_VALUE} characters")


def _headers(headers: dict[str, str]) -> dict[str, str]:
    _sizes(headers)
    for name, value in headers.items():
        if not TOKEN.fullmatch(name):
            raise ValueError(f"{name!r} is not a header name: letters, digits and !#$%&'*+-.^_`|~ only")
        if name.lower() in RESERVED or name.lower().startswith(SIGNATURE_PREFIX):
            raise ValueError(f"{name!r} is set by Frontdesk on every request and can't be replaced")
        if not VISIBLE.fullmatch(value):
            raise ValueError(f"{name!r}: values must be printable ASCII on one line")
    return headers


def _params(params: dict[str, str]) -> dict[str, str]:
    _sizes(params)
    return params


Mask = Annotated[StrictStr, AfterValidator(_mask)]
Headers = Annotated[dict[StrictStr, StrictStr], Field(max_length=MAX_ENTRIES), AfterValidator(_headers)]
Params = Annotated[dict[StrictStr, StrictStr], Field(max_length=MAX_ENTRIES), AfterValidator(_params)]


def _not_global(value: bool) -> bool:
    if value:
        raise ValueError("can't be true: a webhook here belongs to one property (give property_id)")
    return value


class WebhookInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    callback_url: RequiredUrl = Field(description="http or https, on a public address; where every event is POSTed")
    event_mask: Mask = Field(description="`*`, a comma list of events (`booking,message`), or ARI masks "
                                         "`ari:<kind>:<room_type_id or *>:<rate_plan_id or *>`")
    headers: Headers | None = Field(None, description=f"added to every request; at most {MAX_ENTRIES}")
    request_params: Params | None = Field(None, description=f"added to the callback URL's query; at most {MAX_ENTRIES}")
    is_active: StrictBool = Field(True, description="false pauses it; true again resumes it, failing or not")
    send_data: StrictBool = Field(True, description="false: only event, property_id, user_id and timestamp are sent")
    is_global: Annotated[StrictBool, AfterValidator(_not_global)] = Field(
        False, description="the service's account-wide webhooks; not supported: only false")


class WebhookEnvelope(BaseModel):
    webhook: WebhookInput
