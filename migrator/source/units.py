"""What a schema export becomes once it is read: units, their spans, and what could not be read.

These dataclasses are the contract between the reader (`migrator.source.reader`), the converters
(`migrator.rules`, `migrator.convert.plsql`) and the output writer. They hold the *exact* source text of
each unit so that nothing is silently altered between the input file and the report.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class UnitKind(str, enum.Enum):
    """One Oracle object (or one data/DCL statement) per unit."""

    TABLE = "table"
    INDEX = "index"
    SEQUENCE = "sequence"
    VIEW = "view"
    MATERIALIZED_VIEW = "materialized_view"
    DATA = "data"  # a table's INSERTs (one unit per table), or one UPDATE / DELETE / MERGE / INSERT ALL
    FUNCTION = "function"
    PROCEDURE = "procedure"
    PACKAGE_SPEC = "package_spec"
    PACKAGE_BODY = "package_body"
    TRIGGER = "trigger"
    TYPE = "type"
    TYPE_BODY = "type_body"
    SYNONYM = "synonym"
    GRANT = "grant"
    COMMENT = "comment"
    ALTER = "alter"  # ALTER TABLE ... ADD CONSTRAINT and friends
    ANONYMOUS_BLOCK = "anonymous_block"
    OTHER = "other"  # recognised as SQL but not an object we migrate (reported)

    @property
    def is_plsql(self) -> bool:
        return self in PLSQL_KINDS


PLSQL_KINDS = frozenset(
    {
        UnitKind.FUNCTION,
        UnitKind.PROCEDURE,
        UnitKind.PACKAGE_SPEC,
        UnitKind.PACKAGE_BODY,
        UnitKind.TRIGGER,
        UnitKind.TYPE_BODY,
        UnitKind.ANONYMOUS_BLOCK,
    }
)


@dataclass(frozen=True)
class SourceSpan:
    """Where a piece of text came from. Lines are 1-based and inclusive; offsets index the
    decoded text of the file (Python str offsets), end exclusive."""

    file: str  # path relative to the schema directory, '/'-separated
    start_line: int
    end_line: int
    start_offset: int
    end_offset: int

    def __str__(self) -> str:
        if self.start_line == self.end_line:
            return f"{self.file}:{self.start_line}"
        return f"{self.file}:{self.start_line}-{self.end_line}"


@dataclass
class Unit:
    """One Oracle object with its exact source text.

    `id` is unique within a run: ``<kind>:<schema>.<name>`` (lower case), with ``#2``, ``#3`` ...
    appended to later duplicates (which are also reported as issues).
    """

    id: str
    kind: UnitKind
    schema: str  # Oracle owner, lower case ("hr"); the run's default schema when unqualified
    name: str  # object name, lower case; for DATA/GRANT/COMMENT units the target object
    text: str  # exact source text of the statement, without the SQL*Plus terminator line
    span: SourceSpan
    encoding: str = "utf-8"
    # Names this unit refers to (lower case, possibly qualified "pkg.member" / "schema.obj");
    # filled by the dependency analysis.
    references: set[str] = field(default_factory=set)
    # For PACKAGE_BODY / TYPE_BODY: the id of the spec it belongs to, when present.
    parent_id: str | None = None
    # For TRIGGER / INDEX / COMMENT / DATA / GRANT / ALTER: the table (or object) it is attached to.
    target: str | None = None
    # A table's data unit (`data:schema.table`, every INSERT into the table wherever it is): where
    # each of its statements is, in order; `text` holds them joined, each ended by its ';'
    # (`migrator.data.table_unit` reads them back one by one). Empty for every other unit.
    parts: list[SourceSpan] = field(default_factory=list)

    @property
    def qualified_name(self) -> str:
        return f"{self.schema}.{self.name}"


class Severity(str, enum.Enum):
    ERROR = "error"  # input we could not turn into a unit (it is kept in the issue's text)
    WARNING = "warning"  # unit kept but something about it needs a human (duplicate, unresolved ref)
    INFO = "info"  # recognised and deliberately not converted (SQL*Plus directive, encoding note)


@dataclass
class SourceIssue:
    """A precise report about input: file:line, the unit if any, a stable code and a reason.

    `text` carries the exact input text the issue covers, so that an input byte that is not in a
    unit is still accounted for (the reader's no-silent-drop invariant)."""

    code: str  # e.g. "sqlplus-directive", "wrapped-source", "unterminated-block", "duplicate-name"
    message: str
    severity: Severity
    file: str
    line: int
    unit_id: str | None = None
    text: str = ""
    span: SourceSpan | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        who = f" [{self.unit_id}]" if self.unit_id else ""
        return f"{where}{who}: {self.severity.value}: {self.code}: {self.message}"


@dataclass
class SourceFile:
    path: str  # relative, '/'-separated
    encoding: str  # "utf-8", "utf-8-sig", "cp1252", "latin-1"
    n_lines: int
    n_bytes: int


@dataclass
class SourceSet:
    """Everything read from one schema directory."""

    root: str
    schema: str
    files: list[SourceFile] = field(default_factory=list)
    # a multi-schema export (a folder of schema folders, migrator.source.reader.owner_folders):
    # the schemas its folders' objects belong to, in folder order; [] for one schema
    owners: list[str] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    issues: list[SourceIssue] = field(default_factory=list)

    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}
