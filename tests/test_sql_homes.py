"""Where SQL lives: only in a domain's `store.py` and in storage/, and each table is written by one domain.

A newcomer finds every statement on a table in the store of the domain that owns it (docs: "Where things are").
Data steps (backend/upgrades/), which repair stored data across every table once per database, are the one
exception to "one domain writes a table", as schema migrations are.

SQL is found by reading each module's syntax tree: a string (or the literal parts of an f-string) with an SQL
clause in it, and any call of a connection's `execute`, `executemany` or a store's `query`, `one`, `scalar`,
`tuples`. Docstrings are prose and not read.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SQL = re.compile(r"\b(SELECT\s.*\bFROM\b|SELECT\s+(1|COUNT|EXISTS|COALESCE)|INSERT\s+INTO|UPDATE\s+\w+\s+SET|"
                 r"DELETE\s+FROM|WHERE\s+\S+\s*(=|IN|IS|<|>|LIKE)|ORDER\s+BY|GROUP\s+BY|JOIN\s+\w+|ON\s+CONFLICT)",
                 re.S)
WRITES = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b")
CONNECTION_CALLS = {"execute", "executemany", "executescript"}
STORE_CALLS = {"query", "one", "scalar", "tuples"}  # a Store's reads, told from other `.one(…)` by the receiver


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return None


def _database_call(node: ast.Call) -> bool:
    if not isinstance(node.func, ast.Attribute):
        return False
    receiver = node.func.value
    name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
    return node.func.attr in CONNECTION_CALLS or node.func.attr in STORE_CALLS and name.endswith(("store", "conn"))


def sql_in(path: Path) -> list[tuple[int, str]]:
    """(line, what) for every SQL string and database call in a module."""
    tree = ast.parse(path.read_text())
    prose = _docstrings(tree) | {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _database_call(node) and node.args and _text(node.args[0]) is None:
            found.append((node.lineno, f".{node.func.attr}(…)"))
        if id(node) in prose:  # a docstring, or a literal part of an f-string (read with the f-string)
            continue
        text = _text(node)
        if text and SQL.search(text):
            found.append((node.lineno, " ".join(text.split())[:60]))
    return found


def _modules() -> list[Path]:
    return sorted((ROOT / "backend").rglob("*.py"))


def _home(path: Path) -> bool:
    return path.name == "store.py"


def test_sql_is_only_in_stores_and_storage():
    strays = {str(p.relative_to(ROOT)): found for p in _modules() if not _home(p) and (found := sql_in(p))}

    assert strays == {}


def writers() -> dict[str, set[str]]:
    """table -> the domains whose store writes it by name (data steps left out)."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in _modules():
        if _home(path) and path.parent.name != "upgrades":
            for node in ast.walk(ast.parse(path.read_text())):
                for table in WRITES.findall(_text(node) or ""):
                    found[table].add(path.parent.name)
    return found


def test_each_table_is_written_by_one_domain():
    assert {table: sorted(domains) for table, domains in writers().items() if len(domains) > 1} == {}
