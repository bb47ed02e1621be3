"""Deterministic failure type from what can be observed about a prediction: its execution status
and the DBMS's error text or SQLSTATE. Never from the gold query or its result (MERIT §3.2, App. C).

Ordered rules, first match wins: timeout; schema linking (unknown table/column, ambiguous name);
syntax; aggregation misuse; type errors; other execution failures; any other DBMS error is
"unknown"; SQL that ran but was judged wrong is "empty-result" when it returned no row, else
"result-mismatch". The label is a retrieval prior, not a diagnosis.
"""

from __future__ import annotations

import re

from migrator.agent.tasks.text_to_sql.judge import Outcome

FAILURE_TYPES = (
    "timeout",
    "schema-linking",
    "syntax",
    "aggregation",
    "type",
    "execution",
    "unknown",
    "empty-result",
    "result-mismatch",
    "no-sql",
)

# (failure type, PostgreSQL SQLSTATEs, SQLite message pattern)
_RULES: tuple[tuple[str, set[str], str], ...] = (
    ("schema-linking", {"42P01", "42703", "42702", "3F000", "42704"}, r"no such (table|column)|ambiguous column name"),
    (
        "syntax",
        {"42601", "42000", "42P10"},
        r"syntax error|incomplete input|unrecognized token|one statement at a time",
    ),
    (
        "aggregation",
        {"42803", "42P20"},
        r"misuse of (aggregate|window)|aggregate functions are not allowed|group by|having clause",
    ),
    ("type", {"42804", "42883", "42846", "22P02", "22007", "22008"}, r"datatype mismatch|type mismatch"),
    ("execution", set(), r"no such function|wrong number of arguments|overflow|division by zero|row cap|more than"),
)


def classify(outcome: Outcome) -> str:
    if outcome.status == "timeout":
        return "timeout"
    if outcome.status == "no sql":
        return "no-sql"
    if outcome.status == "wrong":
        return "empty-result" if outcome.rows == 0 else "result-mismatch"
    message = outcome.error.lower()
    for label, states, pattern in _RULES:
        if outcome.code in states or re.search(pattern, message):
            return label
    if outcome.code.startswith("22"):  # other data exceptions at run time
        return "execution"
    return "unknown" if message else "execution"
