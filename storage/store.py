"""The one interface the engine speaks to a database through, whichever database it is.

Two implementations, tested alike (tests/storage): `SqliteStore` (storage/sqlite.py), the embedded default, and
`PostgresStore` (storage/postgres.py). The engine writes its SQL once, in the dialect both understand (`?`
placeholders, `ON CONFLICT`, `RETURNING`, explicit `NULLS FIRST/LAST` where a column may be NULL); the few
constructs that differ are the `Dialect`'s (storage/dialect.py).

Rows read by position and by name (`row[0]`, `row["id"]`, `dict(row)`); `tuples` reads plain tuples where
thousands of rows are read at once. An unscoped transaction is one writer at a time, database-wide, as SQLite's
`BEGIN IMMEDIATE` is: everything the engine reads inside one and decides on still holds when it writes. A scoped
one (backend/core/scopes.py) holds that only for what its keys cover, and on PostgreSQL goes beside the writers of
other keys.
"""

from __future__ import annotations

import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Protocol

from storage.dialect import Dialect


class StoreError(Exception):
    """A database that cannot be used as it is: unreachable, refused, of another version or the wrong collation.
    Its message is one line for the operator, without a password."""


class Row(Protocol):
    def __getitem__(self, key: int | str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...
    def keys(self) -> list[str]: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the engine calls on a connection: sqlite3's own surface, which the PostgreSQL one reproduces, and the
    dialect of its SQL."""

    dialect: Dialect

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor: ...
    def executemany(self, sql: str, params: Iterable[Sequence[Any]], /) -> Cursor: ...

    def batch(self) -> AbstractContextManager[object]:
        """Statements sent together, in one round trip where that costs one (PostgreSQL's pipeline): only those whose
        results are not read (rowcount, rows) until it ends; their errors are raised when it ends."""
        ...


class Lease(Protocol):
    """One holder at a time of a named role (the deliverer's housekeeping), across processes: `acquire` takes or
    renews it, at least every third of `ttl` seconds. And who delivers, each destination claimed while it is served:
    on SQLite the holder alone (its claim of every destination is the lease); on PostgreSQL every `serve`, and a
    console while it holds the lease, each claim a session lock that dies with its process's connection."""

    ttl: float
    kind: str  # serve | console

    def acquire(self) -> bool: ...
    def release(self) -> None: ...
    def holder_kind(self) -> str | None: ...

    def delivering(self) -> bool:
        """Whether this process delivers now (as of the last `acquire`)."""

    def claim(self, key: str) -> bool:
        """Take a destination (its key) to serve it alone until `unclaim`; False when another process serves it."""

    def claimed(self, key: str) -> bool:
        """Whether the claim still holds (a lost connection lost it): asked before each step of the serving."""

    def unclaim(self, key: str) -> None: ...

    def listen(self, wake: Callable[[], None]) -> None:
        """Call `wake` whenever another process tells of new events to deliver, until `close`."""

    def close(self) -> None: ...


class Store(Protocol):
    dialect: Dialect
    created: bool  # whether this open made the schema: a new database, with nothing of earlier versions to repair

    @property
    def location(self) -> str:
        """Where the database is, as an operator reads it: a path, or a URL without its password."""

    @property
    def conn(self) -> Connection:
        """This thread's connection: the open transaction's, else one for single statements (autocommit)."""

    def transaction(self, *scope: str) -> AbstractContextManager[Connection]:
        """Committed when the block ends (durably: on disk before it returns), rolled back on any exception.

        Without a scope, one writer at a time, database-wide. With one (keys such as `property:<id>`), it excludes
        the writers of its keys and the unscoped ones, and runs beside writers of other keys where the database can
        (PostgreSQL; SQLite has one writer whatever the scope): what it reads and decides on must be what its keys
        cover. Nested use joins the outer transaction, whose scope must cover it (`joined`)."""

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
    def one(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> Iterable[tuple[Any, ...]]:
        """Plain tuples, for reads of thousands of rows where a row object costs more than the read."""

    def change_stamp(self) -> int:
        """A number that moves when another process commits: how a console notices others' writes."""

    def lease(self, name: str, kind: str, *, ttl: float, record: dict[str, Any] | None = None) -> Lease:
        """A lease on `name`: `serve` takes it from a console, a console only when nobody holds it; `record` (a
        server's addresses) is kept with it while held, for `leased_record`."""

    def leased_record(self, name: str) -> dict[str, Any] | None:
        """The record of the live `serve` holding `name`, if one does."""

    def forget_history(self) -> None:
        """Make what was replaced or deleted unreadable where the database can (SQLite's write-ahead log)."""

    def close(self) -> None: ...


def joined(outer: tuple[str, ...], inner: tuple[str, ...]) -> None:
    """A transaction nested in another joins it, so the outer one's locks must cover the inner one's: everything
    (no scope) covers all; a scope covers its own keys only. Anything else is a fault of the code, refused on either
    store alike so that tests on SQLite find it too."""
    if outer and not (inner and set(inner) <= set(outer)):
        raise RuntimeError(f"a transaction of scope {inner or 'everything'} nested in one of scope {outer}")


class WriterQueue:
    """The writers of one process in line, first come first served, each handed the turn by the one before it.

    A store's transactions wait here before they take the database's write lock: SQLite's busy handler would have
    them sleep and retry (up to 100 ms a try, so that under load a writer waited seconds for work of milliseconds),
    and a PostgreSQL writer would hold a pooled connection while it waits (so that waiting writers starved the
    readers of connections). Here one writer of the process at a time goes on; the others wait without a
    connection, and are woken in turn."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()
        self._held = False

    def __enter__(self) -> None:
        with self._mutex:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by the writer before it, which hands the queue over as it is

    def __exit__(self, *_: object) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False


def placeholders(values: Sized) -> str:
    """The `?, ?, ?` of `IN (…)` for these values; `NULL` for none, which matches nothing (PostgreSQL refuses an
    empty `IN ()`, which SQLite takes)."""
    return ",".join("?" * len(values)) or "NULL"


def chunked(values: list[Any], size: int = 10_000) -> list[list[Any]]:
    """The values in lists of at most `size`, for `IN (…)` lists as long as a caller has (tens of thousands of a
    channel's properties): both stores cap a statement's parameters (SQLite at 32,766, PostgreSQL at 65,535)."""
    return [values[start:start + size] for start in range(0, len(values), size)]


def new_id() -> str:
    return str(uuid.uuid4())


def utc_now() -> str:
    """UTC timestamp without zone, microsecond precision: 2026-11-21T10:03:29.335485."""
    return timestamp(datetime.now(UTC))


def timestamp(moment: datetime) -> str:
    """A moment (with its zone) as every table stores it: UTC without zone, microsecond precision."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")
