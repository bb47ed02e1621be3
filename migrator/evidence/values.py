"""Input values for synthesized steps, each written for both systems.

Where values come from, in the order they are tried (the first is the call's "typical" value):
the export's own data (existing keys of the column a parameter is anchored on, or whose name it
carries — `p_employee_id` ~ `employees.employee_id` — and a key that does not exist), literals
the body compares (and their neighbours, which sit on the other side of a `<`/`>`), then the
boundary values of the type family, NULL, and Oracle's empty string (which *is* NULL there).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal

from harness.quoting import pg_string, quote_ident
from migrator.evidence import regex_samples
from migrator.evidence.targets import ParamInfo, Target

_PREFIX = re.compile(r"^(p|pi|po|pio|in|i|v|a|arg)_", re.IGNORECASE)
FIXED_DATE = "2024-06-15 10:30:00"  # the frozen SYSDATE of every synthesized scenario


@dataclass(frozen=True)
class Value:
    oracle: str  # literal in Oracle syntax
    pg: str  # literal in PostgreSQL syntax
    label: str  # short, for step names
    source: str = ""  # data | missing | literal | boundary | "" (NULL, or unknown)

    @property
    def is_null(self) -> bool:
        return self.oracle == "NULL"


NULL = Value("NULL", "NULL", "null")


def literal(value, family: str) -> Value:
    """`value` (a Python value read from the data or the body) as a literal of `family`."""
    if value is None:
        return NULL
    if isinstance(value, (bytes, bytearray, memoryview)):  # a RAW / BLOB column's value
        hexa = bytes(value).hex().upper()
        return Value(f"HEXTORAW('{hexa}')", f"'\\x{hexa}'::bytea", "raw")
    if family == "bool":
        word = "TRUE" if value else "FALSE"
        return Value(word, word, word.lower())
    if family == "number":
        text = str(Decimal(str(value)).normalize()) if not isinstance(value, bool) else str(int(value))
        text = format(Decimal(text), "f")
        return Value(text, text if not text.startswith("-") else f"({text})", text)
    if family == "date":
        stamp = value.strftime("%Y-%m-%d %H:%M:%S") if isinstance(value, (dt.date, dt.datetime)) else str(value)
        if len(stamp) == 10:
            stamp += " 00:00:00"
        return Value(f"TO_DATE('{stamp}', 'YYYY-MM-DD HH24:MI:SS')", f"TIMESTAMP '{stamp}'", stamp[:10])
    text = str(value)
    return Value(pg_string(text), pg_string(text), "empty" if text == "" else re.sub(r"\W+", "_", text)[:12] or "text")


class DataView:
    """What the deployed export holds: distinct values per column, read once per column."""

    def __init__(self, query, repeated=None):
        self._query = query  # (table, column) -> list of distinct values, or None when absent
        self._repeated = repeated  # (table, column) -> values held by more than one row
        self._cache: dict[tuple[str, str], list | None] = {}
        self.columns: dict[str, list[str]] = {}  # table -> columns (filled by the caller)
        self.keys: dict[str, list[str]] = {}  # table -> primary key columns
        self.uniques: dict[str, list[list[str]]] = {}  # table -> columns of each UNIQUE constraint
        # table -> (columns, parent table, parent columns) of each foreign key
        self.foreign: dict[str, list[tuple[list[str], str, list[str]]]] = {}
        self.rows: dict[str, list[dict]] = {}  # table -> the rows read (a few)
        self.texts: list[str] = []  # distinct text values of the export, the unusual ones first
        # (table, column) -> the texts a one-column CHECK constraint names (the states it allows)
        self.checks: dict[tuple[str, str], list[str]] = {}

    def values(self, table: str, column: str) -> list | None:
        key = (table, column)
        if key not in self._cache:
            self._cache[key] = self._query(table, column)
        return self._cache[key]

    def repeated(self, table: str, column: str) -> list:
        return (self._repeated(table, column) if self._repeated else None) or []

    def column_for(self, param: ParamInfo, hint: set[str] | None = None) -> tuple[str, str] | None:
        """The column a parameter is about: its %TYPE anchor; else a primary key column, then any
        column, that carries the parameter's name without its prefix; else the key of a table
        the name mentions (`p_from_account` → accounts' key, `p_dept_no` → dept's); for a
        one-word name, the one column of the tables the code names that ends with it; else the
        column the body compares it with."""
        named = self._named_column(param, hint)
        return named if named is not None else self._compared_column(param, hint)

    def _named_column(self, param: ParamInfo, hint: set[str] | None) -> tuple[str, str] | None:
        if param.column is not None:
            return param.column
        bare = _PREFIX.sub("", param.name).lower()
        for pool in (self.keys, self.columns):
            found = sorted((t, bare) for t, cols in pool.items() if bare in cols)
            if found:
                return found[0]
        words = set(re.split(r"_+", bare))
        for table, keys in sorted(self.keys.items()):
            stems = {table, table.rstrip("s"), table[:-3] + "y" if table.endswith("ies") else table}
            stems |= {k.rsplit("_", 1)[0] for k in keys if "_" in k}
            if len(keys) == 1 and (words & stems or bare in stems):
                return table, keys[0]
        # the one single-column key or unique column named as the name ends (`p_from_code` →
        # warehouses.code), among the tables the code names when several are
        last = bare.rsplit("_", 1)[-1]
        if last == bare and hint and last not in ("id", "no", "key", "name"):
            # a one-word name (`p_group`): the one column of the tables the code names that ends
            # with it (app_settings.setting_group)
            ends = sorted({(t, c) for t in hint for c in self.columns.get(t, []) if c.endswith("_" + bare)})
            return ends[0] if len(ends) == 1 else None
        if last in ("id", "no", "key", "name") or last == bare:
            return None
        single = [(t, [key]) for t, key in self.keys.items()] + list(self.uniques.items())
        ends = sorted({(t, cols[0]) for t, groups in single for cols in groups
                       if len(cols) == 1 and (cols[0] == last or cols[0].endswith("_" + last))})  # fmt: skip
        if len(ends) > 1 and hint:
            ends = [e for e in ends if e[0] in hint]
        return ends[0] if len(ends) == 1 else None

    def _compared_column(self, param: ParamInfo, hint: set[str] | None) -> tuple[str, str] | None:
        """The column the body compares the parameter with (`WHERE crew_id = p_first_id`): the
        one table among those the code names that has it, its key before any other column."""
        for col in param.compared_with:
            tables = sorted(t for t in (hint or set()) if col in self.columns.get(t, []))
            keyed = [t for t in tables if self.keys.get(t) == [col]]
            if keyed or len(tables) == 1:
                return (keyed or tables)[0], col
        return None


def candidates(param: ParamInfo, target: Target, data: DataView) -> list[Value]:
    """Values to try for `param`, without duplicates: the typical one, NULL (a classic branch:
    `IF p IS NULL`), a key that does not exist (NO_DATA_FOUND, a foreign key violation), the
    body's literals and their neighbours, the other existing values, the type's boundaries, and
    '' last."""
    if param.element is not None:
        return collections(param, target)
    if param.obj is not None:
        return objects(param, target)
    fam = param.family
    column = data.column_for(param, target.deep_words)
    # (a column found by name may hold values the parameter cannot take: a text `code` for a
    # numeric `p_code`; those are no values of it)
    existing = [v for v in (data.values(*column) if column else None) or [] if _fits(v, fam)]
    typical = [_tag(literal(existing[0], fam), "data")] if existing else []
    missing: list[Value] = []
    if existing and fam == "number" and all(isinstance(v, (int, Decimal)) for v in existing):
        missing.append(_tag(literal(max(Decimal(v) for v in existing) + 1000, fam), "missing"))
    elif existing and fam == "text":
        missing.append(_tag(literal("ZZ-NO-SUCH", fam), "missing"))
    # a value more than one row holds: a lookup by it finds too many rows (TOO_MANY_ROWS)
    shared = [_tag(literal(v, fam), "data") for v in data.repeated(*column)[:1]] if column else []
    named: list[Value] = []
    if fam == "text" and not typical and _dynamic(target):
        named = _statements(param, target, data) + _table_names(target, data)
    if fam == "text" and not typical and not named:
        named = _hex_texts(target)
    out = named[:1] + typical + [NULL] + missing + shared + named[1:]
    out += [_tag(v, "literal") for v in _from_literals(target.literals, fam)]
    if fam == "text":
        out += [_tag(v, "literal") for v in _lengths(target, existing) + _numeric_texts(target)]
        out += [_tag(v, "literal") for v in _separated(target)]
    out += [_tag(literal(v, fam), "data") for v in existing[1:6]]
    out += [_tag(v, "literal") for v in _from_literals(target.callee_literals, fam)]
    if column is None and fam == "date":  # a date the code looks up (a holiday): the dates of the tables it reads
        out += [_tag(literal(v, fam), "data") for v in _read_dates(target, data)]
    if fam == "text":  # text the export holds elsewhere: line breaks, trailing blanks, accents
        out += [_tag(literal(v, fam), "data") for v in data.texts[:3]]
    out += [_tag(v, "boundary") for v in boundaries(fam)]
    if fam == "text":
        out.append(literal("", fam))  # Oracle's '' is NULL: the converted code must agree
    if not typical and len(out) > 1 and out[0].is_null:  # lead with a value, not NULL
        out[0], out[1] = out[1], out[0]
    seen, unique = set(), []
    for v in out:
        if v.oracle not in seen:
            seen.add(v.oracle)
            unique.append(v)
    return unique


def _fits(value, fam: str) -> bool:
    if fam == "number":
        return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
    if fam == "date":
        return isinstance(value, (dt.date, dt.datetime))
    return True  # (any value has a text form)


def _lengths(target: Target, existing: list) -> list[Value]:
    """For code that measures a text (LENGTH): texts exactly as long as each number the body
    writes, and one longer (`LENGTH(p) <= 8` differs from `<= 9` at 9 characters only), made
    from the first existing value (or letters) repeated."""
    if not {"length", "lengthb", "lengthc"} & target.words:
        return []
    seed = next((v for v in existing if isinstance(v, str) and v.strip()), "ABCDEFGHIJ")
    sizes = _unique([int(n) + k for n in target.literals if isinstance(n, Decimal) and n == int(n)
                     and 1 <= n <= 64 for k in (0, 1)])  # fmt: skip
    return [literal((seed * (n // len(seed) + 1))[:n], "text") for n in sizes[:6]]


def _numeric_texts(target: Target) -> list[Value]:
    """For code that reads a number from a text (TO_NUMBER): numbers written the ways a file
    or a user writes them — a decimal point, a decimal comma, thousands separators, a sign —
    where NLS settings and format models decide the value."""
    if "to_number" not in target.words:
        return []
    return [literal(v, "text") for v in ("1234.5", "1,5", "1.234,56", "-12,00", "1,234.56")]


def _separated(target: Target) -> list[Value]:
    """For code that splits a text at a separator it names (`INSTR(p, '-')`, a ',' or '=' it looks
    for): the separator between two parts, digits then letters (the part before it and the part
    after it each reach the code; the separator alone leaves both empty)."""
    seps = [x for x in target.literals if isinstance(x, str) and 1 <= len(x) <= 2 and not any(c.isalnum() for c in x)]
    return [literal(f"{a}{sep}{b}", "text") for sep in seps[:2] for a, b in (("12", "345"), ("ab", "Cd"))]


def _hex_texts(target: Target) -> list[Value]:
    """For code that reads bytes from a text (HEXTORAW, UTL_RAW): hexadecimal digits — a byte, two
    bytes each way round, lower case, an odd count (Oracle pads a leading 0) and a text that is
    not hexadecimal (ORA-01465). Without them every call fails before the body's own logic."""
    if not {"hextoraw", "utl_raw"} & {w.split(".")[0] for w in target.words}:
        return []
    return [_tag(literal(v, "text"), "literal") for v in ("0F", "FF00", "00ff", "A5C3", "ABC", "XYZ")]


def _unique(values: list) -> list:
    return list(dict.fromkeys(values))


_DYNAMIC = {"execute", "dbms_sql", "dbms_assert"}
_SQL_PARAM = re.compile(r"sql|query|stmt|statement|select", re.IGNORECASE)


def _dynamic(target: Target) -> bool:
    return bool(_DYNAMIC & target.words)


def _plain(name: str) -> bool:
    return re.fullmatch(r"[a-z][a-z0-9_]*", name) is not None


def _table_names(target: Target, data: DataView) -> list[Value]:
    """For code that builds SQL from its text parameters: the names of the export's tables, those
    it names itself first (Oracle folds an unquoted name to upper case, PostgreSQL to lower)."""
    names = sorted(t for t in data.columns if _plain(t))
    written = [x for x in target.literals if isinstance(x, str) and x.lower() in names]  # a whitelist
    rest = [t for t in names if t in target.deep_words] + [t for t in names if t not in target.deep_words]
    return [_tag(literal(t, "text"), "name") for t in (written + rest)[:3]]


def _statements(param: ParamInfo, target: Target, data: DataView) -> list[Value]:
    """For a parameter the code runs as SQL (its name says so): queries over an export table
    with rows — one column, two columns, and one with the bind placeholder the body uses."""
    if not _SQL_PARAM.search(_PREFIX.sub("", param.name)):
        return []
    tables = [t for t in sorted(data.columns) if _plain(t) and data.values(t, data.columns[t][0])]
    tables = [t for t in tables if t in target.deep_words] + [t for t in tables if t not in target.deep_words]
    if not tables:
        return []
    table = tables[0]
    cols = [c for c in data.columns[table] if _plain(c)][:2]
    if not cols:
        return []
    binds = [x for x in target.literals if isinstance(x, str) and re.fullmatch(r":\w+", x)]
    texts = [f"SELECT {', '.join(cols)} FROM {table} ORDER BY 1", f"SELECT {cols[0]} FROM {table} ORDER BY 1"]
    if binds:
        texts.append(f"SELECT {cols[0]} FROM {table} WHERE {cols[0]} = {binds[0]} ORDER BY 1")
    return [_tag(literal(t, "text"), "query") for t in texts]


def collections(param: ParamInfo, target: Target) -> list[Value]:
    """A collection of scalars: one element, several (the body's literals first), with a NULL
    element, empty, and NULL — a loop over it runs once, several times, or not at all."""
    assert param.element is not None
    fam, owner, name = param.element
    items = [v for v in _from_literals(target.literals, fam)[:3] if not v.is_null]
    items += [v for v in boundaries(fam)[:3] if v.oracle not in {i.oracle for i in items}]
    ora_type = param.oracle_type.strip()
    pg_type = f"{quote_ident(owner)}.{quote_ident(name)}"

    def make(elems: list[Value], label: str) -> Value:
        if not elems:
            return Value(f"{ora_type}()", f"'{{}}'::{pg_type}", label)
        return Value(f"{ora_type}({', '.join(e.oracle for e in elems)})",
                     f"ARRAY[{', '.join(e.pg for e in elems)}]::{pg_type}", label)  # fmt: skip

    return [make(items[:3], "list3"), make(items[:1], "list1"), make([items[0], NULL, items[1]], "with_null"),
            make([], "empty"), NULL]  # fmt: skip


def objects(param: ParamInfo, target: Target) -> list[Value]:
    """An object of a schema-level type: built from values of its attributes' families (the
    body's literals first), with one attribute NULL, then atomically NULL. Oracle builds it with
    the type's constructor `t(a, b)`; the conversion with `ROW(a, b)::t`, or `t__new(a, b)` where
    a user-defined constructor takes that many parameters."""
    assert param.obj is not None
    o = param.obj
    ora_type, pg_type = param.oracle_type.strip(), f"{quote_ident(o.schema)}.{quote_ident(o.name)}"

    def pick(fam: str, k: int) -> Value:
        vals = [v for v in _from_literals(target.literals, fam) if not v.is_null] + boundaries(fam)
        return vals[k % len(vals)] if vals else NULL

    def make(values: list[Value], label: str) -> Value:
        pg_args = ", ".join(v.pg for v in values)
        pg = f"{quote_ident(o.schema)}.{quote_ident(o.name + '__new')}({pg_args})" if o.own_constructor else \
            f"ROW({pg_args})::{pg_type}"  # fmt: skip
        return Value(f"{ora_type}({', '.join(v.oracle for v in values)})", pg, label)

    first = [pick(fam, 0) for _a, fam in o.attributes]
    second = [pick(fam, 1) for _a, fam in o.attributes]
    out = [make(first, "obj"), make(second, "obj2")]
    out += [make([NULL if i == k else v for i, v in enumerate(first)], f"obj_null_{a}")
            for k, (a, _f) in enumerate(o.attributes)]  # fmt: skip
    return out[:6] + [NULL]


def _read_dates(target: Target, data: DataView, most: int = 4) -> list:
    out: list = []
    for table in sorted(target.reads):
        for col in data.columns.get(table, []):
            vals = data.values(table, col) or []
            out += [v for v in vals[:2] if isinstance(v, (dt.date, dt.datetime)) and v not in out]
    return out[:most]


def _tag(value: Value, source: str) -> Value:
    return Value(value.oracle, value.pg, value.label, source)


def _from_literals(literals: list, fam: str) -> list[Value]:
    out: list[Value] = []
    if fam == "number":
        # RAISE_APPLICATION_ERROR codes are not values the code compares
        for n in (x for x in literals if isinstance(x, Decimal) and not -20999 <= x <= -20000):
            out += [literal(n, fam), literal(n + 1, fam), literal(n - 1, fam)]
    elif fam == "text":
        for s in (x for x in literals if isinstance(x, str) and len(x) <= 60):
            out += [literal(v, fam) for v in regex_samples.samples(s)]  # strings a pattern matches
            if "%" not in s:
                out.append(literal(s, fam))
    return out[:24]


def boundaries(fam: str) -> list[Value]:
    if fam == "number":
        # ... a value with more decimals than money has (a rounding to 2 places shows), and a large one
        return [literal(v, fam) for v in (1, 0, -1, 100, Decimal("2.5"), Decimal("1234.5678"), 99999999)]
    if fam == "text":
        # short, mixed, padded, digits only, and lengths that cross typical limits (codes, IBANs)
        texts = ("X", "abc", " padded ", "12345", "DE44500105175407324931", "ABCDEFGHIJKLMNOPQRST", "x" * 40)
        return [literal(v, fam) for v in texts]
    if fam == "date":
        # month ends on weekdays and weekends, a leap day, a year end, the frozen SYSDATE
        days = ("2024-01-31 00:00:00", "2024-02-29 13:45:00", "2024-03-30 00:00:00", "2024-06-30 00:00:00",
                "2023-12-31 23:59:59", FIXED_DATE, "1999-12-31 23:59:59", "2000-01-01 00:00:00")  # fmt: skip
        return [literal(v, fam) for v in days]
    if fam == "bool":
        return [literal(True, fam), literal(False, fam)]
    return []
