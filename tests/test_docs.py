"""Everything staff and integrators can call is documented (after sqlite-utils' tests/test_docs.py): every command
and option of the `frontdesk` command line in README's "command line at a glance", every key of the console in
docs/console.md (a row per table of the console's help), every HTTP route of the three listeners in docs/http.md;
and every link and image of README.md and docs/ leads somewhere. Each failure names what is missing and where it
goes."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import DataTable

import console
from backend.engine import Engine
from backend.http.apps import create_app
from console.app import FrontdeskApp
from console.cli import main
from console.help import SECTIONS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONSOLE_GUIDE = ROOT / "docs" / "console.md"
HTTP_GUIDE = ROOT / "docs" / "http.md"
CLI_HEADING = "## The command line at a glance"
SHARED = ("--db", "--keys")  # every command takes them: the section's first lines say so, not each row
METHODS = "GET|POST|PUT|PATCH|DELETE"
ROUTE = re.compile(rf"`((?:{METHODS})(?:/(?:{METHODS}))*) (/[^`\s?]*)[^`]*`")
# How docs/console.md spells the keys Textual names otherwise.
SPELLED = {"escape": "esc", "question_mark": "?", "slash": "/", "left_square_bracket": "[",
           "right_square_bracket": "]", "pageup": "PgUp", "pagedown": "PgDn", "U": "shift+u", "R": "shift+r"}


# --- the command line ------------------------------------------------------------------------------------------

def commands(group: click.Command = main,
             path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """(path, command) of every command a user runs, the console itself (path ()) first; groups are only paths."""
    if not isinstance(group, click.Group) or not path:
        yield path, group
    if isinstance(group, click.Group):
        for name, command in group.commands.items():
            yield from commands(command, (*path, name))


def options(command: click.Command) -> list[str]:
    return [opt for param in command.params if isinstance(param, click.Option)
            for opt in (*param.opts, *param.secondary_opts) if opt.startswith("--")]


def named(option: str, text: str) -> bool:
    """`--db` named, not only as the start of `--db-direct`."""
    return re.search(rf"{re.escape(option)}(?![\w-])", text) is not None


def cli_section() -> str:
    text = README.read_text(encoding="utf-8")
    assert CLI_HEADING in text, f"README.md has no section {CLI_HEADING!r}"
    return text.split(CLI_HEADING, 1)[1].split("\n## ", 1)[0]


def cli_rows() -> list[str]:
    return [line for line in cli_section().splitlines() if line.startswith("| `")]


def command_row(path: tuple[str, ...]) -> str | None:
    """The row whose first cell names the command: `frontdesk users add EMAIL`, or `users add` after another usage
    in the same cell; the console's own is the bare `frontdesk [...]`."""
    for row in cli_rows():
        for usage in re.findall(r"`([^`]*)`", row.split(" | ")[0]):
            words = usage.split()
            if words[:1] == ["frontdesk"]:
                words = words[1:]
            elif not path:
                continue
            if (not path and (not words or words[0].startswith("["))) or (path and tuple(words[:len(path)]) == path):
                return row
    return None


@pytest.mark.parametrize("path", [path for path, _ in commands()], ids=lambda path: " ".join(("frontdesk", *path)))
def test_every_command_has_its_row(path: tuple[str, ...]) -> None:
    name = " ".join(("frontdesk", *path))
    assert command_row(path), f"`{name}` is not in README.md's {CLI_HEADING!r} table: add a row for it"


@pytest.mark.parametrize("path", [path for path, _ in commands()], ids=lambda path: " ".join(("frontdesk", *path)))
def test_every_option_is_in_its_command_row(path: tuple[str, ...]) -> None:
    command = dict(commands())[path]
    row, section = command_row(path) or "", cli_section()
    missing = [opt for opt in options(command)
               if not named(opt, row) and not (opt in SHARED and named(opt, section))]
    assert not missing, (f"`{' '.join(('frontdesk', *path))}` options {missing} are not in its row of README.md's "
                         f"{CLI_HEADING!r} table")


# --- the console's keys ----------------------------------------------------------------------------------------

def spelled(key: str) -> str:
    return SPELLED.get(key, key)


def written(keys: str, text: str) -> bool:
    """Whether the doc's text has the key in backticks (`ctrl+s`); names of keys in any case (`Home`, `home`), a
    letter as it is (`g` is not `G`)."""
    spans = [double or single for double, single in re.findall(r"``(.+?)``|`([^`]+)`", text, re.S)]
    return any(span == keys or (len(keys) > 1 and span.lower() == keys.lower()) for span in spans)


def help_tables() -> list[tuple[str, list[Binding]]]:
    """The console's help: its "Everywhere" table and one per screen or dialog, as help shows them."""
    return [("Everywhere", FrontdeskApp.HELP_BINDINGS), *SECTIONS]


def guide_rows() -> dict[str, str]:
    """where -> the keys cell, from docs/console.md's tables of keys."""
    text = CONSOLE_GUIDE.read_text(encoding="utf-8")
    return {where.strip(): keys for where, keys in re.findall(r"^\| ([^|`]+) \| (.+) \|$", text, re.M)}


@pytest.mark.parametrize(("title", "bindings"), help_tables(), ids=[title for title, _ in help_tables()])
def test_every_key_of_help_is_in_the_console_guide(title: str, bindings: list[Binding]) -> None:
    row = guide_rows().get(title)
    assert row is not None, f"docs/console.md has no row {title!r} (a table of the console's help) in its keys' table"
    missing = [f"{spelled(key)} ({binding.description})" for binding in bindings if binding.description
               for key in binding.key.split(",") if not written(spelled(key), row)]
    assert not missing, f"docs/console.md's row {title!r} lacks the keys {missing}"


def screens_own_bindings() -> Iterator[tuple[str, Binding]]:
    """Bindings of console classes that no help table lists (a list's, a question's, the calendar's), Textual's own
    table keys left out."""
    listed = {id(binding) for _, bindings in help_tables() for binding in bindings}
    textual = {id(binding) for binding in DataTable.BINDINGS}
    for module_info in pkgutil.walk_packages(console.__path__, "console."):
        if module_info.name.endswith("__main__"):  # runs the console
            continue
        module = importlib.import_module(module_info.name)
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and cls.__module__ == module.__name__ and issubclass(cls, DOMNode):
                for binding in cls.__dict__.get("BINDINGS", []):
                    if isinstance(binding, Binding) and id(binding) not in listed | textual:
                        yield f"{module.__name__}.{name}", binding


def test_every_key_of_every_screen_is_in_the_console_guide() -> None:
    text = CONSOLE_GUIDE.read_text(encoding="utf-8")
    found = list(screens_own_bindings())
    assert found, "no screen's own binding found: the walk below would check nothing"
    missing = [f"{spelled(key)} ({binding.description or binding.action}, {where})" for where, binding in found
               for key in binding.key.split(",") if not written(spelled(key), text)]
    assert not missing, f"docs/console.md does not name the keys {missing}"


# --- HTTP routes -----------------------------------------------------------------------------------------------

def shape(path: str) -> str:
    """A path with its parameters as `{}`, however they are named (`:id`, `{property_id}`), without a trailing slash."""
    return re.sub(r"\{[^}]+\}|:\w+", "{}", path).rstrip("/") or "/"  # a trailing slash answers as the path


def documented_routes() -> set[tuple[str, str]]:
    text = HTTP_GUIDE.read_text(encoding="utf-8")
    return {(method, shape(path)) for methods, path in ROUTE.findall(text) for method in methods.split("/")}


@pytest.fixture(scope="module")
def routes(tmp_path_factory) -> Iterator[list[tuple[str, str, str]]]:
    """(listener, method, path) of every operation of the three listeners' apps."""
    engine = Engine.open(tmp_path_factory.mktemp("docs") / "routes.db")
    try:
        yield [(listener, method, route.path) for listener in ("main", "secure", "pci")
               for route in create_app(engine, listener).state.operations
               for method in sorted(route.methods - {"HEAD"})]
    finally:
        engine.close()


def test_every_route_is_in_the_http_guide(routes) -> None:
    documented = documented_routes()
    missing = sorted({f"{method} {path} ({listener})" for listener, method, path in routes
                      if (method, shape(path)) not in documented})
    assert not missing, f"docs/http.md has no `METHOD /path` for {missing}: add them to its route tables"


def test_the_http_guide_names_no_route_that_is_not_there(routes) -> None:
    served = {(method, shape(path)) for _, method, path in routes}
    stale = sorted(f"{method} {path}" for method, path in documented_routes() - served)
    assert not stale, f"docs/http.md names routes no listener serves: {stale}"


# --- links -----------------------------------------------------------------------------------------------------

def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.*)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_link_and_image_of_the_documents_resolves() -> None:
    documents = [README, *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for document in documents:
        for target in re.findall(r"\]\(([^)\s]+)\)", document.read_text(encoding="utf-8")):
            if re.match(r"\w+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (document.parent / path).resolve() if path else document
            if not linked.exists() or (anchor and linked.is_file()
                                       and anchor not in anchors(linked.read_text(encoding="utf-8"))):
                broken.append(f"{document.relative_to(ROOT)}: {target}")
    assert not broken, f"links that lead nowhere: {broken}"


# --- the two commands ------------------------------------------------------------------------------------------

def test_readme_gives_the_test_command_ci_runs() -> None:
    """.ci/run installs and tests as README says: its command is one of README's two, word for word."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if "pytest" in line and not line.startswith("#"))
    section = README.read_text(encoding="utf-8").split("## Two commands", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```", section, re.M | re.S)
    assert command in [line for block in blocks for line in block.splitlines()], (
        f"README.md's Two commands no longer hold what .ci/run runs: {command}")
    assert any("pip install -e . && .venv/bin/frontdesk" in block for block in blocks), (
        "README.md's Two commands no longer open the console")
