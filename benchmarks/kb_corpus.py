"""Benchmark corpus for the knowledge base: 12 hand-written Oracle -> PostgreSQL migration rules,
seven gap cases with their human corrections, and deterministic synthetic filler.

Data for benchmarks only; the knowledge_base package itself never sees these words as anything
but opaque text.
"""

from __future__ import annotations

import random

RULES = [
    (
        "nvl",
        "NVL -> COALESCE",
        "NVL(expr, fallback) becomes COALESCE(expr, fallback). Both arguments must have compatible types, "
        "so cast mixed NUMBER/VARCHAR2 arguments explicitly. NVL2(a, b, c) becomes "
        "CASE WHEN a IS NOT NULL THEN b ELSE c END.",
    ),
    (
        "decode",
        "DECODE -> CASE",
        "DECODE(x, s1, r1, s2, r2, default) becomes CASE WHEN x IS NOT DISTINCT FROM s1 THEN r1 WHEN x IS NOT "
        "DISTINCT FROM s2 THEN r2 ELSE default END. DECODE treats two NULLs as equal, so the simple CASE x WHEN "
        "s1 form is wrong whenever a search value can be NULL.",
    ),
    (
        "rownum",
        "ROWNUM -> LIMIT",
        "WHERE ROWNUM <= n becomes LIMIT n. For top-n queries written as SELECT * FROM (SELECT ... ORDER BY ...) "
        "WHERE ROWNUM <= n, put LIMIT n after the ORDER BY. ROWNUM in the select list becomes "
        "row_number() OVER ().",
    ),
    (
        "outer-join",
        "(+) -> LEFT JOIN",
        "The Oracle outer-join operator: FROM a, b WHERE a.id = b.a_id(+) becomes FROM a LEFT JOIN b ON a.id = "
        "b.a_id. Every predicate on b that carries (+) must move into the ON clause, otherwise the outer join "
        "silently turns into an inner join.",
    ),
    (
        "connect-by",
        "CONNECT BY -> WITH RECURSIVE",
        "START WITH cond CONNECT BY PRIOR id = parent_id becomes WITH RECURSIVE tree AS (anchor rows matching the "
        "START WITH condition UNION ALL rows joined on the PRIOR condition). LEVEL becomes a depth column "
        "incremented in the recursive term, SYS_CONNECT_BY_PATH a concatenated path, ORDER SIBLINGS BY a sort "
        "on an accumulated path array.",
    ),
    (
        "sysdate",
        "SYSDATE -> LOCALTIMESTAMP",
        "SYSDATE carries date and time, so it becomes LOCALTIMESTAMP(0), not CURRENT_DATE, which drops the time "
        "of day. Inside long procedures where each call must advance, use clock_timestamp(). SYSTIMESTAMP "
        "becomes CURRENT_TIMESTAMP.",
    ),
    (
        "sequence",
        "NEXTVAL -> nextval()",
        "seq.NEXTVAL becomes nextval('seq') and seq.CURRVAL becomes currval('seq'). SELECT seq.NEXTVAL INTO v "
        "FROM dual becomes v := nextval('seq'). A trigger that only fills a key from a sequence can become a "
        "column DEFAULT nextval('seq') or an identity column.",
    ),
    (
        "merge",
        "MERGE -> MERGE / INSERT ON CONFLICT",
        "MERGE INTO t USING s ON (t.k = s.k) WHEN MATCHED THEN UPDATE ... WHEN NOT MATCHED THEN INSERT ... runs "
        "on PostgreSQL 15+, but the UPDATE branch cannot carry DELETE WHERE: use WHEN MATCHED AND cond THEN "
        "DELETE. On older servers use INSERT ... ON CONFLICT (k) DO UPDATE SET col = EXCLUDED.col, which needs a "
        "unique index on k.",
    ),
    (
        "dbms-output",
        "DBMS_OUTPUT -> RAISE NOTICE",
        "DBMS_OUTPUT.PUT_LINE(msg) becomes RAISE NOTICE '%', msg. Calls to DBMS_OUTPUT.ENABLE and DISABLE are "
        "removed; the client receives notices instead of reading a buffer.",
    ),
    (
        "rowtype",
        "%ROWTYPE",
        "v_row emp%ROWTYPE stays emp%ROWTYPE in PL/pgSQL and SELECT * INTO v_row works, but a variable declared "
        "as cursor%ROWTYPE becomes RECORD, and INSERT INTO t VALUES v_row becomes INSERT INTO t SELECT (v_row).*.",
    ),
    (
        "bulk-collect",
        "BULK COLLECT -> array_agg",
        "SELECT col BULK COLLECT INTO v_arr FROM t becomes SELECT array_agg(col) INTO v_arr FROM t with v_arr "
        "declared as an array type. Arrays are 1-based and an empty result gives NULL, not an empty collection, "
        "so wrap it: COALESCE(array_agg(col), '{}').",
    ),
    (
        "autonomous",
        "autonomous transaction -> dblink",
        "PRAGMA AUTONOMOUS_TRANSACTION has no PL/pgSQL equivalent. Do the independent work in a separate "
        "session: PERFORM dblink_exec('dbname=' || current_database(), 'INSERT INTO audit_log ...') with the "
        "dblink extension (or pg_background), so the row survives a rollback of the caller.",
    ),
]

# (construct id, gap query, correction context, correction fix)
GAPS = [
    (
        "xmltable",
        "SELECT x.line_id, x.qty FROM orders o, XMLTABLE('/order/line' PASSING o.doc COLUMNS line_id NUMBER "
        "PATH '@id', qty NUMBER PATH 'qty') x -- converted query fails: XML document column is not shredded into rows",
        "XMLTABLE shreds an XML document column into relational rows with PASSING and COLUMNS ... PATH.",
        "PostgreSQL 10+ has XMLTABLE: keep XMLTABLE('/order/line' PASSING o.doc COLUMNS line_id numeric PATH '@id', "
        "qty numeric PATH 'qty'); map NUMBER columns to numeric and make the column type xml (XMLTYPE -> xml).",
    ),
    (
        "pivot",
        "SELECT * FROM sales PIVOT (SUM(amount) FOR quarter IN ('Q1' AS q1, 'Q2' AS q2)) -- syntax error at PIVOT",
        "PIVOT turns the values of one column into output columns with an aggregate.",
        "Rewrite PIVOT as conditional aggregation: SUM(amount) FILTER (WHERE quarter = 'Q1') AS q1, ... GROUP BY "
        "the remaining columns; crosstab() from tablefunc is the alternative for dynamic column lists.",
    ),
    (
        "model-clause",
        "SELECT country, year, s FROM sales_view MODEL PARTITION BY (country) DIMENSION BY (year) MEASURES (sales s) "
        "RULES (s[2001] = s[2000] * 1.1) -- no conversion for the MODEL clause",
        "The MODEL clause computes spreadsheet-like cells with PARTITION BY, DIMENSION BY, MEASURES and RULES.",
        "No equivalent: compute each rule as a window function or a self-join on the dimension "
        "(s for 2001 = lag over year * 1.1) inside a CTE, or move the cell rules into a PL/pgSQL loop.",
    ),
    (
        "bulk-forall",
        "FORALL i IN 1 .. v_ids.COUNT SAVE EXCEPTIONS UPDATE accounts SET flag = 'Y' WHERE id = v_ids(i); "
        "-- SQL%BULK_EXCEPTIONS has no PostgreSQL counterpart",
        "FORALL with SAVE EXCEPTIONS runs a DML statement per collection element and collects failures.",
        "Replace FORALL by one set-based statement: UPDATE accounts SET flag = 'Y' WHERE id = ANY(v_ids); when "
        "per-row failures must be kept, loop over unnest(v_ids) with a BEGIN ... EXCEPTION block per element.",
    ),
    (
        "utl-file",
        "f := UTL_FILE.FOPEN('EXPORT_DIR', 'orders.csv', 'w'); UTL_FILE.PUT_LINE(f, line); UTL_FILE.FCLOSE(f); "
        "-- package utl_file does not exist",
        "UTL_FILE writes text files on the database server from PL/SQL through a directory object.",
        "Write server files with COPY (SELECT ...) TO '/path/orders.csv' WITH (FORMAT csv) (needs "
        "pg_write_server_files), or return the rows and let the client write them; orafce offers a utl_file shim.",
    ),
    (
        "dbms-output-fn",
        "a function called from a SELECT on every row prints with DBMS_OUTPUT.PUT_LINE and the converted "
        "RAISE NOTICE floods the client log with a million notices",
        "DBMS_OUTPUT in a function that SQL calls for each row.",
        "Inside functions called per row use RAISE DEBUG (hidden unless client_min_messages is lowered) or drop "
        "the call; keep RAISE NOTICE only for procedures run once.",
    ),
    (
        "autonomous-commit",
        "PRAGMA AUTONOMOUS_TRANSACTION procedure log_error COMMITs inside an exception handler; converted "
        "procedure raises 'invalid transaction termination'",
        "An autonomous logging procedure that commits while the caller's transaction is rolled back.",
        "COMMIT is not allowed inside a function or an exception block; send the log insert through "
        "dblink_exec on a loopback connection (or pg_background_launch) and remove the COMMIT.",
    ),
]

_KINDS = [
    "Naming rule",
    "Type mapping",
    "Quoting rule",
    "Default rule",
    "Index rule",
    "Grant rule",
    "Comment rule",
    "Partition rule",
    "Constraint rule",
    "Trigger rule",
    "Synonym rule",
    "Storage rule",
]
_ACTIONS = [
    "map NUMBER(10,2) to numeric(10,2)",
    "fold the identifier to lower case",
    "drop the TABLESPACE clause",
    "rewrite VARCHAR2(n CHAR) as varchar(n)",
    "convert NUMBER(1) flags to boolean",
    "map CLOB to text",
    "map BLOB to bytea",
    "map DATE to timestamp(0)",
    "drop the NOLOGGING option",
    "rename the reserved column",
    "move STORAGE parameters into a comment",
    "replace the synonym by a view",
    "map RAW(16) to uuid",
    "keep the CHECK constraint unchanged",
    "rewrite the default expression",
    "recreate the grant for the role",
    "convert the bitmap index to a btree index",
    "split the composite partition by range",
    "rename the constraint to fit 63 characters",
    "keep the comment text",
    "drop the PCTFREE setting",
    "map BINARY_DOUBLE to double precision",
    "map FLOAT(126) to double precision",
    "quote the mixed-case name",
]
_OBJECTS = [
    "table",
    "view",
    "index",
    "column",
    "constraint",
    "sequence",
    "trigger",
    "package",
    "procedure",
    "function",
    "synonym",
    "materialized view",
]
_REASONS = [
    "naming policy",
    "storage cleanup",
    "type fidelity",
    "grant model",
    "length limit",
    "case folding",
    "legacy schema",
    "reporting layer",
    "batch jobs",
    "archive tables",
]


# Hard negatives: neighbouring constructs (documents, collections, JSON) that are not the gap's fix.
_NEAR_FEATURES = [
    "JSON_TABLE",
    "XMLELEMENT",
    "XMLAGG",
    "EXTRACTVALUE",
    "XMLTYPE column",
    "TABLE(collection)",
    "nested table column",
    "VARRAY column",
    "object type attribute",
    "CAST(MULTISET(...))",
    "JSON_VALUE",
    "external table ACCESS PARAMETERS",
    "XMLSERIALIZE",
    "EXISTSNODE",
]
_NEAR_ACTIONS = [
    "map the document column type",
    "unnest the collection into rows with unnest()",
    "rewrite the path expression",
    "convert the constructor call",
    "aggregate the rows into one value",
    "cast the extracted value to numeric",
    "keep the namespace declaration",
    "replace the object attribute access",
    "turn the collection into an array column",
]


def filler(n: int, seed: int = 20261129, near: float = 0.0) -> list[str]:
    """n distinct synthetic migration rules about naming, types and storage (none about the gaps);
    with near > 0 that share of them are hard negatives about neighbouring constructs."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if near and rng.random() < near:
            out.append(
                f"Rule N{i:05d}: {rng.choice(_NEAR_FEATURES)}: {rng.choice(_NEAR_ACTIONS)} in "
                f"view app{rng.randrange(40)}.v_{rng.randrange(5000)} ({rng.choice(_REASONS)})."
            )
            continue
        schema, obj = f"app{rng.randrange(40)}", rng.choice(_OBJECTS)
        out.append(
            f"{rng.choice(_KINDS)} F{i:05d}: {rng.choice(_ACTIONS)} for {obj} {schema}.obj_{rng.randrange(5000)} "
            f"in module m{rng.randrange(200)} ({rng.choice(_REASONS)})."
        )
    return out
