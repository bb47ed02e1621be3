"""No module under migrator/convert holds module-level mutable state: converting a unit depends on
the unit and its `ConversionContext` alone (per-run caches, the compile target and the parses live
in the context).

The rule, for every name bound at the top level of every module under `migrator.convert`:

* an immutable value is fine: None, bool, int, float, str, bytes, a frozenset, a tuple of
  immutable values, a `MappingProxyType`, a compiled regex, an Enum member, a frozen dataclass
  instance, a module, a class, a function;
* a dict, set or list is a constant table only if its name is a constant's (UPPER_CASE, `_` prefix
  allowed) and no function anywhere in `migrator/` mutates a name so spelled (item assignment or
  deletion, augmented assignment, a mutating method such as `add` / `update` / `clear` /
  `append` / `setdefault` / `pop`, or a `global` statement); filling it while the module is imported
  is fine, that is how a table is built — also by a registering decorator, whose table is listed in
  `IMPORT_TIME_REGISTRIES` (the decorator's inner function is the mutation this rule would see);
* a function cache (`functools.lru_cache` / `cache`) only in `PURE_CACHES`, for a function whose
  result depends on its arguments alone (so its cache is keyed by all of its inputs);
* any other object only in `STATELESS`, with the reason it keeps nothing between calls;
* and no function under `migrator/convert` has a `global` statement.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import pkgutil
import re
import types
from pathlib import Path

import migrator
import migrator.convert

MIGRATOR = Path(migrator.__file__).parent
IMMUTABLE = (type(None), bool, int, float, complex, str, bytes, range, frozenset, types.MappingProxyType)
IMMUTABLE += (re.Pattern, enum.Enum, types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType)
MUTATORS = frozenset(
    {"add", "append", "clear", "discard", "extend", "insert", "pop", "popitem", "remove", "reverse", "setdefault",
     "sort", "update", "__setitem__", "__delitem__"}
)  # fmt: skip
CONSTANT_NAME = re.compile(r"_?[A-Z][A-Z0-9_]*")
# (module, name): why the function's result depends on its arguments alone
PURE_CACHES = {
    ("migrator.convert.signatures", "base_type"): "a type spelling's canonical base name: text in, text out",
    ("migrator.convert.sql.implicit", "_built_type"): "a type spelling's sqlglot tree (handed out as copies only)",
    ("migrator.convert.plsql.conditional", "has_directives"): "whether a text holds a $ directive: text in, bool out",
}
# (module, name): what fills the table, only while modules are imported (a decorator at their top level)
IMPORT_TIME_REGISTRIES = {
    ("migrator.convert.plsql.statements", "_EMITTERS"): "@statements.emits on the statement emitters of the "
    "emit_* modules, which plsql/__init__ imports; everyone else reads the read-only STATEMENTS view",
}
# (module, name): why the object keeps nothing from one call to the next
STATELESS = {
    ("migrator.convert.sql.convert", "_ORACLE"): "sqlglot's Oracle dialect: settings only",
    ("migrator.convert.sql.convert", "_TOKENIZER"): "sqlglot tokenizer, reset by every tokenize() call",
    ("migrator.convert.sql.convert", "_PARSER"): "sqlglot parser, reset by every parse() call",
    ("migrator.convert.sql.names", "_POSTGRES"): "sqlglot generator, reset by every generate() call",
    ("migrator.convert.sql.oracle_parse", "_ORACLE"): "sqlglot's Oracle dialect: settings only",
    ("migrator.convert.sql.oracle_parse", "_TOKENIZER"): "sqlglot tokenizer, reset by every tokenize() call",
    ("migrator.convert.sql.oracle_parse", "_PARSER"): "sqlglot parser, reset by every parse() call",
}


def _modules() -> list[types.ModuleType]:
    names = [m.name for m in pkgutil.walk_packages(migrator.convert.__path__, "migrator.convert.")]
    return [migrator.convert] + [importlib.import_module(n) for n in names]


def _base_name(node: ast.expr) -> str | None:
    """NAME for `NAME`, `mod.NAME`, `NAME[...]`, `mod.NAME[...]` ..."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _mutations_in(tree: ast.AST) -> set[str]:
    """Names that code inside functions of `tree` mutates, or rebinds with `global`."""
    found: set[str] = set()
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Global):
                found.update(node.names)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
                found.add(_base_name(node.value) or "")
            elif isinstance(node, ast.AugAssign):
                found.add(_base_name(node.target) or "")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                found.add(_base_name(node.func.value) or "")
    return found


def _mutated_names() -> set[str]:
    found: set[str] = set()
    for path in MIGRATOR.rglob("*.py"):
        found |= _mutations_in(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return found


def _immutable(value: object) -> bool:
    if value is dataclasses.KW_ONLY:  # imported for field declarations: a sentinel, never changed
        return True
    if isinstance(value, IMMUTABLE) or _type_alias(value):
        return True
    if isinstance(value, tuple):
        return all(_immutable(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return bool(value.__dataclass_params__.frozen)
    return False


def _type_alias(value: object) -> bool:
    """`Owner = tuple[str, ...]`, `Rule = Callable[...]`: annotations, not data."""
    return isinstance(value, (types.GenericAlias, types.UnionType)) or type(value).__module__ == "typing"


def _problems() -> list[str]:
    mutated = _mutated_names()
    problems = []
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__") or name == "annotations" or _immutable(value):
                continue  # `annotations`: what `from __future__ import annotations` binds
            where = f"{module.__name__}.{name}"
            if hasattr(value, "cache_info"):
                defined = (value.__module__, value.__qualname__)  # wherever it is imported
                if defined not in PURE_CACHES:
                    problems.append(f"{where}: a function cache not listed in PURE_CACHES")
            elif isinstance(value, (dict, set, list, bytearray)):
                kind = type(value).__name__
                if not CONSTANT_NAME.fullmatch(name):
                    problems.append(f"{where}: a module-level {kind} not named as a constant")
                elif name in mutated and (module.__name__, name) not in IMPORT_TIME_REGISTRIES:
                    problems.append(f"{where}: a module-level {kind} that a function mutates")
            elif (module.__name__, name) not in STATELESS:
                problems.append(f"{where}: a {type(value).__name__} (state?) not listed in STATELESS")
    return problems


def test_no_module_under_convert_holds_mutable_state():
    assert _problems() == []


def test_no_function_under_convert_rebinds_a_global():
    for path in (MIGRATOR / "convert").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Global)], path


def test_the_rule_finds_what_it_must():
    """The checks themselves: each kind of mutation is found."""
    code = """
def f(x):
    global G
    A[x] = 1
    del B[x]
    m.C[x] += 1
    m.D.setdefault(x, [])
    E.add(x)
    F = {}  # a local binding: not a mutation
"""
    assert _mutations_in(ast.parse(code)) == {"G", "A", "B", "C", "D", "E"}
    assert not _immutable({}) and not _immutable([1]) and not _immutable((1, [2]))
    assert _immutable((1, frozenset({2}), types.MappingProxyType({})))


def test_the_shared_postgres_generator_starts_its_made_up_aliases_afresh():
    """sqlglot names a table alias that has columns but no name `_t<n>` from a counter kept in the
    generator: shared by every conversion, the second unit would get `_t1`."""
    from sqlglot import exp

    from migrator.convert.sql.names import to_postgres

    alias = exp.TableAlias(columns=[exp.to_identifier("a")])
    query = exp.select("*").from_(exp.Table(this=exp.to_identifier("x"), alias=alias))
    assert to_postgres(query) == to_postgres(query) == "SELECT * FROM x AS _t0(a)"
