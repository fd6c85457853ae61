"""The import rules of pyproject.toml ([tool.importlinter]) hold: console, then the engine, then storage; no
Textual in the engine, FastAPI only in backend.http, areas independent over a kit that imports none of them,
widgets that never import screens, and only the command line starting HTTP mode."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
