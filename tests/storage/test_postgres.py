"""What only the PostgreSQL store does: what it refuses at open, each in one line that names no password and
writes nothing, and its statements' placeholders."""

from __future__ import annotations

import os

import psycopg
import pytest

from storage import StoreError, open_store
from storage.postgres import translate, without_password
from tests.postgres_cluster import SECRET_PASSWORD, SECRET_ROLE
from tests.stores import PORT_ENV, cluster


@pytest.fixture
def pg():
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    return cluster()


def _one_line(error: StoreError) -> str:
    text = str(error)
    assert "\n" not in text
    return text


def test_an_unreachable_server_is_one_line(pg):
    with pytest.raises(StoreError) as refused:
        open_store("postgresql://frontdesk@127.0.0.1:1/nowhere")
    assert _one_line(refused.value).startswith("cannot use the PostgreSQL database postgresql://frontdesk@127.0.0.1:1/")


def test_a_wrong_password_is_one_line_that_names_no_password(pg):
    url = pg.url("postgres", SECRET_ROLE, "not-the-password")
    with pytest.raises(StoreError) as refused:
        open_store(url)
    line = _one_line(refused.value)
    assert "password authentication failed" in line and "not-the-password" not in line
    pg.empty("secret_ok")
    open_store(pg.url("secret_ok", SECRET_ROLE, SECRET_PASSWORD)).close()  # the right one opens it


def test_a_database_that_does_not_sort_by_bytes_is_refused_and_left_as_it_was(pg):
    url = pg.empty("utf8_sorted", collation="C.utf8")
    with pytest.raises(StoreError, match="collation 'C.utf8'; Frontdesk needs collation C") as refused:
        open_store(url)
    _one_line(refused.value)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0


def test_a_database_of_other_tables_is_refused(pg):
    url = pg.empty("someone_elses")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    with pytest.raises(StoreError, match="holds tables that are not Frontdesk's"):
        open_store(url)


def test_placeholders_outside_quotes_and_percent_signs_everywhere():
    assert translate("SELECT '?', \"a?\" FROM t WHERE x = ? AND y LIKE '%a' -- ?\n AND z = ?") == \
        "SELECT '?', \"a?\" FROM t WHERE x = %s AND y LIKE '%%a' -- ?\n AND z = %s"


def test_a_url_is_shown_without_its_password():
    assert without_password("postgresql://desk:s3cret@db.example:5433/frontdesk") == \
        "postgresql://desk@db.example:5433/frontdesk"
    assert without_password("host=db.example port=5433 dbname=frontdesk user=desk password=s3cret", user=False) == \
        "postgresql://db.example:5433/frontdesk"
