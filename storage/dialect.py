"""The few constructs SQLite and PostgreSQL spell differently, so that the engine's SQL is written once.

Everything else is written in the dialect both understand: `?` placeholders (the PostgreSQL store turns them into
its own), `ON CONFLICT … DO UPDATE/NOTHING`, `RETURNING`, `CASE` for a larger of two values, `CAST(… AS DOUBLE
PRECISION)`, integers 0/1 for flags, and `NULLS FIRST/LAST` wherever a sorted column may be NULL (SQLite sorts NULL
first going up, PostgreSQL last). Text compares byte by byte on both (PostgreSQL databases must use collation C).
"""

from __future__ import annotations

from dataclasses import dataclass


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

    def unindexed(self, column: str) -> str:
        """`column` in a condition the planner must not pick an index for (SQLite's unary `+`; PostgreSQL's planner
        weighs the index itself)."""
        return f"+{column}" if self.name == "sqlite" else column

    @property
    def join_in_order(self) -> str:
        """A join whose left table SQLite must read first (its CROSS JOIN keeps the order given); a plain join on
        PostgreSQL, which chooses well alone and reads CROSS JOIN … ON as an error."""
        return "CROSS JOIN" if self.name == "sqlite" else "JOIN"

    def last_issued(self, table: str, column: str) -> str:
        """A query for the highest value the table's generated key has ever issued (0 before the first), which stays
        when that row is deleted."""
        if self.name == "sqlite":
            return f"SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0)"
        return f"SELECT coalesce((SELECT last_value FROM pg_sequences WHERE sequencename = '{table}_{column}_seq'), 0)"


SQLITE = Dialect("sqlite")
POSTGRESQL = Dialect("postgresql")
