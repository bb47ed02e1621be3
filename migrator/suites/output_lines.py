"""Reading a test's verdict from what it printed through DBMS_OUTPUT (the plain style).

A result line starts with a verdict word — `OK`, `PASS`, `PASSED`, `SUCCESS` for a pass; `FAIL`,
`FAILED`, `FAILURE`, `ERROR`, `NOT OK` for a failure — optionally indented or in brackets
(`[FAIL] …`, `(ok) …`), in any case. A summary line counts tests: `10 tests, 9 passed, 1 failed`,
`Passed: 9, Failed: 1`, `Tests run: 10, Failures: 1, Errors: 0`. A user pattern
(`--test-pattern`) replaces the result-line pattern: a regex with a named group `fail` and/or
`pass` (case-insensitive).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_RESULT_PATTERN = (
    r"^\s*[\[(<*#-]*\s*(?:(?P<fail>NOT\s+OK|FAIL(?:ED|URE|S)?|ERRORS?)|(?P<pass>OK|PASS(?:ED|ES)?|SUCCESS(?:FUL)?))"
    r"(?![\w-])"
)

# counts in a summary line; each is looked for on its own, in any order
_FAILED_COUNT = re.compile(
    r"(\d+)\s+(?:tests?\s+)?(?:failed|failures?|errors?)\b|(?:failed|failures?|errors?)\s*[:=]\s*(\d+)", re.I
)
_PASSED_COUNT = re.compile(r"(\d+)\s+(?:tests?\s+)?(?:passed|succeeded|ok)\b|(?:passed|succeeded)\s*[:=]\s*(\d+)", re.I)


_SUMMARY_WORD = re.compile(r"\btests?\b|\btotal\b|\brun\b", re.I)


class PatternError(ValueError):
    """A --test-pattern that is no regex or names neither a `pass` nor a `fail` group."""


def compile_pattern(text: str | None) -> re.Pattern[str]:
    try:
        pattern = re.compile(text or DEFAULT_RESULT_PATTERN, re.I)
    except re.error as exc:
        raise PatternError(f"not a regular expression: {exc}") from None
    if not {"pass", "fail"} & set(pattern.groupindex):
        raise PatternError("it needs a named group (?P<fail>...) or (?P<pass>...)")
    return pattern


@dataclass(frozen=True)
class OutputVerdict:
    passed_lines: int
    failed_lines: int
    first_failure: str | None  # the first line that says a check failed
    summary_failed: int | None  # failures a summary line counted (None: no summary line)
    summary_passed: int | None

    @property
    def reports(self) -> bool:
        """The output says something about tests (result or summary lines)."""
        return bool(self.passed_lines or self.failed_lines or self.summary_failed is not None)

    @property
    def failed(self) -> bool:
        return self.failed_lines > 0 or bool(self.summary_failed)


def read_output(lines: list[str], pattern: re.Pattern[str]) -> OutputVerdict:
    passed = failed = 0
    first: str | None = None
    s_failed: int | None = None
    s_passed: int | None = None
    for line in lines:
        f, p = _count(_FAILED_COUNT, line), _count(_PASSED_COUNT, line)
        if f is not None and (p is not None or _SUMMARY_WORD.search(line)):  # a summary line
            s_failed = (s_failed or 0) + f
            s_passed = (s_passed or 0) + (p or 0)
            if f and first is None:
                first = line.strip()
            continue
        m = pattern.search(line)
        if m is not None and m.groupdict().get("fail") is not None:
            failed += 1
            first = first or line.strip()
        elif m is not None and m.groupdict().get("pass") is not None:
            passed += 1
    return OutputVerdict(passed, failed, first, s_failed, s_passed)


def _count(regex: re.Pattern[str], line: str) -> int | None:
    found = [int(a or b) for a, b in regex.findall(line)]
    return sum(found) if found else None
