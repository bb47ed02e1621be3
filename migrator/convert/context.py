"""Shared state of one conversion: which rules may run, what they did, what they could not do.

Every rule has a stable id (``family.name``, e.g. ``expr.nvl``, ``ddl.number_type``,
``plsql.dbms_output``), declared once in :mod:`migrator.convert.registry`. A rule checks
``ctx.enabled(rule_id)`` before it rewrites and calls
``ctx.applied(rule_id)`` when it did; what it cannot convert goes to ``ctx.unconverted(...)`` and the
emitted text carries :func:`unconverted_marker`, which PostgreSQL refuses to deploy — a construct
is never dropped silently and never converted into something with a different meaning.

The `Catalog` is what the whole export defines, as the schema model: its `CatalogEntry`s hold the
typed records of :mod:`migrator.convert.schema_model`, filled once per run before any unit
converts (`migrator.convert.dispatch.prepare_context`) and only read afterwards.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING

from migrator.convert.compile_target import Compilation
from migrator.convert.oracompat import spatial
from migrator.convert.registry import check_rule_ids
from migrator.convert.schema_model import Package, SchemaType, Sequence, Synonym, Table
from migrator.source.units import UnitKind

if TYPE_CHECKING:  # only for annotations: the parsed trees and signatures the readers store
    from migrator.convert.plsql import ast as A
    from migrator.convert.signatures import RoutineSig

MARKER_TOKEN = "MIGRATOR_UNCONVERTED"


def unconverted_marker(construct: str, original: str = "") -> str:
    """Text that keeps the original visible and makes deployment fail loudly.

    The comment carries the original Oracle text (with comment terminators defused); the bare
    token after it is a syntax error in SQL and in PL/pgSQL bodies (checked at CREATE time).
    """
    # Both delimiters are defused: PostgreSQL nests /* comments, so a '/*' in the original (or in a
    # name in the construct) would leave the marker's comment open and swallow what follows.
    text = f"{MARKER_TOKEN}({construct}): {original.strip()}" if original.strip() else f"{MARKER_TOKEN}({construct})"
    body = "/* " + text.replace("*/", "* /").replace("/*", "/ *") + " */"
    return f"{body} {MARKER_TOKEN}"


@dataclass(frozen=True)
class Unconverted:
    construct: str  # short name: "CONNECT BY NOCYCLE", "PRAGMA SERIALLY_REUSABLE", ...
    message: str
    line: int | None = None  # 1-based line within the unit text, when known


@dataclass
class RuleSet:
    """Which rules may run. All registered rules are on unless disabled (fix cycles toggle them).
    Every disabled entry must name a registered rule or family (migrator.convert.registry)."""

    disabled: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        check_rule_ids(sorted(self.disabled), "disabled rules")

    def enabled(self, rule_id: str) -> bool:
        return rule_id not in self.disabled and rule_id.split(".", 1)[0] + ".*" not in self.disabled


@dataclass
class CatalogEntry:
    """One object the export defines, with what the whole-schema readers learnt about it
    (`migrator.convert.schema_model` says which reader writes which field)."""

    kind: UnitKind
    schema: str
    name: str
    unit_id: str
    _: KW_ONLY  # the model's fields are named where an entry is made with them (tests do)
    table: Table = field(default_factory=Table)
    sequence: Sequence | None = None
    synonym: Synonym | None = None
    declared_type: SchemaType | None = None  # CREATE TYPE as the DDL reader reads it
    plsql_type: SchemaType | None = None  # CREATE TYPE as the PL/SQL reader reads it
    # a standalone routine's overloads (bodies may be None), parsed by the PL/SQL reader ...
    routines: list[A.Routine] = field(default_factory=list)
    # ... and their converted signatures (migrator.convert.plsql.prepare_sigs); None until computed
    signatures: list[RoutineSig] | None = None
    methods: dict[str, list[A.Routine]] = field(default_factory=dict)  # a TYPE BODY's, by name
    package: Package | None = None  # on the spec's entry (the body's when there is no spec)


def _supplied_entries() -> dict[tuple[str, str], CatalogEntry]:
    return {
        (spatial.OWNER, name): CatalogEntry(
            UnitKind.TYPE, spatial.OWNER, name, f"supplied:{spatial.OWNER}.{name}", declared_type=t, plsql_type=t
        )
        for name, t in spatial.TYPES.items()
    }


def _public_synonyms() -> dict[str, tuple[str, str]]:
    return {name: (spatial.OWNER, name) for name in spatial.TYPES}


_NOT_DEFINING = frozenset(
    {UnitKind.COMMENT, UnitKind.DATA, UnitKind.GRANT, UnitKind.ALTER, UnitKind.ANONYMOUS_BLOCK, UnitKind.OTHER}
)


@dataclass
class Catalog:
    """What the whole schema export defines, so one unit's conversion can see the others
    (is ``x(1)`` a procedure call or a function? is ``pkg.v`` a package variable?): the root of the
    schema model, one `CatalogEntry` per defined object.

    Keys are (schema, name) pairs of plain names (`migrator.source.identifiers`): a name may hold any
    character, '.' included, so a dotted string would be ambiguous."""

    default_schema: str
    entries: dict[tuple[str, str], CatalogEntry] = field(default_factory=dict)
    # Facts about the whole schema the prepare passes found, e.g. "error_stack_callee": some unit
    # reads DBMS_UTILITY.FORMAT_ERROR_* (possibly outside a handler, in a routine a handler calls).
    flags: set[str] = field(default_factory=set)
    # Oracle-supplied objects the converted code may name, as entries like the export's own
    # (MDSYS.SDO_GEOMETRY ...: `oracompat.spatial`), and the public synonyms by which Oracle resolves
    # their unqualified names when the schema has no object so named. Kept apart from `entries`,
    # which lists what the export defines.
    supplied: dict[tuple[str, str], CatalogEntry] = field(default_factory=_supplied_entries)
    public_synonyms: dict[str, tuple[str, str]] = field(default_factory=_public_synonyms)

    def add(self, entry: CatalogEntry) -> None:
        key = (entry.schema, entry.name)
        old = self.entries.get(key)
        # First definition wins (duplicates are reported by the reader); a package body does
        # not replace its spec's entry, and a type body read first (x.tpb before x.tps) gives
        # way to its type. Statements about an object (COMMENT ON, INSERT INTO,
        # GRANT, ALTER) carry its name without defining it: the definition replaces them, or a
        # comments file read before the tables would hide the tables' columns.
        if (
            old is None
            or entry.kind is UnitKind.PACKAGE_SPEC
            or (entry.kind is UnitKind.TYPE and old.kind is UnitKind.TYPE_BODY)
            or (old.kind in _NOT_DEFINING and entry.kind not in _NOT_DEFINING)
        ):
            self.entries[key] = entry

    def lookup(self, *parts: str) -> CatalogEntry | None:
        """The entry for a name given as its plain parts: (name) in the default schema, or
        (schema, name); a longer chain names no catalog object."""
        # the two shapes asked for spelled out first: a lookup is made tens of thousands of times
        # in a run, and the general check's generator was a third of its time
        n = len(parts)
        if n == 1 and isinstance(parts[0], str):
            found = self.entries.get((self.default_schema, parts[0]))
            if found is None and parts[0] in self.public_synonyms:  # Oracle: own object first
                return self.supplied.get(self.public_synonyms[parts[0]])
            return found
        if n == 2 and isinstance(parts[0], str) and isinstance(parts[1], str):
            return self.entries.get((parts[0], parts[1])) or self.supplied.get((parts[0], parts[1]))
        if not parts or not all(isinstance(p, str) for p in parts):
            raise TypeError(f"lookup takes plain name parts, got {parts!r}")
        return None


@dataclass
class ConversionContext:
    """Per-run settings plus the per-unit log. `begin_unit` resets the log between units."""

    catalog: Catalog
    rules: RuleSet = field(default_factory=RuleSet)
    # The unit's rules in the order of their first application (what the report lists) ...
    applied_rules: list[str] = field(default_factory=list)
    # ... and every application in order, repeats included: a memoised fragment must replay what
    # its own conversion applied, not what was new to the unit that happened to convert it first.
    applied_log: list[str] = field(default_factory=list)
    unconverted_items: list[Unconverted] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Memo of converted SQL fragments for this run (its catalog and rule set are fixed, so a
    # fragment converts the same way every time). None switches memoisation off, e.g. to measure
    # cold conversion speed on a replicated corpus.
    memo: dict | None = field(default_factory=dict)
    # Signatures of the nested subprograms lifted so far in this run (plain name parts of the
    # lifted routine → migrator.convert.signatures.RoutineSig list): calls to them are bound like
    # calls to the catalog's routines. A lifted name is unique to its owner, so this never needs
    # resetting between units.
    local_routines: dict[tuple[str, ...], list] = field(default_factory=dict)
    # What conditional compilation selects code for: the run's Oracle release and PLSQL_CCFLAGS,
    # and the schema's static package constants (set by dispatch.prepare_context).
    compilation: Compilation = Compilation()
    # The parse of each PL/SQL unit, shared by the whole-schema passes and the conversion (and
    # inherited by forked workers): unit id → (key, tree or parse error), the key being the text
    # and, for a text with conditional compilation, `compilation` too (plsql.prepare.parsed).
    parses: dict[str, tuple[object, object]] = field(default_factory=dict)
    # A multi-schema run (SourceSet.owners): each unit's unqualified names are its own schema's, as
    # Oracle resolves them in the owner's schema, so the catalog's default schema follows the unit
    # (`own_schema`) and each schema keeps its own memo (a fragment's names resolve per schema).
    owner_schemas: bool = False
    schema_memos: dict[str, dict] = field(default_factory=dict)
    # Some unit reads stored source back (DBMS_METADATA.GET_DDL): every PL/SQL unit then also
    # records its Oracle text in oracompat.oracle_source when it deploys (dispatch.keep_source).
    keep_oracle_source: bool = False

    def own_schema(self, schema: str) -> None:
        if schema == self.catalog.default_schema:
            return
        if self.memo is not None:
            self.schema_memos[self.catalog.default_schema] = self.memo
            self.memo = self.schema_memos.setdefault(schema, {})
        self.catalog.default_schema = schema

    @property
    def schema(self) -> str:
        return self.catalog.default_schema

    def begin_unit(self) -> None:
        self.applied_rules = []
        self.applied_log = []
        self.unconverted_items = []
        self.notes = []

    def enabled(self, rule_id: str) -> bool:
        return self.rules.enabled(rule_id)

    def applied(self, rule_id: str) -> None:
        self.applied_log.append(rule_id)
        if rule_id not in self.applied_rules:
            self.applied_rules.append(rule_id)

    def unconverted(self, construct: str, message: str, line: int | None = None) -> None:
        self.unconverted_items.append(Unconverted(construct, message, line))

    def note(self, message: str) -> None:
        self.notes.append(message)


@dataclass
class Conversion:
    """The result for one unit."""

    unit_id: str
    output: str  # PostgreSQL text, ready for psql -f (statements end with ';')
    applied_rules: list[str]
    unconverted: list[Unconverted]
    notes: list[str] = field(default_factory=list)
    error: str | None = None  # a rule crashed or the unit could not be parsed: reason

    @property
    def status(self) -> str:
        if self.error:
            return "failed"
        if self.unconverted:
            return "partial"
        return "converted"
