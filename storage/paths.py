"""Where the database lives when nobody says: the user's data directory."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir


def default_db_path() -> Path:
    return Path(user_data_dir("frontdesk", appauthor=False)) / "frontdesk.db"
