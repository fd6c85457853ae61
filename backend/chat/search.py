"""The inbox's search over every message: what a user types made into a full-text query of the database's index
(FTS5's MATCH on SQLite, to_tsquery on PostgreSQL) that no text can break.

The words are the runs of letters and digits (as both indexes split text), every one required, the last also as the
start of a longer word (the search follows typing: "break" finds "breakfast"). Quotes, operators (AND, NEAR, `*`,
`^`, `:`, `&`, `!`) are no syntax here: FTS5 reads each word quoted, and to_tsquery each word quoted. Text without
a letter or digit searches nothing."""

from __future__ import annotations

import re

WORD = re.compile(r"[^\W_]+")
MARK = ("<mark>", "</mark>")  # around each matching word of a search's snippet
MAX_WORDS = 16  # more words than anyone types into an inbox search; each is a lookup in the index


def words_of(text: str) -> list[str]:
    return WORD.findall(text)[:MAX_WORDS]


def word_queries(text: str, dialect: str, completions: list[str] | None = None) -> list[str]:
    """Each word of `text` as a query of the index for `dialect`, in order (none when it has no word); `joined`,
    they find the messages holding every word. `completions`, on SQLite: the index's words the last one starts (see
    `completed`), sought as they are. Each is probed alone for how many messages hold it (backend/chat/store.py
    `rare_words`)."""
    words = words_of(text)
    if not words:
        return []
    if dialect != "sqlite":
        return [*(f"'{word}'" for word in words[:-1]), f"'{words[-1]}':*"]
    last = "(" + " OR ".join(f'"{word}"' for word in completions) + ")" if completions else f'"{words[-1]}"*'
    return [*(f'"{word}"' for word in words[:-1]), last]


def joined(queries: list[str], dialect: str) -> str:
    """The query finding messages that every one of `queries` (one or more) finds."""
    return (" AND " if dialect == "sqlite" else " & ").join(queries)


def completed(text: str) -> str | None:
    """The start whose words of the index (FTS5's, folded to lower case) may stand for the last word of `text`,
    on SQLite: FTS5 reads a query of a start (`"break"*`) by merging the lists of messages of every word it starts
    first, some 30 ms for a word of 1,000,000 messages, where the words themselves, ORed, are read as far as the
    page. Only a word of ASCII letters and digits, which folds as FTS5 folds it; None for the others (and no text)."""
    words = words_of(text)
    return words[-1].lower() if words and words[-1].isascii() else None


def marked_parts(snippet: str) -> list[tuple[str, bool]]:
    """A snippet as (text, whether it is a match) in order, its marks taken out."""
    start, end = MARK
    parts: list[tuple[str, bool]] = []
    for n, piece in enumerate(snippet.split(start)):
        match, _, rest = piece.partition(end) if n else ("", "", piece)
        parts += [(text, is_match) for text, is_match in ((match, True), (rest, False)) if text]
    return parts
