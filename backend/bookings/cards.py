"""A booking's card: masked in the booking, kept in the card vault.

On the main listener a card is masked at once and can never be restored. On the secure listener the
guarantee goes into the vault (number, holder and expiry sealed, the CVV apart with its own short life,
a card in `guarantee.meta` sealed with them) and the revision holds only the vault's token, so the
vault's rules apply to every card: the CVV expires or is wiped, the card is purged after departure,
every reveal is in the audit log. Only the tokenisation service ever has one revealed.

A reservation id that holds a card number (a Luhn-valid run of 13 to 19 digits, as some channels' ids are) is
shown masked like any other field; the booking is found by a keyed hash of it (`reservation_key`), so that its
repeats, modifications and cancellations still reach it, and the database holds neither the number nor a hash
that a guess could be checked against without the key file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, cast

from backend.bookings.store import delete_legacy_cards, legacy_cards, set_revision_card_token
from backend.core.card_data import MASKED_CVV, mask_cards_in, mask_number, mask_text
from backend.core.keys import Keys
from backend.vault.cards import CardData
from storage import Connection, Store

if TYPE_CHECKING:
    from backend.vault.card_form import CardForm
    from backend.vault.keeping import Vault

PROFILE = "booking"  # what the vault's audit log and browser call a booking's card
KEYED = "hmac:"  # what starts the stored key of a reservation id that holds a card


@dataclass(frozen=True)
class Reveal:
    """Who has bookings' cards revealed (the vault's audit log names them), and whether a card sealed from
    the guarantee's meta comes back too: only for a profile of the operator's own, which may cut it out;
    the built-in profiles read the card fields alone, and capture refuses an answer with a card left in it."""

    actor: str
    meta: bool = False


def masked(guarantee: dict[str, Any] | None) -> dict[str, Any] | None:
    """The guarantee as a booking shows it: number first 6 and last 4, CVV starred, meta masked. One that names a
    card of the card form is kept as sent (its token, no card data) until the booking takes that card (`take`)."""
    if guarantee is None:
        return None
    if guarantee.get("token"):
        return cast(dict[str, Any] | None, mask_cards_in({k: v for k, v in guarantee.items() if v is not None}))
    return {**mask_cards_in({k: v for k, v in guarantee.items() if k not in ("card_number", "cvv", "token")}),
            "card_number": mask_number(guarantee["card_number"]), "cvv": MASKED_CVV}


class BookingCards:
    def __init__(self, vault: Callable[[], Vault], card_form: Callable[[], CardForm], keys: Callable[[], Keys]) -> None:
        self._vault = vault  # built on first use, as the engine builds the vault
        self._card_form = card_form
        self._keys = keys

    def reservation_key(self, reservation_id: str) -> str:
        """What finds a booking by its reservation id (`bookings.reservation_id`): the id itself, or a keyed hash of
        one that holds card data, which the booking shows masked."""
        if mask_text(reservation_id) == reservation_id:
            return reservation_id
        return KEYED + self._keys().fingerprint(reservation_id, "reservation_id")

    def keep(self, conn: Connection, guarantee: dict[str, Any], departure: str | None, *, kept_at: datetime | None = None) -> str:
        """Seal a validated guarantee (number digits only, expiry MM/YYYY) in the caller's transaction."""
        month, year = guarantee["expiration_date"].split("/")
        card = CardData(card_number=guarantee["card_number"], cardholder_name=guarantee["cardholder_name"],
                        expiration_month=month, expiration_year=year, service_code=guarantee["cvv"])
        return self._vault().keep(conn, [card], [date.fromisoformat(departure) if departure else None],
                                  profile_name=PROFILE, actor="bookings", extras=[guarantee.get("meta")],
                                  kept_at=kept_at)[0]

    def take(self, conn: Connection, sent: dict[str, Any], channel_id: str, booking_id: str,
             departure: str | None) -> dict[str, Any]:
        """The booking takes the card the card form kept (`sent` is its masked guarantee with the token): what it
        shows of it, from the vault, with the holder and type the page sent."""
        card = self._card_form().take(conn, sent["token"], channel_id, booking_id, departure)
        return {"card_number": card["card_number"], "cardholder_name": sent.get("cardholder_name"),
                "card_type": sent.get("card_type") or card["card_type"], "expiration_date": card["expiration_date"],
                "cvv": MASKED_CVV, "meta": sent.get("meta")}

    def carry(self, conn: Connection, token: str, departure: str | None) -> None:
        """A new revision keeps the card of the one before; the vault counts from the stay's new end."""
        if departure:
            self._vault().move(conn, token, date.fromisoformat(departure))

    def reveal(self, conn: Connection, shown: list[tuple[str | None, dict[str, Any]]], reveal: Reveal) -> None:
        """Put the clear card back into each (token, attributes) whose card the vault still holds."""
        clear = self._vault().reveal(conn, [token for token, _ in shown if token], reveal.actor)
        for token, attributes in shown:
            card = clear.get(token or "")
            if card is not None and attributes.get("guarantee") is not None:
                attributes["guarantee"] = {
                    **attributes["guarantee"], "card_number": card["card_number"],
                    # As this booking gave it: a card the vault held already keeps the holder it first came with.
                    "cardholder_name": attributes["guarantee"].get("cardholder_name") or card["cardholder_name"],
                    "expiration_date": f"{card['expiration_month']}/{card['expiration_year']}",
                    "cvv": card["service_code"],
                    **({"meta": card["extra"]} if reveal.meta and card["extra"] is not None else {})}

    def move_legacy(self, store: Store, keys: Keys) -> int:
        """Cards that earlier versions kept per revision (`booking_cards`) go into the vault, once: the
        booking's card of each revision becomes a vault token; a CVV already past its life is dropped."""
        with store.transaction() as conn:  # read inside: of processes opening the database at once, one moves them
            rows = legacy_cards(conn)
            for row in rows:
                guarantee = json.loads(keys.open(row["nonce"], row["ciphertext"], row["revision_id"]))
                departure = json.loads(row["attributes"]).get("departure_date")
                token = self.keep(conn, guarantee, departure,
                                  kept_at=datetime.fromisoformat(row["inserted_at"]).replace(tzinfo=UTC))
                set_revision_card_token(conn, row["revision_id"], token)
            delete_legacy_cards(conn)
        return len(rows)
