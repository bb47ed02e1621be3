"""PL/SQL expressions and embedded SQL: resolve the PL/SQL-only parts, then hand over to sqlglot.

A token walk resolves, with scope knowledge, what sqlglot cannot know: package variables (→ getter
calls), collection elements and methods, cursor and SQL% attributes, :NEW/:OLD, INSERTING/UPDATING/
DELETING, SQLCODE/SQLERRM, sibling package members. Each resolved piece becomes an opaque
placeholder identifier (``plx__N``) whose PostgreSQL text is final; the rest goes through
`migrator.convert.sql.convert` and the placeholders are substituted back in its output.
"""

from __future__ import annotations

import re

from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import sqlconv
from migrator.convert.plsql.naming import oracle_tokens, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.state import EmitterState
from migrator.convert.signatures import Arg
from migrator.convert.sql.implicit import text_argument
from migrator.source.lexer import Token

_PH = re.compile(r"plx__\d+")
_CURSOR_ATTRS = {"FOUND", "NOTFOUND", "ISOPEN", "ROWCOUNT", "BULK_ROWCOUNT", "BULK_EXCEPTIONS"}
_ARR_METHODS = {"COUNT", "FIRST", "LAST", "EXISTS", "NEXT", "PRIOR", "LIMIT"}


def render(tokens: list[Token]) -> str:
    """Tokens back to text, spaced as in the source (Oracle's `(+)` must stay unspaced);
    placeholders and tokens from different places get one space."""
    out: list[str] = []
    prev = None
    for t in tokens:
        if prev is not None and (t.kind == "ph" or prev.kind == "ph" or t.start != prev.end or t.end == 0):
            out.append(" ")
        out.append(t.text)
        prev = t
    return "".join(out)


class ExprMixin(EmitterState):
    """Mixed into the Emitter; needs self.ctx, self.scope-aware helpers from other mixins."""

    # ---- public entry points -----------------------------------------------------------------
    def expr(self, toks: list[Token], scope) -> str:
        return self.expr_typed(toks, scope, typed=False)[0]

    def expr_typed(self, toks: list[Token], scope, name: str | None = None, typed: bool = True) -> tuple[str, Arg]:
        """The PostgreSQL text of an expression, and what is known of its type (as an argument
        named `name`, for binding a call; `typed=False` skips finding it out)."""
        if not toks:
            return "", Arg(name)
        ph: dict[str, str] = {}
        types: dict[str, str] = {}
        walked = self.walk(toks, scope, ph, types)
        text = render(walked)
        types.update(scope.types_map())
        arg = text_argument(text, self.ctx, types, name) if typed else Arg(name)
        fast = sqlconv.fast_text(walked, scope.types_map(), lambda n: scope.get(n) is not None)
        if fast is not None:
            return self._unph(fast, ph), arg
        out = sqlconv.convert("expr", text, self.ctx, types)
        return self._unph(out, ph), arg

    def sql_text(self, toks: list[Token], scope) -> str:
        ph: dict[str, str] = {}
        types: dict[str, str] = {}
        walked = self.walk(toks, scope, ph, types, in_sql=True)
        text = render(walked)
        types.update(scope.types_map())
        out = sqlconv.convert("stmt", text, self.ctx, types)
        return self._unph(out, ph)

    def _unph(self, text: str, ph: dict[str, str]) -> str:
        if not ph:
            return text
        # placeholders may nest (an index expression holding a package variable)
        for _ in range(3):
            text = _PH.sub(lambda m: ph.get(m.group(), m.group()), text)
            if "plx__" not in text:
                break
        return text

    def placeholder(self, pg_text: str, ph: dict, types: dict, ora: str = "") -> Token:
        self.ph_counter += 1
        name = f"plx__{self.ph_counter}"
        ph[name] = pg_text
        if ora:
            types[name] = ora
        return Token("ph", name, 0, 0)

    # ---- the walk --------------------------------------------------------------------------
    def walk(self, toks, scope, ph, types, in_sql: bool = False) -> list[Token]:
        out: list[Token] = []
        i, n = 0, len(toks)
        while i < n:
            t = toks[i]
            if t.kind == "bind":
                i = self.walk_bind(toks, i, out, ph, types)
                continue
            if in_sql and t.is_word("TABLE") and i + 1 < n and toks[i + 1].is_op("("):
                hit = self.table_collection(toks, i, scope, ph, types)  # TABLE(collection): emit_collections
                if hit is not None:
                    out.append(hit[0])
                    i = hit[1]
                    continue
            if t.kind in ("word", "qident") and not (out and out[-1].text == "." and out[-1].kind == "op"):
                j = self.walk_name(toks, i, scope, out, ph, types, in_sql)
                if j is not None:
                    i = j
                    continue
            out.append(t)
            i += 1
        return out

    def walk_bind(self, toks, i, out, ph, types) -> int:
        t = toks[i]
        name = t.text[1:].upper()
        alias = self.trigger_alias(name) if self.frame.trigger is not None else None
        if alias:
            out.append(Token("word", alias, t.start, t.end))
            return i + 1
        self.unconverted("bind variable", f"host bind variable {t.text} has no PostgreSQL equivalent here", t)
        out.append(self.placeholder(unconverted_marker("bind variable", t.text), ph, types))
        return i + 1

    def routine_rename(self, parts, scope) -> tuple[str, str] | None:
        """(schema, name) of a sibling package member or a lifted nested subprogram."""
        if len(parts) != 1:
            return None
        sym = scope.get(parts[0])
        if sym is not None:
            return sym.routine if sym.kind == "routine" else None
        if self.pkg and parts[0] in self.pkg_members((self.pkg,)):
            return self.pkg, parts[0]
        return None

    def called_bare(self, parts, toks, j, scope, in_sql: bool) -> bool:
        """A sibling member or nested function named without parentheses: a call in PL/SQL (in SQL a
        bare name is a column first)."""
        if j < len(toks) and toks[j].is_op("(", "."):
            return False
        sym = scope.get(parts[0])
        sigs = (
            sym.sigs if sym is not None and sym.kind == "routine" else self.pkg_members((self.pkg,)).get(parts[0], [])
        )
        return not in_sql and any(r.kind == "FUNCTION" and all(p.default is not None for p in r.params) for r in sigs)

    def bare_function(self, parts, toks, j, scope) -> tuple[str, ...] | None:
        """(schema, name) of a package or standalone function named without parentheses."""
        if (j < len(toks) and toks[j].is_op("(", ".")) or scope.get(parts[0]) is not None:
            return None
        ref = self.package_member(parts)
        target: tuple[str, ...]
        if ref is not None:
            sigs, target = ref[2], (ref[0], ref[1])
        else:
            entry = self.lookup(parts) if len(parts) <= 2 else None
            sigs = entry.routines if entry is not None else []
            target = (entry.schema, entry.name) if entry is not None else ()
        if any(r.kind == "FUNCTION" and all(p.default is not None for p in r.params) for r in sigs):
            return target
        return None

    def chain(self, toks, i) -> tuple[list[str], int]:
        """a.b.c → ([a, b, c], index after)."""
        parts = [norm_name(toks[i])]
        j = i + 1
        while j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
            parts.append(norm_name(toks[j + 1]))
            j += 2
        return parts, j

    def walk_name(self, toks, i, scope, out, ph, types, in_sql) -> int | None:
        parts, j = self.chain(toks, i)
        nxt = toks[j] if j < len(toks) else None
        if nxt is not None and nxt.is_op("%") and j + 1 < len(toks) and toks[j + 1].upper in _CURSOR_ATTRS:
            if parts == ["sql"] and toks[j + 1].upper in ("BULK_EXCEPTIONS", "BULK_ROWCOUNT"):
                text, k, ora = self.bulk_attribute(toks[j + 1].upper, toks, j + 2, scope)  # emit_bulk
                out.append(self.placeholder(text, ph, types, ora))
                return k
            text = self.cursor_attr(parts, toks[j + 1].upper, scope, toks[i])
            out.append(self.placeholder(text, ph, types, "NUMBER" if toks[j + 1].upper == "ROWCOUNT" else ""))
            return j + 2
        if (
            in_sql
            and i > 0
            and toks[i - 1].kind == "word"
            and toks[i - 1].upper in ("FROM", "JOIN", "INTO", "UPDATE", "TABLE")
        ):
            return None  # a table name, never a variable
        lifted = scope.get(parts[0]) if len(parts) == 1 else None
        if lifted is not None and lifted.kind == "routine" and lifted.extras and lifted.routine is not None:
            args: list[str] = []  # a nested function that takes enclosing variables (emit_nested)
            if j < len(toks) and toks[j].is_op("("):
                inner, j = self.paren_at(toks, j)
                args = self.call_args(inner, scope) if inner else []
            text = f"{sql(lifted.routine)}({', '.join(self.nested_call_args(lifted, args))})"
            out.append(self.placeholder(text, ph, types))
            return j
        renamed = self.routine_rename(parts, scope)
        if renamed is not None:
            # Oracle spelling again: the SQL converter reads the call with its arguments
            out.extend(oracle_tokens(renamed))
            if self.called_bare(parts, toks, j, scope, in_sql):
                out += [Token("op", "(", 0, 0), Token("op", ")", 0, 0)]
            return j
        if not in_sql or len(parts) > 1:
            callee = self.bare_function(parts, toks, j, scope)
            if callee is not None:  # a function called without parentheses: pkg.f, f
                out.extend(oracle_tokens(callee) + [Token("op", "(", 0, 0), Token("op", ")", 0, 0)])
                return j
        res = self.resolve_value(parts, toks, j, scope, ph, types)
        if res is None:
            return None
        text, j2, ora = res
        out.append(self.placeholder(text, ph, types, ora))
        return j2
