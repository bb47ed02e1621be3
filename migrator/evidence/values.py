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


def _text(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def literal(value, family: str) -> Value:
    """`value` (a Python value read from the data or the body) as a literal of `family`."""
    if value is None:
        return NULL
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
    return Value(_text(text), _text(text), "empty" if text == "" else re.sub(r"\W+", "_", text)[:12] or "text")


class DataView:
    """What the deployed export holds: distinct values per column, read once per column."""

    def __init__(self, query):
        self._query = query  # (table, column) -> list of distinct values, or None when absent
        self._cache: dict[tuple[str, str], list | None] = {}
        self.columns: dict[str, list[str]] = {}  # table -> columns (filled by the caller)
        self.keys: dict[str, list[str]] = {}  # table -> primary key columns
        self.texts: list[str] = []  # distinct text values of the export, the unusual ones first

    def values(self, table: str, column: str) -> list | None:
        key = (table, column)
        if key not in self._cache:
            self._cache[key] = self._query(table, column)
        return self._cache[key]

    def column_for(self, param: ParamInfo) -> tuple[str, str] | None:
        """The column a parameter is about: its %TYPE anchor; else a primary key column, then any
        column, that carries the parameter's name without its prefix; else the key of a table
        the name mentions (`p_from_account` → accounts' key, `p_dept_no` → dept's)."""
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
        return None


def candidates(param: ParamInfo, target: Target, data: DataView) -> list[Value]:
    """Values to try for `param`, without duplicates: the typical one, NULL (a classic branch:
    `IF p IS NULL`), a key that does not exist (NO_DATA_FOUND, a foreign key violation), the
    body's literals and their neighbours, the other existing values, the type's boundaries, and
    '' last."""
    fam = param.family
    column = data.column_for(param)
    existing = (data.values(*column) if column else None) or []
    typical = [_tag(literal(existing[0], fam), "data")] if existing else []
    missing: list[Value] = []
    if existing and fam == "number" and all(isinstance(v, (int, Decimal)) for v in existing):
        missing.append(_tag(literal(max(Decimal(v) for v in existing) + 1000, fam), "missing"))
    elif existing and fam == "text":
        missing.append(_tag(literal("ZZ-NO-SUCH", fam), "missing"))
    out = typical + [NULL] + missing + [_tag(v, "literal") for v in _from_literals(target.literals, fam)]
    out += [_tag(literal(v, fam), "data") for v in existing[1:6]]
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
