"""For tests/bench/bench_write_scopes.py only: on PYTHONPATH, every process of a `frontdesk serve` (its spawned
workers too) writes as before write scopes, every transaction under the one database-wide lock."""

from storage.postgres import PostgresStore

_scoped = PostgresStore.transaction


def _unscoped(self, *scope):
    return _scoped(self)


PostgresStore.transaction = _unscoped
