"""A step's OUT variables declared with the types of the server's own procedure.

A synthesized step calls a procedure with OUT parameters from a block, passing a variable for each
(`DECLARE v_0 bigint; ... CALL p(1, v_0)`). PL/pgSQL accepts a variable as an OUT argument only
when no cast stands between it and the parameter: a port that declares the parameter `numeric`
where the converted code says `bigint` refuses the call ("argument is not writable", 42601), and
the step would record nothing. Every faithful port takes the call when each variable has the
type its own catalog gives the parameter, so the runner reads that type (pg_proc, by the
procedure's name and the parameter names the step passes) and rewrites the declaration line the
synthesizer wrote. What is printed does not change: numbers through oracompat.to_text, dates as
'YYYY-MM-DD HH24:MI:SS', whatever the variable's PostgreSQL type. When the catalog has no single
answer (no such procedure, overloads that disagree), the step runs as written.
"""

from __future__ import annotations

import re

import psycopg

from harness.ground_truth.scenarios import OutCall, Statement, Step

_QUERY = """
SELECT n.nspname::text, p.proargnames, p.proargmodes::text[],
       ARRAY(SELECT pg_catalog.format_type(t, NULL) FROM unnest(p.proallargtypes) WITH ORDINALITY AS u(t, k)
             ORDER BY k)
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE p.prokind = 'p' AND p.proname = %(name)s AND p.proallargtypes IS NOT NULL
  AND CASE WHEN %(schema)s::text IS NULL THEN n.nspname = ANY (pg_catalog.current_schemas(true))
           ELSE n.nspname = %(schema)s::text END
ORDER BY pg_catalog.array_position(pg_catalog.current_schemas(true), n.nspname::text), p.oid
"""

Cache = dict[tuple[str | None, str], list[dict[str, str]]]


def _signatures(conn: psycopg.Connection, call: OutCall, cache: Cache) -> list[dict[str, str]]:
    """OUT / IN OUT parameter name -> type, per candidate procedure (search_path order)."""
    key = (call.routine_schema, call.routine)
    if key not in cache:
        found = []
        try:
            rows = conn.execute(_QUERY, {"name": call.routine, "schema": call.routine_schema}).fetchall()
        except psycopg.Error:
            rows = []
        first = rows[0][0] if rows else None  # the schema the CALL resolves in: the first that has one
        for schema, names, modes, types in rows:
            if schema != first or not names or not modes:
                continue
            found.append({n: t for n, m, t in zip(names, modes, types, strict=False) if m in ("o", "b") and n})
        cache[key] = found
    return cache[key]


def adapted(conn: psycopg.Connection, step: Step | Statement, cache: Cache) -> str:
    """`step`'s PostgreSQL text with its OUT variables declared as the server's procedure has them."""
    call = step.out_call
    if call is None:
        return step.postgres
    wanted = {a.param for a in call.args}
    candidates = [sig for sig in _signatures(conn, call, cache) if wanted <= set(sig)]
    if not candidates:
        return step.postgres
    # overloads must agree on every type, or the step is left as written
    answers = {tuple(sig[p] for p in sorted(wanted)) for sig in candidates}
    if len(answers) != 1:
        return step.postgres
    types = candidates[0]
    text = step.postgres
    for arg in call.args:
        declared = re.compile(rf"\n    {re.escape(arg.var)} {re.escape(arg.declared)}(?=;| :=)")
        own = f"\n    {arg.var} {types[arg.param]}".replace("\\", "\\\\")  # a replacement template
        text = declared.sub(own, text, count=1)
    return text
