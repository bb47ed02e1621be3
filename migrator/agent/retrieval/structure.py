"""Node kinds of a candidate, structural similarity, and skills from accepted repairs.

A *structure* is the multiset of node kinds a real parser finds: PostgreSQL's own (pglast's
`parse_plpgsql` for routine bodies, `parse_sql` for statements) for the PL/SQL and Text-to-SQL
tasks, Python's `ast` for the SWE task. Text no parser accepts falls back to the kinds of its
tokens (keywords and called names), so a broken candidate still has a structure — that is the
state most repairs start from.

A *skill* is what an accepted repair changed: the hunks of the candidate before and after, keyed
by the node kinds that appear or disappear between the two. It is shown to the model as a pattern
to apply, and retrieved by how much its key overlaps the structure of the unit being repaired.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$#.]*")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_$#.]*)\s*\(")
# words that carry structure in Oracle and PostgreSQL code (statement and clause heads)
_KEYWORDS = frozenset(
    """select insert update delete merge into from where group order having join union case when then
    else end if elsif loop while for begin exception raise return declare cursor open fetch close execute
    immediate using commit rollback function procedure trigger package body type record table values
    returning perform notice exit continue goto pragma bulk collect forall connect prior start with
    nvl decode coalesce substr instr to_char to_date to_number sysdate dbms_output put_line""".split()
)


def node_kinds(text: str) -> Counter[str]:
    """The multiset of node kinds of `text` (see the module docstring for which parser)."""
    for parse in (_plpgsql_kinds, _sql_kinds, _python_kinds):
        kinds = parse(text)
        if kinds:
            return kinds
    return _token_kinds(text)


def _walk_json(node, out: Counter[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key[:1].isupper():  # pglast's JSON names a node by its C struct (PLpgSQL_stmt_if, ...)
                out[key] += 1
            _walk_json(value, out)
    elif isinstance(node, list):
        for value in node:
            _walk_json(value, out)


def _plpgsql_kinds(text: str) -> Counter[str]:
    if "create" not in text.lower() or "plpgsql" not in text.lower():
        return Counter()
    try:
        from pglast import parse_plpgsql

        tree = parse_plpgsql(text)
    except Exception:  # pglast raises its own ParseError and, on odd input, others: not a body then
        return Counter()
    out: Counter[str] = Counter()
    _walk_json(tree, out)
    # the SQL inside the body's expressions has structure too
    for expr in _expressions(tree):
        out.update(_sql_kinds(f"SELECT {expr}") or _token_kinds(expr))
    return out


def _expressions(node) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "PLpgSQL_expr" and isinstance(value, dict) and isinstance(value.get("query"), str):
                yield value["query"]
            else:
                yield from _expressions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _expressions(value)


def _sql_kinds(text: str) -> Counter[str]:
    try:
        from pglast import parse_sql

        stmts = parse_sql(text)
    except Exception:  # not SQL PostgreSQL accepts
        return Counter()
    out: Counter[str] = Counter()
    for stmt in stmts:
        _walk_pglast(stmt, out)
        for func in _CALL.findall(text):
            out[f"call:{func.lower()}"] += 1
    return out


def _walk_pglast(node, out: Counter[str]) -> None:
    from pglast.ast import Node

    if isinstance(node, Node):
        out[type(node).__name__] += 1
        for attr in node:
            _walk_pglast(getattr(node, attr), out)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _walk_pglast(value, out)


def _python_kinds(text: str) -> Counter[str]:
    if not re.search(r"^\s*(def|class|import|from)\s", text, re.MULTILINE):
        return Counter()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return Counter()
    out: Counter[str] = Counter(type(n).__name__ for n in ast.walk(tree))
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute)):
            out[f"call:{n.func.id if isinstance(n.func, ast.Name) else n.func.attr}"] += 1
    return out


def _token_kinds(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for word in _WORD.findall(text):
        low = word.lower()
        if low in _KEYWORDS:
            out[f"kw:{low}"] += 1
    for func in _CALL.findall(text):
        out[f"call:{func.lower()}"] += 1
    return out


def similarity(a: Counter[str], b: Counter[str]) -> float:
    """Weighted Jaccard of two multisets of node kinds, in [0, 1]."""
    keys = set(a) | set(b)
    if not keys:
        return 0.0
    top = sum(min(a[k], b[k]) for k in keys)
    return top / sum(max(a[k], b[k]) for k in keys)


@dataclass(frozen=True)
class Skill:
    """A reusable transformation from an accepted repair (see the module docstring)."""

    key: tuple[str, ...]  # node kinds the repair added or removed, sorted
    before: str  # the changed lines of the candidate before the repair
    after: str  # the same place after it
    constructs: tuple[str, ...]  # the source unit's Oracle constructs (what the skill is about)
    failure_type: str
    task_id: str
    task_group: str
    tier: str

    @property
    def fingerprint(self) -> str:
        body = json.dumps([self.key, self.before, self.after], sort_keys=True)
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]

    def text(self) -> str:
        return (
            f"skill {self.fingerprint}: failure={self.failure_type} constructs={' '.join(self.constructs)}\n"
            f"node kinds changed: {' '.join(self.key)}\n"
            f"apply this change where the same pattern appears:\n--- before\n{self.before}\n+++ after\n{self.after}"
        )

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Skill:
        return cls(**{**data, "key": tuple(data["key"]), "constructs": tuple(data["constructs"])})


def extract_skill(
    before: str,
    after: str,
    *,
    constructs: tuple[str, ...],
    failure_type: str,
    task_id: str,
    task_group: str,
    tier: str,
    max_lines: int = 24,
) -> Skill | None:
    """The changed hunks of an accepted repair and the node kinds they add or remove; None when
    nothing structural changed (a whitespace edit teaches nothing)."""
    a_lines, b_lines = before.splitlines(), after.splitlines()
    old, new = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
        if tag != "equal":
            old += a_lines[i1:i2]
            new += b_lines[j1:j2]
    if not old and not new:
        return None
    ka, kb = node_kinds(before), node_kinds(after)
    changed = sorted(k for k in set(ka) | set(kb) if ka[k] != kb[k])
    if not changed:
        changed = sorted(set(_token_kinds("\n".join(old))) ^ set(_token_kinds("\n".join(new))))
    if not changed:
        return None
    return Skill(
        key=tuple(changed),
        before="\n".join(old[:max_lines]),
        after="\n".join(new[:max_lines]),
        constructs=constructs,
        failure_type=failure_type,
        task_id=task_id,
        task_group=task_group,
        tier=tier,
    )
