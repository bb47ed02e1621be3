"""Plain tests: SQL*Plus test scripts (anonymous blocks, `EXEC call` lines, setup and teardown
statements) or test procedures that report through DBMS_OUTPUT (`PASS: …` / `FAILED …` lines,
`N tests, P passed, F failed`, `Tests run: N, Failures: F`) or by raising.

**Scripts** (the test folders hold anonymous blocks, EXEC lines or queries). They run as SQL*Plus
runs them: the root scripts (files no other test file includes with `@`/`@@`/`START`) by name, each
with what it includes, in place and in order (`run_all.sql` with `@@setup.sql`, `@@test_x.sql`,
`@@teardown.sql`); within a file, in source order. Each root script is one session in SQL*Plus's
transaction: what its steps do stays pending until the script's COMMIT, a DDL statement (Oracle
commits around it) or the script's end, the script's ROLLBACK undoes it, and a block that raises
undoes only its own work (a savepoint, as a PL/SQL block's unhandled error undoes its work in
Oracle); a block whose code commits runs again outside a transaction block after the pending work
is committed (its work after its last COMMIT is then committed too, where Oracle would keep it
pending). What a block or statement leaves — rows of a results table, package counters — is there
for the blocks after it, as on Oracle: a block reading the rows an earlier block changed sees them
changed, and a last block counting the results table prints the suite's own summary. Several root
scripts run one after another on the test database, each in a session of its own, as a team runs
separate scripts: a setup script (`setup.sql`, `01_install.sql`) first, a teardown (`teardown.sql`,
`cleanup.sql`) last, the others by name. A top-level query prints its rows
(`SuiteTest.prints_rows`): a summary a query counts from a results table is read like a printed
one.

Definitions of the test folders (tables, packages, procedures) are deployed before the run as
test code; the statements that *do* something — INSERT/UPDATE/DELETE, DROP, TRUNCATE — run at their
place in the script (`SuiteTest.statement`: a failing one is listed as an `error`, the others are
not tests). A CREATE TABLE/SEQUENCE/VIEW/INDEX is also replayed at its place (`exists_ok`), so a
block that drops it first (`EXECUTE IMMEDIATE 'DROP TABLE t'` in a re-runnable setup) gets it back
where the script creates it; a DROP that comes before the test code's CREATE of the same object
is left out (on a fresh database there is nothing to drop; SQL*Plus would print ORA-00942 and go
on). Differences from SQL*Plus: `WHENEVER SQLERROR EXIT` does not stop the run (every later test
still runs and reports); a table's INSERTs form one unit (the reader's), run at the place of the
first.

**Test procedures** (no blocks): the entry points — every standalone procedure, and every public
procedure of a package, that can be called without arguments and that no other test code calls.
A test package whose `run_all` calls its tests, prints each result and a summary, is one test
(`pkg.run_all`, its output the suite's own lines); helper procedures with arguments
(`assert_equals(expected, actual, msg)`) are never tests; a package of independent parameterless
test procedures gives one test each, in source order.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from migrator.convert.plsql import ast as A
from migrator.source.units import UnitKind
from migrator.suites.model import SuiteTest, TestStyle
from migrator.suites.output_lines import DEFAULT_RESULT_PATTERN
from migrator.suites.styles import BlockConverter, BlockNotConverted, TestCode

# what runs at its place in a script, rather than being deployed before the run
_STATEMENT_KINDS = frozenset({UnitKind.DATA, UnitKind.OTHER})
# deployed before the run (test code calls them) and replayed at their place
_REPLAYED_KINDS = frozenset({UnitKind.TABLE, UnitKind.SEQUENCE, UnitKind.VIEW, UnitKind.INDEX})
_DROP = re.compile(
    r"^\s*DROP\s+(?:TABLE|VIEW|SEQUENCE|INDEX|PACKAGE(?:\s+BODY)?|PROCEDURE|FUNCTION|TYPE(?:\s+BODY)?|SYNONYM"
    r"|TRIGGER|MATERIALIZED\s+VIEW)\s+(?:IF\s+EXISTS\s+)?((?:\"?[\w$#]+\"?\.)?\"?[\w$#]+\"?)",
    re.I,
)
_TRANSACTION = re.compile(r"^\s*(COMMIT|ROLLBACK)(?:\s+WORK)?\s*;?\s*$", re.I)
# statements Oracle commits around (DDL); a test script's DML runs in its transaction
_DDL = re.compile(r"^\s*(?:CREATE|ALTER|DROP|TRUNCATE|RENAME|GRANT|REVOKE|COMMENT|PURGE|ANALYZE)\b", re.I)
_INCLUDE = re.compile(r"^runs script (\S+), which is read on its own here")


class PlainStyle:
    style = TestStyle.PLAIN

    def __init__(self, result_pattern: str | None = None, includes: Mapping[str, Sequence[str]] | None = None):
        self.result_pattern = result_pattern or DEFAULT_RESULT_PATTERN
        # test file -> the test files it runs (@, @@, START), in order; see `script_includes`
        self.includes: Mapping[str, Sequence[str]] = includes or {}

    def detect(self, code: Sequence[TestCode]) -> bool:
        return True  # any test code can be run as blocks and procedures

    def runs_in_order(self, code: Sequence[TestCode]) -> frozenset[str]:
        """The test units that run at their place in a script instead of being deployed first."""
        if not is_script(code):
            return frozenset()
        return frozenset(c.id for c in code if c.unit.kind in _STATEMENT_KINDS)

    def discover(self, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]:
        if is_script(code):
            return self._script(code)
        roots = entry_procedures(code)
        return [t for c in code for t in self._procedures(c, convert, roots)]

    # -- scripts ---------------------------------------------------------------------------------

    def _script(self, code: Sequence[TestCode]) -> list[SuiteTest]:
        files = sorted({c.unit.span.file for c in code} | set(self.includes))
        runs = script_runs(files, self.includes)
        tests: list[SuiteTest] = []
        for root, order in runs:
            rank = {f: i for i, f in enumerate(order)}
            steps = sorted(
                (c for c in code if c.unit.span.file in rank),
                key=lambda c: (rank[c.unit.span.file], c.unit.span.start_offset),
            )
            created = {_object_name(c.unit.name): i for i, c in enumerate(steps) if c.unit.kind not in _STATEMENT_KINDS}
            for i, c in enumerate(steps):
                step = self._step(c, code, root, created, i)
                if step is not None:
                    tests.append(step)
        return tests

    def _step(self, c: TestCode, code: Sequence[TestCode], root: str, created: Mapping[str, int], at: int):
        span = c.unit.span
        common = dict(
            name=f"{span.file}:{span.start_line}",
            suite=root,
            style=self.style,
            source=str(span),
            body=c.output,
            script=True,
            shares_session=True,
        )
        kind = c.unit.kind
        if kind is UnitKind.ANONYMOUS_BLOCK:
            return SuiteTest(**common, needs=(c.id, *referenced_code(c, code)), result_pattern=self.result_pattern)  # type: ignore[arg-type]
        if is_query(c):  # SQL*Plus prints its rows: a test whose output they are
            return SuiteTest(**common, needs=(c.id,), result_pattern=self.result_pattern, prints_rows=True)  # type: ignore[arg-type]
        if kind in _STATEMENT_KINDS:
            control = _TRANSACTION.match(c.unit.text)
            if control is not None:  # the script's COMMIT / ROLLBACK: SQL*Plus's transaction
                return SuiteTest(**common, statement=True, ends_transaction=control.group(1).upper())  # type: ignore[arg-type]
            dropped = _DROP.match(c.unit.text)
            if dropped is not None and created.get(_object_name(dropped.group(1)), -1) > at:
                return None  # dropped before the script creates it: nothing to drop on a fresh database
            ddl = "DDL" if _DDL.match(c.unit.text) else None
            return SuiteTest(**common, needs=(c.id,), statement=True, ends_transaction=ddl)  # type: ignore[arg-type]
        if kind in _REPLAYED_KINDS and c.problem is None:
            return SuiteTest(**common, statement=True, exists_ok=True, ends_transaction="DDL")  # type: ignore[arg-type]
        return None  # a routine, package or type: deployed before the run

    # -- test procedures ---------------------------------------------------------------------------

    def _procedures(self, c: TestCode, convert: BlockConverter, roots: set[str]) -> list[SuiteTest]:
        names = [n for n in callable_procedures(c) if n in roots]
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


_QUERY = re.compile(r"^\s*(?:\(\s*)*(?:SELECT|WITH)\b", re.I)
_VIEW_HEADER = re.compile(r"^\s*(?:--[^\n]*\n\s*)*CREATE\s+OR\s+REPLACE\s+VIEW\s+\S+\s+AS\s+", re.I)


def is_query(c: TestCode) -> bool:
    """A top-level query of a test script (SQL*Plus prints its rows)."""
    return c.unit.kind is UnitKind.OTHER and _QUERY.match(c.unit.text) is not None


def convert_queries(
    code: Sequence[TestCode], convert_view: Callable[[str, str], tuple[str, str | None]]
) -> list[TestCode]:
    """The test scripts' top-level queries, which the rules leave as unrecognised statements,
    converted as the query of a view is (`convert_view(CREATE VIEW text, name)` -> (PostgreSQL
    text, why not)): the query alone, to run with its rows printed."""
    out: list[TestCode] = []
    for n, c in enumerate(code):
        if not is_query(c):
            out.append(c)
            continue
        name = f"migrator_script_query_{n}"
        text, problem = convert_view(f"CREATE OR REPLACE VIEW {name} AS\n{c.unit.text.rstrip().rstrip(';')}", name)
        header = _VIEW_HEADER.match(text) if problem is None else None
        if header is None:
            out.append(TestCode(c.unit, "", problem or "the query did not convert"))
            continue
        out.append(TestCode(c.unit, text[header.end() :].rstrip().rstrip(";"), None))
    return out


def is_script(code: Sequence[TestCode]) -> bool:
    """The test folders are SQL*Plus scripts: they hold anonymous blocks, EXEC lines or queries
    (`SELECT CASE WHEN f(1) = 2 THEN 'PASS' ELSE 'FAIL' END FROM dual;` is a test too)."""
    return any(c.unit.kind is UnitKind.ANONYMOUS_BLOCK or is_query(c) for c in code)


def script_includes(issues: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """file -> the files it runs, in order, from the reader's notes on `@`/`@@`/`START` lines
    ((file, message) pairs; a test folder's files are named `folder/path`, the message names the
    path within the folder)."""
    out: dict[str, list[str]] = {}
    for file, message in issues:
        m = _INCLUDE.match(message)
        if m is None:
            continue
        folder = file.split("/", 1)[0] if "/" in file else ""
        target = posixpath.join(folder, m.group(1)) if folder else m.group(1)
        out.setdefault(file, []).append(target)
    return out


def script_runs(files: Sequence[str], includes: Mapping[str, Sequence[str]]) -> list[tuple[str, list[str]]]:
    """Each root script (a file no other file runs) by name, with the files it runs in SQL*Plus
    order (depth first, in place; a file once). A cycle of includes leaves its files as roots."""
    included = {t for targets in includes.values() for t in targets if t in files}
    roots = sorted((f for f in files if f not in included), key=lambda f: (_phase(f), f))
    runs: list[tuple[str, list[str]]] = []
    seen: set[str] = set()

    def expand(f: str, order: list[str]) -> None:
        if f in seen:
            return
        seen.add(f)
        order.append(f)
        for t in includes.get(f, ()):
            if t in files:
                expand(t, order)

    for root in roots:
        order: list[str] = []
        expand(root, order)
        runs.append((root, order))
    for f in sorted(files):  # files only a cycle reaches
        if f not in seen:
            order = []
            expand(f, order)
            runs.append((f, order))
    return [(root, order) for root, order in runs if order]


_SETUP_NAME = re.compile(r"^(?:\d+[_.-]*)?(?:setup|set_up|install|init|prepare|before)(?![a-z])", re.I)
_TEARDOWN_NAME = re.compile(r"^(?:\d+[_.-]*)?(?:teardown|tear_down|cleanup|clean_up|uninstall|after)(?![a-z])", re.I)


def _phase(file: str) -> int:
    """Where a root script runs among the others: a setup script (`setup.sql`, `00_install.sql`)
    first, a teardown (`teardown.sql`, `cleanup.sql`) last, the rest by name between them, as a
    team runs separate scripts that have no master script to order them."""
    stem = posixpath.basename(file)
    return 0 if _SETUP_NAME.match(stem) else 2 if _TEARDOWN_NAME.match(stem) else 1


def _object_name(name: str) -> str:
    return name.replace('"', "").lower().rsplit(".", 1)[-1]


def entry_procedures(code: Sequence[TestCode]) -> set[str]:
    """The parameterless procedures (`proc`, `pkg.proc`) of the test code that no other test
    routine calls: the ones a team runs. Calls are read from the routines' text (comments and
    string literals left out): `pkg.proc` anywhere, or `proc` inside its own package's body."""
    candidates = [(c, name) for c in code for name in callable_procedures(c)]
    if not candidates:
        return set()
    bodies = [(c, _code_only(c.unit.text)) for c in code if c.unit.kind in _CALLING_KINDS]
    called: set[str] = set()
    for c, name in candidates:
        pkg, _, proc = name.rpartition(".")
        bare = re.compile(rf"(?<![\w$#.]){re.escape(proc)}(?![\w$#])", re.I)
        qualified = re.compile(rf"(?<![\w$#.]){re.escape(pkg)}\s*\.\s*{re.escape(proc)}(?![\w$#])", re.I)
        for other, text in bodies:
            if pkg:  # pkg.proc anywhere, or proc inside pkg's own body
                own_body = other.unit.kind is UnitKind.PACKAGE_BODY and other.unit.name == pkg
                hit = qualified.search(text) is not None or (
                    own_body and any(not _declares(text, m.start()) for m in bare.finditer(text))
                )
            else:  # a standalone procedure called from another unit
                hit = other.id != c.id and any(not _declares(text, m.start()) for m in bare.finditer(text))
            if hit:
                called.add(name)
                break
    roots = {name for _, name in candidates if name not in called}
    return roots or {name for _, name in candidates}


_CALLING_KINDS = frozenset({UnitKind.PACKAGE_BODY, UnitKind.PROCEDURE, UnitKind.FUNCTION, UnitKind.TYPE_BODY})
_DECLARING = re.compile(r"(?:\b(?:PROCEDURE|FUNCTION|END)\s+)$", re.I)


def _declares(text: str, at: int) -> bool:
    return _DECLARING.search(text[max(0, at - 40) : at]) is not None


def _code_only(text: str) -> str:
    """`text` without comments and string literals (their places kept as blanks)."""
    return re.sub(
        r"--[^\n]*|/\*.*?\*/|[nN]?[qQ]'(\[.*?\]|\{.*?\}|\(.*?\)|<.*?>|(.).*?\2)'|'(?:[^']|'')*'",
        lambda m: " " * len(m.group(0)),
        text,
        flags=re.S,
    )


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
        if other.unit.kind in (UnitKind.ANONYMOUS_BLOCK, *_STATEMENT_KINDS) or other.id == c.id:
            continue
        if other.unit.name in names or other.unit.name in heads or other.unit.qualified_name in names:
            found.append(other.id)
    return tuple(found)
