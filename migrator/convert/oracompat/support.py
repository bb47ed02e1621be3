"""The ``oracompat`` support library that converted SQL may call (see support.sql).

The writer emits :data:`SUPPORT_SQL` once, before all converted units.
"""

from __future__ import annotations

from pathlib import Path

SUPPORT_SQL: str = (Path(__file__).with_name("support.sql")).read_text(encoding="utf-8")
SCHEMA = "oracompat"
