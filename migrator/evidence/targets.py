"""What synthesized scenarios exercise, read from the Oracle source alone: every standalone
function and procedure, every public package member (routines, and the variables and constants
a package specification declares), every method of an object type body, every view and every
trigger, with the
signature (names, modes, Oracle types, defaults), the literals its body compares, and the tables
it (or a routine it calls) writes."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.prepare import parsed
from migrator.convert.schema_model import CollectionType, ObjectType
from migrator.oracle_types import DATETIME_NAMES, NUMBER_NAMES, TEXT_NAMES, Family, first_word, names
from migrator.source import lexer
from migrator.source.units import SourceSet, Unit, UnitKind

# A type's value family, from its first word: what synthesized values it takes (an interval or a
# LOB of bytes takes none of these: "other").
_VALUE_FAMILIES = (
    (NUMBER_NAMES, "number"),
    (TEXT_NAMES, "text"),
    (DATETIME_NAMES, "date"),
    (names(Family.BOOLEAN), "bool"),
    (names(Family.REF_CURSOR), "cursor"),
)
_DML = {"INSERT": "INTO", "UPDATE": None, "DELETE": "FROM", "MERGE": "INTO"}


@dataclass(frozen=True)
class ParamInfo:
    name: str
    mode: str  # IN | OUT | INOUT
    oracle_type: str  # as written, e.g. "NUMBER", "employees.salary%TYPE"
    family: str  # number | text | date | bool | other
    column: tuple[str, str] | None  # (table, column) for a %TYPE anchored on a column
    has_default: bool
    # a schema-level collection of scalars (TABLE OF / VARRAY OF): (element family, schema, type)
    element: tuple[str, str, str] | None = None
    obj: ObjectInfo | None = None  # a schema-level object type
    # the columns the body compares the parameter with (`WHERE crew_id = p_first_id`, `c.code <>
    # p_code`): what it is about when its name and type say nothing (values.DataView.column_for)
    compared_with: tuple[str, ...] = ()
    # ... of those, the columns it is compared with through a variable that holds a row's value
    # (`SELECT dept INTO v_old ...; IF v_old = p_dept`): a check in the code, not a match in SQL
    held_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectInfo:
    """A schema-level object type a parameter is declared with: its attributes' families, in
    order, and whether a user-defined constructor takes as many parameters as there are
    attributes (Oracle calls it for `t(a, b)`, and so does the conversion: `t__new(a, b)`)."""

    schema: str
    name: str
    attributes: tuple[tuple[str, str], ...]  # (attribute, family)
    own_constructor: bool


@dataclass
class Target:
    """One thing to call, query or fire."""

    kind: str  # function | procedure | variable (a package specification's) | method | view | trigger
    units: tuple[str, ...]  # unit ids whose verdict the steps feed
    oracle_name: str  # as Oracle code calls it: f, pkg.f, v, (table for triggers)
    pg_schema: str  # where the converted routine/view lives (plain name)
    pg_name: str  # plain name of the routine/view/trigger table
    params: list[ParamInfo] = field(default_factory=list)
    returns: str | None = None  # Oracle return type (functions)
    return_family: str | None = None
    literals: list = field(default_factory=list)  # numbers (Decimal) and strings the body uses
    callee_literals: list = field(default_factory=list)  # those of the routines it calls, not its own
    writes: set[str] = field(default_factory=set)  # tables written (plain names), callees included
    reads: set[str] = field(default_factory=set)  # tables the body names (read or written)
    deep_words: set[str] = field(default_factory=set)  # words of the body and of every routine it calls
    mutates: bool = False  # DML, COMMIT or dynamic SQL: cannot be called from a query on Oracle
    trigger: A.Trigger | None = None
    skip: str | None = None  # why no step can be built (reported, never silently dropped)
    words: set[str] = field(default_factory=set)  # names the body mentions (callees among them)
    key: str = ""  # unique among the targets: kind.name, with #n for overloads
    ordered: bool = False  # a view whose query ends with its own ORDER BY: its rows compared in order
    defaulted: set[str] = field(default_factory=set)  # columns a view reads through NVL / COALESCE (a NULL replaced)
    scales: list[int] = field(default_factory=list)  # the decimal places ROUND / TRUNC round numbers to in the body
    constant: bool = False  # a variable target declared CONSTANT (read only, no setter)
    # an object type's method: MEMBER | STATIC | CONSTRUCTOR; the type's Oracle name; its
    # attributes (as IN parameters named `self.<attribute>`, in declaration order: a MEMBER's
    # object is built from values of them)
    flavour: str = ""
    type_name: str = ""
    attributes: list[ParamInfo] = field(default_factory=list)
    returns_self: bool = False  # a constructor, or a function returning its own type
    # a MEMBER's object built by a user-defined constructor (one with as many parameters as the
    # type has attributes: Oracle calls it for `t(a, b)`, and so does the conversion)
    own_constructor: bool = False
    # pairs of parameters the body compares with each other (`p_from_account = p_to_account`): a
    # call giving both one value takes a path no pair of distinct keys reaches
    compared: list[tuple[str, str]] = field(default_factory=list)
    # column -> the texts the body compares it with (`v_state = 'RETIRED'`, `CASE :OLD.state WHEN
    # ...`): a row in each such state is made where the data holds none (targets.state_literals)
    states: dict[str, list[str]] = field(default_factory=dict)


def type_source(type_text: str) -> str:
    """A type as Oracle code writes it: the parser's token text without the spaces it puts
    between tokens (`employees . salary % TYPE` → `employees.salary%TYPE`)."""
    text = re.sub(r"\s*([.%(),])\s*", r"\1", type_text.strip())
    return text.replace(",", ", ")


def family(type_text: str, catalog: Catalog, schema: str, package: str | None = None,
           depth: int = 0) -> tuple[str, tuple[str, str] | None]:  # fmt: skip
    """The value family of an Oracle type, resolving table.column%TYPE through the catalog, and
    a package's SUBTYPE (`string_util_pkg.t_flag`, or `t_flag` inside `package`) to its base."""
    head = first_word(type_text)
    if type_text.upper().endswith("%TYPE") and "." in type_text:
        table, column = [p.strip().strip('"').lower() for p in type_text[: -len("%TYPE")].split(".")[-2:]]
        entry = catalog.lookup(schema, table)
        col_type = (entry.table.plsql_column_types or entry.table.column_types or {}).get(column) if entry else None
        return (family(col_type, catalog, schema)[0] if col_type else "other"), (table, column)
    for words, fam in _VALUE_FAMILIES:
        if head in words:
            return fam, None
    base = _subtype_base(type_text, catalog, schema, package)
    if base is not None and depth < 8:  # (a subtype of a subtype; a cycle the compiler refuses ends here)
        return family(base[0], catalog, schema, base[1], depth + 1)
    return "other", None


def _subtype_base(type_text: str, catalog: Catalog, schema: str, package: str | None) -> tuple[str, str] | None:
    """(base type text, its package) of a package SUBTYPE named `pkg.t` or, inside `package`, `t`."""
    parts = [p.strip('"').lower() for p in type_text.strip().split(".")]
    if not all(re.fullmatch(r"[a-z][\w$#]*", p) for p in parts):
        return None
    if len(parts) == 2:
        pkg, name = parts
    elif len(parts) == 1 and package:
        pkg, name = package.lower(), parts[0]
    else:
        return None
    entry = catalog.lookup(schema, pkg)
    decl = entry.package.types.get(name) if entry and entry.package else None
    if decl is None or getattr(decl, "kind", None) != "subtype" or decl.elem is None:
        return None
    return type_source(decl.elem.text), pkg


def collection_of(type_text: str, catalog: Catalog, schema: str) -> tuple[str, str, str] | None:
    """(element family, schema, type name) when `type_text` names a schema-level nested table or
    VARRAY of a scalar type."""
    if not re.fullmatch(r"[A-Za-z][\w$#]*(\.[A-Za-z][\w$#]*)?", type_text.strip()):
        return None
    parts = [x.strip('"').lower() for x in type_text.strip().split(".")]
    owner, name = (parts[0], parts[1]) if len(parts) == 2 else (schema, parts[0])
    entry = catalog.lookup(owner, name)
    if entry is None or entry.kind is not UnitKind.TYPE or not isinstance(entry.declared_type, CollectionType):
        return None
    fam = family(entry.declared_type.element, catalog, schema)[0]
    return (fam, owner, name) if fam in ("number", "text", "date") else None


def object_of(type_text: str, catalog: Catalog, schema: str) -> ObjectInfo | None:
    """The object type `type_text` names (plainly or schema-qualified), if the export creates one."""
    if not re.fullmatch(r"[A-Za-z][\w$#]*(\.[A-Za-z][\w$#]*)?", type_text.strip()):
        return None
    parts = [x.strip('"').lower() for x in type_text.strip().split(".")]
    owner, name = (parts[0], parts[1]) if len(parts) == 2 else (schema, parts[0])
    entry = catalog.lookup(owner, name)
    if entry is None or entry.kind is not UnitKind.TYPE or not isinstance(entry.declared_type, ObjectType):
        return None
    attrs = tuple((a, family(str(t), catalog, schema)[0]) for a, t in entry.declared_type.attributes.items())
    methods = entry.methods
    own = any(getattr(r, "flavour", "") == "CONSTRUCTOR" and len(r.params) == len(attrs)
              for rs in methods.values() for r in rs)  # fmt: skip
    return ObjectInfo(entry.schema, entry.name, attrs, own) if attrs else None


def _param_infos(params: list[A.Param], catalog: Catalog, schema: str, package: str | None = None) -> list[ParamInfo]:
    out = []
    for p in params:
        text = type_source(p.type.text)
        fam, column = family(text, catalog, schema, package)
        obj = object_of(text, catalog, schema) if fam == "other" else None
        out.append(ParamInfo(p.name, p.mode, text, fam, column, p.default is not None,
                             collection_of(text, catalog, schema), obj))  # fmt: skip
    return out


def _body_facts(text: str) -> tuple[list, set[str], set[str], bool]:
    """Literals, written tables, referenced words (and `pkg.name` pairs as "pkg.name"), and
    whether the text mutates state."""
    literals: list = []
    writes: set[str] = set()
    words: set[str] = set()
    toks = [(t.kind, t.text) for t in lexer.code_tokens(text)]
    mutates = False
    for i, (kind, value) in enumerate(toks):
        up = value.upper()
        if kind == lexer.NUMBER:
            sign = "-" if i and toks[i - 1][1] == "-" else ""
            try:
                literals.append(Decimal(sign + value))
            except InvalidOperation:
                pass
        elif kind == lexer.STRING and value.startswith("'"):
            # a piece of a message (`'Account ' || id`) is not a value the code compares with
            joined = (i and toks[i - 1][1] == "||") or (i + 1 < len(toks) and toks[i + 1][1] == "||")
            if not joined and not _format_model(toks, i):
                literals.append(value[1:-1].replace("''", "'"))
            _dynamic_writes(value, writes)
        elif kind in (lexer.WORD, lexer.QIDENT):
            words.add(lexer.normalize_identifier(value))
            if i + 2 < len(toks) and toks[i + 1][1] == "." and toks[i + 2][0] in (lexer.WORD, lexer.QIDENT):
                words.add(lexer.normalize_identifier(value) + "." + lexer.normalize_identifier(toks[i + 2][1]))
            if up in _DML:
                name = _dml_target(toks, i)
                if name:
                    writes.add(name)
                    mutates = True
            if up in ("COMMIT", "ROLLBACK", "EXECUTE", "AUTONOMOUS_TRANSACTION"):
                mutates = True
    return literals, writes, words, mutates


_COMPARISONS = frozenset({"=", "<>", "!=", "^=", "~=", "<", ">", "<=", ">="})


def compared_params(text: str, names: list[str]) -> list[tuple[str, str]]:
    """(a, b) for every comparison `a <op> b` in `text` between two distinct parameters of `names`
    (in the order written, each pair once)."""
    params = {n.lower() for n in names}
    toks = [(t.kind, t.text) for t in lexer.code_tokens(text)]
    found: list[tuple[str, str]] = []
    for i in range(1, len(toks) - 1):
        op = toks[i][1] if toks[i][0] == lexer.OP else ""
        # a two-character operator is lexed as two OP tokens: `<` `>`, `!` `=`, `<` `=`
        left, right = toks[i - 1], toks[i + 1]
        if op in ("<", ">", "!", "^", "~") and right[0] == lexer.OP and op + right[1] in _COMPARISONS:
            op, right = op + right[1], toks[i + 2] if i + 2 < len(toks) else ("", "")
        elif op and toks[i - 1][0] == lexer.OP:
            continue  # the second half of a two-character operator
        if (
            op not in _COMPARISONS
            or left[0] not in (lexer.WORD, lexer.QIDENT)
            or right[0] not in (lexer.WORD, lexer.QIDENT)
        ):
            continue
        a, b = lexer.normalize_identifier(left[1]), lexer.normalize_identifier(right[1])
        if a != b and a in params and b in params and (a, b) not in found and (b, a) not in found:
            found.append((a, b))
    return found


def compared_columns(text: str, names: list[str]) -> dict[str, list[str]]:
    """parameter -> the words it is compared with (`col = p`, `t.col <> p`, `p >= t.col`), in the
    order written: column names among them (a local variable or another parameter is no column,
    and resolving them against the tables the code names leaves them out)."""
    params = {n.lower() for n in names}
    toks = [(t.kind, t.text) for t in lexer.code_tokens(text)]
    found: dict[str, list[str]] = {}

    def op_at(i: int, step: int) -> int | None:
        """Index past the comparison operator starting at `i` (reading in direction `step`)."""
        if not 0 <= i < len(toks) or toks[i][0] != lexer.OP:
            return None
        j = i + step
        if 0 <= j < len(toks) and toks[j][0] == lexer.OP:
            pair = toks[i][1] + toks[j][1] if step > 0 else toks[j][1] + toks[i][1]
            if pair in _COMPARISONS:
                return j + step
        return i + step if toks[i][1] in _COMPARISONS else None

    for i, (kind, value) in enumerate(toks):
        if kind not in (lexer.WORD, lexer.QIDENT):
            continue
        name = lexer.normalize_identifier(value)
        if name not in params or (i and toks[i - 1][1] == "."):
            continue
        words = []
        j = op_at(i - 1, -1)  # ... col = p
        if j is not None and j >= 0 and toks[j][0] in (lexer.WORD, lexer.QIDENT):
            words.append(toks[j][1])
        j = op_at(i + 1, 1)  # p = col / p = t.col
        if j is not None and j < len(toks) and toks[j][0] in (lexer.WORD, lexer.QIDENT):
            dotted = j + 2 < len(toks) and toks[j + 1][1] == "." and toks[j + 2][0] in (lexer.WORD, lexer.QIDENT)
            words.append(toks[j + 2][1] if dotted else toks[j][1])
        for w in words:
            col = lexer.normalize_identifier(w)
            if col != name and col not in params and col not in found.setdefault(name, []):
                found[name].append(col)
    return found


_CONVERSIONS = frozenset({"TO_CHAR", "TO_DATE", "TO_NUMBER", "TO_TIMESTAMP", "TRUNC", "ROUND"})


def state_literals(text: str) -> dict[str, list[str]]:
    """column -> the texts the body compares it with: `[x.]col = 'LIT'` (any comparison, either
    side), `col [NOT] IN ('A', 'B')`, `CASE col WHEN 'A' ...`; a local variable stands for the
    column it is declared with (`v parts.state%TYPE`) or selected from (`SELECT state INTO v`).
    A status the data may hold no row in (a part RETIRED, an account FROZEN) that a branch needs."""
    toks = [(t.kind, t.text) for t in lexer.code_tokens(text)]
    names = (lexer.WORD, lexer.QIDENT)
    found: dict[str, list[str]] = {}

    def add(word: str, literal: str) -> None:
        values = found.setdefault(lexer.normalize_identifier(word), [])
        if literal not in values:
            values.append(literal)

    def string(k: int) -> str | None:
        return toks[k][1][1:-1].replace("''", "'") if toks[k][0] == lexer.STRING and toks[k][1][:1] == "'" else None

    n = len(toks)
    for i in range(n):
        kind, value = toks[i]
        if kind == lexer.OP and (value in _COMPARISONS or value in ("!", "^", "~")):
            # `<>` as one token or two (`<` `>`)
            pair = i + 1 < n and toks[i + 1][0] == lexer.OP and value + toks[i + 1][1] in _COMPARISONS
            if i and toks[i - 1][0] == lexer.OP and toks[i - 1][1] + value in _COMPARISONS:
                continue  # the second half of a two-token operator
            j = i + 1 if pair else i
            if j + 1 < n and i and toks[i - 1][0] in names and (lit := string(j + 1)) is not None:
                add(toks[i - 1][1], lit)
            if j + 1 < n and i and toks[j + 1][0] in names and (lit := string(i - 1)) is not None:
                dotted = j + 3 < n and toks[j + 2][1] == "." and toks[j + 3][0] in names
                add(toks[j + 3][1] if dotted else toks[j + 1][1], lit)
        elif kind in names and value.upper() == "IN" and i and i + 1 < n and toks[i + 1][1] == "(":
            k = i - 2 if toks[i - 1][1].upper() == "NOT" else i - 1
            if k >= 0 and toks[k][0] in names:
                m = i + 2
                while m < n and toks[m][1] != ")":
                    if (lit := string(m)) is not None:
                        add(toks[k][1], lit)
                    m += 1
        elif kind in names and value.upper() == "CASE" and i + 1 < n and toks[i + 1][0] in names:
            k = i + 3 if i + 3 < n and toks[i + 2][1] == "." else i + 1
            if toks[k][1].upper() == "WHEN":
                continue  # a searched CASE
            depth, m = 0, k + 1
            while m < n:
                word = toks[m][1].upper() if toks[m][0] in names else ""
                if word == "CASE":
                    depth += 1
                elif word == "END":
                    if depth == 0:
                        break
                    depth -= 1
                elif word == "WHEN" and depth == 0 and m + 1 < n and (lit := string(m + 1)) is not None:
                    add(toks[k][1], lit)
                m += 1
    aliases = _variable_columns(toks)
    out: dict[str, list[str]] = {}
    for word, values in found.items():
        for v in values:
            column = aliases.get(word, word)
            if v not in out.setdefault(column, []):
                out[column].append(v)
    return out


def _variable_columns(toks: list[tuple[str, str]]) -> dict[str, str]:
    """variable -> the column it holds: declared `v t.col%TYPE`, or `SELECT col, ... INTO v, ...`."""
    names = (lexer.WORD, lexer.QIDENT)
    out: dict[str, str] = {}
    n = len(toks)
    for i in range(n - 5):
        if (toks[i][0] in names and toks[i + 1][0] in names and toks[i + 2][1] == "." and toks[i + 3][0] in names
                and toks[i + 4][1] == "%" and toks[i + 5][1].upper() == "TYPE"):  # fmt: skip
            out[lexer.normalize_identifier(toks[i][1])] = lexer.normalize_identifier(toks[i + 3][1])
    for i in range(n):
        if toks[i][0] not in names or toks[i][1].upper() != "SELECT":
            continue
        items: list[list[tuple[str, str]]] = [[]]
        depth, m = 0, i + 1
        while m < n and not (depth == 0 and toks[m][1].upper() in ("INTO", "FROM")) and toks[m][1] != ";":
            depth += toks[m][1] == "("
            depth -= toks[m][1] == ")"
            if depth == 0 and toks[m][1] == ",":
                items.append([])
            else:
                items[-1].append(toks[m])
            m += 1
        if m >= n or toks[m][1].upper() != "INTO":
            continue
        targets = []
        m += 1
        while m < n and toks[m][1].upper() != "FROM" and toks[m][1] != ";":
            if toks[m][0] in names:
                targets.append(lexer.normalize_identifier(toks[m][1]))
            m += 1
        for item, var in zip(items, targets, strict=False):
            if item and item[-1][0] in names:  # the column itself, or an alias of it (`a.state`)
                out.setdefault(var, lexer.normalize_identifier(item[-1][1]))
    return out


def _format_model(toks: list[tuple[str, str]], i: int) -> bool:
    """Whether the string at `i` is a later argument of TO_CHAR / TO_DATE / ... (a format model
    such as 'FM999G990D00' or 'YYYY-MM', not a value the code compares with)."""
    return _argument_of(toks, i, _CONVERSIONS)


def _argument_of(toks: list[tuple[str, str]], i: int, functions: frozenset[str] | set[str]) -> bool:
    """Whether the token at `i` is a later (not the first) argument of a call of `functions`."""
    if not i or toks[i - 1][1] != ",":
        return False
    depth = 0
    for j in range(i - 1, -1, -1):
        text = toks[j][1]
        if text == ")":
            depth += 1
        elif text == "(":
            if depth == 0:
                return j > 0 and toks[j - 1][1].upper() in functions
            depth -= 1
        elif text == ";":
            return False
    return False


def rounding_scales(text: str) -> list[int]:
    """The decimal places of each ROUND(x, n) / TRUNC(x, n) with a literal n (`ROUND(v, 2)`),
    distinct, in order."""
    toks = [t.text for t in lexer.code_tokens(text)]
    out: list[int] = []
    for i, word in enumerate(toks[:-1]):
        if word.upper() not in ("ROUND", "TRUNC") or toks[i + 1] != "(":
            continue
        depth, last = 0, None
        for j in range(i + 1, len(toks)):
            if toks[j] == "(":
                depth += 1
            elif toks[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            elif toks[j] == "," and depth == 1:
                last = j
        if last is not None and last + 2 < len(toks) and toks[last + 2] == ")" and toks[last + 1].isdigit():
            if int(toks[last + 1]) not in out:
                out.append(int(toks[last + 1]))
    return out


def _ordered_query(text: str) -> bool:
    """Whether a view's query sorts its result: an ORDER BY outside every parenthesis."""
    depth = 0
    for t in lexer.code_tokens(text):
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.text.upper() == "ORDER":
            return True
    return False


def _null_defaulted(text: str) -> set[str]:
    """The columns a query reads as the first argument of NVL, NVL2 or COALESCE (`NVL(s.qty, 0)`)."""
    toks = [t.text for t in lexer.code_tokens(text)]
    out = set()
    for i, word in enumerate(toks[:-2]):
        if word.upper() in ("NVL", "NVL2", "COALESCE") and toks[i + 1] == "(":
            j = i + 3 if i + 3 < len(toks) and toks[i + 3] == "." else i + 1
            out.add(lexer.normalize_identifier(toks[j + 1]))
    return out


def _dml_target(toks: list[tuple[str, str]], i: int) -> str | None:
    j = i + 1
    keyword = _DML[toks[i][1].upper()]
    if keyword and j < len(toks) and toks[j][1].upper() == keyword:
        j += 1
    if j >= len(toks) or toks[j][0] not in (lexer.WORD, lexer.QIDENT):
        return None
    name = lexer.normalize_identifier(toks[j][1])
    if j + 2 < len(toks) and toks[j + 1][1] == "." and toks[j + 2][0] in (lexer.WORD, lexer.QIDENT):
        name = lexer.normalize_identifier(toks[j + 2][1])  # schema.table: the table
    return None if name in ("table", "into", "from", "set") else name


def _dynamic_writes(literal: str, writes: set[str]) -> None:
    inner = literal[1:-1].replace("''", "'")
    toks = [(t.kind, t.text) for t in lexer.code_tokens(inner)]
    for i, (kind, value) in enumerate(toks):
        if kind == lexer.WORD and value.upper() in _DML:
            name = _dml_target(toks, i)
            if name:
                writes.add(name)


def find_targets(source: SourceSet, ctx: ConversionContext) -> list[Target]:
    """Every target of the schema (read in the context its conversion had: its catalog, its
    parses), in source order; units that cannot be parsed give a target with `skip` set so the
    report can say why they have no step."""
    catalog = ctx.catalog
    targets: list[Target] = []
    bodies = {u.name: u for u in source.units if u.kind is UnitKind.PACKAGE_BODY}
    for unit in source.units:
        try:
            if unit.kind in (UnitKind.FUNCTION, UnitKind.PROCEDURE):
                tree = parsed(unit, ctx).tree
                assert isinstance(tree, A.Routine), "a function or procedure unit parses to a routine"
                targets.append(_routine_target(unit, tree, catalog, (unit.id,), unit.name, unit.schema))
            elif unit.kind is UnitKind.PACKAGE_SPEC:
                targets += _package_targets(unit, bodies.get(unit.name), catalog, ctx)
            elif unit.kind in (UnitKind.VIEW, UnitKind.MATERIALIZED_VIEW):
                words = _body_facts(unit.text)[2]
                targets.append(Target("view", (unit.id,), unit.name, unit.schema, unit.name, words=words,
                                      ordered=_ordered_query(unit.text), defaulted=_null_defaulted(unit.text)))  # fmt: skip
            elif unit.kind is UnitKind.TRIGGER:
                targets.append(_trigger_target(unit, ctx))
            elif unit.kind is UnitKind.TYPE_BODY:
                targets += _method_targets(unit, catalog, source, ctx)
        except Exception as exc:  # a unit the parser refuses: its conversion reports it in detail
            targets.append(Target("unknown", (unit.id,), unit.name, unit.schema, unit.name,
                                  skip=f"not parsed: {type(exc).__name__}: {str(exc)[:160]}"))  # fmt: skip
    _type_units(targets, source, catalog)
    _close_writes(targets, catalog)
    for t in targets:
        package = t.oracle_name.split(".")[0] if "." in t.oracle_name else None
        t.literals = _unique(t.literals + _package_constants(t.words, catalog, source.schema, package))
    _callee_literals(targets)
    seen: dict[str, int] = {}
    for t in targets:
        base = f"{t.kind}.{t.trigger.name if t.trigger is not None else t.oracle_name}"
        seen[base] = seen.get(base, 0) + 1
        t.key = base if seen[base] == 1 else f"{base}#{seen[base]}"
    return targets


def _routine_target(unit: Unit, routine: A.Routine, catalog: Catalog, units, oracle_name: str,
                    pg_schema: str, text: str | None = None) -> Target:  # fmt: skip
    literals, writes, words, mutates = _body_facts(text if text is not None else unit.text)
    package = oracle_name.split(".")[0] if "." in oracle_name else None  # its own SUBTYPEs, unqualified
    t = Target(routine.kind.lower(), tuple(units), oracle_name, pg_schema, routine.name,
               _param_infos(routine.params, catalog, unit.schema, package), literals=_unique(literals),
               writes=writes, mutates=mutates, words=words,
               scales=rounding_scales(text if text is not None else unit.text))  # fmt: skip
    body = text if text is not None else unit.text
    t.compared = compared_params(body, [p.name for p in t.params])
    # a parameter compared with a local variable is compared with the column the variable holds
    held = _variable_columns([(k.kind, k.text) for k in lexer.code_tokens(body)])
    columns = compared_columns(body, [p.name for p in t.params])
    t.params = [dataclasses.replace(
        p, compared_with=tuple(_unique([held.get(c, c) for c in columns.get(p.name.lower(), [])])),
        held_with=tuple(_unique([held[c] for c in columns.get(p.name.lower(), []) if c in held])))
        for p in t.params]  # fmt: skip
    t.states = state_literals(body)
    if routine.returns is not None:
        t.returns = type_source(routine.returns.text)
        t.return_family = family(t.returns, catalog, unit.schema, package)[0]
        if any(p.mode != "IN" for p in t.params):
            t.skip = "a function with OUT parameters cannot be called from SQL on either side"
    if routine.external is not None:
        t.skip = "an external (C/Java) routine"
    return t


def _package_targets(spec: Unit, body: Unit | None, catalog: Catalog, ctx: ConversionContext) -> list[Target]:
    tree = parsed(spec, ctx).tree
    assert isinstance(tree, A.Package), "a package specification parses to a package"
    units = (spec.id, body.id) if body else (spec.id,)
    spans = _member_texts(body, ctx) if body else {}
    out = []
    for d in tree.decls:
        if isinstance(d, A.Routine):
            # the member's own text in the body holds its literals; its writes include those of
            # the helpers it calls (resolved with the other routines' in _close_writes)
            text = spans.get((d.name, len(d.params)), body.text if body else spec.text)
            if (d.name, len(d.params)) in spans:
                text = _with_private_helpers(
                    text, spans, {r.name.lower() for r in tree.decls if isinstance(r, A.Routine)}
                )
            out.append(_routine_target(spec, d, catalog, units, f"{spec.name}.{d.name}", spec.name, text))
        elif isinstance(d, A.VarDecl):
            out.append(_variable_target(spec, d, catalog, units))
    return out


def _method_targets(body: Unit, catalog: Catalog, source: SourceSet, ctx: ConversionContext) -> list[Target]:
    """The methods of an object type body. The converter makes each a function of the type's
    schema, `<type>__<method>` (a MEMBER takes the object as its first parameter, `self`), and a
    user-defined constructor `<type>__new`; steps build the object from its attributes
    (`t(a, b)` / `ROW(a, b)::t`), call the method and print its result and the object's
    attributes. The type's own unit is judged by them too (its attributes are what they print)."""
    tree = parsed(body, ctx).tree
    type_name = body.name
    entry = catalog.lookup(body.schema, type_name)
    attrs = entry.declared_type.attributes if entry is not None and isinstance(entry.declared_type, ObjectType) else {}
    attributes = [ParamInfo(f"self.{a}", "IN", t, family(t, catalog, body.schema)[0], None, False)
                  for a, t in attrs.items()]  # fmt: skip
    spec = next((u.id for u in source.units if u.kind is UnitKind.TYPE and u.name == type_name), None)
    units = (body.id, spec) if spec else (body.id,)
    spans = _routine_spans(body, getattr(tree, "routines", []))
    out = []
    own = any(r.flavour == "CONSTRUCTOR" and len(r.params) == len(attrs) for r in getattr(tree, "routines", []))
    for r in getattr(tree, "routines", []):
        flavour = r.flavour or "MEMBER"
        text = spans.get(id(r), body.text)
        name = "new" if flavour == "CONSTRUCTOR" else r.name
        t = _routine_target(body, r, catalog, units, f"{type_name}.{r.name}", body.schema, text)
        t.kind, t.flavour, t.type_name, t.pg_name = "method", flavour, type_name, f"{type_name}__{name}"
        t.attributes, t.own_constructor = attributes, own
        if flavour == "MEMBER":  # SELF declared explicitly (`SELF IN OUT t`): the object the step builds
            t.params = [p for p in t.params if p.name.lower() != "self"]
        ret = (t.returns or "").strip().strip('"').lower()
        t.returns_self = flavour == "CONSTRUCTOR" or ret.split(".")[-1] == type_name.lower()
        if flavour in ("MAP", "ORDER") or flavour == "CONSTRUCTOR" and r.block is None:
            t.skip = f"a {flavour} method: the converter does not convert it"
        elif any(p.mode != "IN" for p in t.params):
            t.skip = "a method with OUT parameters: no step is synthesized for it yet"
        elif entry is None or not attributes:
            t.skip = f"object type {type_name}: its attributes are not in the export"
        out.append(t)
    return out


def _routine_spans(unit: Unit, routines: list) -> dict[int, str]:
    """id(routine) -> its text (from its line to the next routine's), for each routine with a line."""
    lines = unit.text.splitlines(keepends=True)
    members = [r for r in routines if r.line]
    starts = [r.line for r in members] + [len(lines) + 1]
    return {id(r): "".join(lines[r.line - 1 : starts[i + 1] - 1]) for i, r in enumerate(members)}


def _variable_target(spec: Unit, d: A.VarDecl, catalog: Catalog, units: tuple[str, ...]) -> Target:
    """A public variable or constant of a package specification: the converter makes it a getter
    function (`pkg.name()`) and, for a variable, a setter (`pkg.set__name(value)`) over session
    state, each running the package's initialisation first. Read from a block on both sides (SQL
    cannot name a package variable on Oracle); a variable is also set, then read back."""
    text = type_source(d.type.text)
    fam = family(text, catalog, spec.schema, spec.name)[0]
    literals = [v for v in [_default_value(d)] if v is not None]
    t = Target("variable", units, f"{spec.name}.{d.name}", spec.name, d.name, returns=text, return_family=fam,
               literals=literals, constant=d.constant)  # fmt: skip
    if fam not in ("number", "text", "date", "bool"):
        t.skip = f"a package {'constant' if d.constant else 'variable'} of type {text}: no scalar value to print"
    return t


def _with_private_helpers(text: str, spans: dict[tuple[str, int], str], public: set[str]) -> str:
    """A member's text followed by those of the body's private routines it calls (and those
    they call): a logger's INSERT in a private `write_log` is what the public `log_error` writes
    (no target of its own carries it to _close_writes)."""
    private = {name: t for (name, _n), t in spans.items() if name.lower() not in public}
    seen: set[str] = set()
    todo, out = [text], [text]
    while todo:
        words = {lexer.normalize_identifier(t.text) for t in lexer.code_tokens(todo.pop()) if t.kind == lexer.WORD}
        for name, helper in private.items():
            if name.lower() in words and name.lower() not in seen:
                seen.add(name.lower())
                out.append(helper)
                todo.append(helper)
    return "\n".join(out)


def _member_texts(body: Unit, ctx: ConversionContext) -> dict[tuple[str, int], str]:
    """(name, parameter count) -> the text of that routine in a package body (from its line to
    the next member's)."""
    try:
        tree = parsed(body, ctx).tree
    except Exception:
        return {}
    if not isinstance(tree, A.Package):
        return {}
    members = [d for d in tree.decls if isinstance(d, A.Routine)]
    spans = _routine_spans(body, members)
    return {(d.name, len(d.params)): spans[id(d)] for d in members if id(d) in spans}


def _trigger_target(unit: Unit, ctx: ConversionContext) -> Target:
    trg = parsed(unit, ctx).tree
    assert isinstance(trg, A.Trigger), "a trigger unit parses to a trigger"
    literals, writes, words, _ = _body_facts(unit.text)
    table = trg.table[-1]
    t = Target("trigger", (unit.id,), table, unit.schema, table, literals=_unique(literals),
               writes=writes | {table}, mutates=True, trigger=trg, words=words,
               states=state_literals(unit.text))  # fmt: skip
    return t


def _type_units(targets: list[Target], source: SourceSet, catalog: Catalog) -> None:
    """A schema-level type is judged by the steps of the routines whose signature names it (and
    of those naming a collection of it): they pass and print its values, as converted. A type
    no signature names keeps no evidence (its unit says so)."""
    types = {u.name.lower(): u.id for u in source.units if u.kind is UnitKind.TYPE}
    if not types:
        return

    def named(text: str | None, depth: int = 0) -> list[str]:
        name = (text or "").strip().strip('"').split(".")[-1].lower()
        if name not in types or depth > 4:
            return []
        entry = catalog.lookup(source.schema, name)
        element = entry.declared_type.element if entry and isinstance(entry.declared_type, CollectionType) else ""
        return [types[name], *named(element, depth + 1)]

    for t in targets:
        if t.kind not in ("function", "procedure", "method"):
            continue
        ids = [i for p in t.params for i in named(p.oracle_type)] + named(t.returns)
        t.units = tuple(dict.fromkeys([*t.units, *ids]))


def _close_writes(targets: list[Target], catalog: Catalog) -> None:
    """A routine writes what the routines it calls write (to a fixed point)."""
    by_name = {t.pg_name: t for t in targets if t.kind in ("function", "procedure")}
    for t in targets:
        t.deep_words = set(t.words)
    changed = True
    while changed:
        changed = False
        for t in targets:
            for word in t.words:
                callee = by_name.get(word)
                if callee is None or callee is t:
                    continue
                if not callee.writes <= t.writes or not callee.deep_words <= t.deep_words:
                    t.writes |= callee.writes
                    t.deep_words |= callee.deep_words
                    t.mutates = t.mutates or callee.mutates
                    changed = True
    tables = {name for (_schema, name), e in catalog.entries.items() if e.kind is UnitKind.TABLE}
    for t in targets:
        t.writes &= tables
        t.reads = (t.deep_words & tables) | t.writes


def _callee_literals(targets: list[Target]) -> None:
    """After its own literals, those of the routines a target calls directly (`str_to_bool_str`
    branches on what `str_to_bool(p)` compares `p` with): a value that reaches a callee's branch
    decides the caller's."""
    by_name: dict[str, list[Target]] = {}
    for t in targets:
        if t.kind in ("function", "procedure"):
            by_name.setdefault(t.pg_name, []).append(t)
    mine = {id(t): list(t.literals) for t in targets}
    for t in targets:
        extra = [v for w in sorted(t.words) for c in by_name.get(w, []) if c is not t for v in mine[id(c)]]
        own = {(type(v).__name__, v) for v in mine[id(t)]}
        t.callee_literals = [v for v in _unique(extra) if (type(v).__name__, v) not in own]


def _package_constants(words: set[str], catalog: Catalog, schema: str, package: str | None = None) -> list:
    """Values of the package constants a body compares against (`emp_util.c_max_raise_pct`, or
    `g_yes` unqualified inside its own package): the threshold of a branch often lives in a
    package's spec."""
    out: list[Decimal | str] = []
    for word in sorted(words):
        pkg, _, name = word.partition(".")
        if not name and package:
            pkg, name = package, word
        entry = catalog.lookup(schema, pkg) if name else None
        decl = entry.package.variables.get(name) if entry and entry.package else None
        value = _default_value(decl) if decl is not None and decl.constant else None
        if value is not None:
            out.append(value)
    return out


def _default_value(decl: A.VarDecl) -> Decimal | str | None:
    """A declaration's default when it is one literal: a number or a quoted text."""
    if not decl.default:
        return None
    text = "".join(t.text for t in decl.default)
    try:
        return Decimal(text)
    except InvalidOperation:
        if len(text) >= 2 and text[0] == text[-1] == "'":
            return text[1:-1].replace("''", "'")
    return None


def _unique(values: list) -> list:
    seen, out = set(), []
    for v in values:
        key = (type(v).__name__, v)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out
