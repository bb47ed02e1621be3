"""The schema model: typed records of what the export defines, held by the catalog's entries.

Built once per run, before any unit is converted (`migrator.convert.dispatch.prepare_context`), by one
reader per source kind; each field is written by exactly one reader and read under one name:

* the DDL reader (`migrator.convert.ddl.dispatch.prepare`) reads CREATE TABLE, CREATE SEQUENCE,
  CREATE TYPE and CREATE SYNONYM: `Table.column_types`/`primary_key`, `Sequence`,
  `CatalogEntry.declared_type`, `Synonym`. Oracle types are spelled as written in the source.
* the PL/SQL reader (`migrator.convert.plsql.prepare`) parses every PL/SQL unit and re-reads tables
  and types the way the PL/SQL converter needs them: `CatalogEntry.routines`, `methods`, `Package`,
  `Table.plsql_column_types`, `CatalogEntry.plsql_type`. Oracle types are spelled as
  `migrator.convert.plsql.symbols.type_text` normalises them (tokens joined, no comments).
* the signature pass (`migrator.convert.plsql.prepare_sigs`) adds the converted PostgreSQL
  signatures: `CatalogEntry.signatures` and `Package.signatures`.

The two spellings of a column's or a type's Oracle type are two facts (the DDL converter and the
evidence builder keep the source's spelling; the PL/SQL converter compares normalised texts), so
they are two named fields of one record rather than one field whose value depends on who wrote last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations: the records hold what these modules define
    from migrator.convert.ddl.tokens import Name
    from migrator.convert.plsql import ast as A
    from migrator.convert.signatures import RoutineSig


@dataclass(frozen=True)
class Table:
    """A table's columns: name → Oracle type. None means that reader did not read the table (it
    could not, or the entry is another object's); an empty dict means it read no columns."""

    column_types: dict[str, str] | None = None  # DDL reader, spelled as in the source
    primary_key: tuple[str, ...] = ()  # DDL reader
    # DDL reader: a GLOBAL TEMPORARY table's ON COMMIT mode ("DELETE" / "PRESERVE"), "" otherwise
    on_commit: str = ""
    plsql_column_types: dict[str, str] | None = None  # PL/SQL reader, normalised spelling
    # DDL reader: the named constraints CREATE TABLE declares DISABLE (never created in
    # PostgreSQL), as (name, the column of an inline one or None, its Oracle text), so that a
    # later ALTER TABLE ... ENABLE CONSTRAINT can create them
    disabled_constraints: tuple[tuple[str, str | None, str], ...] = ()
    identity_columns: tuple[str, ...] = ()  # DDL reader: columns GENERATED ... AS IDENTITY
    # DDL reader: named PRIMARY KEY / UNIQUE constraints and their columns, from CREATE TABLE and
    # ALTER TABLE ... ADD (PostgreSQL names the index of such a constraint after it)
    key_constraints: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class ObjectType:
    """CREATE TYPE ... AS OBJECT or UNDER supertype: attribute name → Oracle type, in declaration
    order; its methods are the entry's `methods` (read from the TYPE BODY).

    The DDL reader reads a subtype's supertype, its own attributes, the FINAL / INSTANTIABLE
    modifiers and the names of the methods the spec declares (`migrator.convert.type_hierarchy`
    builds the hierarchy from them); the PL/SQL reader records only attributes, and records UNDER
    subtypes and forward declarations as object types without attributes."""

    attributes: dict[str, str] = field(default_factory=dict)
    supertype: tuple[str, ...] | None = None  # plain name parts of the UNDER type
    final: bool = True  # not declared NOT FINAL
    instantiable: bool = True  # not declared NOT INSTANTIABLE
    methods: tuple[str, ...] = ()  # DDL reader: the spec's MEMBER/STATIC/MAP/ORDER method names


@dataclass(frozen=True)
class CollectionType:
    """CREATE TYPE ... AS TABLE OF / VARRAY(n) OF: a nested table or a VARRAY of `element`."""

    varray: bool
    element: str  # the element's Oracle type
    limit: int | None = None  # a VARRAY's size limit


SchemaType = ObjectType | CollectionType


@dataclass(frozen=True)
class Sequence:
    """CREATE SEQUENCE: its options as `migrator.convert.ddl.sequences.parse_options` reads them."""

    options: dict


@dataclass(frozen=True)
class Synonym:
    """CREATE [PUBLIC] SYNONYM name FOR target[@dblink]."""

    target: Name
    public: bool
    dblink: bool


@dataclass
class Package:
    """A package's declarations, spec and body together (built by the PL/SQL reader, spec first).

    Public members are the spec's: `spec_order` lists the spec's variables and types in declaration
    order and `public_variables` its variables; `body_order` lists the body's private ones."""

    variables: dict[str, A.VarDecl] = field(default_factory=dict)
    types: dict[str, A.TypeDecl] = field(default_factory=dict)
    routines: dict[str, list[A.Routine]] = field(default_factory=dict)  # overloads, spec and body deduplicated
    exceptions: dict[str, str] = field(default_factory=dict)  # name → SQLSTATE
    exception_init: dict[str, list] = field(default_factory=dict)  # PRAGMA EXCEPTION_INIT name → code tokens
    cursors: dict[str, A.CursorDecl] = field(default_factory=dict)
    public_variables: list[str] = field(default_factory=list)
    spec_order: list[tuple[str, str]] = field(default_factory=list)  # ("var" | "type", name)
    body_order: list[tuple[str, str]] = field(default_factory=list)
    # the body's private nested tables on which it calls DELETE(i): held sparse (emit_package)
    sparse_variables: set[str] = field(default_factory=set)
    # member → its converted signatures (migrator.convert.plsql.prepare_sigs); None until computed
    signatures: dict[str, list[RoutineSig]] | None = None
