"""Reads that may be a little behind the primary, sent to its hot standbys (`--read-db`; storage/replicas.py).

A `ReadStore` is the read side of a store (`query`, `one`, `scalar`, `tuples`, `dialect`) and nothing else: it has
no transaction, so nothing writes through it, and every write (and what a write decides on) reads the primary
inside its own transaction, as before. Its reads go to a replica that is up and holds every commit acknowledged
`bound` seconds ago (`Replica.fresh`), taken in turn, else to the primary. A read that the replica
cannot answer (down since its last check, a query cancelled by recovery) is answered by the primary at once.

What operators are shown of each replica (`ReplicaStatus`, `replica_statuses`): in use or why not, its lag, since
when; the outbox's status route and the console's Channels area read it.

`one_source` keeps the reads of a block (one shopping call) on one database, chosen when it begins, so that an
answer is never put together from two points in time; `on_primary` keeps them on the primary (what a write is
about to rely on: the channel a booking is pushed to). Both are nothing on a store without replicas.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, cast

from storage.dialect import Dialect
from storage.store import Store

T = TypeVar("T")
State = Literal["in_use", "down", "lagging", "refused"]


class ReplicaFailed(Exception):
    """A replica could not answer a read: the primary answers it."""


class Reads(Protocol):
    """What a read needs of a store: a `Store`, or a `ReadStore` that may send it to a replica."""

    @property
    def dialect(self) -> Dialect: ...

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
    def one(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any: ...
    def tuples(self, sql: str, params: Sequence[Any] = ()) -> Iterable[tuple[Any, ...]]: ...


@dataclass(frozen=True)
class ReplicaStatus:
    """A replica as operators see it. `why` it is not used: for `lagging`, how far past the bound ("2.3 s past the
    1 s bound", or "not caught up yet" before its first measure); for `refused`, what it is instead of a standby of
    the primary's database; nothing for `down`. `lag_seconds`: how far behind it may be, from its last look (kept
    while it is down; None before any). `since`: when it came to this state (UTC, as every table stores times)."""

    location: str  # without user or password
    state: State
    why: str | None
    lag_seconds: float | None
    since: str


class Replica(Protocol):
    location: str

    def fresh(self) -> bool:
        """Up, and behind the primary by no more than the bound, as last measured."""

    def status(self) -> ReplicaStatus: ...

    def read(self, run: Callable[[Reads], T]) -> T:
        """`run` on the replica; ReplicaFailed when it could not answer."""

    def close(self) -> None: ...


_PRIMARY = object()  # the source of a block kept on the primary


class ReadStore:
    def __init__(self, primary: Store, replicas: Sequence[Replica]) -> None:
        self.primary = primary
        self.replicas = list(replicas)
        self.dialect = primary.dialect
        self._turn = itertools.count()
        self._local = threading.local()

    @contextmanager
    def one_source(self) -> Iterator[None]:
        """The block's reads on one database, chosen now; inside another such block, that block's."""
        with self._kept(self._pick):
            yield

    @contextmanager
    def on_primary(self) -> Iterator[None]:
        with self._kept(lambda: _PRIMARY):
            yield

    @contextmanager
    def _kept(self, choose: Callable[[], object]) -> Iterator[None]:
        if getattr(self._local, "source", None) is not None:
            yield
            return
        self._local.source = choose()
        try:
            yield
        finally:
            self._local.source = None

    def _pick(self) -> Replica | object:
        fresh = [replica for replica in self.replicas if replica.fresh()]
        return fresh[next(self._turn) % len(fresh)] if fresh else _PRIMARY

    def _read(self, run: Callable[[Reads], T]) -> T:
        source: Replica | object = getattr(self._local, "source", None) or self._pick()
        if source is not _PRIMARY:
            try:
                return cast(Replica, source).read(run)
            except ReplicaFailed:
                if getattr(self._local, "source", None) is source:
                    self._local.source = _PRIMARY  # the rest of the block too: one source after the failure
        return run(self.primary)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._read(lambda reads: reads.query(sql, params))

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._read(lambda reads: reads.one(sql, params))

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._read(lambda reads: reads.scalar(sql, params))

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> Iterable[tuple[Any, ...]]:
        return self._read(lambda reads: reads.tuples(sql, params))

    def statuses(self) -> list[ReplicaStatus]:
        return [replica.status() for replica in self.replicas]

    def close(self) -> None:
        for replica in self.replicas:
            replica.close()


def one_source(store: Store | ReadStore) -> AbstractContextManager[None]:
    return store.one_source() if isinstance(store, ReadStore) else nullcontext()


def on_primary(store: Store | ReadStore) -> AbstractContextManager[None]:
    return store.on_primary() if isinstance(store, ReadStore) else nullcontext()


def replica_statuses(store: Store | ReadStore) -> list[ReplicaStatus]:
    return store.statuses() if isinstance(store, ReadStore) else []
