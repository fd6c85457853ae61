"""Secrets kept outside the database: the key that encrypts card data, and the internal credential
with which the tokenisation service proves itself to the secure listener.

They live in a file beside a SQLite database (`<db>.keys`, mode 0600, created on first use), so a copy
of the database alone reveals no card; a PostgreSQL database has no "beside", so its keys come from a file the
operator names (`--keys PATH`, made there if missing) or from the environment. `FRONTDESK_DATA_KEY` (32 bytes in
base64) and `FRONTDESK_INTERNAL_SECRET` override the file, for operators who keep secrets in their environment.

The database keeps a fingerprint of the keys it was first opened with (table `keys_fingerprint`), and an engine
given other keys refuses to open it: on many hosts, a host with another data key would keep cards no other host
can read, and sign what no receiver checks.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, cast

from backend.core.store import keep_keys_fingerprint, keys_fingerprint
from storage import Store

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

# How the tokenisation service speaks to the secure listener (backend/vault/capture.py, backend/http/deps.py):
INTERNAL_HEADER = "X-Frontdesk-Internal"  # the internal secret: the only proof that opens cards in clear
REVEAL_HEADER = "X-Frontdesk-Reveal"  # which answers capture wants cards in: `list`, `entity` or `any`
ACTOR_HEADER = "X-Frontdesk-Actor"  # the pci key capturing, named in the vault's audit log for each reveal
DATA_KEY_ENV = "FRONTDESK_DATA_KEY"
INTERNAL_SECRET_ENV = "FRONTDESK_INTERNAL_SECRET"


class KeyFileError(Exception):
    pass


class Keys:
    def __init__(self, path: Path | None) -> None:
        """`path`: the key file; None where there is none (PostgreSQL without --keys), so the environment must
        give both."""
        self.path = path

    @cached_property
    def _file(self) -> dict[str, str]:
        if self.path is None:
            raise KeyFileError(f"a PostgreSQL database keeps no key file beside it: give --keys PATH (made there if "
                               f"missing), or set {DATA_KEY_ENV} and {INTERNAL_SECRET_ENV}")
        if not self.path.exists():
            self._create(self.path)
        return cast(dict[str, str], json.loads(self.path.read_text()))

    @staticmethod
    def _create(path: Path, values: dict[str, str] | None = None) -> None:
        values = values or {"data_key": base64.b64encode(os.urandom(32)).decode(),
                            "internal_secret": secrets.token_urlsafe(32)}
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return  # another process made it first: use theirs
        with os.fdopen(fd, "w") as out:
            json.dump(values, out)

    @cached_property
    def data_key(self) -> bytes:
        encoded = os.environ.get(DATA_KEY_ENV) or self._file["data_key"]
        try:
            key = base64.b64decode(encoded, validate=True)
        except binascii.Error:
            key = b""
        if len(key) != 32:
            raise KeyFileError(f"the data key must be 32 bytes in base64 ({DATA_KEY_ENV} or {self.path})")
        return key

    @cached_property
    def internal_secret(self) -> str:
        return os.environ.get(INTERNAL_SECRET_ENV) or self._file["internal_secret"]

    def copy_to(self, path: Path) -> None:
        """These keys in a key file at `path` (made 0600), for a copy of their database; a file there already must
        hold these very keys."""
        values = {"data_key": base64.b64encode(self.data_key).decode(), "internal_secret": self.internal_secret}
        if not path.exists():
            self._create(path, values)
        if json.loads(path.read_text()) != values:
            raise KeyFileError(f"{path} holds other keys than the database copied: give a new path, or that "
                               "database's own key file")

    def check(self, store: Store) -> None:
        """Refuse a database that was first opened with other keys; a database without a fingerprint takes these
        keys'. A keyed hash of a constant under each key: it reveals neither."""
        fingerprint = hashlib.sha256(self.fingerprint("keys", "fingerprint").encode()
                                     + hmac.new(self.internal_secret.encode(), b"fingerprint", "sha256").digest()
                                     ).hexdigest()
        kept = keys_fingerprint(store)
        if kept is None:  # the first open: these keys are the database's, unless another process's came first
            kept = keep_keys_fingerprint(store, fingerprint)
        if kept != fingerprint:
            where = f"{self.path}" if self.path else f"{DATA_KEY_ENV} and {INTERNAL_SECRET_ENV}"
            raise KeyFileError(f"the keys of {where} are not the ones this database was made with (it would keep "
                               f"cards no other process could read): give that database's keys")

    def is_internal(self, presented: str | None) -> bool:
        if not presented:
            return False
        return hmac.compare_digest(presented.encode(), self.internal_secret.encode())

    def fingerprint(self, value: str, purpose: str) -> str:
        """A keyed hash of `value` (HMAC-SHA256 under a key derived from the data key for `purpose`): equal for equal
        values, and without the key no guess of a value, however few its possibilities, can be checked."""
        key = hmac.new(self.data_key, purpose.encode(), "sha256").digest()
        return hmac.new(key, value.encode(), "sha256").hexdigest()

    def seal(self, plaintext: bytes, context: str) -> tuple[bytes, bytes]:
        """AES-256-GCM; `context` (a record id) is bound as associated data, so ciphertexts can't be swapped."""
        nonce = os.urandom(12)
        return nonce, self._aead.encrypt(nonce, plaintext, context.encode())

    def open(self, nonce: bytes, ciphertext: bytes, context: str) -> bytes:
        return self._aead.decrypt(nonce, ciphertext, context.encode())

    @cached_property
    def _aead(self) -> AESGCM:
        # One cipher object for the key: the vault seals hundreds of cards a capture. (Imported here: a console's
        # start never seals.)
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        return AESGCM(self.data_key)
