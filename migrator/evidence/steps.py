"""Synthesized steps, each written for Oracle and for PostgreSQL.

- A function is selected (`SELECT f(...) FROM dual` / `SELECT f(...)`); one that writes data, or
  returns BOOLEAN, is called from a block that prints its result (Oracle refuses DML in a query).
- A procedure is called from a block that prints every OUT / IN OUT value afterwards: numbers
  as Oracle's TO_CHAR prints them (oracompat.to_text on PostgreSQL), dates as
  'YYYY-MM-DD HH24:MI:SS', booleans as TRUE/FALSE; DBMS_OUTPUT lines ↔ NOTICEs.
- Calls use named notation (so defaulted parameters can be left out), and one positional form.
- After a call that writes, each written table is read back in full (compared as a multiset).
- A package's public variable or constant is read from a block and printed; a variable is also
  set first (PostgreSQL: through the converted setter `pkg.set__v(value)`), then read back.
- An object type's method is called from a block: a MEMBER on an object built from attribute
  values (`t(a, b)` / `ROW(a, b)::t`), a STATIC through the type, a constructor as `t(...)` /
  `t__new(...)`; its result and the object's attributes are printed.
- A trigger is fired by an INSERT, UPDATE or DELETE on its table; a view is queried.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.ground_truth.scenarios import OutArg, OutCall, Step
from harness.quoting import qualified, quote_ident
from migrator.evidence.targets import ParamInfo, Target
from migrator.evidence.values import Value
from migrator.oracle_types import LENGTH_NAMES


@dataclass(frozen=True)
class PgArg:
    name: str
    mode: str  # IN | OUT | INOUT
    type: str  # PostgreSQL type as format_type prints it


def oracle_ident(name: str) -> str:
    """A plain name as Oracle code writes it (unquoted when Oracle folds it back to itself)."""
    if re.fullmatch(r"[a-z][a-z0-9_$#]*", name):
        return name
    return '"' + (name.upper() if re.fullmatch(r"[a-z0-9_$#]+", name) else name) + '"'


def oracle_call_name(target: Target) -> str:
    return ".".join(oracle_ident(p) for p in target.oracle_name.split("."))


def pg_call_name(target: Target) -> str:
    if "." in target.oracle_name:  # a package member: the package became a schema
        return qualified(target.pg_schema, target.pg_name)
    return quote_ident(target.pg_name)  # standalone: on the search_path, as Oracle resolves it


def _args(params: list[ParamInfo], values: dict[str, Value], named: bool, side: str, outvars: dict[str, str]) -> str:
    parts = []
    for p in params:
        if p.name in outvars:
            text = outvars[p.name]
        elif p.name in values:
            text = getattr(values[p.name], side)
        else:
            continue  # a defaulted parameter left out (named notation only)
        pname = oracle_ident(p.name) if side == "oracle" else quote_ident(p.name)
        parts.append(f"{pname} => {text}" if named else text)
    return ", ".join(parts)


def _render(family: str, var: str, side: str) -> str:
    """`var` as text the way both systems print it the same."""
    if family == "number":
        return f"TO_CHAR({var})" if side == "oracle" else f"oracompat.to_text({var})"
    if family == "date":
        return (
            f"TO_CHAR({var}, 'YYYY-MM-DD HH24:MI:SS')"
            if side == "oracle"
            else f"to_char({var}, 'YYYY-MM-DD HH24:MI:SS')"
        )
    if family == "bool":
        return f"CASE WHEN {var} THEN 'TRUE' WHEN NOT {var} THEN 'FALSE' END"
    if family == "text":
        return var
    return f"TO_CHAR({var})" if side == "oracle" else f"{var}::text"


# What no scenario can freeze: random sources, and clocks other than SYSDATE (which `fixed_date`
# freezes on both systems). A function that reads one (itself or through what it calls) answers
# differently from run to run; two runs of the stabiliser can agree by chance (random_between(1, 2)
# does half the time) and a later verification then calls a correct unit `wrong`.
NONDETERMINISTIC = frozenset({
    "dbms_random", "sys_guid", "dbms_crypto.randombytes", "dbms_crypto.randominteger",
    "dbms_crypto.randomnumber", "dbms_utility.get_time", "dbms_utility.get_cpu_time", "systimestamp",
    "current_timestamp", "localtimestamp",
})  # fmt: skip


def nondeterministic(target: Target) -> bool:
    return any(w in NONDETERMINISTIC or w.startswith("dbms_random.") for w in target.deep_words)


def call_step(name: str, target: Target, values: dict[str, Value], pg_args: list[PgArg], *, named: bool,
              block: bool = False) -> Step:  # fmt: skip
    """The call as a step; `block`: a function called from a block that prints its result even
    where a query could call it."""
    if target.kind == "function":
        return _function_step(name, target, values, named, block)
    return _procedure_step(name, target, values, pg_args, named)


# What the current error is read by: a routine that reads one (a logger's FORMAT_ERROR_STACK)
# reads nothing outside a handler, where the synthesized calls run; `in_handler` runs a call in
# the handler of a ZERO_DIVIDE.
READS_ERROR = frozenset(
    {"sqlcode", "sqlerrm", "dbms_utility.format_error_stack", "dbms_utility.format_error_backtrace"}
)


def in_handler(step: Step) -> Step:
    """`step` (a block: call_step with block=True) run inside the exception handler of an error
    raised just before (1 / 0, ORA-01476 / SQLSTATE 22012). The PostgreSQL handler publishes the
    error as converted handlers do (oracompat.error_push), for FORMAT_ERROR_STACK read outside
    the handler itself, in the routine it calls, and takes it back after the call (Oracle's is
    gone with the handler; the steps after this one must not see it)."""
    pg_inner = step.postgres.removeprefix("DO $synth$\n").removesuffix(" $synth$")
    ora = (f"DECLARE\n    synth_zero NUMBER := 0;\nBEGIN\n    synth_zero := 1 / synth_zero;\nEXCEPTION\n"
           f"    WHEN OTHERS THEN\n{step.oracle}\nEND;")  # fmt: skip
    pg = (f"DO $synth$\nDECLARE\n    synth_zero numeric := 0;\n    synth_context text;\nBEGIN\n"
          f"    synth_zero := 1 / synth_zero;\nEXCEPTION\n    WHEN OTHERS THEN\n"
          f"    GET STACKED DIAGNOSTICS synth_context = PG_EXCEPTION_CONTEXT;\n"
          f"    PERFORM oracompat.error_push(SQLSTATE, SQLERRM, synth_context);\n{pg_inner};\n"
          f"    PERFORM oracompat.error_push(NULL, NULL, NULL);\nEND $synth$")  # fmt: skip
    return Step(name=step.name, oracle=ora, postgres=pg, out_call=step.out_call)


def _function_step(name: str, target: Target, values: dict[str, Value], named: bool, block: bool = False) -> Step:
    ora_call = f"{oracle_call_name(target)}({_args(target.params, values, named, 'oracle', {})})"
    pg_call = f"{pg_call_name(target)}({_args(target.params, values, named, 'pg', {})})"
    fam = target.return_family or "other"
    if fam == "cursor":
        return _cursor_step(name, ora_call, pg_call)
    if not target.mutates and fam != "bool" and not block:
        if nondeterministic(target):
            # neutralised: whether it answers, errs or gives NULL is compared, never the value
            ora_call, pg_call = (f"CASE WHEN {c} IS NULL THEN 'null' ELSE 'value' END" for c in (ora_call, pg_call))
        return Step(name=name, oracle=f"SELECT {ora_call} FROM dual", postgres=f"SELECT {pg_call}")
    ora = (f"DECLARE\n    r {_sized(target.returns or '')};\nBEGIN\n    r := {ora_call};\n"
           f"    DBMS_OUTPUT.PUT_LINE('result=' || {_render(fam, 'r', 'oracle')});\nEND;")  # fmt: skip
    pg = (f"DO $synth$\nDECLARE\n    r {_pg_return_type(fam)};\nBEGIN\n    r := {pg_call};\n"
          f"    RAISE NOTICE '%', 'result=' || coalesce({_render(fam, 'r', 'pg')}, '');\nEND $synth$")  # fmt: skip
    return Step(name=name, oracle=ora, postgres=pg)


def variable_step(name: str, target: Target, value: Value | None = None) -> Step:
    """Read a package variable (set to `value` first, when given) and print it. Oracle reads it
    by name, PostgreSQL through its getter `pkg.v()`; the Oracle block's variable is anchored on
    the package variable (`%TYPE`), so no type is spelled twice."""
    fam = target.return_family or "other"
    ora_name, pg_name = oracle_call_name(target), pg_call_name(target)
    setter = qualified(target.pg_schema, f"set__{target.pg_name}")
    ora_set = [f"    {ora_name} := {value.oracle};"] if value is not None else []
    pg_set = [f"    PERFORM {setter}({value.pg});"] if value is not None else []
    ora = "\n".join(["DECLARE", f"    r {ora_name}%TYPE;", "BEGIN", *ora_set, f"    r := {ora_name};",
                     f"    DBMS_OUTPUT.PUT_LINE('value=' || {_render(fam, 'r', 'oracle')});", "END;"])  # fmt: skip
    pg = "\n".join(["DO $synth$", "DECLARE", f"    r {_pg_return_type(fam)};", "BEGIN", *pg_set, f"    r := {pg_name}();",
                    f"    RAISE NOTICE '%', 'value=' || coalesce({_render(fam, 'r', 'pg')}, '');", "END $synth$"])  # fmt: skip
    return Step(name=name, oracle=ora, postgres=pg)


def method_step(name: str, target: Target, values: dict[str, Value], named: bool = True) -> Step:
    """An object type method called from a block on both sides; see the module's docstring.
    `values` holds the method's parameters and, for a MEMBER, the object's attributes
    (`self.<attribute>`)."""
    ora_type = oracle_ident(target.type_name)
    pg_type = qualified(target.pg_schema, target.type_name)
    pg_fn = qualified(target.pg_schema, target.pg_name)
    method = oracle_ident(target.oracle_name.split(".")[-1])
    ora_args = _args(target.params, values, named, "oracle", {})
    pg_args = _args(target.params, values, named, "pg", {})
    fam = target.return_family or "other"
    scalar = target.returns is not None and not target.returns_self and fam in ("number", "text", "date", "bool")
    ora, pg = ["DECLARE", f"    o {ora_type};"], ["DO $synth$", "DECLARE", f"    o {pg_type};"]
    if scalar:
        ora.append(f"    r {_sized(target.returns or '')};")
        pg.append(f"    r {_pg_return_type(fam)};")
    ora.append("BEGIN")
    pg.append("BEGIN")
    if target.flavour == "MEMBER":
        attrs = [values.get(a.name, None) for a in target.attributes]
        ora.append(f"    o := {ora_type}({', '.join(v.oracle if v else 'NULL' for v in attrs)});")
        pg_attrs = ", ".join(v.pg if v else "NULL" for v in attrs)
        own = qualified(target.pg_schema, f"{target.type_name}__new")
        pg.append(f"    o := {own}({pg_attrs});" if target.own_constructor else f"    o := ROW({pg_attrs})::{pg_type};")
        call_ora, call_pg = f"o.{method}({ora_args})", f"{pg_fn}({', '.join(x for x in ('o', pg_args) if x)})"
    elif target.flavour == "CONSTRUCTOR":
        call_ora, call_pg = f"{ora_type}({ora_args})", f"{pg_fn}({pg_args})"
    else:
        call_ora, call_pg = f"{ora_type}.{method}({ora_args})", f"{pg_fn}({pg_args})"
    if target.returns is None:  # a procedure (a MEMBER one may change the object: INOUT self)
        ora.append(f"    {call_ora};")
        pg.append(f"    CALL {call_pg};")
    elif scalar:
        ora.append(f"    r := {call_ora};")
        pg.append(f"    r := {call_pg};")
    else:
        ora.append(f"    o := {call_ora};")
        pg.append(f"    o := {call_pg};")
    if scalar:
        ora.append(f"    DBMS_OUTPUT.PUT_LINE('result=' || {_render(fam, 'r', 'oracle')});")
        pg.append(f"    RAISE NOTICE '%', 'result=' || coalesce({_render(fam, 'r', 'pg')}, '');")
    if target.returns_self or target.returns is None:
        for a in target.attributes:
            attr = a.name.removeprefix("self.")
            if a.family in ("number", "text", "date", "bool"):
                ora.append(
                    f"    DBMS_OUTPUT.PUT_LINE('{attr}=' || {_render(a.family, f'o.{oracle_ident(attr)}', 'oracle')});"
                )
                pg.append(
                    f"    RAISE NOTICE '%', '{attr}=' || coalesce({_render(a.family, f'o.{quote_ident(attr)}', 'pg')}, '');"
                )
    ora.append("END;")
    pg.append("END $synth$")
    return Step(name=name, oracle="\n".join(ora), postgres="\n".join(pg))


def _cursor_step(name: str, ora_call: str, pg_call: str) -> Step:
    """A function returning a REF CURSOR: every row fetched and printed, its columns joined by
    '|' — numbers as TO_CHAR prints them, dates as 'YYYY-MM-DD HH24:MI:SS', then the row count.
    Oracle reads the cursor through DBMS_SQL (its columns are not known in advance), PostgreSQL
    through row_to_json, which keeps the columns in order."""
    ora = f"""DECLARE
    c SYS_REFCURSOR;
    h INTEGER;
    n INTEGER;
    k PLS_INTEGER := 0;
    d DBMS_SQL.DESC_TAB;
    v VARCHAR2(4000);
    vn NUMBER;
    vd DATE;
    line VARCHAR2(32767);
BEGIN
    c := {ora_call};
    h := DBMS_SQL.TO_CURSOR_NUMBER(c);
    DBMS_SQL.DESCRIBE_COLUMNS(h, n, d);
    FOR i IN 1 .. n LOOP
        IF d(i).col_type = 2 THEN DBMS_SQL.DEFINE_COLUMN(h, i, vn);
        ELSIF d(i).col_type = 12 THEN DBMS_SQL.DEFINE_COLUMN(h, i, vd);
        ELSE DBMS_SQL.DEFINE_COLUMN(h, i, v, 4000);
        END IF;
    END LOOP;
    WHILE DBMS_SQL.FETCH_ROWS(h) > 0 LOOP
        line := NULL;
        FOR i IN 1 .. n LOOP
            IF d(i).col_type = 2 THEN DBMS_SQL.COLUMN_VALUE(h, i, vn); v := TO_CHAR(vn);
            ELSIF d(i).col_type = 12 THEN DBMS_SQL.COLUMN_VALUE(h, i, vd); v := TO_CHAR(vd, 'YYYY-MM-DD HH24:MI:SS');
            ELSE DBMS_SQL.COLUMN_VALUE(h, i, v);
            END IF;
            line := line || CASE WHEN i > 1 THEN '|' END || v;
        END LOOP;
        k := k + 1;
        DBMS_OUTPUT.PUT_LINE(line);
    END LOOP;
    DBMS_SQL.CLOSE_CURSOR(h);
    DBMS_OUTPUT.PUT_LINE(k || ' row(s)');
END;"""
    pg = f"""DO $synth$
DECLARE
    c refcursor;
    r record;
    k integer := 0;
BEGIN
    c := {pg_call};
    LOOP
        FETCH c INTO r;
        EXIT WHEN NOT FOUND;
        k := k + 1;
        RAISE NOTICE '%', (SELECT string_agg(coalesce(CASE json_typeof(j.value)
                   WHEN 'number' THEN oracompat.to_text((j.value #>> '{{}}')::numeric)
                   WHEN 'string' THEN CASE WHEN (j.value #>> '{{}}') ~ '^[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}T[0-9]{{2}}:[0-9]{{2}}:[0-9]{{2}}$'
                                           THEN replace(j.value #>> '{{}}', 'T', ' ') ELSE j.value #>> '{{}}' END
                   ELSE j.value #>> '{{}}' END, ''), '|' ORDER BY j.n)
               FROM json_each(row_to_json(r)) WITH ORDINALITY AS j(key, value, n));
    END LOOP;
    CLOSE c;
    RAISE NOTICE '%', k || ' row(s)';
END $synth$"""
    return Step(name=name, oracle=ora, postgres=pg)


def _pg_return_type(fam: str) -> str:
    return {"number": "numeric", "date": "timestamp(0)", "bool": "boolean"}.get(fam, "text")


def _procedure_step(name: str, target: Target, values: dict[str, Value], pg_args: list[PgArg], named: bool) -> Step:
    outs = [p for p in target.params if p.mode != "IN"]
    pg_types = {a.name: a.type for a in pg_args}
    ora_vars = {p.name: f"v_{i}" for i, p in enumerate(outs)}
    ora_decl = [f"    v_{i} {_oracle_var_type(p)}" + _init(values, p, "oracle") + ";" for i, p in enumerate(outs)]
    pg_decl = [f"    v_{i} {pg_types.get(p.name, 'text')}" + _init(values, p, "pg") + ";" for i, p in enumerate(outs)]
    ora_print = [f"    DBMS_OUTPUT.PUT_LINE('{p.name}=' || {_render(p.family, f'v_{i}', 'oracle')});"
                 for i, p in enumerate(outs)]  # fmt: skip
    pg_print = [f"    RAISE NOTICE '%', '{p.name}=' || coalesce({_render(p.family, f'v_{i}', 'pg')}, '');"
                for i, p in enumerate(outs)]  # fmt: skip
    ora_call = f"    {oracle_call_name(target)}({_args(target.params, values, named, 'oracle', ora_vars)});"
    pg_call = f"    CALL {pg_call_name(target)}({_args(target.params, values, named, 'pg', ora_vars)});"
    ora = "\n".join((["DECLARE", *ora_decl] if outs else []) + ["BEGIN", ora_call, *ora_print, "END;"])
    pg = "\n".join(
        ["DO $synth$"] + (["DECLARE", *pg_decl] if outs else []) + ["BEGIN", pg_call, *pg_print, "END $synth$"]
    )
    # the variables' types are the converted code's; a port may declare its parameters otherwise,
    # and the runner then declares them as the port does (harness.judge.out_types)
    args = [OutArg(var=f"v_{i}", param=p.name, declared=pg_types.get(p.name, "text")) for i, p in enumerate(outs)]
    schema = target.pg_schema if "." in target.oracle_name else None
    out_call = OutCall(routine=target.pg_name, routine_schema=schema, args=args) if args else None
    return Step(name=name, oracle=ora, postgres=pg, out_call=out_call)


def _oracle_var_type(p: ParamInfo) -> str:
    return _sized(p.oracle_type)


def _sized(text: str) -> str:
    """A parameter's or return's type as a variable declaration takes it."""
    if text.strip().upper() in LENGTH_NAMES:
        return f"{text.strip()}(32767)"  # an unconstrained parameter type needs a length in a declaration
    return text


def _init(values: dict[str, Value], p: ParamInfo, side: str) -> str:
    if p.mode == "INOUT" and p.name in values and not values[p.name].is_null:
        return f" := {getattr(values[p.name], side)}"
    return ""


def table_check(name: str, table: str, columns: list[str] | None = None) -> Step:
    """Read a table back in full; with `columns`, only those (the others varied between runs)."""
    ora_cols = ", ".join(oracle_ident(c) for c in columns) if columns else "*"
    pg_cols = ", ".join(quote_ident(c) for c in columns) if columns else "*"
    return Step(name=name, oracle=f"SELECT {ora_cols} FROM {oracle_ident(table)}",
                postgres=f"SELECT {pg_cols} FROM {quote_ident(table)}", unordered=True)  # fmt: skip


def view_step(name: str, target: Target) -> Step:
    """The view's rows: in the order its own ORDER BY gives, else as a multiset."""
    return Step(name=name, oracle=f"SELECT * FROM {oracle_ident(target.pg_name)}",
                postgres=f"SELECT * FROM {quote_ident(target.pg_name)}", unordered=not target.ordered)  # fmt: skip


def dml_step(name: str, table: str, event: str, row: dict[str, Value], where: dict[str, Value]) -> Step:
    """INSERT of `row`, UPDATE setting `row` where `where`, or DELETE where `where`."""
    forms = {}
    for side, ident in (("oracle", oracle_ident), ("pg", quote_ident)):
        cond = " AND ".join(
            f"{ident(c)} IS NULL" if v.is_null else f"{ident(c)} = {getattr(v, side)}" for c, v in where.items()
        )
        if event == "INSERT":
            cols = ", ".join(ident(c) for c in row)
            vals = ", ".join(getattr(v, side) for v in row.values())
            forms[side] = f"INSERT INTO {ident(table)} ({cols}) VALUES ({vals})"
        elif event == "UPDATE":
            sets = ", ".join(f"{ident(c)} = {getattr(v, side)}" for c, v in row.items())
            forms[side] = f"UPDATE {ident(table)} SET {sets} WHERE {cond}"
        else:
            forms[side] = f"DELETE FROM {ident(table)} WHERE {cond}"
    return Step(name=name, oracle=forms["oracle"], postgres=forms["pg"])
