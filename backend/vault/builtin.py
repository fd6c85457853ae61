"""The read-only profiles that capture uses for Frontdesk's own booking endpoints.

`frontdesk` reads the lists (GET /api/v1/bookings, /booking_revisions, /booking_revisions/feed),
`frontdesk_entity` a single booking or revision. The token goes into the guarantee beside the
masked card as `token`; a card that can't be tokenised gets `token_error` there instead. A booking
whose guarantee is null has no card: an empty position with the warning "no card", no error. The
booking's departure_date tells the vault when it may let the card go.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from backend.vault.profiles import CompiledProfile, compile_profile


def _booking_profile(name: str, message_node: str) -> dict[str, Any]:
    return {
        "name": name,
        "type": "json",
        "schema": {"message_node": {"selector": message_node}, "card_node": {"selector": "attributes.guarantee"},
                   "departure_node": {"selector": "attributes.departure_date"}},
        "card_token_placement": {"type": "card_node", "node": "attributes.guarantee.token",
                                 "error_node": "attributes.guarantee.token_error"},
        "card_node": {
            "card_number": {"selector": "card_number"},
            "cardholder_name": {"selector": "cardholder_name"},
            "expiration_month": {"selector": "expiration_date", "transformation": "substring:0,2"},  # MM/YYYY
            "expiration_year": {"selector": "expiration_date", "transformation": "substring:3,7"},
            "service_code": {"selector": "cvv"},
        },
    }


DEFINITIONS = {
    "frontdesk": _booking_profile("frontdesk", "$.data[*]"),
    "frontdesk_entity": _booking_profile("frontdesk_entity", "$.data"),
}
# Which answers of the secure listener each built-in reads, so capture has cards revealed only there
# (backend/http/deps.reveal_for); an operator's own profile may read any.
REVEALS = {"frontdesk": "list", "frontdesk_entity": "entity"}


@cache
def builtin_profile(name: str) -> CompiledProfile | None:
    definition = DEFINITIONS.get(name)
    return None if definition is None else compile_profile(definition, builtin=True)
