"""Reading a test's verdict from what it printed through DBMS_OUTPUT (the plain style).

A result line carries a verdict word — `OK`, `PASS`, `PASSED`, `SUCCESS` for a pass; `FAIL`,
`FAILED`, `FAILURE`, `ERROR`, `NOT OK` for a failure — in any case, either as its first word,
optionally indented or in brackets (`[FAIL] …`, `(ok) …`, `PASS: …`), or after a separator at the
end of the line or before the details (`test_add ... FAILED`, `Test 3: passed`,
`round(2.5) - FAIL: got 2`), or as the last word (`test_add PASSED`, `Test 3 FAILED (0.01 s)`;
not ERROR, which ends `no error`); `Assertion failed: …` / `check failed` fail too. A user pattern
(`--test-pattern`) replaces the result-line pattern: a regex with a named group `fail` and/or
`pass` (case-insensitive).

A summary line counts tests; it is read before the result-line pattern (so `Failures: 0` or
`Errors: 0` is a count, not a failure). The counts are looked for on their own, in any order and
case: failures (`3 failed`, `Failures: 3`, `errors = 1`), passes (`9 passed`, `Passed: 9`,
`9 OK`), the total (`10 tests`, `Tests run: 10`, `Total: 10`, `of 10`, `/ 10`, `OK (10 tests)`).
It says how many failed when it counts failures, or passes and a total (`Passed: 9 / 10`,
`9 of 10 tests passed`: 1 failed), or passes alone (`5 tests passed`: none failed). The forms
teams print: `10 tests, 9 passed, 1 failed`, `Tests run: 10, Failures: 1, Errors: 0`,
`FAILURES!!! Tests run: 10, Failures: 1` (JUnit's), `OK (10 tests)`, `Passed: 9 / 10`,
`Result: 9 of 10 passed`, `All 10 tests passed`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_PASS_WORD = r"OK|PASS(?:ED|ES)?|SUCCESS(?:FUL)?"
_FAIL_WORD = r"NOT\s+OK|FAIL(?:ED|URE|S)?|ERRORS?"
DEFAULT_RESULT_PATTERN = (
    # the first word: "PASS: x", "[FAIL] x", "not ok 3 - x"
    rf"^\s*[\[(<*#-]*\s*(?:(?P<fail>{_FAIL_WORD})|(?P<pass>{_PASS_WORD}))(?![\w-])"
    # after a separator, ending the line or before its details: "x ... FAILED", "x: ok", "x - FAIL: y"
    rf"|(?:\.\.+|[:=>|\]-])\s*[\[(<*]*\s*(?:(?P<fail2>{_FAIL_WORD})|(?P<pass2>{_PASS_WORD}))[\])>*]*[.!]*"
    r"(?:\s*$|\s*[:(\[-])"
    # "Assertion failed: …", "test failed", "check failed"
    r"|\b(?:assertion|assert|test|check|expectation)\s+(?P<fail3>failed)\b"
    # the last word, after a blank: "test_add PASSED", "Test 3 FAILED (0.01 s)" (not ERROR: "no error")
    r"|\s(?:(?P<fail4>NOT\s+OK|FAIL(?:ED)?)|(?P<pass4>OK|PASS(?:ED)?))[.!]*(?:\s*\([^()]*\))?\s*$"
)

_N = r"(\d+)"
# a number naming a test ("Test 3 FAILED", "case #3 passed") is no count
_NOT_AN_ID = r"(?<![\w#.])(?<!\btest\s)(?<!\bcase\s)(?<!\bstep\s)"
_FAILED_WORDS = r"failed|failures?|errors?|errored|failing"
_PASSED_WORDS = r"passed|succeeded|successes|ok|passing|passes"
# each count in its forms, most telling first: "word: N" (a labelled count), "N word", "word N";
# the first form found in a line is the one read ("Total: 12 Passed: 12 Failed: 0" must not read
# "12 Failed")
_FAILED_COUNT = (
    re.compile(rf"\b(?:{_FAILED_WORDS})\s*[:=]\s*{_N}\b", re.I),
    re.compile(rf"{_NOT_AN_ID}{_N}\s+(?:tests?\s+)?(?:{_FAILED_WORDS})\b", re.I),
    re.compile(rf"\b(?:failed|failures)\s+{_N}\b", re.I),
)
_PASSED_COUNT = (
    re.compile(rf"\b(?:{_PASSED_WORDS})\s*[:=]\s*{_N}\b", re.I),
    re.compile(rf"{_NOT_AN_ID}{_N}(?:\s*(?:of|/)\s*\d+)?\s+(?:tests?\s+)?(?:{_PASSED_WORDS})\b", re.I),
    re.compile(rf"\bpassed\s+{_N}\b", re.I),
)
_TOTAL_COUNT = (
    re.compile(rf"\b(?:tests?(?:\s+run)?|total|ran|run|count)\s*[:=]\s*{_N}\b", re.I),
    re.compile(rf"{_N}\s+tests?\b|(?:\bof|/)\s*{_N}\b|\b(?:tests\s+run|ran|total)\s+{_N}\b", re.I),
)
_OK_TOTAL = re.compile(rf"^\s*OK\s*\(\s*{_N}\s+tests?\s*\)", re.I)  # JUnit's "OK (10 tests)"


class PatternError(ValueError):
    """A --test-pattern that is no regex or names neither a `pass` nor a `fail` group."""


def compile_pattern(text: str | None) -> re.Pattern[str]:
    try:
        pattern = re.compile(text or DEFAULT_RESULT_PATTERN, re.I)
    except re.error as exc:
        raise PatternError(f"not a regular expression: {exc}") from None
    if not {"pass", "fail"} & {name.rstrip("0123456789") for name in pattern.groupindex}:
        raise PatternError("it needs a named group (?P<fail>...) or (?P<pass>...)")
    return pattern


@dataclass(frozen=True)
class Summary:
    """What one summary line counts (None: the line does not say)."""

    failed: int
    passed: int | None
    total: int | None


@dataclass(frozen=True)
class OutputVerdict:
    passed_lines: int
    failed_lines: int
    first_failure: str | None  # the first line that says a check failed
    summary_failed: int | None  # failures the summary lines counted (None: no summary line)
    summary_passed: int | None

    @property
    def reports(self) -> bool:
        """The output says something about tests (result or summary lines)."""
        return bool(self.passed_lines or self.failed_lines or self.summary_failed is not None)

    @property
    def failed(self) -> bool:
        return self.failed_lines > 0 or bool(self.summary_failed)


def read_summary(line: str) -> Summary | None:
    """The counts of a summary line, or None when `line` is no summary line."""
    ok = _OK_TOTAL.search(line)
    if ok is not None:
        n = int(ok.group(1))
        return Summary(0, n, n)
    failed = _count(_FAILED_COUNT, line, sum)  # "Failures: 1, Errors: 2": 3 did not pass
    passed, total = _count(_PASSED_COUNT, line, max), _count(_TOTAL_COUNT, line, max)
    if failed is not None:
        return Summary(failed, passed, total)
    if passed is not None and total is not None and total >= passed:
        return Summary(total - passed, passed, total)
    if passed is not None and re.search(r"\btests?\b|\ball\b", line, re.I):  # "5 tests passed"
        return Summary(0, passed, total)
    return None


def result_of(line: str, pattern: re.Pattern[str]) -> bool | None:
    """True: `line` reports a pass, False: a failure, None: neither."""
    m = pattern.search(line)
    if m is None:
        return None
    groups = {k.rstrip("0123456789"): v for k, v in m.groupdict().items() if v is not None}
    if "fail" in groups:
        return False
    if "pass" in groups:
        return True
    return None


def read_output(lines: list[str], pattern: re.Pattern[str]) -> OutputVerdict:
    passed = failed = 0
    first: str | None = None
    s_failed: int | None = None
    s_passed: int | None = None
    for line in lines:
        summary = read_summary(line)
        if summary is not None:
            s_failed = (s_failed or 0) + summary.failed
            s_passed = (s_passed or 0) + (summary.passed or 0)
            if summary.failed and first is None:
                first = line.strip()
            continue
        verdict = result_of(line, pattern)
        if verdict is False:
            failed += 1
            first = first or line.strip()
        elif verdict is True:
            passed += 1
    return OutputVerdict(passed, failed, first, s_failed, s_passed)


def _count(forms: tuple[re.Pattern[str], ...], line: str, combine: Callable[[list[int]], int]) -> int | None:
    for regex in forms:
        found = [int(next(g for g in m.groups() if g)) for m in regex.finditer(line)]
        if found:
            return combine(found)
    return None


@dataclass(frozen=True)
class SummaryCount:
    """The test cases a suite's own summary lines count, over a run's output."""

    lines: int  # summary lines read
    passed: int
    failed: int

    @property
    def total(self) -> int:
        return self.passed + self.failed


def count_summaries(outputs: list[list[str]]) -> SummaryCount:
    """Sum what the summary lines among `outputs` (each test's DBMS_OUTPUT lines, in run order)
    count: failures as counted, passes as counted or as the total less the failures. A suite's
    cases are counted by its own summary, as a team reads its log (`tests.json` keeps every line)."""
    lines = passed = failed = 0
    for output in outputs:
        for line in output:
            s = read_summary(line)
            if s is None:
                continue
            lines += 1
            failed += s.failed
            if s.passed is not None:
                passed += s.passed
            elif s.total is not None:
                passed += max(s.total - s.failed, 0)
    return SummaryCount(lines, passed, failed)
