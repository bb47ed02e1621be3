"""Helpers for the Text-to-SQL tests: a copy of the shipped fixture with its databases built."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from migrator.agent.tasks.text_to_sql.data import build_sqlite

FIXTURE = Path(__file__).resolve().parents[4] / "fixtures" / "text2sql"
SCRIPT = FIXTURE / "models" / "scripted.yaml"


def fixture_copy(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data, ignore=shutil.ignore_patterns("*.sqlite"))
    build_sqlite(data)
    return data


def tiny_sqlite(path: Path, script: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.executescript(script)
    con.commit()
    con.close()


def write_json(path: Path, value) -> Path:
    path.write_text(json.dumps(value, indent=1))
    return path
