"""Which units refer to which, and an order to deploy them in: `analyze_dependencies(source)`.

References come from code tokens only (never strings or comments): identifier chains such as
`emp`, `hr.emp`, `pkg.member`, `seq.NEXTVAL`, matched against the objects defined in the input.
Triggers, indexes, comments, data, grants and ALTERs also depend on their target table, and a
package or type body on its spec (`parent_id`).

"Missing" is deliberately conservative (an alias `e.salary` looks like `schema.table` to a
lexer): only (a) qualified names in a table position (FROM, JOIN, INSERT/MERGE INTO, UPDATE,
REFERENCES) or as a sequence (`x.NEXTVAL`), (b) calls `name(...)` / `pkg.name(...)` of routines that
are neither defined, nor built in (`migrator.source.oracle_names`), nor declared inside the unit or its
spec, and (c) target tables that are not defined.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial

import rustworkx as rx

from migrator.forked import fork_map
from migrator.source.dynamic_ddl import dynamic_creates
from migrator.source.lexer import QIDENT, WORD, code_texts, normalize_identifier
from migrator.source.oracle_names import FROM_EXPRESSION_WORDS, is_builtin
from migrator.source.units import Severity, SourceIssue, SourceSet, Unit, UnitKind

K = UnitKind
# Tie-break between units with no dependency between them (lower deploys first).
KIND_PRIORITY = {
    k: i
    for i, group in enumerate(
        [(K.TYPE,), (K.SEQUENCE,), (K.TABLE,), (K.ALTER,), (K.INDEX,), (K.COMMENT,), (K.DATA,),
         (K.VIEW, K.MATERIALIZED_VIEW), (K.FUNCTION, K.PROCEDURE), (K.PACKAGE_SPEC,), (K.PACKAGE_BODY,),
         (K.TYPE_BODY,), (K.TRIGGER,), (K.GRANT, K.SYNONYM), (K.ANONYMOUS_BLOCK,), (K.OTHER,)]
    )
    for k in group
}  # fmt: skip
_SPEC_OF = {K.PACKAGE_BODY: K.PACKAGE_SPEC, K.TYPE_BODY: K.TYPE}
# Objects other code refers to by name (indexes and triggers are never referenced from code).
_PROVIDER_KINDS = frozenset(
    {K.TABLE, K.VIEW, K.MATERIALIZED_VIEW, K.SEQUENCE, K.FUNCTION, K.PROCEDURE, K.PACKAGE_SPEC,
     K.PACKAGE_BODY, K.TYPE, K.TYPE_BODY, K.SYNONYM}
)  # fmt: skip
_TABLE_POSITION = frozenset({"FROM", "JOIN", "UPDATE", "REFERENCES"})
_BINDS_NOW = frozenset({K.VIEW, K.MATERIALIZED_VIEW, K.INDEX, K.TABLE, K.DATA})
_DECLARING = frozenset({"FUNCTION", "PROCEDURE", "CURSOR", "TYPE", "SUBTYPE"})
_GRAPH_CODES = frozenset({"dependency-cycle", "missing-reference"})


@dataclass
class DependencyGraph:
    # unit id → the units deployed before it that it depends on (including the edges of a cycle
    # that ordering had to drop)
    predecessors: dict[str, set[str]]
    order: list[str]
    cycles: list[list[str]] = field(default_factory=list)
    missing: dict[str, list[str]] = field(default_factory=dict)

    def dependencies(self, unit_id: str) -> list[str]:
        return sorted(self.predecessors.get(unit_id, ()))


@dataclass
class _Chain:
    parts: list[str]
    before: str  # the code token before the chain, upper case
    before2: str  # the one before that
    after: str  # the code token after the chain
    after2: str  # and the one after that ('+' in an outer-join mark '(+)')


@dataclass
class _Scan:
    chains: list[_Chain]
    declared: set[str]


def analyze_dependencies(
    source: SourceSet, workers: int = 1, meanwhile: Callable[[], object] | None = None
) -> DependencyGraph:
    """Fill `references` and `parent_id` of every unit, report cycles and missing references
    as issues on `source`, and return the graph with a deployment order. Safe to call again.
    `workers` > 1: units are scanned on forked processes (migrator.forked), same result.
    `meanwhile()`: the caller's work to run here while the workers scan (`fork_map`); it sees
    the units' `parent_id`, not yet their `references`, nor the issues this adds."""
    units = source.units
    providers = _providers(units)
    # SQL (a view, an index expression) binds the functions of a package or object type when it is
    # created, and in PostgreSQL they exist once the body is deployed, not the spec
    bodies = {u.qualified_name: u.id for u in units if u.kind in (K.PACKAGE_BODY, K.TYPE_BODY)}
    schemas = _schemas(source)  # once: per unit it made the scan quadratic in the number of units
    for unit in units:
        _link_parent(unit, providers)
    texts = {u.id: u.text for u in units}
    by_id = {u.id: u for u in units}
    scan = partial(_references, texts=texts, providers=providers, schemas=schemas)
    found = fork_map(scan, units, workers, 64, meanwhile=meanwhile)
    ids = list(dict.fromkeys(u.id for u in units))
    node = {uid: i for i, uid in enumerate(ids)}
    # rustworkx, not networkx: the same algorithms, and its import costs 6 ms instead of 165 ms
    # of every `migrator` command's start-up
    graph = rx.PyDiGraph(multigraph=False)
    graph.add_nodes_from(ids)
    missing: dict[str, list[str]] = {}
    for unit, (refs, absent) in zip(units, found):
        unit.references = refs
        drop = _is_drop(unit)
        for name in refs:
            provider = providers.get(name)
            if provider and provider != unit.id:
                if drop and _drop_goes_first(unit, by_id[provider]):
                    graph.add_edge(node[unit.id], node[provider], None)
                else:
                    graph.add_edge(node[provider], node[unit.id], None)
            if unit.kind in _BINDS_NOW and name in bodies:
                graph.add_edge(node[bodies[name]], node[unit.id], None)
        if unit.parent_id:
            graph.add_edge(node[unit.parent_id], node[unit.id], None)
        if absent:
            missing[unit.id] = sorted(absent)
    _order_state_changes(graph, node, units)
    _hierarchy_root_after_subtype_parts(graph, node, units, providers)
    rank: dict[str, tuple[int, int]] = {}
    for i, u in enumerate(units):
        rank.setdefault(u.id, (KIND_PRIORITY[u.kind], i))
    cycles = _break_cycles(graph, ids, rank)
    _data_after_referenced_data(graph, node, units)
    # ties broken by kind priority, then source order (a string key sorts as the tuple does)
    key = {uid: f"{r[0]:04d}:{r[1]:010d}" for uid, r in rank.items()}
    order = list(rx.lexicographical_topological_sort(graph, key=lambda uid: key[uid]))
    graph_result = DependencyGraph(_predecessors(graph, ids, cycles, units, providers), order, cycles, missing)
    _report(source, graph_result)
    return graph_result


def _is_drop(unit: Unit) -> bool:
    head = unit.text.lstrip()[:5].upper()
    return unit.kind is K.OTHER and head[:4] == "DROP" and head[4:].isspace()


def _drop_goes_first(drop: Unit, created: Unit) -> bool:
    """A DROP of an object the export also creates runs where SQL*Plus runs it in its own file:
    before the CREATE that follows it (an install script that drops before it creates). Across
    files, or when the DROP follows in no file order we know, it goes first too: run after, it would
    remove what the export creates (an uninstall script migrated with the install)."""
    return drop.span.file != created.span.file or drop.span.start_offset < created.span.start_offset


_STATE_CHANGE = re.compile(r"\b(ENABLE|DISABLE)\b", re.IGNORECASE)
_ALTER_TRIGGER = re.compile(r"\s*ALTER\s+TRIGGER\s+([\w$#\".]+)\s+(ENABLE|DISABLE)\b", re.IGNORECASE)
_TOUCHES_ROWS = frozenset({K.ANONYMOUS_BLOCK, K.DATA})


def _order_state_changes(graph: rx.PyDiGraph, node: dict[str, int], units: list[Unit]) -> None:
    """ENABLE / DISABLE of a table's constraints (ALTER TABLE) or of a trigger (ALTER TRIGGER)
    changes what the rows loaded around it may be: an export disables a foreign key, loads, then
    enables it. Such a unit deploys, relative to the blocks and data of its own file, in the file's
    order (SQL*Plus runs a script top to bottom; an ENABLE validates the rows of every table loaded
    before it); relative to those of another file that write its table, first (the state the
    export's author meant for loading). An ALTER TRIGGER follows its trigger."""
    triggers = {u.qualified_name: u for u in units if u.kind is K.TRIGGER}
    writers = [u for u in units if u.kind in _TOUCHES_ROWS]
    # the anonymous blocks of one file run in its order (a later block may need an earlier one's
    # rows; a state change between them must not let a later block overtake an earlier one)
    previous: dict[str, Unit] = {}
    for block in sorted((u for u in units if u.kind is K.ANONYMOUS_BLOCK), key=lambda u: u.span.start_offset):
        before = previous.get(block.span.file)
        if before is not None:
            graph.add_edge(node[before.id], node[block.id], None)
        previous[block.span.file] = block
    for unit in units:
        table = None
        if unit.kind is K.ALTER and _STATE_CHANGE.search(unit.text):
            table = unit.qualified_name
        elif unit.kind is K.OTHER and (m := _ALTER_TRIGGER.match(unit.text)):
            parts = [normalize_identifier(p) for p in m.group(1).split(".")]
            trigger = triggers.get(".".join(parts) if len(parts) > 1 else f"{unit.schema}.{parts[0]}")
            if trigger is None or not trigger.target:
                continue
            graph.add_edge(node[trigger.id], node[unit.id], None)
            table = trigger.target
        if table is None:
            continue
        for writer in writers:
            same_file = writer.span.file == unit.span.file
            if not same_file and writer.target != table and table not in writer.references:
                continue  # in its own file, every load around it counts (ENABLE validates them)
            if same_file and writer.span.start_offset < unit.span.start_offset:
                if not graph.has_edge(node[unit.id], node[writer.id]):
                    graph.add_edge(node[writer.id], node[unit.id], None)
            elif not graph.has_edge(node[writer.id], node[unit.id]):
                graph.add_edge(node[unit.id], node[writer.id], None)


def _schemas(source: SourceSet) -> set[str]:
    return {source.schema} | {u.schema for u in source.units}


def _providers(units: list[Unit]) -> dict[str, str]:
    """Qualified name → the unit others depend on: the first definition, a spec before its body."""
    found: dict[str, str] = {}
    for unit in sorted(units, key=lambda u: u.kind in _SPEC_OF):  # specs first, stable otherwise
        if unit.kind in _PROVIDER_KINDS:
            found.setdefault(unit.qualified_name, unit.id)
    for unit in units:  # what an install block creates through EXECUTE IMMEDIATE, when nothing else does
        for created in dynamic_creates(unit):
            found.setdefault(f"{created.schema}.{created.name}", unit.id)
    return found


def _link_parent(unit: Unit, providers: dict[str, str]) -> None:
    if unit.kind in _SPEC_OF:
        spec = f"{_SPEC_OF[unit.kind].value}:{unit.qualified_name}"
        unit.parent_id = spec if providers.get(unit.qualified_name) == spec else None


def _references(unit: Unit, texts: dict[str, str], providers, schemas) -> tuple[set[str], set[str]]:
    """(defined objects the unit refers to, names it calls or reads that nothing defines). A body
    may use what its spec declares, so the spec is scanned too (cached: the spec and its body
    are usually neighbours in a chunk of work)."""
    scan = _scan_cached(texts[unit.id])
    declared = scan.declared | (_scan_cached(texts[unit.parent_id]).declared if unit.parent_id else set())
    return _resolve(unit, scan.chains, declared, providers, schemas)


@lru_cache(maxsize=64)
def _scan_cached(text: str) -> _Scan:
    return _scan(text)


def _scan(text: str) -> _Scan:
    """Identifier chains in code, and names the text itself declares (locals, parameters,
    nested routines, cursors, types): those are never reported as missing."""
    kinds, words = code_texts(text)
    chains, declared, i, n = [], set(), 0, len(words)
    while i < n:
        if kinds[i] not in (WORD, QIDENT) or (i and words[i - 1] in (".", ":", "%", "@")):
            i += 1
            continue
        # a bare word's plain name is its lower case (identifiers.fold), the common case spelled out
        j, parts = i, [words[i].lower() if kinds[i] == WORD else normalize_identifier(words[i])]
        while j + 2 < n and words[j + 1] == "." and kinds[j + 2] in (WORD, QIDENT):
            parts.append(words[j + 2].lower() if kinds[j + 2] == WORD else normalize_identifier(words[j + 2]))
            j += 2
        before = words[i - 1].upper() if i else ""
        after = words[j + 1] if j + 1 < n else ""
        if len(parts) == 1 and (before in _DECLARING or (after and kinds[j + 1] == WORD)):
            declared.add(parts[0])
        after2 = words[j + 2] if j + 2 < n else ""
        chains.append(_Chain(parts, before, words[i - 2].upper() if i > 1 else "", after, after2))
        i = j + 1
    return _Scan(chains, declared)


def _resolve(unit, chains, declared, providers, schemas) -> tuple[set[str], set[str]]:
    refs: set[str] = set()
    absent: set[str] = set()
    own = unit.qualified_name
    for chain in chains:
        if chain.before == "REF" and unit.kind is K.TYPE:
            # REF t in a type needs t declared only (Oracle takes an incomplete type); converted,
            # a reference is oracompat.object_ref, which needs nothing of t
            continue
        name = _match(chain.parts, unit.schema, providers)
        if name:
            if name != own or unit.kind in _SPEC_OF:
                refs.add(name)
        elif chain.after not in ("=>", "@"):
            guess = _missing_name(unit, chain, declared, schemas)
            if guess:
                absent.add(guess)
    if unit.target:
        if unit.target in providers:
            refs.add(unit.target)
        elif unit.kind is not K.GRANT:
            absent.add(unit.target)
    return refs, absent


def _match(parts: list[str], schema: str, providers: dict[str, str]) -> str | None:
    if len(parts) >= 2 and f"{parts[0]}.{parts[1]}" in providers:
        return f"{parts[0]}.{parts[1]}"
    if f"{schema}.{parts[0]}" in providers:
        return f"{schema}.{parts[0]}"
    return None


def _missing_name(unit: Unit, chain: _Chain, declared: set[str], schemas: set[str]) -> str | None:
    parts, head = chain.parts, chain.parts[0]
    if is_builtin(head) or head in declared or (head == unit.name and len(parts) == 1):
        return None
    if chain.before == "PIPE" and head.upper() == "ROW":  # PIPE ROW (...) of a PIPELINED function
        return None
    qualified = ".".join(parts[:2])
    if chain.after == "(" and chain.after2 != "+":
        if len(parts) == 1:
            routine = unit.kind not in (K.TABLE, K.INDEX, K.GRANT, K.COMMENT)
            return head if routine and chain.before not in _TABLE_POSITION | {"INTO", "TABLE", "ON"} else None
        return qualified if len(parts) == 2 or head in schemas else None
    if len(parts) >= 2 and parts[-1].upper() in ("NEXTVAL", "CURRVAL"):
        return ".".join(parts[:-1])
    if len(parts) == 2 and _in_table_position(chain):
        return qualified
    return None


def _in_table_position(chain: _Chain) -> bool:
    if chain.before == "FROM":
        return chain.before2 not in FROM_EXPRESSION_WORDS and not chain.before2.startswith("'")
    if chain.before == "INTO":
        return chain.before2 in ("INSERT", "MERGE", "ALL", "FIRST")
    return chain.before in _TABLE_POSITION


def _data_after_referenced_data(graph: rx.PyDiGraph, node: dict[str, int], units: list[Unit]) -> None:
    """A table's rows load after the rows of the tables its foreign keys reference (in its CREATE
    TABLE or an ALTER TABLE on it), across schemas: `INSERT`s written in another order, or in
    other schemas' files, still load. Where the keys form a cycle (departments ↔ employees) the
    edge that would close it is left out: those rows load in source order, and what PostgreSQL
    refuses is reported row by row (`migrator.data.table_unit.split_refused`)."""
    data = {u.qualified_name: u.id for u in units if u.kind is K.DATA}
    if len(data) < 2:
        return
    for unit in units:
        child = data.get(unit.qualified_name)
        if child is None or unit.kind not in (K.TABLE, K.ALTER):
            continue
        for name in sorted(unit.references):
            parent = data.get(name)
            if parent is None or parent == child:
                continue
            a, b = node[parent], node[child]
            if not rx.has_path(graph, b, a):
                graph.add_edge(a, b, None)


def _hierarchy_root_after_subtype_parts(
    graph: rx.PyDiGraph, node: dict[str, int], units: list[Unit], providers: dict[str, str]
) -> None:
    """A type hierarchy (UNDER) converts to one tagged composite created with its root type that
    holds every subtype's attributes (`migrator.convert.type_hierarchy`): the root's unit comes
    after the types of its subtypes' attributes (a collection type declared after the root)."""
    supertype: dict[str, str] = {}
    for unit in units:
        if unit.kind is not K.TYPE:
            continue
        for chain in _scan_cached(unit.text).chains:
            if chain.before == "UNDER":
                name = _match(chain.parts, unit.schema, providers)
                if name and providers[name] != unit.id:
                    supertype[unit.id] = providers[name]
                break
    by_id = {u.id: u for u in units}
    for sub in supertype:
        lineage = [sub]  # the subtype, its supertype, ..., the root
        while lineage[-1] in supertype and supertype[lineage[-1]] not in lineage:
            lineage.append(supertype[lineage[-1]])
        root = lineage[-1]
        for name in by_id[sub].references:
            provider = providers.get(name)
            if provider and provider not in lineage:
                graph.add_edge(node[provider], node[root], None)


def _break_cycles(graph: rx.PyDiGraph, ids: list[str], rank: dict) -> list[list[str]]:
    """Report each strongly connected group and keep only its edges that go from a lower to a
    higher rank (kind priority, then source order): deterministic, and acyclic afterwards."""
    cycles = []
    for group in rx.strongly_connected_components(graph):
        if len(group) < 2:
            continue
        members = sorted((ids[n] for n in group), key=lambda uid: rank[uid])
        cycles.append(members)
        inside = set(group)
        for a, b in list(graph.edge_list()):
            if a in inside and b in inside and rank[ids[a]] > rank[ids[b]]:
                graph.remove_edge(a, b)
    return sorted(cycles, key=lambda c: rank[c[0]])


def _predecessors(graph: rx.PyDiGraph, ids: list[str], cycles, units, providers) -> dict[str, set[str]]:
    """Each unit's dependencies, with the cycle edges that ordering had to drop put back."""
    preds: dict[str, set[str]] = {uid: set() for uid in ids}
    for a, b in graph.edge_list():
        preds[ids[b]].add(ids[a])
    for members in cycles:
        group = set(members)
        for unit in units:
            if unit.id in group:
                for name in unit.references:
                    p = providers.get(name)
                    if p in group and p != unit.id:
                        preds[unit.id].add(p)
    return preds


def _report(source: SourceSet, result: DependencyGraph) -> None:
    source.issues[:] = [i for i in source.issues if i.code not in _GRAPH_CODES]
    by_id = source.by_id()
    for members in result.cycles:
        first = by_id[members[0]]
        source.issues.append(SourceIssue(
            "dependency-cycle", f"units depend on each other: {', '.join(members)}; deployed in "
            "kind/source order, which may need a second pass", Severity.WARNING, first.span.file,
            first.span.start_line, first.id, "", first.span))  # fmt: skip
    for unit_id, names in result.missing.items():
        unit = by_id[unit_id]
        source.issues.append(SourceIssue(
            "missing-reference", f"refers to {', '.join(names)}, not defined in the input",
            Severity.WARNING, unit.span.file, unit.span.start_line, unit_id, "", unit.span))  # fmt: skip
