"""The tokenisation API's engine: profiles kept in the database, `tokenize` of a raw message, and
`capture` of a secure endpoint of the main API.

Profiles are compiled when saved and again when first used after a change (cached by id and
`updated_at`), so a capture never re-parses a selector. The built-in `frontdesk` and
`frontdesk_entity` are read-only and have fixed ids. A dry run tries a profile without the vault.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from pydantic_core import from_json, to_json

from backend.core.changes import note
from backend.core.errors import Forbidden, NotFound, ValidationFailed
from backend.vault.builtin import DEFINITIONS, builtin_profile
from backend.vault.cards import CardData
from backend.vault.keeping import Vault
from backend.vault.profiles import CompiledProfile, compile_profile, compiled_from_stored
from backend.vault.store import (
    delete_profile,
    insert_profile,
    profile_id_named,
    profile_named,
    profile_row,
    profile_rows,
    update_profile,
)
from backend.vault.tokenise import Tokenised, tokenise
from storage import Connection, Row, Store, new_id, utc_now

# A dry run's tokens: 32 hex digits like the vault's, numbered from 1, so they can't pass for real ones.
DRY_RUN_TOKEN = "{:032x}"

BUILTIN_IDS = {name: str(uuid.uuid5(uuid.NAMESPACE_URL, f"frontdesk:tokenization_profile:{name}"))
               for name in DEFINITIONS}


class Tokenisation:
    def __init__(self, store: Store, vault: Vault, clock: Callable[[], datetime], max_bytes: int) -> None:
        self.store = store
        self.vault = vault
        self.clock = clock
        self.max_bytes = max_bytes
        self._compiled: dict[str, tuple[str, CompiledProfile]] = {}  # id: (updated_at, profile)

    # --- profiles ------------------------------------------------------------------------------

    def profiles(self) -> list[dict[str, Any]]:
        """The built-ins first, then the operator's, by name."""
        stored = profile_rows(self.store)
        return [_builtin(name) for name in DEFINITIONS] + [_entity(row) for row in stored]

    def profile(self, profile_id: str) -> dict[str, Any]:
        for name, builtin_id in BUILTIN_IDS.items():
            if profile_id == builtin_id:
                return _builtin(name)
        return _entity(self._row(profile_id))

    def create(self, data: Any) -> dict[str, Any]:
        compiled = compile_profile(data)
        now = utc_now()
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            self._unique(conn, compiled.name, None)
            profile_id = new_id()
            insert_profile(conn, profile_id, compiled.name, to_json(compiled.stored()).decode(), now)
        return self.profile(profile_id)

    def update(self, profile_id: str, data: Any) -> dict[str, Any]:
        self._writable(profile_id)
        compiled = compile_profile(data)
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            self._row(profile_id, conn)
            self._unique(conn, compiled.name, profile_id)
            update_profile(conn, profile_id, compiled.name, to_json(compiled.stored()).decode(), utc_now())
        return self.profile(profile_id)

    def delete(self, profile_id: str) -> None:
        self._writable(profile_id)
        with self.store.transaction() as conn:
            note(conn, "vault.changed")  # for consoles of other processes
            self._row(profile_id, conn)
            delete_profile(conn, profile_id)

    def compiled(self, name: str) -> CompiledProfile:
        """The profile named in a tokenize or capture call; an unknown name is a 422 on `profile`."""
        builtin = builtin_profile(name)
        if builtin is not None:
            return builtin
        row = profile_named(self.store, name)
        if row is None:
            raise ValidationFailed.one("profile", f"there is no tokenisation profile named {name!r}")
        cached = self._compiled.get(row["id"])
        if cached is None or cached[0] != row["updated_at"]:
            cached = (row["updated_at"], compiled_from_stored(from_json(row["profile"])))
            self._compiled[row["id"]] = cached
        return cached[1]

    # --- tokenising ----------------------------------------------------------------------------

    def tokenise(self, profile: str | CompiledProfile, body: bytes, actor: str, *,
                 cvvs_from_vault: bool = False) -> Tokenised:
        """Cut the cards out of a JSON or XML message: every valid card of it is kept in one
        transaction, or none is. `profile` is a name, or the profile the caller already looked up.
        `cvvs_from_vault`: the message is the secure listener's, its cards just revealed by the vault (capture)."""
        profile = self.compiled(profile) if isinstance(profile, str) else profile

        def issue(cards: list[CardData], departures: list[date | None]) -> list[str]:
            return self.vault.keep(self.store.conn, cards, departures, profile_name=profile.name, actor=actor,
                                   cvvs_from_vault=cvvs_from_vault)

        return tokenise(profile, body, issue, max_bytes=self.max_bytes, today=self._today(),
                        transaction=self.store.transaction)

    def dry_run(self, profile: str | dict[str, Any], body: bytes) -> Tokenised:
        """Tokenise as `tokenise` does, but keep nothing: every valid card gets a DRY_RUN_TOKEN. For
        trying a profile on a message: `profile` is the name of a saved or built-in one, or a create
        body not saved yet (checked as create checks it)."""
        compiled = self.compiled(profile) if isinstance(profile, str) else compile_profile(profile)

        def issue(cards: list[CardData], departures: list[date | None]) -> list[str]:
            return [DRY_RUN_TOKEN.format(n) for n in range(1, len(cards) + 1)]

        return tokenise(compiled, body, issue, max_bytes=self.max_bytes, today=self._today())

    # --- the pieces ----------------------------------------------------------------------------

    def _row(self, profile_id: str, conn: Connection | None = None) -> Row:
        row = profile_row(conn or self.store.conn, profile_id)
        if row is None:
            raise NotFound(f"tokenisation profile {profile_id} does not exist")
        return row

    @staticmethod
    def _writable(profile_id: str) -> None:
        if profile_id in BUILTIN_IDS.values():
            raise Forbidden("the built-in profiles are read-only; create one of your own")

    @staticmethod
    def _unique(conn: Connection, name: str, profile_id: str | None) -> None:
        taken = profile_id_named(conn, name)
        if taken is not None and taken != profile_id:
            raise ValidationFailed.one("name", "has already been taken")

    def _today(self) -> date:
        return self.clock().astimezone(UTC).date()


def _entity(row: Row) -> dict[str, Any]:
    public = compiled_from_stored(from_json(row["profile"])).public()
    return {"id": row["id"], **public, "built_in": False, "created_at": row["created_at"],
            "updated_at": row["updated_at"]}


def _builtin(name: str) -> dict[str, Any]:
    public = builtin_profile(name).public()  # type: ignore[union-attr]  # a name of DEFINITIONS
    return {"id": BUILTIN_IDS[name], **public, "built_in": True, "created_at": None, "updated_at": None}
