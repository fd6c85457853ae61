"""The card capture form: how a booking engine takes a guest's card without its page ever seeing the number.

1. The page asks the shopping API for its form (`GET /api/v1/meta/:channel/card_capture_form_url`, as the service's
   booking engine does): a single-use session for the channels of that name, good for SESSION_TTL, in the address
   of the form that the pci listener serves (`/api/v1/capture_form?session_token=…`).
2. The page frames the form and, when its guest books, asks it to submit (`postMessage("submit")`). The form posts
   the card to the pci listener itself (`POST /api/v1/capture_form/cards?session_token=…`, never to the main or
   secure listener): the vault keeps it (profile `card_form`), the session is spent, and the form hands the page the
   card masked and its vault token, by postMessage to the page's own origin.
3. The page pushes its booking with that token in `guarantee.token` (or `card_token`, the service's form's name)
   instead of card data. The booking takes that very vault card (no copy), once a session, on a channel the session
   was made for (a card the vault already held is that card: each form that kept it gives it once); the card then
   leaves the vault as a booking's does, after the guest's departure. A card never taken leaves it counted from the
   day it came in, and its CVV after the vault's usual hours.

The session token is the form's only credential: it is kept as a hash, spent by its card, and dies unused after
SESSION_TTL. Expiry follows the wall clock, as a security rule does. A session expired unspent is swept when the next
one is made; a spent one is kept for the booking that takes its card, and leaves the vault with that card
(storage/0016: the purge, or the card deleted).

Anyone may ask a public channel for forms, and each may keep a card, so they are counted in the database (across
processes and restarts), each count over the last SESSION_TTL: one client (an IPv4 address, or an IPv6 /64, what one
subscriber is given) may open PER_CLIENT, so that no client can use up the forms of every property; and the forms of
one channel and property (`property_id`, when the page names it; else the channel's) are at most PER_PROPERTY, a bound
on the sessions and vault cards a crowd of clients can leave there that leaves every other property's forms alone.
Beyond either, a 429 whose Retry-After is when the oldest session counted leaves the count.
"""

from __future__ import annotations

import json
import math
import secrets
from datetime import UTC, date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from backend.core.changes import note
from backend.core.clients import client_of
from backend.core.errors import TooManyRequests, Unauthorized, ValidationFailed
from backend.core.validation import validate
from backend.identity.service import hash_secret
from backend.vault.cards import CardData
from backend.vault.keeping import Vault
from backend.vault.store import (
    card_sessions,
    insert_session,
    open_session,
    session_opened_at,
    sessions_opened,
    spend_session,
    sweep_sessions,
    take_session,
)
from storage import Connection, Store, new_id

PROFILE = "card_form"  # what the vault's browser and audit log call a card the form kept
TOKEN_PREFIX = "fdcf_"
SESSION_TTL = timedelta(minutes=30)  # enough to fill in a booking page; the page asks again after that
# Sessions one client may open in SESSION_TTL: a guest opens a few; a hotel lobby or office behind one address, more.
PER_CLIENT = 30
# Sessions of one channel and property in SESSION_TTL: far above any property's bookings (48,000 a day), and still a
# bound on the rows and cards a crowd of clients can leave there.
PER_PROPERTY = 1000
FIELDS = ("card_number", "cardholder_name", "expiration_month", "expiration_year", "service_code")
SESSION_GONE = "the card form's session is unknown, used or expired; open the form again"
NOT_TAKEN = "is not a card from this channel's card form, or another booking has it already"


class CardFormInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card_number: StrictStr
    cardholder_name: StrictStr
    expiration_month: StrictStr
    expiration_year: StrictStr
    service_code: StrictStr


class CardFormEnvelope(BaseModel):
    card: CardFormInput


class CardForm:
    def __init__(self, store: Store, vault: Vault, pci_url: str) -> None:
        self.store = store
        self.vault = vault
        self.pci_url = pci_url.rstrip("/")

    def session(self, channel_ids: list[str], client: str, property_id: str | None = None) -> dict[str, Any]:
        """A single-use session for the form, for these channels (and the property the page named, if any), asked by
        `client` (its address); its token is shown here only. A 429 beyond PER_CLIENT sessions for the client, or
        PER_PROPERTY for the channels and property, in SESSION_TTL."""
        token, now = TOKEN_PREFIX + secrets.token_urlsafe(32), datetime.now(UTC)
        session = {"id": new_id(), "expires_at": _stamp(now + SESSION_TTL)}
        who, channels, place = client_of(client), json.dumps(sorted(channel_ids)), property_id or ""
        with self.store.transaction() as conn:
            # Counted inside the write lock, across processes: a refused ask leaves nothing behind.
            _within(conn, now, {"client": who}, PER_CLIENT, "this address opened too many card forms lately")
            _within(conn, now, {"channel_ids": channels, "property_id": place}, PER_PROPERTY,
                    f"too many card forms were opened lately for this {'property' if place else 'channel'}")
            # Sessions that expired without a card are swept whenever one is made, so the table holds live ones; the
            # address of one that no longer counts is forgotten.
            sweep_sessions(conn, _stamp(now), _stamp(now - SESSION_TTL))
            insert_session(conn, session["id"], hash_secret(token), channels, session["expires_at"], _stamp(now), who,
                           place)
        return {**session, "card_capture_form_url": f"{self.pci_url}/api/v1/capture_form?session_token={token}"}

    def keep(self, session_token: str | None, data: Any) -> dict[str, Any]:
        """The card the guest typed, into the vault: every problem at once (422), else the card masked and its
        token. The session is spent by it; a refused card leaves it for the guest to try again."""
        model = validate(CardFormInput, data)
        card = CardData(**{name: getattr(model, name).strip() or None for name in FIELDS})
        _check(card)
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            session = open_session(conn, hash_secret(session_token or ""), _stamp(datetime.now(UTC)))
            if session is None:
                raise Unauthorized(SESSION_GONE)
            token = self.vault.keep(conn, [card.normalised()], [None], profile_name=PROFILE,
                                    actor=f"card form {session['id']}")[0]
            # Spent only if still unspent: the arbiter where two posts of one session run at once (the read above
            # may have seen it unspent in both); the loser's card is rolled back with its transaction.
            if not spend_session(conn, session["id"], token):
                raise Unauthorized(SESSION_GONE)
        return {"card_token": token, **card.normalised().masked(), "card_type": self.vault.describe(token)["card_type"]}

    def take(self, conn: Connection, token: str, channel_id: str, booking_id: str, departure: str | None) -> dict[str, Any]:
        """A booking takes the form's card, in the caller's transaction: what it shows of it (masked). It takes it by a
        session of a channel's form that kept that card and that no other booking took (the same card typed into two
        forms is one vault card, which each session gives once). A 422 on `guarantee.token` for none such, or for a
        card gone from the vault."""
        sessions = card_sessions(conn, token, booking_id)  # this booking's own first: a repeat takes it again
        session = next((row for row in sessions if channel_id in json.loads(row["channel_ids"])), None)
        if session is None:
            raise ValidationFailed.one("guarantee.token", NOT_TAKEN)
        try:
            card = self.vault.describe(token)
        except LookupError:
            raise ValidationFailed.one("guarantee.token", NOT_TAKEN) from None
        if not take_session(conn, session["id"], booking_id):
            raise ValidationFailed.one("guarantee.token", NOT_TAKEN)  # another booking took it meanwhile
        if departure:
            self.vault.move(conn, token, date.fromisoformat(departure))
        return card


def _check(card: CardData) -> None:
    """The card's problems under the names of the form's fields (CardData names them first in each message)."""
    details: dict[str, list[str]] = {}
    problems = card.problems() + [f"{name} is missing" for name in ("cardholder_name", "service_code")
                                  if getattr(card, name) is None]  # a guarantee needs both
    if not problems and card.normalised().expired(datetime.now(UTC).date()):
        problems = ["expiration_year the card has expired"]
    for problem in problems:
        field, _, message = problem.partition(" ")
        details.setdefault(field, []).append(message)
    if details:
        raise ValidationFailed(details)


def _within(conn: Connection, now: datetime, opened_by: dict[str, str], limit: int, refusal: str) -> None:
    """A 429 when the sessions `opened_by` (a client, or channels and a property) number `limit` over the last
    SESSION_TTL; its Retry-After is when enough of them have left the count for one more."""
    since = _stamp(now - SESSION_TTL)
    counted = sessions_opened(conn, since, **opened_by)
    if counted < limit:
        return
    oldest = session_opened_at(conn, since, counted - limit, **opened_by)
    leaves = datetime.fromisoformat(oldest).replace(tzinfo=UTC) + SESSION_TTL
    raise TooManyRequests(max(1, math.ceil((leaves - now).total_seconds())), [f"{refusal}; try again later"])


def _stamp(moment: datetime) -> str:
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds")
