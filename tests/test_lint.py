"""Lint and types are gates: `ruff check` and `mypy`, as pyproject.toml configures them, find nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    result = run("ruff", "check", "backend", "storage", "console", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    """Strict on backend/ and storage/ (the files pyproject.toml's [tool.mypy] names); its cache in .mypy_cache."""
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
