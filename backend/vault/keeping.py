"""The vault: cards kept by token, sealed with AES-GCM under the key beside the database.

A card's number, holder and expiry are sealed together (a JSON list), bound to their token; its CVV is sealed
apart, bound to the token too, with its own short expiry, and wiped on request or by the purge.
Beside them only what a receipt shows is kept in clear (first 6 and last 4, type, expiry month and
year), and a fingerprint, a keyed hash of number and expiry that finds a card the vault holds when it comes in
again: a card is kept once, and its CVV's expiry is never moved. Cards leave the vault a configurable number of days
after the guest's departure (or after the day they came in, when the message does not say), counted when the purge
runs. Every operation is written to the audit log, with who did it and never any card data. Its SQL is in backend/vault/store.py.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any, cast

from pydantic_core import from_json, to_json

from backend.core.changes import note
from backend.core.errors import NotFound
from backend.core.keys import Keys
from backend.vault.cards import CardData, masked_number
from backend.vault.store import (
    audit_entries,
    audit_reveals,
    card_count,
    card_page,
    card_row,
    card_summary,
    delete_card,
    delete_cvv,
    extend_departures,
    fold_card,
    forget_cvvs,
    held_cards,
    insert_audit,
    insert_audits,
    insert_cards,
    purge_cards,
    purge_cvvs,
    repoint_card_form_sessions,
    reseal_card,
    revealed_cards,
    sealed_card,
    unfingerprinted_cards,
    upsert_cvvs,
)
from storage import Connection, Row, Store

# Leading digits of the main brands, longest first where they overlap.
BRANDS = (("34", "amex"), ("37", "amex"), ("4", "visa"), ("51", "mastercard"), ("52", "mastercard"),
          ("53", "mastercard"), ("54", "mastercard"), ("55", "mastercard"), ("6011", "discover"),
          ("65", "discover"), ("35", "jcb"), ("36", "diners"), ("38", "diners"), ("30", "diners"),
          ("62", "unionpay"))

FINGERPRINT = "vault card"  # the purpose of the vault's keyed hashes of card numbers (backend/core/keys.py)


def card_type(number: str) -> str:
    if 222100 <= int(number[:6]) <= 272099:
        return "mastercard"
    return next((brand for prefix, brand in BRANDS if number.startswith(prefix)), "unknown")


class Vault:
    def __init__(self, store: Store, keys: Keys, clock: Callable[[], datetime], *, cvv_ttl: timedelta,
                 purge_days: int) -> None:
        self.store = store
        self.keys = keys
        self.clock = clock
        self.cvv_ttl = cvv_ttl
        self.purge_days = purge_days

    def keep(self, conn: Connection, cards: list[CardData], departures: list[date | None], *, profile_name: str, actor: str,
             extras: list[dict[str, Any] | None] | None = None, kept_at: datetime | None = None,
             cvvs_from_vault: bool = False) -> list[str]:
        """Keep normalised cards in the caller's transaction; their tokens, in order. `extras` are sealed with their
        cards (a booking guarantee's meta, which may hold a virtual card). `kept_at` dates cards that came in earlier
        (the CVV's life counts from it).

        A card the vault already holds (the same number and expiry) is found by its fingerprint, not sealed again:
        its token comes back, what was sealed with it stays (but for a newer extra), it leaves the vault counting
        from the later departure, and its CVV keeps its own expiry, never extended. A CVV comes with a found card
        only when it holds none (wiped or expired), and never with `cvvs_from_vault`: capture of the secure listener,
        whose cards the vault has just revealed, would start their CVVs' life again. Rows go in by executemany: a
        capture of a page of bookings keeps a hundred cards at once."""
        now = self._now()
        kept = kept_at or now
        kept_stamp = _stamp(kept)  # one string for every row
        prints = [self.fingerprint(card) for card in cards]
        found = self._held(conn, prints, now)
        new: dict[str, tuple[int, str]] = {}  # fingerprint: (the card's index, its new token), for cards not held yet
        for index, fingerprint in enumerate(prints):
            if fingerprint not in found and fingerprint not in new:  # a message may hold one card twice
                new[fingerprint] = index, secrets.token_hex(16)
        extras = extras or [None] * len(cards)
        rows = (self._sealed(token, cards[index], fingerprint, departures[index] or kept.date(), extras[index],
                             profile_name, kept_stamp) for fingerprint, (index, token) in new.items())  # sealed as sent
        added = insert_cards(conn, rows)
        if added != len(new):  # another writer kept some of them first (a store without one write lock): theirs stand
            found |= {f: held for f, held in self._held(conn, list(new), now).items() if held[0] != new[f][1]}
            new = {f: kept_new for f, kept_new in new.items() if f not in found}
        tokens = [new[f][1] if f in new else found[f][0] for f in prints]
        firsts = {index for index, _ in new.values()}
        extend_departures(conn, [(token, day) for index, (token, day) in enumerate(
            (token, (departure or kept.date()).isoformat()) for token, departure in zip(tokens, departures))
            if index not in firsts])
        for token, fingerprint, extra in zip(tokens, prints, extras, strict=True):
            if extra is not None and fingerprint in found:
                self._seal_extra(conn, token, extra)
        self._keep_cvvs(conn, cards, tokens, [f in found and found[f][1] for f in prints], kept, now,
                        cvvs_from_vault)
        stored = {token for _, token in new.values()}
        stamp, detail = _stamp(now), f"profile {profile_name}"
        insert_audits(conn, [(stamp, "store" if token in stored else "found", token, actor, detail)
                             for token in dict.fromkeys(tokens)])
        return tokens

    def fingerprint(self, card: CardData) -> str:
        """What finds a card the vault holds without its number in clear: a keyed hash of its number and expiry."""
        identity = f"{card.card_number}|{int(card.expiration_month or 0):02d}|{int(card.expiration_year or 0)}"
        return self.keys.fingerprint(identity, FINGERPRINT)

    def _held(self, conn: Connection, prints: list[str], now: datetime) -> dict[str, tuple[str, bool]]:
        """The cards the vault holds of these fingerprints: fingerprint: (token, whether it holds a live CVV)."""
        return held_cards(conn, prints, _stamp(now))

    def _sealed(self, token: str, card: CardData, fingerprint: str, departure: date, extra: dict[str, Any] | None,
                profile_name: str, kept: str) -> tuple[Any, ...]:
        """A new card's row."""
        sealed = [card.card_number, card.cardholder_name, card.expiration_month, card.expiration_year]
        nonce, ciphertext = self.keys.seal(to_json(sealed + [extra] if extra else sealed), f"card:{token}")
        return (token, nonce, ciphertext, masked_number(card.card_number or ""), card_type(card.card_number or "0"),
                int(card.expiration_month or 0), int(card.expiration_year or 0), profile_name, departure.isoformat(),
                kept, fingerprint)

    def _seal_extra(self, conn: Connection, token: str, extra: dict[str, Any]) -> None:
        """A found card brought again with what a booking's guarantee meta holds (a virtual card's balance, say):
        the latest is sealed with it, the rest of what was sealed stays."""
        row = cast(Row, sealed_card(conn, token))  # a found card: held
        sealed = from_json(self.keys.open(row["nonce"], row["ciphertext"], f"card:{token}"))[:4]
        reseal_card(conn, token, *self.keys.seal(to_json([*sealed, extra]), f"card:{token}"))

    def _keep_cvvs(self, conn: Connection, cards: list[CardData], tokens: list[str], live: list[bool], kept: datetime,
                   now: datetime, from_vault: bool) -> None:
        """The CVVs that start their life now, counted from `kept`: of cards that hold none alive, once each."""
        expiry = kept + self.cvv_ttl
        if from_vault or expiry <= now:
            return
        expires_at, now_stamp = _stamp(expiry), _stamp(now)
        codes: dict[str, str] = {}
        for card, token, has_cvv in zip(cards, tokens, live, strict=True):
            if card.service_code and not has_cvv:
                codes.setdefault(token, card.service_code)
        # An expired CVV not purged yet gives way; a live one, kept by a concurrent writer, stays as it is.
        upsert_cvvs(conn, [(token, *self.keys.seal(code.encode(), f"cvv:{token}"), expires_at)
                           for token, code in codes.items()], now_stamp)

    def reveal(self, conn: Connection, tokens: list[str], actor: str) -> dict[str, dict[str, Any]]:
        """The cards of `tokens` in clear, for the secure listener's one caller (the tokenisation service),
        in the caller's transaction; every one written to the audit log. A token whose card has left the
        vault (purged, deleted) is missing from the answer; a CVV that expired or was wiped is None."""
        wanted = sorted(set(tokens))
        rows = revealed_cards(conn, wanted, _stamp(self._now())) if wanted else []
        clear = {}
        for row in rows:
            token = row["token"]
            sealed = from_json(self.keys.open(row["nonce"], row["ciphertext"], f"card:{token}"))
            cvv = (self.keys.open(row["cvv_nonce"], row["cvv_ciphertext"], f"cvv:{token}").decode()
                   if row["cvv_nonce"] else None)
            clear[token] = {"card_number": sealed[0], "cardholder_name": sealed[1], "expiration_month": sealed[2],
                            "expiration_year": sealed[3], "service_code": cvv,
                            "extra": sealed[4] if len(sealed) > 4 else None}
        audit_reveals(conn, [(_stamp(self._now()), token, actor, "to the tokenisation service") for token in clear])
        return clear

    def move(self, conn: Connection, token: str, departure: date) -> None:
        """A booking's stay changed: its card leaves the vault counting from the new departure, if that is later (the
        card may guarantee other stays too: kept once, it leaves after the last of them)."""
        extend_departures(conn, [(token, departure.isoformat())])

    def describe(self, token: str) -> dict[str, str]:
        """What a booking shows of a card the vault holds, as its guarantee does (nothing unsealed, so no audit
        entry); LookupError when the vault does not hold it."""
        row = card_summary(self.store, token)
        if row is None:
            raise LookupError(token)
        return {"card_number": row["card_mask"], "card_type": row["card_type"],
                "expiration_date": f"{row['expiration_month']:02d}/{row['expiration_year']}"}

    def card(self, token: str, actor: str) -> dict[str, Any]:
        """What may be shown of a card: masked number, type, holder, expiry, whether a CVV is held."""
        with self.store.transaction() as conn:
            row = self._row(conn, token)
            holder = from_json(self.keys.open(row["nonce"], row["ciphertext"], f"card:{token}"))[1]
            self._audit(conn, "read", token, actor)
        return self._masked(row, holder)

    def cards(self, *, limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """The vault's browser: newest first, masked, without holders (nothing is unsealed to list)."""
        rows = card_page(self.store, _stamp(self._now()), limit, offset)
        return [self._masked(r, None) for r in rows], card_count(self.store)

    def delete(self, token: str, actor: str) -> None:
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            self._row(conn, token)
            delete_card(conn, token)
            self._audit(conn, "delete", token, actor)

    def wipe_cvv(self, token: str, actor: str) -> dict[str, Any]:
        """Forget the card's CVV (once it has been used to charge); the card stays."""
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            self._row(conn, token)
            wiped = delete_cvv(conn, token)
            self._audit(conn, "wipe_cvv", token, actor, "wiped" if wiped else "no cvv held")
        return self.card(token, actor)

    def purge(self, actor: str, days: int | None = None) -> dict[str, int]:
        """Remove cards more than `days` (default: the configured period) after their departure, and CVVs
        past their expiry. Counted at purge time, so a shorter period applies to cards already kept."""
        now = self._now()
        days = self.purge_days if days is None else days
        last_kept = (now.date() - timedelta(days=days)).isoformat()
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            cvvs = purge_cvvs(conn, _stamp(now))
            cards = purge_cards(conn, last_kept)
            self._audit(conn, "purge", None, actor, f"{cards} cards, {cvvs} cvvs, {days} days after departure")
        return {"cards": cards, "cvvs": cvvs}

    def fold_copies(self, conn: Connection) -> list[tuple[str, list[str]]]:
        """The data step for cards kept before the vault found cards by fingerprint: each gets its own, and of the
        copies of one card (earlier versions sealed a card anew each time it came in: every capture made a copy,
        whose CVV started its hours again) one stands: the copy holding the CVV that expires first, so that no
        copy's later clock survives, else the oldest. It takes the fingerprint, the latest departure of them all, and
        the bookings and card-form sessions that named a copy. The others lose their CVV and stay, without a
        fingerprint, until the purge takes them: a token handed out before still answers. Returns each kept token with
        the copies folded into it, for the step to repoint the bookings that named them (backend/upgrades/)."""
        rows = unfingerprinted_cards(conn, _stamp(self._now()))
        copies = defaultdict(list)
        for row in rows:
            sealed = from_json(self.keys.open(row["nonce"], row["ciphertext"], f"card:{row['token']}"))
            card = CardData(card_number=sealed[0], expiration_month=sealed[2], expiration_year=sealed[3])
            copies[self.fingerprint(card)].append(row)
        folded = []
        for fingerprint, same in copies.items():
            first = min(same, key=lambda row: (row["expires_at"] is None, row["expires_at"] or "", row["created_at"],
                                               row["token"]))
            tokens = [first["token"], *(row["token"] for row in same if row is not first)]
            fold_card(conn, fingerprint, tokens)
            others = tokens[1:]
            if others:
                forget_cvvs(conn, others)
                repoint_card_form_sessions(conn, tokens[0], others)
                folded.append((tokens[0], others))
        return folded

    def audit(self, token: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        return [dict(r) for r in audit_entries(self.store, token, limit)]

    def _row(self, conn: Connection, token: str) -> Row:
        row = card_row(conn, token, _stamp(self._now()))
        if row is None:
            raise NotFound("no card with that token")
        return row

    def _audit(self, conn: Connection, action: str, token: str | None, actor: str, detail: str = "") -> None:
        insert_audit(conn, _stamp(self._now()), action, token, actor, detail)

    def _masked(self, row: Row, holder: str | None) -> dict[str, Any]:
        purge_after = date.fromisoformat(row["departure_date"]) + timedelta(days=self.purge_days)
        card = {"token": row["token"], "card_number": row["card_mask"], "card_type": row["card_type"],
                "expiration_month": f"{row['expiration_month']:02d}", "expiration_year": str(row["expiration_year"]),
                "has_cvv": row["cvv_expires_at"] is not None, "cvv_expires_at": row["cvv_expires_at"],
                "profile": row["profile_name"], "departure_date": row["departure_date"],
                "purge_after": purge_after.isoformat(), "created_at": row["created_at"]}
        if holder is not None:
            card["cardholder_name"] = holder
        return card

    def _now(self) -> datetime:
        return self.clock().astimezone(UTC)


def _stamp(moment: datetime) -> str:
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds")

