"""Whole units: standalone routines, package spec/body, triggers, anonymous blocks, type bodies."""

from __future__ import annotations

import hashlib

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.ddl.tokens import pg_string
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.emit_routine import RoutineEmitter, create_function, dollar_tag
from migrator.convert.plsql.emitter import updating_flag_key
from migrator.convert.plsql.naming import derived, label, oracle_tokens, sql
from migrator.convert.plsql.parse_unit import TypeBody
from migrator.convert.plsql.symbols import Scope, Sym


def emit_routine_unit(em, r: A.Routine) -> str:
    em.owner = (em.schema, r.name)
    text = RoutineEmitter(em).routine(r, em.owner, Scope(), em.owner)
    return "\n\n".join(em.pre + [text])


def emit_anonymous(em, block: A.Block) -> str:
    em.owner = (em.schema, "anonymous")
    body = RoutineEmitter(em).body(block, Scope(), em.owner, [], [])
    text = "\n".join(body)
    tag = dollar_tag(text, "do")
    return "\n\n".join(em.pre + [f"DO {tag}\n{text}\n{tag};"])


def emit_type_body(em, tb: TypeBody) -> str:
    """Object type methods → functions/procedures ``<type>__<method>(self <type>, ...)``; inside a
    MEMBER routine, bare attribute names and SELF.x read the `self` parameter."""
    entry = em.lookup(tb.name)
    info = entry.info.get("plsql_type", {}) if entry is not None else {}
    qtype = (entry.schema, entry.name) if entry is not None else (em.schema, tb.name[-1])
    out = []
    for r in tb.routines:
        out.append(type_method(em, r, qtype, info.get("attrs", {})))
    return "\n\n".join(out)


def type_method(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    if r.flavour in ("CONSTRUCTOR", "MAP", "ORDER"):
        em.unconverted(f"{r.flavour} method", f"{label(qtype)}.{r.name}: {r.flavour} methods are not converted", r.line)
        return unconverted_marker(f"{r.flavour} method", r.name) + ";"
    from migrator.convert.datatypes import map_type
    from migrator.convert.plsql.symbols import PgType

    scope = Scope()
    params = list(r.params)
    if r.flavour == "MEMBER":
        for name, ora in attrs.items():
            scope.add(Sym(name, "selfattr", PgType(map_type(ora, em.ctx), ora)))
        mode = "INOUT" if r.kind == "PROCEDURE" else "IN"
        # the type as Oracle tokens, resolved again like any declared type
        params = [A.Param("self", mode, A.TypeRef(oracle_tokens(qtype)))] + params
    lifted = A.Routine(r.kind, r.name, params, r.returns, r.block, r.pipelined, r.external, r.line)
    em.extra_decls, em.autonomous, em.pipelined = [], False, False
    em.owner = derived(qtype, r.name)
    text = RoutineEmitter(em).routine(lifted, em.owner, scope, em.owner)
    text = "\n\n".join(em.pre + [text])
    em.pre = []
    return text


def emit_trigger(em, t: A.Trigger, schema: str) -> str:
    if not em.ctx.enabled("plsql.trigger"):
        em.unconverted("TRIGGER", "rule plsql.trigger disabled")
        return unconverted_marker("TRIGGER", t.name) + ";"
    if t.compound:
        em.unconverted("COMPOUND TRIGGER", "compound triggers have no PostgreSQL equivalent")
        return unconverted_marker("COMPOUND TRIGGER", t.name) + ";"
    em.trigger = t
    em.routine_kind = "TRIGGER"
    em.owner = (schema, t.name)
    fn = sql((schema, f"{t.name}_fn"))
    body = RoutineEmitter(em).body(t.block, Scope(), em.owner, [], em.trigger_return())
    out = create_function(f"CREATE OR REPLACE FUNCTION {fn}()\nRETURNS trigger", body)
    events = []
    for ev, cols in t.events:
        events.append(f"UPDATE OF {_columns(cols)}" if cols else ev)
    level = "ROW" if t.for_each_row or t.timing == "INSTEAD OF" else "STATEMENT"
    when = ""
    if t.when:
        when = f"\nWHEN ({em.expr(_when_tokens(t), Scope())})"
    trg = (
        f"CREATE OR REPLACE TRIGGER {quote_ident(t.name)}\n{t.timing} {' OR '.join(events)} ON {sql(t.table)}\n"
        f"FOR EACH {level}{when}\nEXECUTE FUNCTION {fn}();"
    )
    em.ctx.applied("plsql.trigger")
    helpers = updating_helpers(em, t, schema, level, when)
    return "\n\n".join(em.pre + [out, trg] + helpers)


def updating_helpers(em, t: A.Trigger, schema: str, level: str, when: str) -> list[str]:
    """One `UPDATE OF col` trigger per column tested with UPDATING('COL'), with the same timing,
    level and WHEN; its name sorts just before the converted trigger's, so for each row (or
    statement) it fires right before it and sets the flag the converted trigger takes."""
    out = []
    main_cols = [c for ev, cols in t.events if ev == "UPDATE" for c in cols]
    for col in em.updating_cols:
        key = updating_flag_key(schema, t.name, col)
        if main_cols and col not in main_cols:
            # the flag could be set by an UPDATE that does not fire this trigger: clear it first
            # whenever this trigger fires ('clr' sorts before 'upd')
            out.append(
                f"CREATE OR REPLACE TRIGGER {quote_ident(helper_trigger_name(t.name, col, 'clr'))}\n"
                f"{t.timing} UPDATE OF {_columns(main_cols)} ON {sql(t.table)}\nFOR EACH {level}{when}\n"
                f"EXECUTE FUNCTION oracompat.mark_updating({pg_string(key)}, '');"
            )
        out.append(
            f"CREATE OR REPLACE TRIGGER {quote_ident(helper_trigger_name(t.name, col))}\n{t.timing} "
            f"UPDATE OF {quote_ident(col)} ON {sql(t.table)}\nFOR EACH {level}{when}\n"
            f"EXECUTE FUNCTION oracompat.mark_updating({pg_string(key)});"
        )
    if out:
        em.ctx.note(
            f"UPDATING(col) in {t.name}: helper UPDATE OF triggers "
            f"{', '.join(helper_trigger_name(t.name, c) for c in em.updating_cols)}"
        )
    return out


def _columns(cols: list[str]) -> str:
    return ", ".join(quote_ident(c) for c in cols)


def helper_trigger_name(trigger: str, col: str, what: str = "upd") -> str:
    """A (plain) name that sorts bytewise — as PostgreSQL orders a table's triggers — before
    `trigger`: '_' precedes the lower-case letters of ordinary names, '0' upper-case letters and
    '_', ' ' every other printable character."""
    for lead in ("_", "0", " "):
        name = f"{lead}{trigger}__{what}_{col}"
        if len(name.encode()) > 63:  # PostgreSQL would truncate: keep names distinct per column
            name = f"{lead}{_head(trigger, 40)}__{what}_{hashlib.md5(col.encode()).hexdigest()[:8]}"
        if name.encode() < trigger.encode():
            return name
    raise ValueError(f"no helper trigger name sorts before {trigger!r}")


def _head(name: str, limit: int) -> str:
    """The longest prefix of `name` within `limit` UTF-8 bytes."""
    return name.encode()[:limit].decode(errors="ignore")


def _when_tokens(t: A.Trigger):
    """In WHEN, Oracle writes new.x / old.x without a colon (or the REFERENCING aliases)."""
    from migrator.source.lexer import Token

    ref = {v: k for k, v in t.referencing.items()}
    out = []
    for k, tok in enumerate(t.when):
        nxt = t.when[k + 1] if k + 1 < len(t.when) else None
        if tok.kind == "word" and nxt is not None and nxt.is_op(".") and tok.upper in (ref.keys() | {"NEW", "OLD"}):
            out.append(Token("word", ref.get(tok.upper, tok.upper), tok.start, tok.end))
        else:
            out.append(tok)
    return out
