"""Every rule id, declared once: what the converters pass to ``ctx.enabled(...)`` / ``ctx.applied(...)``.

An id is ``family.name``. Users name ids in ``--disable-rule``, in the settings file and in fix
cycles; ids are checked against this table there (``check_rule_ids``), so a typo is a usage error
instead of a run that silently changes nothing. A family glob (``plsql.*``) is accepted when it
matches at least one id. ``tests/migrator/test_rule_registry.py`` keeps the table and the code in
step (every id the code uses is declared, every declared id is used) and shows for each id that
switching it off changes the output.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from migrator.errors import MigratorError


@dataclass(frozen=True)
class RuleInfo:
    id: str
    description: str  # one line: the Oracle construct → what PostgreSQL gets
    # Why switching this rule off alone cannot change any output (None: it can, and a test shows it).
    not_alone: str | None = None

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]


def _rules(*rows: tuple[str, str]) -> tuple[RuleInfo, ...]:
    return tuple(RuleInfo(rule_id, text) for rule_id, text in rows)


RULES: tuple[RuleInfo, ...] = _rules(
    # -- SQL expressions -------------------------------------------------------------------------
    ("expr.nvl", "NVL(a, b) → COALESCE(a, b)"),
    ("expr.nvl2", "NVL2(a, b, c) → CASE WHEN a IS NOT NULL THEN b ELSE c END"),
    ("expr.decode", "DECODE → CASE, where a NULL search value matches a NULL subject"),
    ("expr.empty_string_null", "'' → NULL (Oracle has no empty string)"),
    ("expr.concat_null", "a || b where NULL counts as '' → CONCAT(...), NULL when the result is ''"),
    ("expr.implicit_to_text", "numbers and dates in text contexts printed as Oracle prints them"),
    ("expr.empty_result_null", "TRIM/LTRIM/RTRIM/TRANSLATE/REGEXP_REPLACE: an empty result is NULL"),
    ("expr.replace", "REPLACE(s, x[, r]): a missing or NULL r removes x"),
    ("expr.nls_numeric", "NLS_NUMERIC_CHARACTERS in TO_CHAR/TO_NUMBER → explicit '.'/',' handling"),
    ("expr.instr", "INSTR with position and occurrence → oracompat.instr"),
    ("expr.substr", "SUBSTR: position 0 means 1, negative positions count from the end"),
    ("expr.lpad", "LPAD/RPAD to a length below 1 → NULL (PostgreSQL gives '')"),
    ("expr.greatest_least", "GREATEST/LEAST are NULL when any argument is NULL"),
    ("expr.listagg", "LISTAGG → string_agg, with Oracle's default empty separator"),
    ("expr.to_number", "TO_NUMBER(x) → numeric (not double precision)"),
    ("expr.division", "NUMBER division is exact decimal (7/2 = 3.5 for integer columns too)"),
    ("expr.raw_hex", "HEXTORAW/RAWTOHEX → decode/encode 'hex' on bytea"),
    ("expr.lob_conversion", "TO_BLOB/TO_CLOB/TO_NCLOB and EMPTY_BLOB/EMPTY_CLOB → bytea/text values"),
    ("expr.sysdate", "SYSDATE → oracompat.sysdate() (honours a frozen clock); SYSTIMESTAMP likewise"),
    ("expr.date_arith", "date ± n → interval days; date - date → days as numeric"),
    ("expr.trunc_date", "TRUNC(date[, fmt]) → date_trunc(unit, date)::timestamp(0)"),
    ("expr.round_date", "ROUND(date[, fmt]) → date_trunc of the date shifted by half a unit"),
    ("expr.add_months", "ADD_MONTHS → oracompat.add_months (end of month stays end of month)"),
    ("expr.months_between", "MONTHS_BETWEEN → oracompat.months_between"),
    ("expr.last_day", "LAST_DAY → oracompat.last_day"),
    ("expr.to_date", "TO_DATE keeps the time of day → to_timestamp(...)::timestamp(0)"),
    ("expr.date_type", "CAST(x AS DATE) and DATE literals → timestamp(0)"),
    ("expr.to_char", "TO_CHAR(date, fmt): Oracle format model → PostgreSQL template"),
    # -- SQL statements --------------------------------------------------------------------------
    ("sql.dual", "SELECT ... FROM DUAL → SELECT ... (no FROM)"),
    ("sql.outer_join_plus", "(+) outer joins → ANSI LEFT JOIN"),
    ("sql.sequence_nextval", "seq.NEXTVAL/CURRVAL → nextval('seq')/currval('seq')"),
    ("sql.rownum", "ROWNUM <= n → LIMIT; ROWNUM elsewhere → row_number() OVER ()"),
    ("sql.connect_by", "CONNECT BY hierarchies → recursive CTE (LEVEL, SYS_CONNECT_BY_PATH, ...)"),
    ("sql.merge", "MERGE: UPDATE/INSERT ... WHERE filters → WHEN [NOT] MATCHED AND ..."),
    ("sql.update_set_target", "UPDATE t a SET a.col = ... → SET col = ... (PostgreSQL refuses the alias)"),
    ("sql.for_update_of", "FOR UPDATE OF alias.col → FOR UPDATE OF alias"),
    # -- DDL -------------------------------------------------------------------------------------
    ("ddl.view", "CREATE VIEW → CREATE OR REPLACE VIEW with a converted query"),
    ("ddl.materialized_view", "CREATE MATERIALIZED VIEW → PostgreSQL materialized view"),
    ("ddl.index", "CREATE INDEX (unique, composite, function-based, bitmap) → PostgreSQL index"),
    ("ddl.sequence", "CREATE SEQUENCE options → PostgreSQL sequence options"),
    ("ddl.synonym", "CREATE SYNONYM → a view over its target (not over a database link)"),
    ("ddl.grant", "GRANT/REVOKE on objects and system privileges → PostgreSQL privileges"),
    ("ddl.comment", "COMMENT ON TABLE/COLUMN → PostgreSQL COMMENT"),
    ("ddl.object_type", "CREATE TYPE ... AS OBJECT → composite type"),
    ("ddl.collection_type", "CREATE TYPE ... AS TABLE OF / VARRAY → a domain over an array (1-based)"),
    ("ddl.alter_table", "ALTER TABLE ADD/MODIFY/DROP/RENAME → PostgreSQL ALTER TABLE actions"),
    ("ddl.identity", "GENERATED ... AS IDENTITY → PostgreSQL identity column"),
    ("ddl.virtual_column", "virtual column → STORED generated column"),
    ("ddl.default_sysdate", "DEFAULT SYSDATE/CURRENT_DATE/SYSTIMESTAMP → PostgreSQL equivalents"),
    ("ddl.temporary_table", "GLOBAL TEMPORARY TABLE → UNLOGGED table (rows shared, noted)"),
    ("ddl.physical_attributes", "storage clauses (TABLESPACE, PCTFREE, STORAGE, ...) dropped with a note"),
    # -- data types (DDL, PL/SQL declarations, CAST) ---------------------------------------------
    ("ddl.number_type", "NUMBER(p[,s]), INTEGER, FLOAT → smallint/integer/bigint/numeric"),
    ("ddl.varchar2", "VARCHAR2/NVARCHAR2(n) → varchar(n)"),
    ("ddl.char_type", "CHAR/NCHAR(n) → char(n)"),
    ("ddl.date_type", "DATE → timestamp(0) (an Oracle DATE has a time of day)"),
    ("ddl.timestamp_type", "TIMESTAMP [WITH [LOCAL] TIME ZONE] → timestamp/timestamptz"),
    ("ddl.interval_type", "INTERVAL YEAR TO MONTH / DAY TO SECOND → interval"),
    ("ddl.lob_types", "CLOB/NCLOB/LONG → text, BLOB/RAW/LONG RAW/BFILE → bytea"),
    ("ddl.binary_float", "BINARY_FLOAT/BINARY_DOUBLE → real/double precision"),
    ("ddl.rowid_type", "ROWID/UROWID → text"),
    ("ddl.xml_type", "XMLTYPE → xml"),
    ("ddl.boolean_type", "BOOLEAN → boolean"),
    ("ddl.plsql_integer", "PLS_INTEGER/BINARY_INTEGER/NATURAL/POSITIVE/... → integer"),
    ("ddl.ref_cursor", "SYS_REFCURSOR → refcursor"),
    # -- data statements -------------------------------------------------------------------------
    ("data.insert", "INSERT/UPDATE/DELETE/MERGE statements with the target table's column types"),
    ("data.insert_all", "unconditional INSERT ALL → one INSERT per INTO clause"),
    # -- PL/SQL ----------------------------------------------------------------------------------
    ("plsql.function", "CREATE FUNCTION → PL/pgSQL function"),
    ("plsql.procedure", "CREATE PROCEDURE → PL/pgSQL procedure (calls become CALL)"),
    ("plsql.package", "package spec/body → a schema with functions and session state"),
    ("plsql.trigger", "row/statement triggers → trigger function plus CREATE TRIGGER"),
    ("plsql.exceptions", "exception declarations, RAISE, handlers, SQLCODE/SQLERRM → SQLSTATE-based"),
    ("plsql.collections", "nested tables, VARRAYs, INDEX BY tables, methods, BULK COLLECT, FORALL"),
    ("plsql.dbms_output", "DBMS_OUTPUT.PUT_LINE → RAISE NOTICE"),
    ("plsql.raise_application_error", "RAISE_APPLICATION_ERROR → RAISE EXCEPTION with Oracle's error code"),
    ("plsql.empty_string_params", "string parameters normalised on entry ('' is NULL)"),
    ("plsql.autonomous", "PRAGMA AUTONOMOUS_TRANSACTION → a dblink loopback call"),
)

BY_ID: dict[str, RuleInfo] = {r.id: r for r in RULES}
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(r.family for r in RULES))


class UnknownRuleId(MigratorError, ValueError):
    """A rule id (or family glob) that names no rule; the message lists close matches. Also a
    ValueError so that pydantic reports it from a settings file's validator."""


def matching(pattern: str) -> list[str]:
    """The ids a disable entry switches off: itself, or every id of a `family.*` glob."""
    if pattern.endswith(".*"):
        family = pattern[:-2]
        return [r.id for r in RULES if r.family == family]
    return [pattern] if pattern in BY_ID else []


def check_rule_ids(ids: Iterable[str], where: str = "") -> None:
    """Raise UnknownRuleId naming every id in `ids` that matches no rule (`where` says whence)."""
    problems = [_unknown(rule_id) for rule_id in ids if not matching(rule_id)]
    if problems:
        prefix = f"{where}: " if where else ""
        raise UnknownRuleId(prefix + "; ".join(problems))


def _unknown(rule_id: str) -> str:
    candidates = list(BY_ID) + [f"{family}.*" for family in FAMILIES]
    close = difflib.get_close_matches(rule_id, candidates, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else f" (families: {', '.join(FAMILIES)})"
    return f"unknown rule id {rule_id!r}{hint}"
