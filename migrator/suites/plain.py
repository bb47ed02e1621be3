"""Plain tests: anonymous blocks (a SQL*Plus test script) or parameterless procedures that report
through DBMS_OUTPUT (`OK …` / `FAILED …` lines, `N tests, P passed, F failed`) or by raising.

The tests are the test folders' anonymous blocks and SQL*Plus `EXEC call` lines, in file order
(files by name): they are runs, not definitions
(the procedures, packages and tables of the test folders are deployed as test code before them).
A folder without blocks is a set of test procedures: every standalone procedure, and every public
procedure of a package, that can be called without arguments, in source order.

Blocks run in order as a script does, each in a transaction: a block that reports a result (a
result or summary line) is rolled back, so one test cannot make another pass; a block that reports
nothing and raises nothing is the script's setup (it fills tables the next blocks read) and its
changes are kept (`SuiteTest.keeps_setup`). A script's blocks share one session, as in SQL*Plus, so
package state (counters a last block prints as `N tests, P passed, F failed`) carries over; each
file starts with a fresh session state.
"""

from __future__ import annotations

from collections.abc import Sequence

from migrator.convert.plsql import ast as A
from migrator.source.units import UnitKind
from migrator.suites.model import SuiteTest, TestStyle
from migrator.suites.output_lines import DEFAULT_RESULT_PATTERN
from migrator.suites.styles import BlockConverter, BlockNotConverted, TestCode


class PlainStyle:
    style = TestStyle.PLAIN

    def __init__(self, result_pattern: str | None = None):
        self.result_pattern = result_pattern or DEFAULT_RESULT_PATTERN

    def detect(self, code: Sequence[TestCode]) -> bool:
        return True  # any test code can be run as blocks and procedures

    def discover(self, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]:
        blocks = [c for c in code if c.unit.kind is UnitKind.ANONYMOUS_BLOCK]
        # a script's order, whatever order the dependency analysis gave: files by name, then offset
        blocks.sort(key=lambda c: (c.unit.span.file, c.unit.span.start_offset))
        if blocks:
            return [self._block(c, code) for c in blocks]
        return [t for c in code for t in self._procedures(c, convert)]

    def _block(self, c: TestCode, code: Sequence[TestCode]) -> SuiteTest:
        span = c.unit.span
        return SuiteTest(
            name=f"{span.file}:{span.start_line}",
            suite=span.file,
            style=self.style,
            source=str(span),
            body=c.output,
            needs=(c.id, *referenced_code(c, code)),
            result_pattern=self.result_pattern,
            keeps_setup=True,
            shares_session=True,
        )

    def _procedures(self, c: TestCode, convert: BlockConverter) -> list[SuiteTest]:
        names = callable_procedures(c)
        tests = []
        for name in names:
            body, cannot_run = "", None
            try:
                body = convert(f"BEGIN\n  {name};\nEND;", name)
            except BlockNotConverted as exc:
                cannot_run = f"the call {name} did not convert: {exc}"
            tests.append(
                SuiteTest(
                    name=name,
                    suite=name.rsplit(".", 1)[0] if "." in name else c.unit.span.file,
                    style=self.style,
                    source=str(c.unit.span),
                    body=body,
                    needs=(c.id,),
                    cannot_run=cannot_run,
                    result_pattern=self.result_pattern,
                )
            )
        return tests


def callable_procedures(c: TestCode) -> list[str]:
    """`proc` / `pkg.proc` for each procedure of `c` callable with no argument (every parameter
    IN with a default), in source order; a package's public procedures only (its specification)."""
    from migrator.convert.plsql.parse_unit import parse_unit

    kind = c.unit.kind
    if kind not in (UnitKind.PROCEDURE, UnitKind.PACKAGE_SPEC):
        return []
    try:
        tree = parse_unit(c.unit.text).tree
    except Exception:  # a unit the parser refuses did not convert either: reported with the unit
        return []
    if isinstance(tree, A.Routine):
        return [c.unit.name] if no_arguments_needed(tree) else []
    if isinstance(tree, A.Package):
        seen: list[str] = []
        for d in tree.decls:
            if isinstance(d, A.Routine) and no_arguments_needed(d):
                name = f"{c.unit.name}.{d.name.lower()}"
                if name not in seen:
                    seen.append(name)
        return seen
    return []


def no_arguments_needed(r: A.Routine) -> bool:
    return r.kind == "PROCEDURE" and all(p.mode == "IN" and p.default is not None for p in r.params)


def referenced_code(c: TestCode, code: Sequence[TestCode]) -> tuple[str, ...]:
    """The test code units `c` refers to (by the dependency analysis's names), so a block whose
    procedure did not deploy says so instead of failing on a missing function."""
    names = {r.lower() for r in c.unit.references}
    heads = {n.split(".")[0] for n in names} | {n.split(".")[-2] for n in names if n.count(".") >= 1}
    found = []
    for other in code:
        if other.unit.kind is UnitKind.ANONYMOUS_BLOCK or other.id == c.id:
            continue
        if other.unit.name in names or other.unit.name in heads or other.unit.qualified_name in names:
            found.append(other.id)
    return tuple(found)
