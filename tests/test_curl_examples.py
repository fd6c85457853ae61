"""The curl examples of README.md and docs/*.md work as printed: curl reads `[` and `]` in a URL as a glob
(`filter[title][has]=…` fails with "bad range in URL"), so a command whose URL has them says -g/--globoff."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```(?:sh|bash|shell|console)[^\n]*\n(.*?)^```", re.M | re.S)
CURL = re.compile(r"(?:^|\$\(|\|\s*|&&\s*|;\s*)\s*(curl\s.*)")


def documents() -> list[Path]:
    return [path for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))] if path.exists()]


def curl_commands(text: str) -> list[str]:
    """Every curl command of the shell blocks, continuation lines joined."""
    commands = []
    for block in BLOCK.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            found = CURL.search(line.strip())
            if found:
                commands.append(found.group(1))
    return commands


def bracketed_urls_without_globoff(command: str) -> list[str]:
    try:
        words = shlex.split(command.split("|")[0].rstrip(")"), comments=True)
    except ValueError:
        words = command.split()
    urls = [word for word in words if "://" in word or word.startswith(("/api", "$BASE", "${"))]
    if "-g" in words or "--globoff" in words or any(re.fullmatch(r"-[a-zA-Z]*g[a-zA-Z]*", w) for w in words):
        return []
    return [url for url in urls if "[" in url or "]" in url]


def examples() -> list[tuple[str, str]]:
    return [(path.relative_to(ROOT).as_posix(), command)
            for path in documents() for command in curl_commands(path.read_text(encoding="utf-8"))]


def test_the_documents_have_curl_examples() -> None:
    assert examples(), "no curl example found: the extraction below would check nothing"


@pytest.mark.parametrize(("document", "command"), examples())
def test_a_bracketed_url_is_fetched_with_globoff(document: str, command: str) -> None:
    assert not bracketed_urls_without_globoff(command), f"{document}: add -g to: {command}"


@pytest.mark.parametrize(("command", "flagged"), [
    ("curl -s 'http://h/api/v1/properties?filter[title][has]=x'", True),
    ("curl -sg 'http://h/api/v1/properties?filter[title][has]=x'", False),
    ("curl -g -s 'http://h/a?pagination[page]=2'", False),
    ("curl --globoff 'http://h/a?pagination[page]=2'", False),
    ("curl -s http://h/api/v1/properties", False),
])
def test_the_check_itself(command: str, flagged: bool) -> None:
    assert bool(bracketed_urls_without_globoff(command)) is flagged
