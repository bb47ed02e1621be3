"""knowledge_base is domain-free: no Oracle, PostgreSQL or LLM knowledge in its code."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "knowledge_base"
DOMAIN = re.compile(r"oracle|postgres|plpgsql|pl/sql|\bplsql\b|\bllm|bedrock|openai", re.I)
ALLOWED = "Knows nothing of Oracle or PostgreSQL."


def test_no_domain_words_in_the_package():
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if DOMAIN.search(line.replace(ALLOWED, "")):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_the_checker_would_catch_a_domain_word():
    assert DOMAIN.search("rewrite NVL for PostgreSQL") and DOMAIN.search("ask the LLM")
    assert not DOMAIN.search("SQLite (WAL) is the source of truth; self.sql.count()")
