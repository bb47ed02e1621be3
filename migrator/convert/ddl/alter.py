"""ALTER TABLE: ADD constraint / column(s), MODIFY column(s), DROP, RENAME; constraint and
trigger states (ENABLE / DISABLE, MODIFY CONSTRAINT) in `constraint_states`."""

from __future__ import annotations

from harness.quoting import comment_text, pg_string, quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl import sequences as ddl_sequences
from migrator.convert.ddl.columns import parse_column, render_column
from migrator.convert.ddl.common import require, unconverted
from migrator.convert.ddl.constraint_states import convert_states, is_state_clause
from migrator.convert.ddl.constraints import CONSTRAINT_STARTS, Constraint, keep, parse_constraint, render
from migrator.convert.ddl.key_types import aligned_type, column_pg_type, referenced_columns
from migrator.convert.ddl.tokens import Name, ident, read_name
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level, tokenize


def convert_alter(text: str, ctx: ConversionContext) -> str:
    try:
        toks = tokenize(text)
        if not toks[1].is_word("TABLE"):
            return unconverted(
                ctx, f"ALTER {toks[1].text.upper()}", "only ALTER TABLE is converted; apply this change by hand", text
            )
        require(ctx, "ddl.alter_table", "ALTER TABLE")
        table, i = read_name(toks, 2)
        if is_state_clause(toks, i):
            if not ctx.enabled("ddl.constraint_state"):
                return unconverted(ctx, "ALTER TABLE", "rule ddl.constraint_state is disabled", text)
            states = convert_states(table, toks, i, ctx)
            return "\n".join(states) or f"-- {comment_text(table.sql)}: nothing to change in PostgreSQL (see notes)"
        after: list[str] = []
        actions = _actions(text, toks, i, ctx, _types(table, ctx), table, after)
    except (LexError, IndexError) as exc:
        return unconverted(ctx, "ALTER TABLE", str(exc), text)
    if not actions:
        return f"-- {comment_text(table.sql)}: nothing to change in PostgreSQL (see notes)"
    ctx.applied("ddl.alter_table")
    return "\n".join([f"ALTER TABLE {table.sql}\n    " + ",\n    ".join(actions) + ";", *after])


def _types(table: Name, ctx: ConversionContext) -> dict | None:
    entry = ctx.catalog.lookup(*table)
    return entry.table.column_types if entry else None


def _actions(
    text: str, toks: list[Token], i: int, ctx: ConversionContext, types: dict | None, table: Name, after: list[str]
) -> list[str]:
    """The ALTER TABLE actions; statements that must follow the ALTER TABLE go to `after`."""
    verb = toks[i].text.upper()
    rest = toks[i + 1 :]
    if verb == "ADD":
        return _add(text, rest, ctx, types, table)
    if verb == "MODIFY":
        if rest[0].is_word("UNIQUE"):
            raise LexError("MODIFY UNIQUE (columns): name the constraint (PostgreSQL finds it by name)")
        return [
            a
            for el in _elements(rest)
            for a in (
                _modify_identity(table, el, ctx, after)
                if any(t.is_word("IDENTITY") for t in el)
                else _modify(text, el, ctx, types)
            )
        ]
    if verb == "DROP":
        return _drop(text, rest)
    if verb == "RENAME":
        return [_rename(rest)]
    raise LexError(f"ALTER TABLE {verb} is not converted")


def _elements(toks: list[Token]) -> list[list[Token]]:
    """`( a ..., b ... )` or a single element."""
    if toks[0].text == "(" and matching_paren(toks, 0) == len(toks) - 1:
        return split_top_level(toks[1:-1])
    return [toks]


def _add(text: str, toks: list[Token], ctx: ConversionContext, types: dict | None, table: Name) -> list[str]:
    if toks[0].is_word(*CONSTRAINT_STARTS):
        con, j = parse_constraint(text, toks, 0, ctx, types=types)
        return [*_aligned(table, con, ctx), f"ADD {render(con, inline=False)}"] if keep(con, ctx) else []
    out = []
    for el in _elements(toks):
        if el[0].is_word(*CONSTRAINT_STARTS):
            con, _ = parse_constraint(text, el, 0, ctx, types=types)
            out += [*_aligned(table, con, ctx), f"ADD {render(con, inline=False)}"] if keep(con, ctx) else []
        else:
            out.append(f"ADD COLUMN {render_column(parse_column(text, el, ctx, types))}")
    return out


def _aligned(table: Name, con: Constraint, ctx: ConversionContext) -> list[str]:
    """ALTER COLUMN ... TYPE for the columns of a foreign key whose type PostgreSQL cannot compare
    with the referenced key's (`key_types`)."""
    if con.kind != "foreign":
        return []
    ref_cols = con.ref_columns or referenced_columns(con.ref_table, [], 0, ctx)
    out = []
    for col, ref_col in zip(con.columns, ref_cols):
        own = column_pg_type(table, col, ctx)
        new = aligned_type(own, col, column_pg_type(con.ref_table, ref_col, ctx), ctx)
        if new is not None:
            out.append(f"ALTER COLUMN {quote_ident(col)} TYPE {new}")
    return out


def _modify(text: str, el: list[Token], ctx: ConversionContext, types: dict | None) -> list[str]:
    """MODIFY col [type] [DEFAULT x] [NOT NULL | NULL] → ALTER COLUMN sub-actions."""
    name = quote_ident(ident(el[0]))
    col = parse_column(text, el, ctx, types)
    out = []
    if col.pg_type:
        out.append(f"ALTER COLUMN {name} TYPE {col.pg_type}")
    for part in col.parts:
        if part.startswith("DEFAULT "):
            out.append(f"ALTER COLUMN {name} SET {part}")
        elif part.endswith("NOT NULL"):
            out.append(f"ALTER COLUMN {name} SET NOT NULL")
        elif part.endswith("NULL"):
            out.append(f"ALTER COLUMN {name} DROP NOT NULL")
        else:
            out.append(
                f"ADD {part.replace('REFERENCES', f'FOREIGN KEY ({name}) REFERENCES', 1) if 'REFERENCES' in part else part}"
            )
    return out


def _modify_identity(table: Name, el: list[Token], ctx: ConversionContext, after: list[str]) -> list[str]:
    """MODIFY col GENERATED [ALWAYS | BY DEFAULT [ON NULL]] AS IDENTITY [(options)]: Oracle allows
    it only on an identity column (ORA-30673 otherwise) and changes its generator, so PostgreSQL
    gets SET GENERATED and SET/RESTART of the sequence options (START WITH n restarts at n, as
    Oracle's next value is n); START WITH LIMIT VALUE continues after the rows' highest value."""
    require(ctx, "ddl.identity", f"identity column {ident(el[0])}")
    col = ident(el[0])
    name = quote_ident(col)
    if not el[1].is_word("GENERATED"):
        raise LexError(f"MODIFY {col}: a new type together with identity options is not converted")
    j = 2
    mode: list[str] = []
    while j < len(el) and not el[j].is_word("AS"):
        mode.append(el[j].text.upper())
        j += 1
    if "ON" in mode:
        ctx.note(f"identity column {col}: ON NULL dropped (explicit NULL inserts now fail)")
    out = [f"ALTER COLUMN {name} SET GENERATED {'ALWAYS' if 'ALWAYS' in mode or not mode else 'BY DEFAULT'}"]
    k = j + 2  # AS IDENTITY
    if k < len(el) and el[k].text == "(":
        opts, dropped = ddl_sequences.parse_options(el[k + 1 : matching_paren(el, k)])
        if dropped:
            ctx.note(f"sequence options dropped (no effect on one PostgreSQL server): {' '.join(dropped)}")
        descending = str(opts.get("increment", "1")).startswith("-")
        for key, value in opts.items():
            if key == "start" and value == ddl_sequences.LIMIT_VALUE:
                extreme = "min" if descending else "max"
                after.append(
                    f"SELECT pg_catalog.setval(pg_catalog.pg_get_serial_sequence({pg_string(table.sql)}, {pg_string(col)}), v)"
                    f" FROM (SELECT {extreme}({name}) AS v FROM {table.sql}) AS limit_value WHERE v IS NOT NULL;"
                )
                ctx.note(
                    f"identity column {col}: START WITH LIMIT VALUE → the sequence set to the column's {extreme}imum"
                )
            elif key == "start":
                out.append(f"ALTER COLUMN {name} RESTART WITH {value}")
            elif key == "increment":
                out.append(f"ALTER COLUMN {name} SET INCREMENT BY {value}")
            elif key in ("minvalue", "maxvalue"):
                word = key.upper()
                out.append(f"ALTER COLUMN {name} SET {f'NO {word}' if value is None else f'{word} {value}'}")
            elif key == "cache" and value not in (None, "0", "1"):
                out.append(f"ALTER COLUMN {name} SET CACHE {value}")
            elif key == "cycle":
                out.append(f"ALTER COLUMN {name} SET {'CYCLE' if value else 'NO CYCLE'}")
    ctx.applied("ddl.identity")
    return out


def _drop(text: str, toks: list[Token]) -> list[str]:
    if toks[0].is_word("CONSTRAINT"):
        cascade = " CASCADE" if any(t.is_word("CASCADE") for t in toks) else ""
        return [f"DROP CONSTRAINT {quote_ident(ident(toks[1]))}{cascade}"]
    if toks[0].is_word("PRIMARY"):
        raise LexError("DROP PRIMARY KEY: name the constraint (PostgreSQL drops constraints by name)")
    cols = toks[1:] if toks[0].is_word("COLUMN") else toks
    if cols[0].text == "(":
        cols = cols[1 : matching_paren(cols, 0)]
    return [
        f"DROP COLUMN {quote_ident(ident(t))}"
        for t in cols
        if t.kind in ("word", "qident") and not t.is_word("CASCADE", "CONSTRAINTS")
    ]


def _rename(toks: list[Token]) -> str:
    """RENAME COLUMN a TO b | RENAME CONSTRAINT a TO b | RENAME TO x: same words in PostgreSQL."""
    return "RENAME " + " ".join(
        t.text.upper() if t.is_word("COLUMN", "CONSTRAINT", "TO") else _rename_part(t) for t in toks
    )


def _rename_part(t: Token) -> str:
    if t.kind not in ("word", "qident"):
        raise LexError(f"unexpected {t.text!r} in RENAME")
    return quote_ident(ident(t))
