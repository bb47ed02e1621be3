"""The rule registry and the code agree: every id the code uses is declared and used; each
construct's file uses its rule's id, its node is a real class (or an Oracle type the mapping reads
with that rule), its golden cases show the rule and its tests exist; the README's table is current;
every registered rule can be switched off with a visible effect; an unknown id is a usage error
wherever ids are accepted."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from migrator.cli.main import main
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.convert.registry import BY_ID, FAMILIES, RULES, UnknownRuleId, check_rule_ids, markdown
from migrator.fixes.settings import SettingsError, load_settings
from migrator.source.reader import read_schema_dir
from tests.golden import GOLDEN_ROOT, convert_case
from tests.migrator.rule_examples import EXAMPLES

ROOT = Path(__file__).resolve().parents[3]
CONVERTERS = ROOT / "migrator" / "convert"
# Call sites that pass an id through a variable; the ids themselves are string literals in the
# converter modules (a dict of types, a guard's argument, a replayed memo, a user's input).
FORWARDERS = {
    ("migrator/convert/context.py", "enabled"),
    ("migrator/convert/ddl/common.py", "guarded"),
    ("migrator/convert/ddl/common.py", "require"),
    ("migrator/convert/sql/dates.py", "_compat_call"),
    ("migrator/convert/datatypes.py", "map_type"),
    ("migrator/convert/plsql/emit_routine.py", "routine"),
    ("migrator/convert/plsql/emitter.py", "rule_off"),
    ("migrator/convert/plsql/sqlconv.py", "convert"),
    ("migrator/fixes/cycle.py", "_toggle_rule"),
}


def _rule_calls(tree: ast.AST):
    """(enclosing function, argument node) for every enabled(x) / applied(x) call."""
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and len(node.args) == 1:
                    name = getattr(node.func, "attr", getattr(node.func, "id", None))
                    if name in ("enabled", "applied"):
                        yield func.name, node.args[0]


def _scan() -> tuple[set[str], set[tuple[str, str]]]:
    used, dynamic = set(), set()
    for path in sorted((ROOT / "migrator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        for func, arg in _rule_calls(tree):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                used.add(arg.value)
            else:
                dynamic.add((rel, func))
        if path.is_relative_to(CONVERTERS) and path.name not in ("registry.py", "rule_table.py"):
            shaped = re.compile(rf"^({'|'.join(FAMILIES)})\.[a-z0-9_]+$")
            used |= {
                n.value
                for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and shaped.match(n.value)
            }
    return used, dynamic


def test_every_id_the_code_uses_is_registered_and_every_registered_id_is_used():
    used, dynamic = _scan()
    assert sorted(used - set(BY_ID)) == [], "rule ids used in the code but missing from migrator/convert/registry.py"
    assert sorted(set(BY_ID) - used) == [], "registered rule ids that no converter uses"
    assert sorted(dynamic - FORWARDERS) == [], (
        "a rule id passed through a variable: keep its ids as literals in migrator/rules or migrator/convert/plsql, then list it"
    )


def test_the_registry_is_well_formed():
    assert len(BY_ID) == len(RULES)
    for rule in RULES:
        assert re.fullmatch(r"[a-z]+\.[a-z0-9_]+", rule.id) and rule.description
        assert "\n" not in rule.description and len(rule.description) <= 100
    assert sorted(EXAMPLES) == sorted(BY_ID), "every registered id needs an example in rule_examples.py"


def _convert(tmp_path: Path, text: str, disabled: frozenset[str]) -> tuple[str, set[str]]:
    src = tmp_path / "app"
    src.mkdir(exist_ok=True)
    (src / "example.sql").write_text(text, encoding="utf-8")
    source = read_schema_dir(src)
    assert not [i for i in source.issues if i.severity == "error"], source.issues
    ctx = prepare_context(source, disabled)
    conversions = [convert_unit(unit, ctx) for unit in source.units]
    assert not [c.error for c in conversions if c.error]
    return "\n".join(c.output for c in conversions), {r for c in conversions for r in c.applied_rules}


@pytest.mark.parametrize("rule_id", [r.id for r in RULES])
def test_switching_a_rule_off_changes_the_output(rule_id, tmp_path):
    on, applied_on = _convert(tmp_path, EXAMPLES[rule_id], frozenset())
    off, applied_off = _convert(tmp_path, EXAMPLES[rule_id], frozenset({rule_id}))
    assert rule_id in applied_on and rule_id not in applied_off
    if BY_ID[rule_id].not_alone:  # the registry says why; hold it to its word
        assert on == off
    else:
        assert on != off


# -- unknown ids are usage errors --------------------------------------------------------------------
def test_check_rule_ids_accepts_ids_and_family_globs_and_names_close_matches():
    check_rule_ids(["expr.nvl", "plsql.*", "ddl.*"])
    with pytest.raises(UnknownRuleId, match=r"'expr\.nvll' \(did you mean expr\.nvl"):
        check_rule_ids(["expr.nvll"])
    with pytest.raises(UnknownRuleId, match=r"'zzz\.\*' \(families: expr, sql, ddl, data, plsql\)"):
        check_rule_ids(["expr.nvl", "zzz.*"])


def test_the_help_example_is_a_registered_id(capsys):
    with pytest.raises(SystemExit):
        main(["migrate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    example = re.search(r"switch a rule off \(e\.g\. ([a-z_.]+),", help_text).group(1)
    assert example in BY_ID and BY_ID[example].not_alone is None


def test_an_unknown_disable_rule_is_a_usage_error_before_any_work(tmp_path, capsys):
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    code = main(
        [
            "migrate",
            str(src),
            "--out",
            str(tmp_path / "out"),
            "--no-deploy",
            "--disable-rule",
            "expr.nvl",
            "--disable-rule",
            "sql.rowmun",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--disable-rule: unknown rule id 'sql.rowmun' (did you mean sql.rownum?)" in err
    assert not (tmp_path / "out").exists()
    assert main(["migrate", str(src), "--out", str(tmp_path / "out"), "--no-deploy", "--disable-rule", "plsql.*"]) == 0


def test_an_unknown_id_in_the_settings_file_is_a_usage_error(tmp_path, capsys):
    settings = tmp_path / "settings.yaml"
    settings.write_text(yaml.safe_dump({"version": 1, "disabled_rules": ["expr.decod"]}))
    with pytest.raises(
        SettingsError, match=r"disabled_rules: unknown rule id 'expr\.decod' \(did you mean expr\.decode"
    ):
        load_settings(settings)
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    code = main(["migrate", str(src), "--out", str(tmp_path / "out"), "--no-deploy", "--settings", str(settings)])
    err = capsys.readouterr().err
    assert code == 2 and f"settings {settings}: disabled_rules: unknown rule id 'expr.decod'" in err
    assert "Traceback" not in err


def test_a_fix_cycle_that_names_an_unknown_rule_is_refused_at_freeze(tmp_path, capsys):
    cycles = tmp_path / "cycles"
    assert main(["fix", "new", "Disable a rule", "--cycles", str(cycles)]) == 0
    path = next(cycles.glob("FIX-*.yaml"))
    data = yaml.safe_load(path.read_text())
    data["hypothesis"] = "switching DBMS_OUTPUT off rejects the units that print"
    data["change"] = {"kind": "rule", "rule_id": "plsql.dbms_ouput", "action": "disable"}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    code = main(["fix", "freeze", path.stem, "--cycles", str(cycles), "--settings", str(tmp_path / "s.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and "unknown rule id 'plsql.dbms_ouput' (did you mean plsql.dbms_output" in err


# -- each construct: its file, its node, its tests -----------------------------------------------------
CONSTRUCTS = [(r, c) for r in RULES for c in r.constructs]
TESTS_DIR = ROOT / "tests" / "migrator" / "convert"


def _ids(rc) -> str:
    return f"{rc[0].id}:{rc[1].name}" if isinstance(rc, tuple) else str(rc)


def test_every_rule_declares_its_constructs_each_with_node_file_and_tests():
    for rule in RULES:
        assert rule.constructs, f"{rule.id} declares no construct"
        for c in rule.constructs:
            assert c.name and c.nodes and c.tests, f"{rule.id}: {c}"
            assert 1 <= len(c.files) <= 2, f"{rule.id}: {c.name} is spread over {c.files}"


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


@pytest.mark.parametrize("rule, construct", CONSTRUCTS, ids=map(_ids, CONSTRUCTS))
def test_each_declared_file_uses_its_rule_id(rule, construct):
    for file in construct.files:
        path = CONVERTERS / file
        assert path.is_file(), f"{rule.id}: {construct.name}: no file migrator/convert/{file}"
        assert rule.id in _string_constants(path), f"migrator/convert/{file} does not use {rule.id}"


def _node_is_real(node: str, rule_id: str, files: tuple[str, ...]) -> bool:
    from sqlglot import exp

    from migrator.convert.context import Catalog, ConversionContext
    from migrator.convert.datatypes import map_type
    from migrator.convert.plsql import ast as plsql_ast
    from migrator.source.units import UnitKind

    kind, _, name = node.partition(".") if not node.startswith(("type:", "name:")) else node.partition(":")
    if kind == "exp":
        return isinstance(getattr(exp, name, None), type) and issubclass(getattr(exp, name), exp.Expression)
    if kind == "ast":
        return isinstance(getattr(plsql_ast, name, None), type)
    if kind == "UnitKind":
        return name in UnitKind.__members__
    if kind == "type":  # the type mapping reads this spelling with this rule
        ctx = ConversionContext(catalog=Catalog(default_schema="s"))
        map_type(name, ctx)
        return rule_id in ctx.applied_rules
    if kind == "name":  # a name PL/SQL code reads, resolved in the construct's file
        return any(name in (CONVERTERS / f).read_text(encoding="utf-8") for f in files)
    return False


@pytest.mark.parametrize("rule, construct", CONSTRUCTS, ids=map(_ids, CONSTRUCTS))
def test_each_declared_node_is_real(rule, construct):
    for node in construct.nodes:
        assert _node_is_real(node, rule.id, construct.files), f"{rule.id}: {construct.name}: node {node!r}"


GOLDEN = sorted({(r.id, t.removeprefix("golden:")) for r, c in CONSTRUCTS for t in c.tests if t.startswith("golden:")})


@pytest.mark.parametrize("rule_id, case", GOLDEN, ids=[f"{r}:{c}" for r, c in GOLDEN])
def test_each_declared_golden_case_shows_its_rule(rule_id, case):
    family, name = case.split("/")
    assert (GOLDEN_ROOT / family / f"{name}.ora.sql").is_file(), f"no golden case {case}"
    on, applied = convert_case(family, name)
    off, _ = convert_case(family, name, frozenset({rule_id}))
    assert rule_id in applied, f"golden {case} does not apply {rule_id}"
    assert on != off or BY_ID[rule_id].not_alone, f"switching {rule_id} off does not change golden {case}"


def test_each_declared_test_exists():
    for rule, construct in CONSTRUCTS:
        for test in construct.tests:
            if test.startswith("golden:"):
                continue
            file, _, name = test.partition("::")
            path = TESTS_DIR / file
            assert path.is_file(), f"{rule.id}: no test file {path}"
            defined = {
                n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.FunctionDef)
            }
            assert name in defined, f"{rule.id}: {file} defines no {name}"


# -- the README's table -----------------------------------------------------------------------------
def _readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text[text.index("<!-- rules:start -->") : text.index("<!-- rules:end -->") + len("<!-- rules:end -->")]


def test_the_readme_table_is_generated_from_the_registry():
    assert _readme_section() == markdown(), "README is stale: run python -m migrator.convert.registry --write README.md"


@pytest.mark.parametrize(
    "word", ["NVL", "CONNECT BY", "BULK COLLECT", "FORALL", "PRAGMA AUTONOMOUS_TRANSACTION", "PRAGMA EXCEPTION_INIT"]
)
def test_a_newcomer_finds_a_construct_in_one_row_and_one_file(word):
    rows = [
        line
        for line in _readme_section().splitlines()
        if line.startswith(f"| {word} ") or line.startswith(f"| {word},")
    ]
    assert len(rows) == 1, rows
    files = rows[0].split(" | ")[3]
    assert files.count("`") // 2 <= 2, rows[0]


def test_the_registry_command_prints_and_rewrites_the_table(tmp_path, capsys):
    from migrator.convert.registry import main as registry_main

    assert registry_main(["--markdown"]) == 0 and capsys.readouterr().out.strip() == markdown()
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- rules:start -->\nold\n<!-- rules:end -->\nafter\n")
    assert registry_main(["--write", str(readme)]) == 0
    assert readme.read_text() == f"intro\n{markdown()}\nafter\n"
    readme.write_text("no markers\n")
    assert registry_main(["--write", str(readme)]) == 2
    assert "no <!-- rules:start --> ... <!-- rules:end --> markers" in capsys.readouterr().err
