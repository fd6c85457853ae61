"""The list conventions of every collection: pagination, filters and ordering.

`pagination[page]` (from 1), `pagination[limit]` (default 10, max 100); `filter[field]=v`,
`filter[field]=a,b` (any of), `filter[field][op]=v` with op in eq, not, gt, gte, lt, lte, has;
`order[field]=asc|desc`. Comma lists apply to id, enum and boolean fields only: text fields such
as titles match the whole value, because real names contain commas ("Hotel Roma, Centro").

Three kinds of filter go beyond a column's value: a search (`words`) finds rows whose folded text contains
the folded value, whatever its case, accents or spacing, with eq or has alike; a `Search` finds rows whose text
contains the value, whatever its case, over a trigram index on that text (SQLite's FTS5 table, PostgreSQL's
pg_trgm index); a `View` names where each row stands (`filter[stay]=in_house`), each of its values a condition
worked out when the list is read.

A `Search` reads its page one of two ways. A text few rows hold is found along the index and only those rows are
sorted. A text many rows hold is tested row by row on the row's own text while the list is read in its order, so
the page stops after its first rows instead of sorting every match (on SQLite when a bounded probe finds more than
SEARCH_COUNTED in the whole index; PostgreSQL's planner chooses by itself). And a search counts its matches only up
to a bound (meta `total_at_least`): counting every thread that says "breakfast" cost more than the page itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from backend.core.dates import parse_date
from backend.core.errors import Errors, ValidationFailed
from storage import Dialect, placeholders

DEFAULT_LIMIT = 10
MAX_LIMIT = 100
OPS = ("eq", "not", "gt", "gte", "lt", "lte", "has")
SQL_OPS = {"eq": "=", "not": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
KEY = re.compile(r"^(filter|order|pagination)\[([A-Za-z_][A-Za-z0-9_]*)\](?:\[([a-z]+)\])?$")

SEARCH_MAX = 200  # characters of a search: longer is no name or number anyone types

Kind = Literal["text", "id", "bool", "enum", "number", "date", "words"]
TRIGRAM = 3  # characters a trigram index needs to find a text by; a shorter search looks through every row
SEARCH_COUNTED = 1_000  # matches a search counts (and finds along its index) before it says "at least"


@dataclass(frozen=True)
class Column:
    sql: str
    kind: Kind = "text"
    # How a condition on the column sits in the WHERE clause; a subquery for membership filters.
    template: str = "{cond}"


@dataclass(frozen=True)
class Search:
    """A text kept under a trigram index. `index` and `column` name the index's table (as a FROM item) and its
    text there; `member` is a list row among the rows a condition on that column finds; `text` the list row's own
    text, read without the index."""
    index: str
    column: str
    member: str
    text: str

    def indexed(self, value: str, dialect: Dialect) -> tuple[str, str]:
        """The condition on the index's column finding `value`, and its parameter."""
        if dialect.name == "sqlite":  # FTS5: one phrase, the text as it is typed
            return f"{self.column} MATCH ?", '"' + value.replace('"', '""') + '"'
        return f"{self.column} {dialect.like} ? ESCAPE '\\'", _contains(value)

    def matches(self, value: str, dialect: Dialect, scanned: bool) -> tuple[str, str]:
        """The condition on a list row finding `value`: along the index, or on the row's own text."""
        if scanned or len(value) < TRIGRAM:
            return f"{self.text} {dialect.like} ? ESCAPE '\\'", _contains(value)
        condition, param = self.indexed(value, dialect)
        return self.member.format(cond=condition), param

    def narrowed(self, value: str, part: str, dialect: Dialect) -> tuple[str, list[str]]:
        """The condition on a list row finding `value` along the index by `part` of it alone (see
        backend/core/store.py `rarest_part`), each row found tested for the whole on its own text; its parameters."""
        condition, param = self.indexed(part, dialect)
        return (f"{self.member.format(cond=condition)} AND {self.text} {dialect.like} ? ESCAPE '\\'",
                [param, _contains(value)])


@dataclass(frozen=True)
class View:
    """A filter on where a row stands rather than on a column: `condition(value)` is the SQL condition of one of
    `values`, and its parameters."""
    values: tuple[str, ...]
    condition: Callable[[str], tuple[str, list[Any]]]


Columns = Mapping[str, Column | Search | View]


@dataclass(frozen=True)
class Filter:
    field: str
    op: str
    value: str


@dataclass
class ListQuery:
    page: int = 1
    limit: int = DEFAULT_LIMIT
    filters: list[Filter] = field(default_factory=list)
    order: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def from_params(cls, params: Iterable[tuple[str, str]]) -> ListQuery:
        """Parse query parameters; anything malformed is a 422 naming the parameter."""
        query, errors = cls(), Errors()
        for key, value in params:
            match = KEY.match(key)
            if not match:
                continue  # other parameters (api_key, ...) belong to someone else
            section, name, op = match.groups()
            if section == "pagination":
                number = _positive_int(value)
                if name not in {"page", "limit"} or op:
                    errors.add(key, "unknown pagination argument; use pagination[page] or pagination[limit]")
                elif number is None or (name == "limit" and number > MAX_LIMIT):
                    upper = f" to {MAX_LIMIT}" if name == "limit" else ""
                    errors.add(key, f"must be a whole number from 1{upper}")
                else:
                    setattr(query, name, number)
            elif section == "order":
                if op or value not in {"asc", "desc"}:
                    errors.add(key, "must be asc or desc")
                else:
                    query.order.append((name, value))
            elif (op or "eq") not in OPS:
                errors.add(key, f"unknown operator; use one of {', '.join(OPS)}")
            else:
                query.filters.append(Filter(name, op or "eq", value))
        errors.raise_if_any()
        return query

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit

    def meta(self, total: int, at_least: bool = False) -> dict[str, Any]:
        """The page's meta; `at_least` when the total is a bound the matches go past (a crowded search)."""
        return {"page": self.page, "limit": self.limit, "total": total} | ({"total_at_least": True} if at_least else {})

    def searches(self, columns: Columns) -> list[tuple[str, Search, str]]:
        """The query's searches: (field, its Search, the text looked for)."""
        return [(f.field, column, f.value) for f in self.filters
                if isinstance(column := columns.get(f.field), Search) and f.op in {"eq", "has"}]


def _positive_int(value: str) -> int | None:
    # ASCII digits only, and few: str.isdigit() also passes "²" (which int() refuses) and "٣" (which it reads).
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 and int(value) > 0 else None


def fold(text: str) -> str:
    """Text as a search compares it: without case, accents or runs of spaces ("MÜLLER  Anna" → "muller anna")."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return " ".join(bare.split())


def where(query: ListQuery, columns: Columns, dialect: Dialect,
          scanned: frozenset[str] = frozenset()) -> tuple[str, list[Any]]:
    """SQL conditions (ANDed, starting with " AND ") and their parameters for the query's filters; the searches
    of `scanned` test each row's own text (see Search)."""
    errors = Errors()
    clauses: list[str] = []
    params: list[Any] = []
    for f in query.filters:
        key = f"filter[{f.field}]" + (f"[{f.op}]" if f.op != "eq" else "")
        column = columns.get(f.field)
        if column is None:
            errors.add(key, f"unknown filter; use one of {', '.join(sorted(columns))}")
            continue
        if isinstance(column, View):
            chosen = f.value.split(",")
            if f.op != "eq" or not set(chosen) <= set(column.values):
                errors.add(key, f"must be {_one_of(column.values)} (or several, with commas), as filter[{f.field}]=…")
                continue
            conditions = [column.condition(value) for value in dict.fromkeys(chosen)]
            clauses.append("(" + " OR ".join(sql for sql, _ in conditions) + ")")
            params.extend(param for _, values in conditions for param in values)
            continue
        if isinstance(column, Search):
            if f.op not in {"eq", "has"}:
                errors.add(key, f"is a search: filter[{f.field}]=… finds what contains the text")
            elif len(f.value) > SEARCH_MAX:
                errors.add(key, f"must be at most {SEARCH_MAX} characters")
            else:
                condition, param = column.matches(f.value, dialect, scanned=f.field in scanned)
                clauses.append(condition)
                params.append(param)
            continue
        if column.kind == "words":
            if f.op not in {"eq", "has"}:
                errors.add(key, f"is a search: filter[{f.field}]=… finds what contains the words")
            elif len(f.value) > SEARCH_MAX:
                errors.add(key, f"must be at most {SEARCH_MAX} characters")
            else:
                clauses.append(column.template.format(cond=f"{column.sql} LIKE ? ESCAPE '\\'"))
                params.append(_contains(fold(f.value)))
            continue
        values: list[Any] = f.value.split(",") if column.kind in {"id", "enum", "bool"} and f.op in {"eq", "not"} else [f.value]
        if column.kind == "bool":
            parsed = [parse_bool(v) for v in values]
            if None in parsed:
                errors.add(key, "must be true or false")
                continue
            values = parsed
        elif column.kind == "number":
            try:
                values = [float(v) for v in values]
            except ValueError:
                errors.add(key, "must be a number")
                continue
        elif column.kind == "date" and f.op != "has":  # "next week" would compare as text and match nothing
            try:
                values = [parse_date(v).isoformat() for v in values]
            except ValueError as exc:
                errors.add(key, str(exc))
                continue
        if f.op == "has":
            cond = f"{column.sql} {dialect.like} ? ESCAPE '\\'"
            params.append(_contains(str(values[0])))
        elif len(values) > 1:
            cond = f"{column.sql} {'NOT ' if f.op == 'not' else ''}IN ({placeholders(values)})"
            params.extend(values)
        else:
            cond = f"{column.sql} {SQL_OPS[f.op]} ?"
            params.append(values[0])
        clauses.append(column.template.format(cond=cond))
    errors.raise_if_any()
    return "".join(f" AND {c}" for c in clauses), params


def _contains(value: str) -> str:
    """A LIKE pattern for text containing `value`, its wildcards taken literally."""
    return "%" + re.sub(r"([%_\\])", r"\\\1", value) + "%"


def _one_of(values: tuple[str, ...]) -> str:
    return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else values[0]


def order_by(query: ListQuery, columns: Columns, default: str, dialect: Dialect) -> str:
    orderable = {name: column for name, column in columns.items() if isinstance(column, Column)}
    unknown = [name for name, _ in query.order if name not in orderable]
    if unknown:
        raise ValidationFailed({f"order[{n}]": [f"unknown field; use one of {', '.join(sorted(orderable))}"]
                                for n in unknown})
    terms = [f"{orderable[name].sql} {dialect.order(direction.upper())}" for name, direction in query.order]
    return ", ".join(terms) or default


def parse_bool(value: str) -> int | None:
    """A filter's boolean (true/false/1/0) as 1 or 0; None when it is neither."""
    return {"true": 1, "1": 1, "false": 0, "0": 0}.get(value.lower())
