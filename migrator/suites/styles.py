"""The protocol every test style follows, and how a run picks its style.

A style sees the team's test code after conversion (`TestCode`: each unit of the test folders
with its converted PostgreSQL text and whether it deployed) and answers two questions:
`detect(code)` — is this suite written in my style? — and `discover(code, convert)` — which
tests are there, each as a `SuiteTest` whose SQL is PostgreSQL. `convert(oracle_block, label)`
converts a PL/SQL anonymous block (`BEGIN pkg.test_x; END;`) with the run's own conversion
context, so a call the style writes is bound exactly as the library's calls are (defaults,
named arguments, overloads); it raises `BlockNotConverted` with the reason when the rules
cannot convert it.

Detection order is utPLSQL (annotations are unambiguous), then a framework (a test package of a
known convention), then plain (anything else: anonymous blocks and parameterless procedures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from migrator.errors import MigratorError
from migrator.source.units import Unit
from migrator.suites.model import SuiteTest, TestStyle


class BlockNotConverted(MigratorError):
    """A block a style wrote (a test call) that the rules could not convert; the message says why."""


@dataclass(frozen=True)
class TestCode:
    """One unit of the test folders, converted with the library's rules."""

    unit: Unit
    output: str  # converted PostgreSQL text ("" when conversion failed)
    problem: str | None = None  # why it is not usable: not converted, or refused by PostgreSQL

    @property
    def id(self) -> str:
        return self.unit.id


# convert(oracle anonymous block, label) -> PostgreSQL text; raises BlockNotConverted
BlockConverter = Callable[[str, str], str]


class Style(Protocol):
    style: TestStyle

    def detect(self, code: Sequence[TestCode]) -> bool: ...

    def discover(self, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]: ...


def all_styles(result_pattern: str | None = None) -> list[Style]:
    """Every style, in detection order. utPLSQL is looked up by name: it lives in its own module
    (migrator.suites.utplsql) and a checkout without it still runs the others."""
    from migrator.suites.framework import PeteStyle
    from migrator.suites.plain import PlainStyle

    found: list[Style] = []
    try:
        from migrator.suites import utplsql

        found.append(utplsql.UtplsqlStyle())
    except (ImportError, AttributeError):
        pass
    return [*found, PeteStyle(), PlainStyle(result_pattern)]


def pick_style(code: Sequence[TestCode], forced: TestStyle | None = None, result_pattern: str | None = None) -> Style:
    """The style named by `forced` (--test-style), else the first that detects the suite;
    `result_pattern` is the plain style's (--test-pattern)."""
    styles = all_styles(result_pattern)
    if forced is not None:
        for s in styles:
            if s.style is forced:
                return s
        raise MigratorError(f"--test-style {forced.value}: this installation has no such test style")
    for s in styles:
        if s.detect(code):
            return s
    return styles[-1]  # plain: every suite can be run as blocks and procedures
