"""Each listener's OpenAPI document, told as it is, and the docs page that shows it without a network.

FastAPI documents what it reads from the routes' signatures; what it cannot see is added here, in one
pass over the generated document:
- the request envelopes that routes read by hand (`body_doc`);
- the credential each operation takes (`securitySchemes`), found from the dependency that checks it;
- the errors each operation can answer, in the error shape, and the success envelope.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.staticfiles import StaticFiles

from backend.bookings.models import BookingEnvelope
from backend.bookings.reports import NoShowEnvelope
from backend.channels.service import ChannelEnvelope
from backend.chat.attachments import AttachmentEnvelope
from backend.chat.embed import ChatSessionEnvelope, OneTimeTokenEnvelope
from backend.chat.inquiry import InquiryEnvelope
from backend.chat.notes import NoteEnvelope
from backend.chat.service import MessageEnvelope, ThreadEnvelope
from backend.chat.templates import TemplateEnvelope
from backend.distribution.pull import AckBody
from backend.http.deps import get_actor, get_api_key, get_chat_actor
from backend.http.routes import card_form, embed, inbound, pci
from backend.http.routes.inbound import InboundMessageEnvelope
from backend.identity.models import GroupEnvelope, GroupUserEnvelope, InviteEnvelope, PropertyUserEnvelope
from backend.inventory.ari import AriEnvelope
from backend.inventory.availability_rules import RuleEnvelope
from backend.inventory.models import HotelPolicyEnvelope, PhotoEnvelope, RatePlanEnvelope, RoomTypeEnvelope
from backend.inventory.taxes import TaxEnvelope, TaxSetEnvelope
from backend.message_rules.service import MessageRuleEnvelope, MessageRulePreviewEnvelope
from backend.properties.applications import InstallationEnvelope
from backend.properties.models import PropertyEnvelope
from backend.reviews.models import DeliveryFailureEnvelope, GuestReviewEnvelope, InboundReviewEnvelope, ReplyEnvelope
from backend.vault.card_form import CardFormEnvelope
from backend.vault.profiles import ProfileEnvelope
from backend.webhooks.models import WebhookEnvelope

ENVELOPES: dict[str, type[BaseModel]] = {model.__name__: model for model in (
    PropertyEnvelope, ChannelEnvelope, InstallationEnvelope, RoomTypeEnvelope, RatePlanEnvelope, HotelPolicyEnvelope,
    AriEnvelope, BookingEnvelope, NoShowEnvelope, MessageEnvelope, InboundMessageEnvelope, AttachmentEnvelope,
    InquiryEnvelope, OneTimeTokenEnvelope, ChatSessionEnvelope, ProfileEnvelope, GroupEnvelope, CardFormEnvelope,
    WebhookEnvelope, AckBody, ThreadEnvelope, NoteEnvelope, TemplateEnvelope, ReplyEnvelope, GuestReviewEnvelope,
    InboundReviewEnvelope, DeliveryFailureEnvelope, RuleEnvelope, TaxEnvelope, TaxSetEnvelope, PhotoEnvelope,
    InviteEnvelope, PropertyUserEnvelope, GroupUserEnvelope, MessageRuleEnvelope, MessageRulePreviewEnvelope)}

SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer",
               "description": "A user's API token (`frontdesk users add`, `frontdesk tokens add`); on the chat routes, "
                              "a web chat session token too."},
    "userApiKey": {"type": "apiKey", "in": "header", "name": "user-api-key",
                   "description": "The same API token in a header of its own."},
    "providerKey": {"type": "apiKey", "in": "header", "name": "api-key",
                    "description": "The shopping channel's provider API key; a channel without one is public."},
    "inboundKey": {"type": "apiKey", "in": "header", "name": "api-key",
                   "description": "The channel's inbound key, shown once when the channel is created."},
    "pciKey": {"type": "apiKey", "in": "query", "name": "api_key",
               "description": "A key from `frontdesk pci-keys add`."},
    "pciKeyHeader": {"type": "apiKey", "in": "header", "name": "api-key",
                     "description": "The same key in a header, which keeps it out of URLs."},
    "cardFormSession": {"type": "apiKey", "in": "query", "name": "session_token",
                        "description": "The card capture form's single-use session, from card_capture_form_url."},
}
USER: list[dict[str, list[str]]] = [{"bearer": []}, {"userApiKey": []}]
# The dependency that checks a route's credential and the alternatives it takes (`{}`: none needed). The
# first one a route depends on wins: an inbound channel's check reads the same header as a shopping key's.
CREDENTIALS: list[tuple[Callable[..., Any], list[dict[str, list[str]]]]] = [
    (inbound.get_inbound_channel, [{"inboundKey": []}]),
    (pci.get_key, [{"pciKey": []}, {"pciKeyHeader": []}]),
    (card_form.get_session_token, [{"cardFormSession": []}]),
    (get_actor, USER),
    (get_chat_actor, USER),
    (get_api_key, [{"providerKey": []}, {}]),
]

ERRORS = {
    400: "Bad Request: the body is not JSON, or not in its envelope, or the address holds a NUL (details: a list)",
    401: "Unauthorized: no valid credential, or an object of someone else",
    403: ("Forbidden: the property has no chat app, the profile is a read-only built-in, or the caller manages no "
          "webhook and no channel (the outbox's status)"),
    404: "Not Found: no object with that ID",
    405: "Method Not Allowed: the path does not take this method; `Allow` lists those it takes",
    408: "Request Timeout: the request did not arrive in time",
    413: "Payload Too Large: the body is over this route's limit",
    422: "Validation Error (details: field → messages) or Not Supported",
    429: ("Too Many Requests: this credential failed too often from this address, or credentials that match "
          "nothing did (or too many of its request bodies are arriving, or card forms were opened by it, or by all); "
          "`Retry-After` says when to try again"),
    502: ("Bad Gateway: the captured endpoint could not be reached, did not answer with something to pass on, "
          "or answered with card data the profile does not cut out (nothing of it is returned)"),
    503: "Service Unavailable: the listener is at its limit; try again",
}
# What every request crosses before its route: an address holding a NUL (400), the router (405) and the limits on
# time, size, load and failed credentials (408, 413, 503, 429).
EVERY_OPERATION = {400, 405, 408, 413, 429, 503}
HEADERS = {405: "Allow", 429: "Retry-After"}
FORBIDDING_TAGS = {"chat", "inbound", "outbox"}  # a property without the chat app; a caller who manages no destination
MESSAGES = {"type": "array", "items": {"type": "string"}}
ERROR_SHAPE = {"type": "object", "required": ["errors"], "additionalProperties": False, "properties": {"errors": {
    "type": "object", "required": ["code", "title"], "additionalProperties": False, "properties": {
        "code": {"type": "string"}, "title": {"type": "string"},
        "details": {"anyOf": [{"type": "string"}, MESSAGES, {"type": "object", "additionalProperties": MESSAGES}]}}}}}
# `{"data": entity | [entities] | null}`, `{"data": [...], "meta": {...}}` or `{"meta": {"message": "Success"}}`.
DATA_SHAPE = {"type": "object", "minProperties": 1, "additionalProperties": False, "properties": {
    "data": {"type": ["object", "array", "null"]}, "meta": {"type": "object"}}}


def document(app: FastAPI) -> None:
    """Serve the completed document at the app's /openapi.json, built on first request as FastAPI does. Its
    server is the listener's public address, where "Try it out" must go behind a proxy."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            server = app.state.engine.config.public_url(app.state.listener)
            generated = get_openapi(title=app.title, version=app.version, description=app.description,
                                    routes=app.routes, servers=[{"url": server}])
            app.openapi_schema = _complete(generated, [route for route in app.state.operations
                                                       if isinstance(route, APIRoute) and route.include_in_schema])
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to give it a schema


def add_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from the assets fastapi-offline ships (Swagger UI 5, which reads OpenAPI 3.1), not a
    CDN. Addresses are relative, so the page also works under a proxy's path prefix."""
    app.mount("/docs/assets", StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="openapi.json", title=f"{app.title} docs", oauth2_redirect_url=None,
                                   swagger_js_url="docs/assets/swagger-ui-bundle.js",
                                   swagger_css_url="docs/assets/swagger-ui.css",
                                   swagger_favicon_url="docs/assets/favicon.png")


def _complete(schema: dict[str, Any], routes: list[APIRoute]) -> dict[str, Any]:
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 body, which we never answer
        schemas.pop(name, None)
    schemas.update(Error=ERROR_SHAPE, Data=DATA_SHAPE)
    used: set[str] = set()
    for route in routes:
        for method in route.methods or ():
            operation = schema["paths"][route.path_format][method.lower()]
            security = _security(route.dependant)
            if security:
                operation["security"] = security
                used.update(name for alternative in security for name in alternative)
            _responses(operation, _statuses(route, operation))
            _add_envelope(operation, schemas)
    if used:
        components["securitySchemes"] = {name: scheme for name, scheme in SCHEMES.items() if name in used}
    return schema


def _security(dependant: Dependant) -> list[dict[str, list[str]]]:
    calls = _calls(dependant)
    return next((alternatives for check, alternatives in CREDENTIALS if check in calls), [])


def _calls(dependant: Dependant) -> set[Callable[..., Any] | None]:
    found: set[Callable[..., Any] | None] = set()
    for dependency in dependant.dependencies:
        found |= {dependency.call} | _calls(dependency)
    return found


def _statuses(route: APIRoute, operation: dict[str, Any]) -> set[int]:
    """The errors an operation can answer: those of every request, then those of what it takes."""
    statuses = set(EVERY_OPERATION)
    parameters = operation.get("parameters", [])
    if operation.get("security") or route.endpoint is embed.chat_session:  # chat_session's proof is in its body
        statuses.add(401)
    if parameters or "requestBody" in operation:  # whatever names an object may name one that is not there
        statuses |= {404, 422}
    if FORBIDDING_TAGS & set(route.tags) or route.endpoint in (pci.update_profile, pci.delete_profile):
        statuses.add(403)
    if route.endpoint is pci.capture:  # the secure API's own errors come back as they were
        statuses |= {status for status in ERRORS if status < 500} | {502}
    return statuses


def _responses(operation: dict[str, Any], statuses: set[int]) -> None:
    responses = operation["responses"]
    responses.pop("422", None)  # FastAPI's, with a body we never answer
    for status, response in responses.items():
        if status.startswith("2") and response.get("content", {}).get("application/json", {}).get("schema") == {}:
            response["content"]["application/json"]["schema"] = {"$ref": "#/components/schemas/Data"}
    for status in sorted(statuses):
        response = {"description": ERRORS[status],
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        if status in HEADERS:
            response["headers"] = {HEADERS[status]: {"required": True, "schema": {"type": "string"}}}
        responses[str(status)] = response


def _add_envelope(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    """The components of a body that its route reads by hand, which FastAPI never saw."""
    ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
    name = ref.rsplit("/", 1)[1] if ref else None
    if name in ENVELOPES and name not in schemas:
        definition = ENVELOPES[name].model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(definition.pop("$defs", {}))
        schemas[name] = definition
