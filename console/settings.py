"""What the console remembers between runs (the theme), in a small JSON file in the user's config directory.

A file that is missing, unreadable or not ours counts as no settings: the console starts with its defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir


def settings_path() -> Path:
    return Path(user_config_dir("frontdesk", appauthor=False)) / "console.json"


def read_settings(path: Path) -> dict[str, Any]:
    try:
        settings = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return settings if isinstance(settings, dict) else {}


def remember(path: Path, name: str, value: Any) -> None:
    """Store one setting beside the others; a failure to write is not worth stopping the console for."""
    settings = read_settings(path)
    if settings.get(name) == value:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({**settings, name: value}, indent=2) + "\n")
    except OSError:
        pass
