"""The secrets beside the database: made once, private to the owner, and what seals card data."""

from __future__ import annotations

import stat

import pytest
from cryptography.exceptions import InvalidTag

from backend.core.keys import DATA_KEY_ENV, KeyFileError, Keys


def test_key_file_is_made_once_with_owner_only_access(tmp_path):
    keys = Keys(tmp_path / "frontdesk.db.keys")
    nonce, sealed = keys.seal(b"4111111111111111", "revision-1")
    assert stat.S_IMODE((tmp_path / "frontdesk.db.keys").stat().st_mode) == 0o600
    again = Keys(tmp_path / "frontdesk.db.keys")
    assert again.open(nonce, sealed, "revision-1") == b"4111111111111111"
    assert again.internal_secret == keys.internal_secret and len(keys.internal_secret) >= 32
    assert b"4111111111111111" not in sealed


def test_a_ciphertext_opens_only_for_its_own_record(tmp_path):
    keys = Keys(tmp_path / "k")
    nonce, sealed = keys.seal(b"card", "revision-1")
    with pytest.raises(InvalidTag):
        keys.open(nonce, sealed, "revision-2")


def test_the_environment_may_hold_the_key(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_KEY_ENV, "not base64!")
    with pytest.raises(KeyFileError):
        Keys(tmp_path / "k").seal(b"card", "r")
    monkeypatch.setenv(DATA_KEY_ENV, "A" * 43 + "=")  # 32 zero bytes
    assert Keys(tmp_path / "k").data_key == bytes(32)
    assert not (tmp_path / "k").exists()


def test_internal_credential_check(tmp_path):
    keys = Keys(tmp_path / "k")
    assert keys.is_internal(keys.internal_secret)
    assert not keys.is_internal(None) and not keys.is_internal("guess")
