"""Triggers (rule plsql.trigger): a trigger function plus CREATE TRIGGER, :NEW/:OLD and their
REFERENCING aliases, INSERTING/UPDATING/DELETING, UPDATING('COL'), the RETURN a trigger needs.

UPDATING('COL') is true in Oracle when COL is a SET target of the UPDATE, changed or not; the
converted trigger learns it from a helper `UPDATE OF col` trigger that fires just before it and
sets a flag (`updating_helpers`). Compound triggers are marked unconverted.
"""

from __future__ import annotations

import hashlib

from harness.quoting import pg_string, quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_routine as routine_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import key_part, sql
from migrator.convert.plsql.symbols import Scope
from migrator.source.identifiers import fold
from migrator.source.lexer import Token, string_value


def this_trigger(em: Emitter) -> A.Trigger:
    """The trigger whose body is being emitted (callers first check that there is one)."""
    if em.frame.trigger is None:
        raise TypeError("not inside a trigger body")
    return em.frame.trigger


def trigger_alias(em: Emitter, name: str) -> str | None:
    ref = this_trigger(em).referencing
    for which in ("NEW", "OLD"):
        if name == ref.get(which, which):
            return which
    return None


def trigger_predicate(em: Emitter, word: str, toks, j):
    op = {"INSERTING": "INSERT", "UPDATING": "UPDATE", "DELETING": "DELETE"}[word]
    if word == "UPDATING" and j < len(toks) and toks[j].is_op("("):
        inner, j = values_.paren_at(em, toks, j)
        value = string_value(inner[0]) if len(inner) == 1 else None
        if value is None:
            em.unconverted("UPDATING(column)", "the column is not given as a string literal", toks[j - 1])
            return unconverted_marker("UPDATING(column)", " ".join(t.text for t in inner)), j, ""
        # the string holds the column's name as Oracle stores it ('SAL' for sal)
        col = fold('"' + value.replace('"', '""') + '"')
        return updating_column(em, col), j, ""
    return f"(TG_OP = '{op}')", j, ""


def updating_column(em: Emitter, col: str) -> str:
    """UPDATING('COL') is true when COL is a SET target, changed or not: a helper `UPDATE OF col`
    trigger (emit_unit.updating_helpers) sets a flag that this trigger takes on entry."""
    q = quote_ident(col)
    if this_trigger(em).timing == "INSTEAD OF":  # PostgreSQL allows no column list there
        em.ctx.note(
            f"UPDATING('{col}') → NEW.{q} IS DISTINCT FROM OLD.{q}: INSTEAD OF triggers "
            "cannot tell whether an UPDATE listed the column without changing it"
        )
        return f"(TG_OP = 'UPDATE' AND NEW.{q} IS DISTINCT FROM OLD.{q})"
    var = quote_ident(f"updating__{col}")
    if col not in em.frame.updating_cols:
        em.frame.updating_cols.append(col)
        key = updating_flag_key(em.schema, this_trigger(em).name, col)
        em.frame.extra_decls.append(f"{var} boolean := oracompat.take_flag({pg_string(key)});")
    return f"(TG_OP = 'UPDATE' AND {var})"


def trigger_return(em: Emitter) -> list[str]:
    t = this_trigger(em)
    # An INSTEAD OF trigger (row-level in Oracle with or without FOR EACH ROW) returns the row:
    # NULL would tell PostgreSQL that nothing was done, so the statement would report 0 rows
    # where Oracle counts each row the trigger handled.
    if (not t.for_each_row and t.timing != "INSTEAD OF") or t.timing == "AFTER":
        return ["RETURN NULL;"]
    events = {e for e, _ in t.events}
    if events == {"DELETE"}:
        return ["RETURN OLD;"]
    if "DELETE" in events:
        return ["IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;", "RETURN NEW;"]
    return ["RETURN NEW;"]


def updating_flag_key(schema: str, trigger: str, col: str) -> str:
    """Custom setting name for "col is being updated" (only letters, digits and _ in each part,
    and no digit first, as PostgreSQL wants of a setting name)."""
    key = "__".join(key_part(p) for p in (schema, trigger, col))
    return "oracompat_upd." + ("_" + key if key[:1].isdigit() else key)


def emit_trigger(em, t: A.Trigger, schema: str) -> str:
    if not em.ctx.enabled("plsql.trigger"):
        em.unconverted("TRIGGER", "rule plsql.trigger disabled")
        return unconverted_marker("TRIGGER", t.name) + ";"
    if t.compound or t.block is None:  # only a compound trigger has no block of its own
        em.unconverted("COMPOUND TRIGGER", "compound triggers have no PostgreSQL equivalent")
        return unconverted_marker("COMPOUND TRIGGER", t.name) + ";"
    with em.routine_frame((schema, t.name), kind="TRIGGER", trigger=t) as frame:
        fn = sql((schema, f"{t.name}_fn"))
        body = routine_.RoutineEmitter(em).body(t.block, Scope(), frame.owner, [], trigger_return(em))
        out = routine_.create_function(f"CREATE OR REPLACE FUNCTION {fn}()\nRETURNS trigger", body)
        events = [f"UPDATE OF {_columns(cols)}" if cols else ev for ev, cols in t.events]
        level = "ROW" if t.for_each_row or t.timing == "INSTEAD OF" else "STATEMENT"
        when = f"\nWHEN ({exprs_.expr(em, _when_tokens(t, t.when), Scope())})" if t.when else ""
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
    for col in em.frame.updating_cols:
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
            f"{', '.join(helper_trigger_name(t.name, c) for c in em.frame.updating_cols)}"
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


def _when_tokens(t: A.Trigger, when: list[Token]) -> list[Token]:
    """In WHEN, Oracle writes new.x / old.x without a colon (or the REFERENCING aliases)."""
    ref = {v: k for k, v in t.referencing.items()}
    out = []
    for k, tok in enumerate(when):
        nxt = when[k + 1] if k + 1 < len(when) else None
        if tok.kind == "word" and nxt is not None and nxt.is_op(".") and tok.upper in (ref.keys() | {"NEW", "OLD"}):
            out.append(Token("word", ref.get(tok.upper, tok.upper), tok.start, tok.end))
        else:
            out.append(tok)
    return out
