"""Reads that may be a little behind the primary, sent to its hot standbys (`--read-db`; storage/replicas.py).

A `ReadStore` is the read side of a store (`query`, `one`, `scalar`, `tuples`, `dialect`) and nothing else: it has
no transaction, so nothing writes through it, and every write (and what a write decides on) reads the primary
inside its own transaction, as before. Its reads go to a replica that is up and holds every commit acknowledged
`bound` seconds ago (`Replica.fresh`), taken in turn, else to the primary. A read that the replica
cannot answer (down since its last check, a query cancelled by recovery) is answered by the primary at once.

`one_source` keeps the reads of a block (one shopping call) on one database, chosen when it begins, so that an
answer is never put together from two points in time; `on_primary` keeps them on the primary (what a write is
about to rely on: the channel a booking is pushed to). Both are nothing on a store without replicas.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Protocol, TypeVar, cast

from storage.dialect import Dialect
from storage.store import Store

T = TypeVar("T")


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


class Replica(Protocol):
    location: str

    def fresh(self) -> bool:
        """Up, and behind the primary by no more than the bound, as last measured."""

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

    def close(self) -> None:
        for replica in self.replicas:
            replica.close()


def one_source(store: Store | ReadStore) -> AbstractContextManager[None]:
    return store.one_source() if isinstance(store, ReadStore) else nullcontext()


def on_primary(store: Store | ReadStore) -> AbstractContextManager[None]:
    return store.on_primary() if isinstance(store, ReadStore) else nullcontext()
