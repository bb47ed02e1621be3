"""The PL/SQL tree: blocks, declarations and statements.

Expressions and SQL statements are kept as token lists (`Toks`): they are converted as a whole
by the SQL converter (sqlglot) after the PL/SQL-only parts inside them (package variables,
collection elements, cursor attributes, :NEW/:OLD) have been resolved by `exprs.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrator.source.lexer import Token

Toks = list[Token]


@dataclass
class TypeRef:
    toks: Toks  # e.g. NUMBER ( 10 , 2 ) | emp . sal % TYPE | t_list

    @property
    def text(self) -> str:
        return " ".join(t.text for t in self.toks)


@dataclass
class Param:
    name: str
    mode: str  # IN | OUT | INOUT
    type: TypeRef
    default: Toks | None = None


@dataclass
class VarDecl:
    name: str
    type: TypeRef
    constant: bool = False
    not_null: bool = False
    default: Toks | None = None
    line: int = 0


@dataclass
class CursorDecl:
    name: str
    params: list[Param]
    query: Toks | None  # None: a forward declaration in a package spec
    line: int = 0


@dataclass
class TypeDecl:
    name: str
    kind: str  # record | table | varray | assoc | refcursor | subtype
    fields: list[tuple[str, TypeRef]] = field(default_factory=list)
    elem: TypeRef | None = None
    index: TypeRef | None = None
    line: int = 0
    limit: Toks | None = None  # VARRAY(n): the size limit

    @property
    def element(self) -> TypeRef:
        """The element type of a collection type, the base type of a subtype."""
        if self.elem is None:
            raise ValueError(f"type {self.name}: a {self.kind} type without an element type")
        return self.elem


@dataclass
class ExceptionDecl:
    name: str
    line: int = 0


@dataclass
class Pragma:
    name: str  # AUTONOMOUS_TRANSACTION | EXCEPTION_INIT | SERIALLY_REUSABLE | ...
    args: list[Toks]
    line: int = 0


@dataclass
class Handler:
    names: list[tuple[str, ...]]  # exception names as plain parts, possibly qualified (PKG.E)
    body: list
    line: int = 0


@dataclass
class Block:
    decls: list
    body: list
    handlers: list[Handler] = field(default_factory=list)
    label: str | None = None
    line: int = 0


@dataclass
class Routine:
    kind: str  # FUNCTION | PROCEDURE
    name: str
    params: list[Param]
    returns: TypeRef | None
    block: Block | None  # None: forward declaration / spec signature
    pipelined: bool = False
    external: Toks | None = None  # AS LANGUAGE C / JAVA: not convertible
    line: int = 0
    flavour: str = ""  # object type methods: MEMBER | STATIC | CONSTRUCTOR | MAP | ORDER


# ---- statements -------------------------------------------------------------------------


@dataclass
class Stmt:
    line: int = field(default=0, kw_only=True)
    label: str | None = field(default=None, kw_only=True)


@dataclass
class Assign(Stmt):
    target: Toks
    value: Toks


@dataclass
class If(Stmt):
    branches: list[tuple[Toks, list]]
    orelse: list | None


@dataclass
class Case(Stmt):
    selector: Toks | None
    whens: list[tuple[Toks, list]]
    orelse: list | None


@dataclass
class Loop(Stmt):
    body: list


@dataclass
class While(Stmt):
    cond: Toks
    body: list


@dataclass
class ForRange(Stmt):
    var: str
    reverse: bool
    lo: Toks
    hi: Toks
    body: list


@dataclass
class ForCursor(Stmt):
    var: str
    cursor: tuple[str, ...] | None  # named cursor (plain parts), or None for an inline query
    args: Toks | None  # cursor arguments (inside the parentheses)
    query: Toks | None
    body: list


@dataclass
class Exit(Stmt):
    keyword: str  # EXIT | CONTINUE
    target: str | None
    cond: Toks | None


@dataclass
class Sql(Stmt):
    toks: Toks  # SELECT/INSERT/UPDATE/DELETE/MERGE/COMMIT/ROLLBACK/SAVEPOINT/LOCK/SET ...


@dataclass
class Open(Stmt):
    cursor: Toks  # cursor name (possibly a record field / package variable)
    args: Toks | None
    query: Toks | None  # OPEN c FOR SELECT ...
    dynamic: Toks | None  # OPEN c FOR v_sql
    using: list[Toks] = field(default_factory=list)


@dataclass
class Fetch(Stmt):
    cursor: Toks
    into: list[Toks]
    bulk: bool = False
    limit: Toks | None = None


@dataclass
class Close(Stmt):
    cursor: Toks


@dataclass
class ExecImmediate(Stmt):
    sql: Toks
    into: list[Toks]
    bulk: bool
    using: list[tuple[str, Toks]]  # (mode, expression)
    returning: list[Toks] = field(default_factory=list)


@dataclass
class Forall(Stmt):
    var: str
    lo: Toks | None
    hi: Toks | None
    indices_of: Toks | None  # INDICES OF / VALUES OF collection
    values_of: bool
    stmt: Stmt
    save_exceptions: bool = False  # SAVE EXCEPTIONS: every iteration runs, failures collected


@dataclass
class Raise(Stmt):
    name: tuple[str, ...] | None  # plain parts; None: re-raise


@dataclass
class Return(Stmt):
    value: Toks | None


@dataclass
class Null(Stmt):
    pass


@dataclass
class Goto(Stmt):
    target: str


@dataclass
class Call(Stmt):
    name: Toks  # dotted name tokens
    args: Toks | None  # tokens inside the parentheses, None when called without ()


@dataclass
class PipeRow(Stmt):
    value: Toks


@dataclass
class BlockStmt(Stmt):
    block: Block


@dataclass
class Unsupported(Stmt):
    construct: str
    toks: Toks


# ---- units ------------------------------------------------------------------------------


@dataclass
class Package:
    name: str
    decls: list  # VarDecl / TypeDecl / CursorDecl / ExceptionDecl / Pragma / Routine
    init: Block | None = None  # body's initialisation section
    is_body: bool = False


@dataclass
class Trigger:
    name: str
    timing: str  # BEFORE | AFTER | INSTEAD OF
    events: list[tuple[str, list[str]]]  # (INSERT|UPDATE|DELETE, columns for UPDATE OF)
    table: tuple[str, ...]  # plain parts
    for_each_row: bool
    when: Toks | None
    referencing: dict[str, str]  # NEW/OLD/PARENT -> alias (upper)
    block: Block | None
    compound: bool = False
