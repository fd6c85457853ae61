"""The command line: users, tokens, groups and demo, as a user types them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from backend.engine import Engine
from backend.errors import Unauthorized


def frontdesk(*args: str, db, ok: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "console", *args, "--db", str(db)],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode == 0) is ok, result.stderr
    return result


def last_line(result: subprocess.CompletedProcess) -> str:
    return result.stdout.strip().splitlines()[-1]


def test_users_add_prints_a_working_token_last(tmp_path):
    db = tmp_path / "cli.db"

    token = last_line(frontdesk("users", "add", "ann@example.com", db=db))

    actor = Engine.open(db).identity.authenticate(token)
    assert actor.email == "ann@example.com"
    assert token not in (tmp_path / "cli.db").read_bytes().decode("latin-1")


def test_tokens_add_list_revoke(tmp_path):
    db = tmp_path / "cli.db"
    first = last_line(frontdesk("users", "add", "ann@example.com", db=db))
    second = last_line(frontdesk("tokens", "add", "ann@example.com", db=db))
    listed = frontdesk("tokens", "list", "ann@example.com", db=db).stdout.splitlines()
    second_id = next(line.split()[0] for line in listed if second[:10] in line)

    frontdesk("tokens", "revoke", second_id, db=db)
    frontdesk("tokens", "revoke", first, db=db)

    identity = Engine.open(db).identity
    assert first != second and len(listed) == 2
    for token in (first, second):
        with pytest.raises(Unauthorized):
            identity.authenticate(token)


def test_errors_are_one_line_without_traceback(tmp_path):
    db = tmp_path / "cli.db"
    frontdesk("users", "add", "ann@example.com", db=db)

    duplicate = frontdesk("users", "add", "ann@example.com", db=db, ok=False)
    bad = frontdesk("users", "add", "not-an-email", db=db, ok=False)
    unknown = frontdesk("tokens", "revoke", "no-such-token", db=db, ok=False)

    for result in (duplicate, bad, unknown):
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_groups_add_and_list(tmp_path):
    db = tmp_path / "cli.db"
    frontdesk("users", "add", "ann@example.com", db=db)
    frontdesk("users", "add", "bob@example.com", db=db)

    group_id = last_line(frontdesk("groups", "add", "Lakeside", "ann@example.com", "bob@example.com", db=db))

    listed = frontdesk("groups", "list", "bob@example.com", db=db).stdout
    assert group_id in listed and "Lakeside" in listed


def test_demo_fills_an_empty_database_once(tmp_path):
    db = tmp_path / "demo.db"

    token = last_line(frontdesk("demo", db=db))
    refused = frontdesk("demo", db=db, ok=False)

    engine = Engine.open(db)
    actor = engine.identity.authenticate(token)
    assert len(engine.properties.options(actor)) >= 5
    assert "already" in refused.stderr


def test_db_can_come_from_the_environment(tmp_path):
    db = tmp_path / "env.db"
    result = subprocess.run([sys.executable, "-m", "console", "users", "add", "eve@example.com"],
                            capture_output=True, text=True, timeout=60, env={"FRONTDESK_DB": str(db), "PATH": ""})

    assert result.returncode == 0, result.stderr
    assert Engine.open(db).identity.users() == ["eve@example.com"]


def test_the_consoles_secure_url_must_be_an_address(tmp_path):
    result = subprocess.run([sys.executable, "-m", "console", "--secure-url", "8001", "--db", str(tmp_path / "c.db")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "'8001' is not an http(s) address" in result.stderr
    assert not (tmp_path / "c.db").exists()  # refused before anything opened


def test_serve_does_not_import_textual(tmp_path):
    """`frontdesk serve` runs its whole command up to starting the listeners, where it reports what it loaded."""
    code = ("import sys, backend.http.server as server\n"
            "def listen(*args, **options):\n"
            "    sys.exit(3 if any(m.split('.')[0] == 'textual' for m in sys.modules) else 0)\n"
            "server.serve = listen\n"
            "from console.cli import main\n"
            f"main(['serve', '--db', {str(tmp_path / 'serve.db')!r}])\n")

    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_pci_keys_add_list_revoke_and_vault_purge(tmp_path):
    db = tmp_path / "cli.db"
    key = last_line(frontdesk("pci-keys", "add", "--label", "channel adapter", db=db))
    assert Engine.open(db).pci_keys.authenticate(key)
    listed = frontdesk("pci-keys", "list", db=db).stdout
    assert "channel adapter" in listed and "active" in listed and key not in listed
    key_id = listed.split()[0]
    frontdesk("pci-keys", "revoke", key_id, db=db)
    with pytest.raises(Unauthorized):
        Engine.open(db).pci_keys.authenticate(key)
    assert "error: Not Found" in frontdesk("pci-keys", "revoke", key_id, db=db, ok=False).stderr
    assert "Purged 0 cards and 0 CVVs." in frontdesk("vault", "purge", db=db).stdout
    assert "Purged 0 cards" in frontdesk("vault", "purge", "--days", "0", db=db).stdout
    frontdesk("vault", "purge", "--days", "-1", db=db, ok=False)
