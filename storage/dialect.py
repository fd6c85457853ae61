"""The few constructs SQLite and PostgreSQL spell differently, so that the engine's SQL is written once.

Everything else is written in the dialect both understand: `?` placeholders (the PostgreSQL store turns them into
its own), `ON CONFLICT … DO UPDATE/NOTHING`, `RETURNING`, `CASE` for a larger of two values, `CAST(… AS DOUBLE
PRECISION)`, integers 0/1 for flags, and `NULLS FIRST/LAST` wherever a sorted column may be NULL (SQLite sorts NULL
first going up, PostgreSQL last). Text compares byte by byte on both (PostgreSQL databases must use collation C).
"""

from __future__ import annotations

from dataclasses import dataclass

# PostgreSQL's advisory lock keys (pg_advisory_*, storage/postgres.py): the first of two int4 keys says whose lock it
# is, the second which. HOUSEKEEPING is the deliverer lease's: one process at a time runs the sweeps and the prune, and
# records a server's addresses.
FRONTDESK = 0x46440000  # "FD"
WRITER, MIGRATION, HOUSEKEEPING = 1, 2, 3
# A destination's claim (a session lock, held while one process serves it): this first key, then the hash of the
# destination's key (backend/core/scopes.py `destination_scope`). Apart from the scopes' transaction locks
# (storage/postgres.py SCOPE), which a claimed destination's own writes take beside it.
DESTINATION = FRONTDESK + 2
# The channel the outbox's stamper NOTIFYs once it stamped events (backend/outbox/store.py): how deliverers in other
# processes hear of them at once. Never one per write transaction: a NOTIFY serialises commits on its queue.
OUTBOX_NEWS = "frontdesk_outbox"

# The commit horizon of this database's writers: the lowest transaction id below which every transaction that may
# have written events here has ended, as of the statement's snapshot. The snapshot's in-progress ids (`xip`) are the
# whole cluster's, so those of other databases, still running as pg_locks shows them, are left out (a long transaction
# of another application must not hold up Frontdesk's deliveries): a transaction of ours holds the writers' lock
# here (taken before it has an id), and one that ended since the snapshot cannot be told apart, so it counts. Ids are
# compared by their low 32 bits, as pg_locks shows them.
COMMIT_HORIZON = f"""(SELECT coalesce(min(x), pg_snapshot_xmax(pg_current_snapshot()))
    FROM pg_snapshot_xip(pg_current_snapshot()) AS x
    WHERE CAST(CAST(x AS text) AS bigint) % 4294967296 NOT IN (
        SELECT CAST(CAST(t.transactionid AS text) AS bigint) FROM pg_locks t
        WHERE t.locktype = 'transactionid' AND t.granted AND NOT EXISTS (
            SELECT 1 FROM pg_locks a WHERE a.virtualtransaction = t.virtualtransaction AND a.locktype = 'advisory'
            AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND a.classid = {FRONTDESK} AND a.objid = {WRITER} AND a.objsubid = 2)))"""


@dataclass(frozen=True)
class Dialect:
    name: str  # sqlite | postgresql

    @property
    def like(self) -> str:
        """Case-insensitive LIKE: SQLite's LIKE is (for ASCII letters); PostgreSQL's is not, its ILIKE is."""
        return "LIKE" if self.name == "sqlite" else "ILIKE"

    def order(self, direction: str) -> str:
        """`ASC` or `DESC` with NULL where SQLite puts it (first going up, last going down), on both."""
        if self.name == "sqlite":
            return direction
        return f"{direction} NULLS FIRST" if direction == "ASC" else f"{direction} NULLS LAST"

    def concat_agg(self, expression: str, separator: str) -> str:
        """The values of `expression` joined by `separator` (a quoted SQL literal)."""
        function = "group_concat" if self.name == "sqlite" else "string_agg"
        return f"{function}({expression}, {separator})"

    def json_list(self, expression: str, order: str, where: str) -> str:
        """The values of `expression` over those of a group's rows that meet `where`, as the text of a JSON array, NULL
        as null, in `order`. SQLite's json_group_array has no ORDER BY (3.44 brought it): it keeps the order the rows
        are read in, which is `order` where the query reads them along an index that ends with it (the caller's to
        make sure: EXPLAIN shows no temporary B-tree)."""
        if self.name == "sqlite":
            return f"json_group_array({expression}) FILTER (WHERE {where})"
        return f"CAST(json_agg({expression} ORDER BY {order}) FILTER (WHERE {where}) AS text)"

    def unindexed(self, column: str) -> str:
        """`column` in a condition the planner must not pick an index for (SQLite's unary `+`; PostgreSQL's planner
        weighs the index itself)."""
        return f"+{column}" if self.name == "sqlite" else column

    @property
    def join_in_order(self) -> str:
        """A join whose left table SQLite must read first (its CROSS JOIN keeps the order given); a plain join on
        PostgreSQL, which chooses well alone and reads CROSS JOIN … ON as an error."""
        return "CROSS JOIN" if self.name == "sqlite" else "JOIN"

    @property
    def position(self) -> str:
        """The events' column of their commit-safe outbox position, which cursors count in: on SQLite the sequence
        itself (one writer at a time, so events commit in sequence order); on PostgreSQL `pos`, stamped after
        commit in the order transactions began writing (backend/outbox/store.py `stamp_positions`), because
        writers of different scopes commit in parallel and a sequence value is handed out at insert, not at
        commit."""
        return "seq" if self.name == "sqlite" else "pos"

    def last_issued(self, table: str, column: str) -> str:
        """A query for the highest value the table's generated key has ever issued (0 before the first), which stays
        when that row is deleted."""
        if self.name == "sqlite":
            return f"SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0)"
        return f"SELECT coalesce((SELECT last_value FROM pg_sequences WHERE sequencename = '{table}_{column}_seq'), 0)"


SQLITE = Dialect("sqlite")
POSTGRESQL = Dialect("postgresql")
