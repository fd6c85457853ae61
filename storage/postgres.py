"""The PostgreSQL store: psycopg 3 over a pool of connections, speaking SQLite's surface to the engine.

- Placeholders: the engine writes `?`; each statement's text is turned into psycopg's `%s` once (outside quoted
  literals, identifiers and comments, its `%` doubled) and kept.
- Rows read by position and by name, as sqlite3.Row does; flags go in and come out as integers 0/1, as in SQLite
  (a Python bool is sent as an integer, a boolean result such as `EXISTS (…)` read as one).
- A transaction borrows a connection from the pool for its length, bound to its thread so that the engine's reads
  inside it join it, and begins with its advisory locks (whose waiters PostgreSQL serves in turn), sent with BEGIN in
  one pipeline (`batch`: one round trip). Unscoped, after waiting in this process's line of writers
  (storage/store.py's WriterQueue): the database-wide writers' lock, which reproduces SQLite's `BEGIN IMMEDIATE` — one
  writer at a time, so that whatever a writer reads and decides on still holds when it writes. Scoped
  (`transaction("property:…")`): that lock shared, then its keys' own, so that writers of other keys go beside it and
  the unscoped ones wait for all. A statement outside a transaction borrows a connection for itself alone
  (autocommit), its rows read before the connection goes back.
- Commits are durable when they return (`synchronous_commit` as the server has it: on, unless an operator says
  otherwise). The database must use collation C, so that text sorts and compares byte by byte as in SQLite.
- `change_stamp` is the server's WAL insert position: it moves with every write (a superset of this database's
  changes, so a console may refresh once for nothing).
- The lease is a session advisory lock on a connection of its own, which dies with its process; so are the claims
  of destinations, on the same connection. The stamper's NOTIFY is heard on another connection of the lease's own.
- Behind a pooler (PgBouncer in transaction mode: `url` is the pooler's, `direct_url` the server's own), the pool's
  statements go through the pooler, unprepared (a pooler in transaction mode hands each transaction any server
  connection, where a statement prepared on another is unknown), and what needs a session of its own goes to the
  server directly: the migrations' lock, the lease, the claims of destinations and the LISTEN of the stamper's
  NOTIFY. Both must reach one database, checked on opening. Transactions need nothing more: their advisory locks
  end with them.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import lru_cache
from typing import Any, cast

import psycopg
from psycopg import adapt, conninfo, postgres
from psycopg.abc import Buffer
from psycopg.rows import RowMaker
from psycopg_pool import ConnectionPool

from storage.dialect import DESTINATION, FRONTDESK, HOUSEKEEPING, MIGRATION, OUTBOX_NEWS, POSTGRESQL, WRITER
from storage.migrations import newer, postgresql_steps, script
from storage.store import StoreError, WriterQueue, joined

POOL_SIZE = 16  # connections per process: a worker's threads beyond this wait for one (POOL_TIMEOUT at most)
POOL_TIMEOUT = 30.0
CONNECT_TIMEOUT = 10  # seconds to reach the server at start
LISTEN_TIMEOUT = 0.25  # seconds a listener waits for a NOTIFY before it looks whether it is to stop
SCOPE = FRONTDESK + 1  # the first key of a scope's lock; the second, its key's hash
ACCEPTED_COLLATIONS = {"C", "POSIX"}

_PLACEHOLDER = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|(\?)""")


@lru_cache(maxsize=4096)
def translate(sql: str) -> str:
    """`?` placeholders outside quotes and comments as `%s`, and every `%` doubled (psycopg reads `%` everywhere)."""
    return _PLACEHOLDER.sub(lambda m: "%s" if m.group(1) else m.group(0), sql.replace("%", "%%"))


class Row(tuple[Any, ...]):
    """A row read by position or by column name, like sqlite3.Row. Each set of column names has its own class."""

    __slots__ = ()
    _index: dict[str, int] = {}

    def __getitem__(self, key: int | str) -> Any:  # type: ignore[override]  # a column's name too; never a slice
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@lru_cache(maxsize=1024)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {name: i for i, name in enumerate(names)}})


def answer(cursor: psycopg.Cursor[Any]) -> tuple[Any, ...]:
    """The row of a statement that always answers one (an aggregate, a function's call)."""
    return cast(tuple[Any, ...], cursor.fetchone())


def rows(cursor: psycopg.Cursor[Any]) -> RowMaker[Row]:
    """psycopg's row factory for `Row`s."""
    description = cursor.description
    return _row_class(tuple(column.name for column in description) if description else ())


class _IntFromBool(adapt.Dumper):
    """A Python bool is sent as the integer flag SQLite would store."""

    oid = postgres.types["int4"].oid

    def dump(self, obj: bool) -> bytes:
        return b"1" if obj else b"0"


class _BoolAsInt(adapt.Loader):
    """A boolean the server computes (`EXISTS`, a comparison) is read as 1 or 0, as from SQLite."""

    def load(self, data: Buffer) -> int:
        return 1 if bytes(data) == b"t" else 0


def _configure(conn: psycopg.Connection) -> None:
    conn.adapters.register_dumper(bool, _IntFromBool)
    conn.adapters.register_loader("bool", _BoolAsInt)
    conn.row_factory = rows


class Result:
    """The rows of a statement run outside a transaction, read before its connection went back to the pool."""

    def __init__(self, cursor: psycopg.Cursor) -> None:
        self.rowcount = cursor.rowcount
        self._rows = cursor.fetchall() if cursor.description else []
        self._at = 0

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at:], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """One borrowed connection, as the engine calls it."""

    dialect = POSTGRESQL

    def __init__(self, raw: psycopg.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        return self.raw.execute(translate(sql), tuple(params))

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> psycopg.Cursor:
        cursor = self.raw.cursor()
        cursor.executemany(translate(sql), (tuple(p) for p in params))
        return cursor

    def batch(self) -> AbstractContextManager[object]:
        """psycopg's pipeline (an executemany in it rides along), where the client library has it."""
        return self.raw.pipeline() if psycopg.Pipeline.is_supported() else nullcontext()


class Autocommit:
    """`store.conn` outside a transaction: each statement on a connection of its own, committed at once."""

    dialect = POSTGRESQL

    def __init__(self, store: PooledReads) -> None:
        self.store = store

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        with self.store.pool.connection() as raw:
            return Result(raw.execute(translate(sql), tuple(params)))

    def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> Result:
        with self.store.pool.connection() as raw:
            return Result(PgConnection(raw).executemany(sql, params))

    def batch(self) -> AbstractContextManager[object]:
        """Nothing to group: each statement goes on a connection of its own."""
        return nullcontext()


class PooledReads:
    """Reads over a pool: in this thread's transaction when one is open, else each statement on a pooled connection of
    its own (autocommit). The store's, and a hot standby's (storage/replicas.py)."""

    dialect = POSTGRESQL
    pool: ConnectionPool
    _local: threading.local

    @property
    def conn(self) -> PgConnection | Autocommit:
        return getattr(self._local, "conn", None) or Autocommit(self)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql, params).fetchone()

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> Iterable[tuple[Any, ...]]:
        current: PgConnection | None = getattr(self._local, "conn", None)
        if current is not None:
            return current.raw.cursor(row_factory=psycopg.rows.tuple_row).execute(translate(sql), tuple(params))
        with self.pool.connection() as raw:
            return raw.cursor(row_factory=psycopg.rows.tuple_row).execute(translate(sql), tuple(params)).fetchall()


def open_pool(url: str, size: int, timeout: float, name: str, **connect: Any) -> ConnectionPool:
    """A pool of autocommit connections configured for the engine's SQL, opening in the background; `connect`: more
    of libpq's connection parameters."""
    return ConnectionPool(url, min_size=1, max_size=size, timeout=timeout, open=True,
                          kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT, **connect},
                          configure=_configure, name=name)


class PostgresStore(PooledReads):

    def __init__(self, url: str, *, direct_url: str | None = None, pool_size: int = POOL_SIZE) -> None:
        self.url, self.session_url = url, direct_url or url
        self._local = threading.local()
        self._writers = WriterQueue()
        with self._connect(self.session_url) as first:  # refused at once, in one line, when it can't be used as it is
            _check_collation(first, self.location)
            if direct_url:
                _check_same_database(first, direct_url, url)
            self.created = _migrate(first, self.location)
        pooled = {"prepare_threshold": None} if direct_url else {}
        self.pool = open_pool(url, pool_size, POOL_TIMEOUT, "frontdesk", **pooled)

    @staticmethod
    def _connect(url: str) -> psycopg.Connection:
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the PostgreSQL database {without_password(url)}: {_reason(exc)}") from None

    @property
    def location(self) -> str:
        return without_password(self.url)

    @contextmanager
    def transaction(self, *scope: str) -> Iterator[PgConnection]:
        """BEGIN, its locks first, … COMMIT; ROLLBACK on any exception. Unscoped: the writers' advisory lock, after
        waiting in this process's line. Scoped: that lock shared, then each key's own (sorted, so that two writers
        never take them in opposite orders), while holding a pooled connection (PostgreSQL serves each lock's
        waiters in turn). Nested use joins the outer one."""
        current = getattr(self._local, "conn", None)
        if current is not None:
            joined(self._local.scope, scope)
            yield current
            return
        keys = sorted(set(scope))
        with self._writers if not keys else nullcontext(), self.pool.connection() as raw:
            conn = PgConnection(raw)
            self._local.conn, self._local.scope = conn, scope
            try:
                with conn.batch():
                    raw.execute("BEGIN")
                    raw.execute(_locks(len(keys)), (FRONTDESK, WRITER, *keys))
                yield conn
            except BaseException:
                self._local.conn = None
                raw.execute("ROLLBACK")
                raise
            self._local.conn = None
            raw.execute("COMMIT")

    def change_stamp(self) -> int:
        return int(self.scalar("SELECT pg_current_wal_insert_lsn() - '0/0'"))

    def forget_history(self) -> None:
        """Nothing to do here: PostgreSQL's own WAL and dead rows are the server's (VACUUM), outside this store."""

    def lease(self, name: str, kind: str, *, ttl: float, record: dict[str, Any] | None = None) -> PgLease:
        return PgLease(self, name, kind, ttl, record)

    def leased_record(self, name: str) -> dict[str, Any] | None:
        row = self.one("SELECT s.addresses FROM servers s JOIN pg_locks l ON l.pid = s.backend_pid "
                       "AND l.locktype = 'advisory' AND l.classid = ? AND l.objid = ? AND l.granted "
                       "WHERE s.name = ? AND s.kind = 'serve'", (FRONTDESK, HOUSEKEEPING, name))
        return json.loads(row[0]) if row else None

    def close(self) -> None:
        self.pool.close()


class PgLease:
    """The lease as a session advisory lock, held on a connection of this lease's own (a crash, `kill -9` or a lost
    connection frees it at once; a lost connection is made anew at the next `acquire`). A `serve` that wants a lease a
    console holds asks for it in the `servers` row; the console gives it up at its next renewal.

    Every `serve` delivers, and a console while it holds the lease: each destination claimed while it is served, by a
    session lock on the same connection (`claim`), so that one process at a time sends it, and one that dies frees
    its destinations with its connection. The stamper's NOTIFY is heard on a second connection (`listen`)."""

    def __init__(self, store: PostgresStore, name: str, kind: str, ttl: float, record: dict[str, Any] | None) -> None:
        self.store, self.name, self.kind, self.ttl, self.record = store, name, kind, ttl, record
        self._lock = threading.Lock()
        self._raw = self._connect()
        self._held = False
        self._claims: set[str] = set()
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(self.store.session_url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

    def acquire(self) -> bool:
        with self._lock:
            try:
                self._reconnect_if_lost()
                return self._acquire()
            except psycopg.OperationalError:  # the server is away: nothing is held; the next renewal tries again
                self._held = False
                return False

    def _reconnect_if_lost(self) -> None:
        """A connection lost (the server restarted, an operator ended it) took its locks with it: made anew."""
        if self._raw.broken or self._raw.closed:
            with contextlib.suppress(psycopg.Error):
                self._raw.close()
            self._held = False
            self._claims.clear()
            self._raw = self._connect()

    def _acquire(self) -> bool:
        if self._held:
            if self._wanted_by_serve():
                self._give_up()
                return False
            return True
        self._held = bool(answer(self._raw.execute("SELECT pg_try_advisory_lock(%s, %s)",
                                                   (FRONTDESK, HOUSEKEEPING)))[0])
        if self._held:
            self._raw.execute(
                "INSERT INTO servers (name, kind, backend_pid, addresses, wanted) VALUES (%s, %s, "
                "pg_backend_pid(), %s, 0) ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, "
                "backend_pid = excluded.backend_pid, addresses = excluded.addresses, wanted = 0",
                (self.name, self.kind, json.dumps(self.record) if self.record is not None else None))
        elif self.kind == "serve":
            self._raw.execute("UPDATE servers SET wanted = 1 WHERE name = %s AND kind = 'console'", (self.name,))
        return self._held

    def _wanted_by_serve(self) -> bool:
        row = self._raw.execute("SELECT wanted FROM servers WHERE name = %s AND kind = 'console'",
                                (self.name,)).fetchone()
        return self.kind == "console" and bool(row and row[0])

    def _give_up(self) -> None:
        self._raw.execute("SELECT pg_advisory_unlock(%s, %s)", (FRONTDESK, HOUSEKEEPING))
        self._held = False

    def release(self) -> None:
        with self._lock:
            if self._held:
                with contextlib.suppress(psycopg.OperationalError):
                    self._raw.execute("DELETE FROM servers WHERE name = %s AND backend_pid = pg_backend_pid()",
                                      (self.name,))
                    self._give_up()
                self._held = False

    def holder_kind(self) -> str | None:
        with self._lock:
            row = self._raw.execute(
                "SELECT s.kind FROM servers s JOIN pg_locks l ON l.pid = s.backend_pid AND l.locktype = 'advisory' "
                "AND l.classid = %s AND l.objid = %s AND l.granted WHERE s.name = %s",
                (FRONTDESK, HOUSEKEEPING, self.name)).fetchone()
        return row[0] if row else None

    # --- delivering --------------------------------------------------------------------------------

    def delivering(self) -> bool:
        return self.kind == "serve" or self._held

    def claim(self, key: str) -> bool:
        with self._lock:
            if not self.delivering() or self._raw.broken:
                return False
            try:
                taken = answer(self._raw.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                                 (DESTINATION, key)))[0]
            except psycopg.OperationalError:
                return False
            if taken:
                self._claims.add(key)
            return bool(taken)

    def claimed(self, key: str) -> bool:
        with self._lock:
            if key not in self._claims:
                return False
            try:  # the session, and so its locks, still there
                self._raw.execute("SELECT 1")
            except psycopg.OperationalError:
                return False
            return True

    def unclaim(self, key: str) -> None:
        with self._lock:
            if key in self._claims:
                self._claims.discard(key)
                with contextlib.suppress(psycopg.OperationalError):
                    self._raw.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (DESTINATION, key))

    def listen(self, wake: Callable[[], None]) -> None:
        self._listener = threading.Thread(target=self._listen, args=(wake,), name="outbox-news", daemon=True)
        self._listener.start()

    def _listen(self, wake: Callable[[], None]) -> None:
        while not self._closed.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {OUTBOX_NEWS}")
                    wake()  # what was stamped while nobody here listened
                    while not self._closed.is_set():
                        for _ in conn.notifies(timeout=LISTEN_TIMEOUT):
                            wake()
            except psycopg.Error:  # the server is away: the poll delivers meanwhile, and this tries again
                self._closed.wait(LISTEN_TIMEOUT)

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(LISTEN_TIMEOUT * 2)
        with self._lock:
            self._raw.close()


@lru_cache(maxsize=8)
def _locks(keys: int) -> str:
    """The statement that opens a transaction of `keys` scope keys (0: everything), in one round trip; a key is
    hashed to an int4 (two keys of one hash only wait for each other)."""
    if not keys:
        return "SELECT pg_advisory_xact_lock(%s, %s)"
    return "SELECT pg_advisory_xact_lock_shared(%s, %s)" + "".join(
        f", pg_advisory_xact_lock({SCOPE}, hashtext(%s))" for _ in range(keys))


def without_password(url: str, *, user: bool = True) -> str:
    """The URL as it may be shown: its password left out (and its user too, without `user`)."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    named = f"{parts['user']}@" if user and parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{named}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def _reason(exc: psycopg.Error) -> str:
    """Why the server could not be used, in one line (psycopg's message never holds the password)."""
    text = " ".join(str(exc).split())
    if "FATAL:" in text:
        return text.split("FATAL:", 1)[1].strip()
    return text.removeprefix("connection failed: ") or type(exc).__name__


# Which database a connection reached: its cluster's identifier and the database's oid.
WHICH = ("(SELECT system_identifier FROM pg_control_system()), "
         "(SELECT oid FROM pg_database WHERE datname = current_database())")


def _check_same_database(direct: psycopg.Connection, direct_url: str, pooled_url: str) -> None:
    """The pooler's URL and the direct one reach one database, or the lease would be taken on another."""
    with PostgresStore._connect(pooled_url) as pooled:
        if pooled.execute(f"SELECT {WHICH}").fetchone() != direct.execute(f"SELECT {WHICH}").fetchone():
            raise StoreError(f"--db {without_password(pooled_url)} and --db-direct {without_password(direct_url)} "
                             "are not one database: --db-direct is the server's own address of the --db database")


def _check_collation(conn: psycopg.Connection, location: str) -> None:
    collation = answer(conn.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()"))[0]
    if collation not in ACCEPTED_COLLATIONS:
        raise StoreError(f"the PostgreSQL database {location} sorts text by collation {collation!r}; Frontdesk "
                         "needs collation C (CREATE DATABASE … LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0)")


def _migrate(conn: psycopg.Connection, location: str) -> bool:
    """Apply the steps the database lacks, under an advisory lock; whether it was new."""
    conn.execute("SELECT pg_advisory_lock(%s, %s)", (FRONTDESK, MIGRATION))
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        version = answer(conn.execute("SELECT max(version) FROM schema_version"))[0] or 0
        if version == 0 and conn.execute("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() "
                                         "AND tablename <> 'schema_version'").fetchone():
            raise StoreError(f"the PostgreSQL database {location} holds tables that are not Frontdesk's: give "
                             "Frontdesk a database of its own")
        if version > postgresql_steps()[-1][0]:
            raise newer(version)
        for number, name in postgresql_steps():
            if number > version:
                with conn.transaction():
                    conn.execute(script("postgresql", name))
                    conn.execute("DELETE FROM schema_version")
                    conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s, %s)", (FRONTDESK, MIGRATION))
    return version == 0
