"""utPLSQL v3 suites: annotated test packages, found in the Oracle sources and run on PostgreSQL.

**Why a utPLSQL-compatible runner and not pgTAP.** A utPLSQL test is a PL/SQL procedure whose
expectations (`ut.expect(x).to_equal(y)`) are statements: a failed one is recorded and the test goes
on, and the report lists every failed expectation with a typed message ("Actual: 1 (number) was
expected to equal: '1' (varchar2)"). pgTAP's assertions are functions returning TAP lines from a
SELECT, run by `pg_prove` around a plan count; a converted PL/pgSQL procedure would have to collect
them and could not keep utPLSQL's typed equality (pgTAP's `is()` compares after PostgreSQL's casts,
so a number equals a string that casts to it) nor its cursor and collection matchers. So the test
packages convert like any PL/SQL — their expectations through rule `plsql.utplsql_expect` into calls
of the `ut` schema (`ut.sql`, PL/pgSQL, deployed once after the library) — and a PostgreSQL team reads
`PERFORM ut.to_equal(ut.expect(v_total), 30);` beside the Oracle line it came from. pgTAP is also not
on every server (the embedded one lacks it); the `ut` schema needs only the oracompat library.

**What this module does.** `discover` reads each package specification's annotations (comments
`--%suite`, `--%suitepath`, `--%test`, `--%beforeall`/`--%afterall`/`--%beforeeach`/`--%aftereach`
on a procedure or with a list of procedures at package level, `--%beforetest`/`--%aftertest`,
`--%throws`, `--%disabled`, `--%context`/`--%endcontext`, `--%displayname`) and yields one
`SuiteTest` per `--%test` procedure in declaration order:

- `setup`: `ut.begin_test()`, then the beforeall procedures (the package's, then each enclosing
  context's), the beforeeach ones (outermost first) and the test's beforetest ones: utPLSQL's order.
  Every test runs in its own transaction that the runner rolls back, so beforeall runs for each
  test and no test sees another's changes.
- `body`: a DO block that calls the test procedure — with `--%throws`, inside a block whose
  handler accepts the listed errors and records utPLSQL's failure otherwise ("Expected one of
  exceptions (-20001) but nothing was raised.") — and then `ut.end_test()`, which raises every
  failed expectation of setup and test as one error with SQLSTATE `UTF01` (`FAILED_SQLSTATE`): the
  runner's `failed`, with the messages; any other error is the test's `error`.
- `teardown`: aftertest, aftereach (innermost first), afterall (innermost first). Expectations in
  teardown procedures are not reported (the body's check has run by then).

A name in `--%throws` is an ORA code (`-20001`, `ORA-01403`), a predefined exception
(`no_data_found`) or a package exception (`pkg.e`, or `e` of the test package), declared in one of
the specifications given to `discover` (with its PRAGMA EXCEPTION_INIT when it has one). A name
that resolves to nothing makes the test an error that says so, never a pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from harness.ground_truth.oracle_errors import (
    BY_NAME,
    conditions_for_ora,
    user_exception_sqlstate,
)
from harness.quoting import pg_string, quote_ident
from migrator.source.lexer import iter_tokens
from migrator.source.units import Unit, UnitKind
from migrator.suites.model import SuiteTest, TestStyle
from migrator.suites.styles import BlockConverter, BlockNotConverted, TestCode

UT_SQL: str = Path(__file__).with_name("ut.sql").read_text(encoding="utf-8")
FAILED_SQLSTATE = "UTF01"  # ut.end_test(): the test's failed expectations, one per line

# utPLSQL reads `--%name` or `--%name(text)` only: `-- %name` is an ordinary comment
_ANNOTATION = re.compile(r"--%([A-Za-z_]+)\s*(?:\((.*)\))?", re.S)


@dataclass(frozen=True)
class Annotation:
    name: str  # lower case: "test", "beforeall" ...
    text: str | None  # what is inside the parentheses, stripped; None without them
    offset: int
    line: int


@dataclass
class Procedure:
    name: str  # lower case
    line: int
    annotations: list[Annotation]
    context: tuple[str, ...]  # the --%context names it is declared in, outermost first

    def has(self, name: str) -> bool:
        return any(a.name == name for a in self.annotations)

    def get(self, name: str) -> Annotation | None:
        return next((a for a in self.annotations if a.name == name), None)


@dataclass
class Context:
    name: str
    disabled: str | None = None


@dataclass
class SuiteSpec:
    """The annotations of one test package's specification."""

    schema: str
    package: str  # lower case
    source: str  # file:line of the specification
    annotations: list[Annotation]  # package level
    procedures: list[Procedure]
    contexts: dict[tuple[str, ...], Context]
    exceptions: dict[str, tuple[str, ...]]  # exception name → handler conditions

    def package_annotation(self, name: str) -> Annotation | None:
        return next((a for a in self.annotations if a.name == name), None)


def _annotation(tok_text: str, offset: int, line: int) -> Annotation | None:
    m = _ANNOTATION.match(tok_text)
    if m is None:
        return None
    inner = m.group(2)
    return Annotation(m.group(1).lower(), inner.strip() if inner is not None else None, offset, line)


def parse_spec(unit: Unit) -> SuiteSpec | None:
    """The suite a package specification declares (None: it has no --%suite annotation)."""
    text = unit.text
    toks = list(iter_tokens(text))
    line0 = unit.span.start_line
    annotations: list[tuple[int, Annotation]] = []  # (token index, annotation)
    procs: list[tuple[int, str, int]] = []  # (token index, name, line)
    code = [k for k, t in enumerate(toks) if t.kind not in ("ws", "line_comment", "block_comment")]
    for k, t in enumerate(toks):
        if t.kind == "line_comment" and t.text.startswith("--%"):
            a = _annotation(t.text, t.start, line0 + text.count("\n", 0, t.start))
            if a is not None:
                annotations.append((k, a))
    for n, k in enumerate(code):
        t = toks[k]
        nxt = toks[code[n + 1]] if n + 1 < len(code) else None
        if t.kind == "word" and t.upper == "PROCEDURE" and nxt is not None and nxt.kind in ("word", "qident"):
            procs.append((k, _name(nxt.text), line0 + text.count("\n", 0, t.start)))
    if not any(a.name == "suite" for _, a in annotations):
        return None
    exceptions = declared_exceptions(unit)
    attached: dict[int, list[Annotation]] = {}
    used: set[int] = set()
    for pk, _n, _l in procs:
        # the annotations directly above `PROCEDURE`, with no blank line between (utPLSQL's rule)
        k = pk - 1
        mine: list[Annotation] = []
        while k >= 0:
            t = toks[k]
            if t.kind == "ws":
                if t.text.count("\n") > 1:
                    break
            elif t.kind == "line_comment":
                a = next((a for j, a in annotations if j == k), None)
                if a is not None:
                    if a.name in ("context", "endcontext"):
                        break
                    mine.insert(0, a)
                    used.add(k)
            elif t.kind != "block_comment":
                break
            k -= 1
        attached[pk] = mine
    # contexts: package-level --%context ... --%endcontext around procedures
    contexts: dict[tuple[str, ...], Context] = {}
    stack: list[str] = []
    events: list[tuple[int, Annotation | None]] = [(k, a) for k, a in annotations if k not in used]
    events += [(k, None) for k, _, _ in procs]
    names = {k: (name, line) for k, name, line in procs}
    procedures: list[Procedure] = []
    suite_level: list[Annotation] = []
    for k, item in sorted(events, key=lambda e: e[0]):
        if item is not None:
            if item.name not in ("context", "endcontext") and not stack:
                suite_level.append(item)
            if item.name == "context":
                stack.append((item.text or f"context_{len(contexts) + 1}").strip())
                contexts[tuple(stack)] = Context(stack[-1])
            elif item.name == "endcontext" and stack:
                stack.pop()
            elif item.name == "disabled" and stack:
                contexts[tuple(stack)].disabled = item.text or ""
            continue
        name, line = names[k]
        procedures.append(Procedure(name, line, attached[k], tuple(stack)))
    return SuiteSpec(
        unit.schema,
        unit.name,
        str(unit.span),
        suite_level,
        procedures,
        contexts,
        exceptions,
    )


def declared_exceptions(unit: Unit) -> dict[str, tuple[str, ...]]:
    """Exceptions a package specification declares → the handler conditions that catch them: a
    SQLSTATE of their own (as the converter gives a package exception), or their Oracle error's
    when PRAGMA EXCEPTION_INIT ties them to one."""
    toks = [t for t in iter_tokens(unit.text) if t.kind not in ("ws", "line_comment", "block_comment")]
    out: dict[str, tuple[str, ...]] = {}
    for n, t in enumerate(toks):
        nxt = toks[n + 1] if n + 1 < len(toks) else None
        if t.kind == "word" and t.upper == "EXCEPTION" and n > 0 and nxt is not None and nxt.text == ";":
            name = _name(toks[n - 1].text)
            state = user_exception_sqlstate(f"{unit.schema}.{unit.name}.{name}")
            out.setdefault(name, (f"SQLSTATE '{state}'",))
        if t.kind == "word" and t.upper == "EXCEPTION_INIT" and n + 5 < len(toks):
            args = toks[n + 1 : n + 7]  # ( name , [-] code )
            if args[0].text == "(" and args[2].text == ",":
                num = "".join(a.text for a in args[3:6] if a.text != ")")
                init = conditions_for_ora(int(num)) if re.fullmatch(r"-?\d+", num) else None
                if init:
                    out[_name(args[1].text)] = init
    return out


def _name(text: str) -> str:
    return text[1:-1] if text.startswith('"') else text.lower()


def _call(package: str, proc: str) -> str:
    """The converted procedure: a package is a PostgreSQL schema of the same name."""
    if "." in proc:  # a fixture of another package, named `pkg.proc` in a package-level list
        package, proc = proc.split(".", 1)
    return f"CALL {quote_ident(package)}.{quote_ident(proc)}();"


def _list(text: str | None) -> list[str]:
    return [p.strip().lower() for p in (text or "").split(",") if p.strip()]


def _fixtures(spec: SuiteSpec, kind: str, context: tuple[str, ...]) -> list[str]:
    """Procedures of one fixture kind that apply to a test in `context`, outermost first."""
    out: list[str] = []
    for a in spec.annotations:  # package-level lists: --%beforeall(p1, p2)
        if a.name == kind:
            out += _list(a.text)
    for depth in range(len(context) + 1):
        out += [p.name for p in spec.procedures if p.context == context[:depth] and p.has(kind)]
    return out


ExceptionResolver = Callable[[str], tuple[str, ...] | None]


def _throws(
    spec: SuiteSpec, text: str, known: dict[str, tuple[str, ...]], resolve: ExceptionResolver | None
) -> tuple[list[str], list[str]]:
    """(handler conditions, names that resolve to nothing) of a --%throws list."""
    conditions: list[str] = []
    unknown: list[str] = []
    for item in [p.strip() for p in text.split(",") if p.strip()]:
        norm = item.upper().replace(" ", "")
        found: tuple[str, ...] | None = None
        if re.fullmatch(r"(ORA)?-?\d+", norm):
            found = conditions_for_ora(-abs(int(norm.replace("ORA", "").lstrip("-"))))
        elif norm in BY_NAME:
            found = BY_NAME[norm].conditions
        else:
            key = item.lower()
            found = known.get(key) or known.get(f"{spec.package}.{key}")
            if not found and resolve is not None:
                found = resolve(item)
        if found:
            conditions += [c for c in found if c not in conditions]
        else:
            unknown.append(item)
    return conditions, unknown


def _body(
    spec: SuiteSpec, proc: Procedure, known: dict[str, tuple[str, ...]], resolve: ExceptionResolver | None
) -> str:
    call = _call(spec.package, proc.name)
    throws = proc.get("throws")
    lines = ["DO $ut$", "BEGIN"]
    if throws is None or not (throws.text or "").strip():
        lines += [f"    {call}"]
    else:
        conditions, unknown = _throws(spec, throws.text or "", known, resolve)
        listed = pg_string(throws.text or "")
        if unknown:
            why = f"--%throws({throws.text}) names what is not an Oracle error or a declared exception: {', '.join(unknown)}"
            return f"DO $ut$ BEGIN RAISE EXCEPTION '%', {pg_string(why)}; END $ut$;"
        lines += [
            "    BEGIN",
            f"        {call}",
            f"        PERFORM ut.nothing_raised({listed});",
            "    EXCEPTION",
            f"        WHEN {' OR '.join(conditions)} THEN",
            "            NULL;  -- the expected error",
            "        WHEN OTHERS THEN",
            "            IF SQLSTATE = '0A000' THEN",
            "                RAISE;  -- code that did not convert: the test's error, not a failure",
            "            END IF;",
            f"            PERFORM ut.unexpected_raised({listed}, SQLSTATE, SQLERRM);",
            "    END;",
        ]
    lines += ["    PERFORM ut.end_test();", "END", "$ut$;"]
    return "\n".join(lines)


def suite_tests(
    spec: SuiteSpec, known: dict[str, tuple[str, ...]] | None = None, resolve: ExceptionResolver | None = None
) -> list[SuiteTest]:
    """The suite's tests, in declaration order, each with its fixtures in utPLSQL's order."""
    exceptions = dict(known or {})
    exceptions.update(spec.exceptions)
    suite_path = spec.package_annotation("suitepath")
    suite = f"{suite_path.text}.{spec.package}" if suite_path and suite_path.text else spec.package
    suite_disabled = spec.package_annotation("disabled")
    out: list[SuiteTest] = []
    for proc in spec.procedures:
        test = proc.get("test")
        if test is None:
            continue
        disabled: str | None = None
        for depth in range(len(proc.context), 0, -1):
            ctx = spec.contexts.get(proc.context[:depth])
            if ctx is not None and ctx.disabled is not None:  # the innermost disabled context says why
                disabled = ctx.disabled or f"context {ctx.name} is disabled"
                break
        if suite_disabled is not None:
            disabled = suite_disabled.text or "the suite is disabled"
        if (own := proc.get("disabled")) is not None:
            disabled = own.text or "disabled"
        before_test = [p for a in proc.annotations if a.name == "beforetest" for p in _list(a.text)]
        after_test = [p for a in proc.annotations if a.name == "aftertest" for p in _list(a.text)]
        setup = (
            ["SELECT ut.begin_test();"]
            + [_call(spec.package, p) for p in _fixtures(spec, "beforeall", proc.context)]
            + [_call(spec.package, p) for p in _fixtures(spec, "beforeeach", proc.context)]
            + [_call(spec.package, p) for p in before_test]
        )
        teardown = (
            [_call(spec.package, p) for p in after_test]
            + [_call(spec.package, p) for p in reversed(_fixtures(spec, "aftereach", proc.context))]
            + [_call(spec.package, p) for p in reversed(_fixtures(spec, "afterall", proc.context))]
        )
        display = proc.get("displayname")
        description = (test.text or "") or (display.text if display and display.text else "")
        throws = proc.get("throws")
        out.append(
            SuiteTest(
                name=f"{spec.package}.{proc.name}",
                suite=".".join([suite, *proc.context]),
                style=TestStyle.UTPLSQL,
                source=f"{spec.source.split(':')[0]}:{proc.line}",
                body=_body(spec, proc, exceptions, resolve),
                setup=tuple(setup),
                teardown=tuple(teardown),
                # handled inside `body` (so failed expectations still count); kept for the reports
                expected_error=None,
                disabled=disabled,
                description=description + (f" [throws {throws.text}]" if throws and throws.text else ""),
            )
        )
    return out


def discover(units: Iterable[Unit], resolve: ExceptionResolver | None = None) -> list[SuiteTest]:
    """Every utPLSQL test of the package specifications among `units`, suite by suite in source
    order. Exceptions any of the specifications declare can be named in --%throws; `resolve` gives
    the handler conditions of any other name (the library's exceptions), None when it names none."""
    specs: list[SuiteSpec] = []
    known: dict[str, tuple[str, ...]] = {}
    for u in units:
        if u.kind != UnitKind.PACKAGE_SPEC:
            continue
        spec = parse_spec(u)
        if spec is None:
            known.update({f"{u.name}.{k}": v for k, v in declared_exceptions(u).items()})
            continue
        known.update({f"{spec.package}.{k}": v for k, v in spec.exceptions.items()})
        specs.append(spec)
    return [t for spec in specs for t in suite_tests(spec, known, resolve)]


def is_utplsql(units: Iterable[Unit]) -> bool:
    """Whether any package specification among `units` is a utPLSQL suite (style detection)."""
    return any(u.kind == UnitKind.PACKAGE_SPEC and parse_spec(u) is not None for u in units)


_HANDLER = re.compile(r"^\s*WHEN\s+(.+?)\s+THEN\s*$", re.M)


def converter_resolver(convert: BlockConverter) -> ExceptionResolver:
    """Names in --%throws resolved by the run's own converter, which knows every package's
    exceptions and their PRAGMA EXCEPTION_INIT: the handler it writes for the name is the one."""

    def resolve(name: str) -> tuple[str, ...] | None:
        if not re.fullmatch(r'[A-Za-z_$#"][\w$#".]*', name):
            return None
        try:
            text = convert(f"BEGIN\n  NULL;\nEXCEPTION\n  WHEN {name} THEN\n    NULL;\nEND;", "throws")
        except BlockNotConverted:
            return None
        found = _HANDLER.search(text)
        return tuple(c.strip() for c in found.group(1).split(" OR ")) if found else None

    return resolve


class UtplsqlStyle:
    """utPLSQL v3 annotated packages (the `Style` protocol of `migrator.suites.styles`)."""

    style = TestStyle.UTPLSQL
    support_sql = UT_SQL  # deployed after the preamble, before the test code

    def detect(self, code: Sequence[TestCode]) -> bool:
        return is_utplsql(c.unit for c in code)

    def discover(self, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]:
        packages: dict[str, list[str]] = {}
        for c in code:
            if c.unit.kind in (UnitKind.PACKAGE_SPEC, UnitKind.PACKAGE_BODY):
                packages.setdefault(c.unit.name, []).append(c.id)
        tests = discover([c.unit for c in code], converter_resolver(convert))
        # a test needs its package deployed (spec and body) and the packages its fixtures live in
        out = []
        for t in tests:
            names = {t.name.split(".")[0]} | {
                s.split()[1].split(".")[0].strip('"') for s in (*t.setup, *t.teardown) if s.startswith("CALL ")
            }
            needs = tuple(i for n in sorted(names) for i in packages.get(n, ()))
            out.append(replace(t, needs=needs))
        return out
