"""A test framework that is itself PL/SQL: Pete's convention (https://github.com/s-oravec/pete).

The framework's packages (`pete`, `pete_assert`, `pete_types`, …) are test code like any other:
converted with the library's rules and deployed after the library. Its convention says which
procedures are tests, and this style follows it:

- a test package is a package whose name starts with `UT_` (Pete's default test package prefix);
- its tests are the public procedures callable without arguments (no OUT parameter, every IN
  parameter defaulted — Pete passes none, so a default such as `d varchar2 := 'description'` is
  the test's description), in declaration order, except the hooks `BEFORE_ALL`, `BEFORE_EACH`,
  `AFTER_EACH`, `AFTER_ALL`; when some names start with `OO` ("only"), only those run, and names
  starting with `XX` are skipped;
- `BEFORE_ALL` and `BEFORE_EACH` run before each test, `AFTER_EACH` and `AFTER_ALL` after it,
  in the test's own transaction (rolled back: one test cannot make another pass);
- an assertion fails by raising (`pete_assert` raises ORA-20000 `Assertion failed: …`), so a test
  passes when its call raises nothing.

Each test method is its own test in `tests.json`, called through a block converted with the run's
rules (so the description default is bound as Oracle binds it). Pete's own runner
(`pete.run_test_suite`) runs every method in one session and logs to its tables; calling the
methods one by one keeps Pete's semantics (what is a test, the hooks, pass = no exception) while
giving each test its transaction, its DBMS_OUTPUT lines, its duration and its statement timeout.
"""

from __future__ import annotations

from collections.abc import Sequence

from migrator.convert.plsql import ast as A
from migrator.source.units import UnitKind
from migrator.suites.model import SuiteTest, TestStyle
from migrator.suites.plain import no_arguments_needed, referenced_code
from migrator.suites.styles import BlockConverter, BlockNotConverted, TestCode

TEST_PACKAGE_PREFIX = "ut_"
HOOKS = ("before_all", "before_each", "after_each", "after_all")
ONLY_PREFIX = "oo"
SKIP_PREFIX = "xx"
# names a Pete test package calls: the framework is present when test code uses them
_PETE_NAMES = ("pete_assert", "pete", "pete_types", "pete_convention_runner")


class PeteStyle:
    style = TestStyle.FRAMEWORK

    def detect(self, code: Sequence[TestCode]) -> bool:
        packages = [c for c in code if c.unit.kind is UnitKind.PACKAGE_SPEC]
        if not any(c.unit.name.startswith(TEST_PACKAGE_PREFIX) for c in packages):
            return False
        return any(
            c.unit.name in _PETE_NAMES or any(r.split(".")[0] in _PETE_NAMES for r in c.unit.references) for c in code
        )

    def discover(self, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]:
        tests: list[SuiteTest] = []
        for spec in code:
            if spec.unit.kind is not UnitKind.PACKAGE_SPEC or not spec.unit.name.startswith(TEST_PACKAGE_PREFIX):
                continue
            tests.extend(self._package(spec, code, convert))
        return tests

    def _package(self, spec: TestCode, code: Sequence[TestCode], convert: BlockConverter) -> list[SuiteTest]:
        from migrator.convert.plsql.parse_unit import parse_unit

        try:
            tree = parse_unit(spec.unit.text).tree
        except Exception:  # the spec did not parse: it is reported as a unit that did not convert
            return []
        if not isinstance(tree, A.Package):
            return []
        pkg = spec.unit.name
        methods: list[str] = []
        for d in tree.decls:
            if isinstance(d, A.Routine) and no_arguments_needed(d) and d.name.lower() not in methods:
                methods.append(d.name.lower())
        hooks = {h for h in HOOKS if h in methods}
        tested = [m for m in methods if m not in HOOKS and not m.startswith(SKIP_PREFIX)]
        if any(m.startswith(ONLY_PREFIX) for m in tested):
            tested = [m for m in tested if m.startswith(ONLY_PREFIX)]
        body = next((c for c in code if c.unit.kind is UnitKind.PACKAGE_BODY and c.unit.name == pkg), None)
        needs = tuple(dict.fromkeys([spec.id, *([body.id] if body else []), *referenced_code(spec, code),
                                     *(referenced_code(body, code) if body else ())]))  # fmt: skip

        def call(method: str) -> str:
            return convert(f"BEGIN\n  {pkg}.{method};\nEND;", f"{pkg}.{method}")

        problem: str | None = None
        try:
            setup = tuple(call(h) for h in ("before_all", "before_each") if h in hooks)
            teardown = tuple(call(h) for h in ("after_each", "after_all") if h in hooks)
        except BlockNotConverted as exc:
            setup, teardown = (), ()
            problem = f"the hooks of {pkg} did not convert: {exc}"
        tests = []
        for m in tested:
            text, cannot_run = "", problem
            try:
                text = call(m)
            except BlockNotConverted as exc:
                cannot_run = cannot_run or f"the call {pkg}.{m} did not convert: {exc}"
            tests.append(
                SuiteTest(
                    name=f"{pkg}.{m}",
                    suite=pkg,
                    style=self.style,
                    source=str(spec.unit.span),
                    body=text,
                    setup=setup,
                    teardown=teardown,
                    needs=needs,
                    cannot_run=cannot_run,
                )
            )
        return tests
