"""PL/SQL conditional compilation, evaluated as Oracle's compiler does before it reads the code.

Oracle selects code at compile time: `$IF static-condition $THEN ... [$ELSIF ... $THEN ...]
[$ELSE ...] $END`, `$ERROR message $END`, and inquiry directives `$$NAME`. PostgreSQL has
nothing of the kind, so the converter does what Oracle's preprocessor does
(DBMS_PREPROCESSOR.PRINT_POST_PROCESSED_SOURCE): only the selected code is converted, for a
stated target:

* `DBMS_DB_VERSION.VERSION` / `RELEASE` / `VER_LE_v[_r]` answer for the Oracle release the
  export was written for (`CompileTarget.version`, default 19.0: the code that release compiles);
* `$$PLSQL_UNIT`, `$$PLSQL_UNIT_OWNER`, `$$PLSQL_UNIT_TYPE`, `$$PLSQL_LINE` and Oracle's default
  compiler settings (`$$PLSQL_CODE_TYPE`, `$$PLSQL_OPTIMIZE_LEVEL`, `$$NLS_LENGTH_SEMANTICS`, ...);
* `$$flag` from `CompileTarget.ccflags` (PLSQL_CCFLAGS); an undefined flag is NULL, as in Oracle;
* `pkg.constant`: a BOOLEAN or integer constant declared with a literal in a package
  specification of the export (Oracle's static constants).

Target and constants come in a `Compilation` (`migrator.convert.compile_target`), which the
conversion context carries: nothing here is module state, so a unit's text depends on its
arguments alone.

The text keeps every line where it was (unselected code and directives become blanks), so line
numbers in reports still point at the source. A condition that is not static here (a name the
export does not declare) or a selected `$ERROR` makes the unit fail with the reason, as the
Oracle compiler would refuse it.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from harness.quoting import pg_string
from migrator.convert.compile_target import Compilation, Constants
from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.oracle_types import STATIC_CONSTANT_NAMES
from migrator.source.lexer import NUMBER, OP, STRING, TRIVIA_KINDS, WORD, Token, iter_tokens, string_value


class ConditionalError(ValueError):
    """Conditional compilation Oracle's compiler would refuse (or that is not static here)."""


# Oracle's defaults for the compiler settings an inquiry directive may read.
_SETTINGS = MappingProxyType(
    {
        "plsql_code_type": "INTERPRETED",
        "plsql_optimize_level": 2,
        "plsql_debug": False,
        "plsql_warnings": "DISABLE:ALL",
        "nls_length_semantics": "BYTE",
        "plscope_settings": "IDENTIFIERS:NONE",
        "plsql_ccflags": None,
    }
)
_DIRECTIVE = re.compile(r"(?<![\w$#])\$(\$\w|(IF|THEN|ELSIF|ELSE|END|ERROR)\b)", re.IGNORECASE)
_CONSTANT = re.compile(
    rf"^\s*(\w+)\s+CONSTANT\s+({'|'.join(sorted(STATIC_CONSTANT_NAMES))})"
    r"\s*(?::=|DEFAULT)\s*(TRUE|FALSE|NULL|-?\d+)\s*;",
    re.IGNORECASE | re.MULTILINE,
)


def refused(text: str, ctx: ConversionContext) -> str:
    """With the rule off: the unit is not converted, and says why (a marker, reported)."""
    found = _DIRECTIVE.search(text)
    line = text.count("\n", 0, found.start()) + 1 if found else 1
    ctx.unconverted("conditional compilation", "$IF / $$name directives (rule plsql.conditional_compilation off)", line)
    return unconverted_marker("conditional compilation", found.group() if found else "$") + ";\n"


def record(ctx: ConversionContext) -> None:
    """Say in the unit's record that its code was selected, and for which target."""
    ctx.applied("plsql.conditional_compilation")
    target = ctx.compilation.target
    flags = ", ".join(f"{k}:{v}" for k, v in target.ccflags) or "none"
    ctx.note(
        f"conditional compilation evaluated for Oracle {target.version[0]}.{target.version[1]} "
        f"(PLSQL_CCFLAGS: {flags}); only the selected code is converted"
    )


def parse_ccflags(text: str) -> tuple[tuple[str, object], ...]:
    """PLSQL_CCFLAGS syntax: `name:value, ...` with TRUE, FALSE, NULL or an integer."""
    out: list[tuple[str, object]] = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, sep, raw = item.partition(":")
        if not sep or not re.fullmatch(r"[A-Za-z]\w*", name.strip()):
            raise ValueError(f"PLSQL_CCFLAGS item {item!r}: expected name:value")
        out.append((name.strip().lower(), _literal(raw.strip())))
    return tuple(out)


def _literal(raw: str) -> object:
    up = raw.upper()
    if up in ("TRUE", "FALSE"):
        return up == "TRUE"
    if up == "NULL":
        return None
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    raise ValueError(f"{raw!r} is not TRUE, FALSE, NULL or an integer")


def static_constants(specs: list[tuple[str, str]]) -> Constants:
    """The static constants of package specifications [(package name, text)], for a
    `Compilation` (a constant declared twice: the later declaration)."""
    found: dict[tuple[str, str], object] = {}
    for package, text in specs:
        if "CONSTANT" not in text.upper():
            continue
        for m in _CONSTANT.finditer(text):
            found[(package.upper(), m.group(1).upper())] = _literal(m.group(3))
    return tuple(sorted(found.items(), key=lambda item: item[0]))


@lru_cache(maxsize=64)
def has_directives(text: str) -> bool:
    # asked of each unit's text four times in a run (prepare, parse, convert, compiled text), and a
    # unit with a "$" anywhere (V$ views, strings) is searched whole each time: cached per text
    return "$" in text and _DIRECTIVE.search(text) is not None


@dataclass
class _Unit:
    name: str
    owner: str
    kind: str


def preprocess(text: str, unit_name: str, owner: str, kind: str, compilation: Compilation) -> str:
    """The text Oracle's compiler reads for `compilation`: selected code kept in place, the rest
    blank (newlines kept). Raises ConditionalError for a selected $ERROR or a condition that is
    not static."""
    if not has_directives(text):
        return text
    toks = list(iter_tokens(text))
    out = list(text)
    _Pass(text, toks, out, _Unit(unit_name.upper(), owner.upper(), kind.upper()), compilation).run()
    return "".join(out)


class _Pass:
    def __init__(self, text: str, toks: list[Token], out: list[str], unit: _Unit, compilation: Compilation):
        self.text, self.toks, self.out, self.unit = text, toks, out, unit
        self.compilation = compilation
        self.i = 0

    # ---- tokens ---------------------------------------------------------------------------
    def directive(self, i: int) -> str | None:
        """IF / THEN / ELSIF / ELSE / END / ERROR when toks[i] starts `$word`, `$$` for an inquiry."""
        t = self.toks
        if i + 1 < len(t) and t[i].kind == OP and t[i].text == "$":
            nxt = t[i + 1]
            if nxt.kind == OP and nxt.text == "$":
                return "$$"
            if nxt.kind == WORD and nxt.text.upper() in ("IF", "THEN", "ELSIF", "ELSE", "END", "ERROR"):
                return nxt.text.upper()
        return None

    def blank(self, start: int, end: int) -> None:
        for k in range(start, end):
            if self.out[k] not in "\r\n":
                self.out[k] = " "

    def line(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    # ---- the pass -----------------------------------------------------------------------------
    def run(self) -> None:
        while self.i < len(self.toks):
            d = self.directive(self.i)
            if d == "IF":
                self.selection(keep=True)
            elif d == "ERROR":
                self.error(keep=True)
            elif d == "$$":
                self.inquiry_in_code()
            elif d is not None:
                raise ConditionalError(f"line {self.line(self.toks[self.i].start)}: ${d} without $IF")
            else:
                self.i += 1

    def selection(self, keep: bool) -> None:
        """`$IF ... $END` at self.i: keep the chosen branch (when `keep`), blank everything else."""
        start = self.toks[self.i].start
        self.i += 2
        taken = False
        cond_toks = self.until(("THEN",))
        chosen = keep and self.truth(cond_toks, start)
        self.blank(start, self.toks[self.i + 1].end)  # $IF condition $THEN
        self.i += 2
        while True:
            self.branch(chosen and not taken)
            taken = taken or chosen
            d = self.directive(self.i)
            at = self.toks[self.i].start
            if d == "ELSIF":
                self.i += 2
                cond_toks = self.until(("THEN",))
                chosen = keep and not taken and self.truth(cond_toks, at)
                self.blank(at, self.toks[self.i + 1].end)
                self.i += 2
            elif d == "ELSE":
                self.blank(at, self.toks[self.i + 1].end)
                self.i += 2
                chosen = keep and not taken
            else:  # $END
                self.blank(at, self.toks[self.i + 1].end)
                self.i += 2
                return

    def branch(self, keep: bool) -> None:
        """A branch's code up to its $ELSIF / $ELSE / $END: kept (inner directives resolved) or blank."""
        while True:
            if self.i >= len(self.toks):
                raise ConditionalError("$IF without $END")
            d = self.directive(self.i)
            if d in ("ELSIF", "ELSE", "END"):
                return
            tok = self.toks[self.i]
            if d == "IF":
                self.selection(keep)
            elif d == "ERROR":
                self.error(keep)
            elif d == "$$" and keep:
                self.inquiry_in_code()
            else:
                if not keep:
                    self.blank(tok.start, tok.end)
                self.i += 1

    def error(self, keep: bool) -> None:
        start = self.toks[self.i].start
        self.i += 2
        message = self.until(("END",))
        end = self.toks[self.i + 1].end
        self.i += 2
        if keep:
            value = self.evaluate(message, start)
            raise ConditionalError(f"line {self.line(start)} of the unit: $ERROR {value if value is not None else ''}")
        self.blank(start, end)

    def until(self, words: tuple[str, ...]) -> list[Token]:
        """Code tokens up to the next `$word` in `words` (self.i left on its `$`)."""
        got: list[Token] = []
        while self.i < len(self.toks):
            d = self.directive(self.i)
            if d in words:
                return got
            if self.toks[self.i].kind not in TRIVIA_KINDS:
                got.append(self.toks[self.i])
            self.i += 1
        raise ConditionalError(f"${'/$'.join(words)} missing")

    def inquiry_in_code(self) -> None:
        """`$$NAME` in code: replaced by its value as a literal."""
        dollar, name = self.toks[self.i], self.toks[self.i + 2] if self.i + 2 < len(self.toks) else None
        if name is None or name.kind != WORD:
            raise ConditionalError(f"line {self.line(dollar.start)}: $$ without a name")
        value = self.inquiry(name.text, dollar.start)
        self.blank(dollar.start, name.end)
        self.out[dollar.start] = _sql_literal(value)
        self.i += 3

    # ---- static expressions ---------------------------------------------------------------------
    def inquiry(self, name: str, pos: int) -> object:
        key = name.lower()
        if key == "plsql_unit":
            return self.unit.name
        if key == "plsql_unit_owner":
            return self.unit.owner
        if key == "plsql_unit_type":
            return self.unit.kind
        if key == "plsql_line":
            return self.line(pos)
        flags = dict(self.compilation.target.ccflags)
        if key in flags:
            return flags[key]
        return _SETTINGS.get(key)  # an undefined flag is NULL

    def truth(self, toks: list[Token], pos: int) -> bool:
        return self.evaluate(toks, pos) is True

    def evaluate(self, toks: list[Token], pos: int) -> object:
        parser = _Expr(toks, self, pos)
        value = parser.disjunction()
        if parser.k != len(toks):
            raise ConditionalError(f"line {self.line(pos)} of the unit: condition not static: {_text(toks)}")
        return value


class _Expr:
    """A static expression: OR / AND / NOT, comparisons, IS [NOT] NULL, parentheses, literals,
    inquiry directives, DBMS_DB_VERSION and package constants. NULL is three-valued."""

    def __init__(self, toks: list[Token], owner: _Pass, pos: int):
        self.toks, self.owner, self.pos, self.k = toks, owner, pos, 0

    def peek(self, *words: str) -> bool:
        if self.k >= len(self.toks):
            return False
        t = self.toks[self.k]
        return (t.kind == WORD and t.text.upper() in words) or (t.kind == OP and t.text in words)

    def fail(self) -> ConditionalError:
        return ConditionalError(
            f"line {self.owner.line(self.pos)} of the unit: condition not static: {_text(self.toks)}"
        )

    def disjunction(self) -> object:
        value = self.conjunction()
        while self.peek("OR"):
            self.k += 1
            right = self.conjunction()
            value = True if value is True or right is True else (None if value is None or right is None else False)
        return value

    def conjunction(self) -> object:
        value = self.negation()
        while self.peek("AND"):
            self.k += 1
            right = self.negation()
            value = False if value is False or right is False else (None if value is None or right is None else True)
        return value

    def negation(self) -> object:
        if self.peek("NOT"):
            self.k += 1
            value = self.negation()
            return None if value is None else not value
        return self.comparison()

    def comparison(self) -> object:
        left = self.concatenation()
        if self.peek("IS"):
            self.k += 1
            negate = self.peek("NOT")
            self.k += 1 if negate else 0
            if not self.peek("NULL"):
                raise self.fail()
            self.k += 1
            return (left is not None) if negate else (left is None)
        op = self.operator()
        if op is None:
            return left
        right = self.concatenation()
        if left is None or right is None:
            return None
        numbers = (int, float)
        same = (isinstance(left, bool) and isinstance(right, bool)) or (
            not isinstance(left, bool)
            and not isinstance(right, bool)
            and (isinstance(left, numbers) == isinstance(right, numbers))
        )
        if not same or (isinstance(left, bool) and op not in ("=", "<>")):
            raise self.fail()  # Oracle converts nothing here: a text compared with a number is refused
        return _COMPARE[op](left, right)  # type: ignore[arg-type]  # same kinds, checked above

    def concatenation(self) -> object:
        """`a || b`: text, NULL as '' (Oracle); a BOOLEAN cannot be concatenated."""
        value = self.primary()
        while self.k < len(self.toks) and self.toks[self.k].text in ("||", "|"):
            if self.toks[self.k].text == "|":  # two one-character tokens
                if self.k + 1 >= len(self.toks) or self.toks[self.k + 1].text != "|":
                    raise self.fail()
                self.k += 1
            self.k += 1
            right = self.primary()
            if isinstance(value, bool) or isinstance(right, bool):
                raise self.fail()
            value = ("" if value is None else str(value)) + ("" if right is None else str(right))
        return value

    def operator(self) -> str | None:
        t = self.toks
        if self.k >= len(t) or t[self.k].kind != OP or t[self.k].text[0] not in "=<>!^~":
            return None
        op = t[self.k].text  # the lexer gives `>=`, `<>` ... as one token or as two adjacent ones
        self.k += 1
        if len(op) == 1 and self.k < len(t) and t[self.k].kind == OP and t[self.k].text in ("=", ">"):
            if t[self.k].start == t[self.k - 1].end:
                op += t[self.k].text
                self.k += 1
        op = {"!=": "<>", "^=": "<>", "~=": "<>"}.get(op, op)
        if op not in ("=", "<>", "<", "<=", ">", ">="):
            raise self.fail()
        return op

    def primary(self) -> object:
        if self.k >= len(self.toks):
            raise self.fail()
        t = self.toks[self.k]
        if t.kind == OP and t.text == "(":
            self.k += 1
            value = self.disjunction()
            if not self.peek(")"):
                raise self.fail()
            self.k += 1
            return value
        if t.kind == OP and t.text == "$" and self.k + 2 < len(self.toks) and self.toks[self.k + 1].text == "$":
            name = self.toks[self.k + 2]
            self.k += 3
            return self.owner.inquiry(name.text, name.start)
        if t.kind == NUMBER:
            self.k += 1
            return int(t.text) if t.text.isdigit() else float(t.text)
        if t.kind == STRING:
            self.k += 1
            return string_value(t)
        if t.kind == OP and t.text == "-" and self.k + 1 < len(self.toks) and self.toks[self.k + 1].kind == NUMBER:
            self.k += 1
            value = self.primary()
            return -value  # type: ignore[operator]
        if t.kind == WORD:
            return self.name()
        raise self.fail()

    def name(self) -> object:
        first = self.toks[self.k].text.upper()
        self.k += 1
        if first in ("TRUE", "FALSE"):
            return first == "TRUE"
        if first == "NULL":
            return None
        if not self.peek("."):
            raise self.fail()
        self.k += 1
        if self.k >= len(self.toks) or self.toks[self.k].kind != WORD:
            raise self.fail()
        second = self.toks[self.k].text.upper()
        self.k += 1
        if first == "DBMS_DB_VERSION":
            return _db_version(second, self)
        found, value = self.owner.compilation.constant(first, second)
        if found:
            return value
        raise self.fail()


_COMPARE = MappingProxyType(
    {
        "=": operator.eq,
        "<>": operator.ne,
        "<": operator.lt,
        "<=": operator.le,
        ">": operator.gt,
        ">=": operator.ge,
    }
)


def _db_version(member: str, expr: _Expr) -> object:
    version, release = expr.owner.compilation.target.version
    if member == "VERSION":
        return version
    if member == "RELEASE":
        return release
    m = re.fullmatch(r"VER_LE_(\d+)(?:_(\d+))?", member)
    if m is None:
        raise expr.fail()
    v, r = int(m.group(1)), int(m.group(2) or 0)
    if m.group(2) is None:
        return version <= v
    return (version, release) <= (v, r)


def _sql_literal(value: object) -> str:
    if value is None:
        return "NULL"
    if value is True:
        return "TRUE"
    if value is False:
        return "FALSE"
    if isinstance(value, (int, float)):
        return str(value)
    return pg_string(str(value))


def _text(toks: list[Token]) -> str:
    return " ".join(t.text for t in toks)
