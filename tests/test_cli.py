"""The command line: users, tokens, groups and demo, as a user types them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from backend.core.errors import Unauthorized
from backend.engine import Engine
from tests.conftest import CONTACT
from tests.stores import Database, on_disk


def frontdesk(*args: str, db: Database, ok: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "console", *args, *db.args()],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode == 0) is ok, result.stderr
    return result


def last_line(result: subprocess.CompletedProcess) -> str:
    return result.stdout.strip().splitlines()[-1]


def test_users_add_prints_a_working_token_last(new_db):
    db = new_db("cli")

    token = last_line(frontdesk("users", "add", "ann@example.com", db=db))

    actor = db.engine().identity.authenticate(token)
    assert actor.email == "ann@example.com"
    assert token.encode() not in on_disk(db.engine())


def test_tokens_add_list_revoke(new_db):
    db = new_db("cli")
    first = last_line(frontdesk("users", "add", "ann@example.com", db=db))
    second = last_line(frontdesk("tokens", "add", "ann@example.com", db=db))
    listed = frontdesk("tokens", "list", "ann@example.com", db=db).stdout.splitlines()
    second_id = next(line.split()[0] for line in listed if second[:10] in line)

    frontdesk("tokens", "revoke", second_id, db=db)
    frontdesk("tokens", "revoke", first, db=db)

    identity = db.engine().identity
    assert first != second and len(listed) == 2
    for token in (first, second):
        with pytest.raises(Unauthorized):
            identity.authenticate(token)


def test_errors_are_one_line_without_traceback(new_db):
    db = new_db("cli")
    frontdesk("users", "add", "ann@example.com", db=db)

    duplicate = frontdesk("users", "add", "ann@example.com", db=db, ok=False)
    bad = frontdesk("users", "add", "not-an-email", db=db, ok=False)
    unknown = frontdesk("tokens", "revoke", "no-such-token", db=db, ok=False)

    for result in (duplicate, bad, unknown):
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_groups_add_and_list(new_db):
    db = new_db("cli")
    frontdesk("users", "add", "ann@example.com", db=db)
    frontdesk("users", "add", "bob@example.com", db=db)

    group_id = last_line(frontdesk("groups", "add", "Lakeside", "ann@example.com", "bob@example.com", db=db))

    listed = frontdesk("groups", "list", "bob@example.com", db=db).stdout
    assert group_id in listed and "Lakeside" in listed


def test_users_are_invited_to_a_property_listed_given_a_role_and_removed(new_db):
    db = new_db("cli")
    engine = db.engine()
    property_id = engine.properties.create(engine.identity.operator(), {"title": "Lakeside", "currency": "EUR",
                                                                        **CONTACT})["id"]
    on = ("--property", property_id)

    invited = frontdesk("users", "invite", "Ann@example.com", *on, "--role", "owner", db=db)
    member_id = last_line(invited)
    frontdesk("users", "invite", "bob@example.com", *on, db=db)  # a new address becomes a user, in the default role

    identity = db.engine().identity
    assert f"ann@example.com is an owner of property {property_id}" in invited.stdout
    assert db.engine().properties.get(identity.actor_for("bob@example.com"), property_id)["id"] == property_id
    listed = [line.split() for line in frontdesk("users", "list", *on, db=db).stdout.splitlines()]
    assert listed[0] == [member_id, "ann@example.com", "owner"] and listed[1][1:] == ["bob@example.com", "user"]
    assert "bob@example.com" in frontdesk("users", "list", db=db).stdout.splitlines()  # every user, as before
    assert "now an owner" in frontdesk("users", "role", "bob@example.com", "owner", *on, db=db).stdout
    frontdesk("users", "remove", "ann@example.com", *on, db=db)
    assert [line.split()[1:] for line in frontdesk("users", "list", *on, db=db).stdout.splitlines()] == [
        ["bob@example.com", "owner"]]
    with pytest.raises(Unauthorized):  # access follows at once
        db.engine().properties.get(identity.actor_for("ann@example.com"), property_id)


def test_group_users_keep_the_engines_rules_and_errors_are_one_line(new_db):
    db = new_db("cli")
    frontdesk("users", "add", "ann@example.com", db=db)
    group_id = last_line(frontdesk("groups", "add", "Lakeside", "ann@example.com", db=db))  # ann, its owner
    on = ("--group", group_id)
    frontdesk("users", "invite", "bob@example.com", *on, db=db)

    refused = {
        "twice": frontdesk("users", "invite", "bob@example.com", *on, db=db, ok=False),
        "last owner demoted": frontdesk("users", "role", "ann@example.com", "user", *on, db=db, ok=False),
        "last owner removed": frontdesk("users", "remove", "ann@example.com", *on, db=db, ok=False),
        "not given it": frontdesk("users", "remove", "cy@example.com", *on, db=db, ok=False),
        "no such group": frontdesk("users", "list", "--group", "no-such-group", db=db, ok=False),
        "no such property": frontdesk("users", "invite", "cy@example.com", "--property", "nope", db=db, ok=False),
    }
    for name, result in refused.items():
        assert result.returncode == 1 and result.stderr.count("\n") == 1, name
        assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr, name
    assert "User already invited" in refused["twice"].stderr
    assert "last owner" in refused["last owner demoted"].stderr and "last owner" in refused["last owner removed"].stderr
    assert "cy@example.com is not a user of group" in refused["not given it"].stderr
    for args in (("users", "invite", "cy@example.com"), ("users", "list", *on, "--property", "p"),
                 ("users", "role", "bob@example.com", "boss", *on)):
        assert frontdesk(*args, db=db, ok=False).returncode == 2  # a usage error: nothing asked of the engine
    frontdesk("users", "role", "bob@example.com", "owner", *on, db=db)
    frontdesk("users", "remove", "ann@example.com", *on, db=db)
    identity = db.engine().identity
    assert group_id not in identity.actor_for("ann@example.com").group_ids
    assert group_id in identity.actor_for("bob@example.com").group_ids


def test_demo_fills_an_empty_database_once(new_db):
    db = new_db("demo")

    token = last_line(frontdesk("demo", db=db))
    refused = frontdesk("demo", db=db, ok=False)

    engine = db.engine()
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


def test_the_consoles_read_replicas_need_a_postgresql_primary_and_no_command(tmp_path):
    db = str(tmp_path / "c.db")
    result = subprocess.run([sys.executable, "-m", "console", "--db", db, "--read-db", "postgresql://127.0.0.1:1/x"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "PostgreSQL" in result.stderr and not (tmp_path / "c.db").exists()
    result = subprocess.run([sys.executable, "-m", "console", "--db", db, "--read-db", "postgresql://127.0.0.1:1/x",
                             "users", "list"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "they go with no command" in result.stderr


def test_serve_does_not_import_textual(tmp_path):
    """`frontdesk serve` runs its whole command up to starting the listeners, where it reports what it loaded."""
    code = ("import sys, backend.http.server as server\n"
            "def listen(*args, **options):\n"
            "    sys.exit(3 if any(m.split('.')[0] == 'textual' for m in sys.modules) else 0)\n"
            "server.serve = listen\n"
            "from console.cli import main\n"
            f"main(['serve', '--db', {str(tmp_path / 'serve.db')!r}])\n")

    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_pci_keys_add_list_revoke_and_vault_purge(new_db):
    db = new_db("cli")
    key = last_line(frontdesk("pci-keys", "add", "--label", "channel adapter", db=db))
    assert db.engine().pci_keys.authenticate(key)
    listed = frontdesk("pci-keys", "list", db=db).stdout
    assert "channel adapter" in listed and "active" in listed and key not in listed
    key_id = listed.split()[0]
    frontdesk("pci-keys", "revoke", key_id, db=db)
    with pytest.raises(Unauthorized):
        db.engine().pci_keys.authenticate(key)
    assert "error: Not Found" in frontdesk("pci-keys", "revoke", key_id, db=db, ok=False).stderr
    assert "Purged 0 cards and 0 CVVs." in frontdesk("vault", "purge", db=db).stdout
    assert "Purged 0 cards" in frontdesk("vault", "purge", "--days", "0", db=db).stdout
    frontdesk("vault", "purge", "--days", "-1", db=db, ok=False)


def test_a_database_it_cannot_use_is_one_line_and_nothing_is_written(new_db, tmp_path):
    db = new_db("refused")
    frontdesk("users", "add", "ann@example.com", db=db)
    other_keys = tmp_path / "other.keys"
    if db.keys is None:  # SQLite: its keys file beside it, taken away and made anew
        db.target.with_name(db.target.name + ".keys").rename(other_keys)
        refused = frontdesk("users", "add", "bob@example.com", db=db, ok=False)
        other_keys.rename(db.target.with_name(db.target.name + ".keys"))
    else:
        refused = frontdesk("users", "add", "bob@example.com", db=Database(db.target, other_keys), ok=False)
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert "are not the ones this database was made with" in refused.stderr
    assert "bob@example.com" not in db.engine().identity.users()


def test_a_postgresql_database_needs_keys_and_a_reachable_server(tmp_path):
    for args, said in ((["--db", "postgresql://frontdesk@127.0.0.1:1/nowhere", "--keys", str(tmp_path / "k")],
                        "cannot use the PostgreSQL database postgresql://frontdesk@127.0.0.1:1/nowhere"),
                       (["--db", "postgresql://frontdesk@127.0.0.1:1/nowhere"], "give --keys PATH")):
        result = subprocess.run([sys.executable, "-m", "console", "users", "list", *args], capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 1 and said in result.stderr and result.stderr.count("\n") == 1
