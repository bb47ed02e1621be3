"""Every rule, declared once: its id, what it does, and for each Oracle construct it handles the
tree node it applies to, the file that implements it and the tests that show it.

Read by `migrator.convert.registry` (id checks, the README's construct → rule → file table).
`tests/migrator/convert/test_rule_registry.py` holds the table to its word: every id the code uses
is declared and every declared id is used; each construct's file uses its rule's id; each node
names a real class (a sqlglot expression, a PL/SQL tree node, a unit kind) or an Oracle type the
type mapping reads with this rule; each golden case applies the rule and each test exists.

Notation. node: `exp.X` (sqlglot expression class), `ast.X` (`migrator.convert.plsql.ast`),
`UnitKind.X` (a statement's kind), `type:SPELLING` (an Oracle type spelling, in DDL, PL/SQL
declarations and CAST), `name:X` (a name PL/SQL code reads, e.g. SQLCODE). file: a path under
migrator/convert/. tests: `golden:<family>/<case>` (tests/golden/) or `<file>::<test>` (a test in
tests/migrator/convert/).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Construct:
    name: str  # the Oracle construct in a user's words: "NVL", "CONNECT BY", "BULK COLLECT"
    nodes: tuple[str, ...]  # what the rule applies to (see the notation above)
    files: tuple[str, ...]  # where it is implemented: one file, two at most
    tests: tuple[str, ...]  # golden cases and test ids that show it


@dataclass(frozen=True)
class RuleInfo:
    id: str
    description: str  # one line: the Oracle construct → what PostgreSQL gets
    constructs: tuple[Construct, ...]
    # Why switching this rule off alone cannot change any output (None: it can, and a test shows it).
    not_alone: str | None = None

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]


def on(name: str, node: str | tuple[str, ...], file: str | tuple[str, ...], *tests: str) -> Construct:
    nodes = (node,) if isinstance(node, str) else node
    files = (file,) if isinstance(file, str) else file
    return Construct(name, nodes, files, tests)


def rule(rule_id: str, description: str, *constructs: Construct) -> RuleInfo:
    return RuleInfo(rule_id, description, constructs)


NULLS, TEXT, STRINGS, DATES = "sql/nulls.py", "sql/text.py", "sql/strings.py", "sql/dates.py"
SELECT, TYPES = "sql/select.py", "datatypes.py"
SQL_EXEC, SQL_TEXT = "test_sql_exec.py::", "test_sql_exec_text.py::"
SUPPLIED_EXEC = "test_supplied_exec.py::"
BEYOND = "test_sql_exec_beyond.py::"
SUBTLE = "test_subtle_fixture.py::"
TYPES_EXEC = "test_plsql_exec_types.py::"
PLSQL_BEYOND = "test_plsql_exec_beyond.py::"
PLSQL_EXEC = "test_plsql_exec.py::"
CALLS_EXEC = "test_call_conversion_exec.py::"
COMPARISONS = ("exp.EQ", "exp.NEQ", "exp.GT", "exp.GTE", "exp.LT", "exp.LTE")
EXPR_EXEC = SQL_EXEC + "test_expression_matches_oracle"

# fmt: off
RULES: tuple[RuleInfo, ...] = (
    # -- SQL expressions -------------------------------------------------------------------------
    rule("expr.nvl", "NVL(a, b) → COALESCE(a, b)", on("NVL", "exp.Coalesce", NULLS, "golden:sql/nvl", EXPR_EXEC)),
    rule("expr.nvl2", "NVL2(a, b, c) → CASE WHEN a IS NOT NULL THEN b ELSE c END", on("NVL2", "exp.Nvl2", NULLS, "golden:sql/nvl")),
    rule("expr.decode", "DECODE → CASE, where a NULL search value matches a NULL subject",
         on("DECODE", "exp.DecodeCase", NULLS, "golden:sql/decode", SQL_EXEC + "test_decode_with_column_search_matches_null"),
    ),
    rule("expr.empty_string_null", "'' → NULL (Oracle has no empty string)",
         on("'' (empty string)", "exp.Literal", NULLS, "golden:sql/empty_string", "golden:data/insert_literals"),
    ),
    rule("expr.concat_null", "a || b where NULL counts as '' → CONCAT(...), NULL when the result is ''",
         on("concatenation (||)", "exp.DPipe", NULLS, "golden:sql/concat", SQL_TEXT + "test_concat_prints_columns_like_oracle"),
    ),
    rule("expr.implicit_to_text", "numbers and dates in text contexts printed as Oracle prints them",
         on("implicit number/date → text", ("exp.DPipe", "exp.ToChar"), TEXT, "golden:sql/concat_number_text", SQL_TEXT + "test_to_text_overloads"),
    ),
    rule("expr.implicit_from_text", "a string compared with or written into a number or a date → converted to it",
         on("VARCHAR2 compared with NUMBER or DATE (implicit TO_NUMBER, TO_DATE)", COMPARISONS, "sql/implicit.py", "golden:sql/implicit_from_text", CALLS_EXEC + "test_varchar_argument_converts_like_to_number_and_to_date"),
         on("VARCHAR2 written into a NUMBER or DATE column (INSERT, UPDATE SET)", ("exp.Insert", "exp.EQ"), "sql/implicit.py", "golden:plsql/dynamic_binds", CALLS_EXEC + "test_varchar_written_into_number_and_date_columns"),
    ),
    rule("expr.empty_result_null", "TRIM/LTRIM/RTRIM/TRANSLATE/REGEXP_REPLACE: an empty result is NULL",
         on("TRIM, TRANSLATE, REGEXP_REPLACE", ("exp.Trim", "exp.Translate", "exp.RegexpReplace"), TEXT, "golden:sql/replace_trim_empty"),
    ),
    rule("expr.replace", "REPLACE(s, x[, r]): a missing or NULL r removes x", on("REPLACE", "exp.Replace", TEXT, "golden:sql/replace_trim_empty")),
    rule("expr.nls_numeric", "NLS_NUMERIC_CHARACTERS in TO_CHAR/TO_NUMBER → explicit '.'/',' handling",
         on("NLS_NUMERIC_CHARACTERS", ("exp.ToChar", "exp.ToNumber"), TEXT, "golden:sql/nls_numeric"),
    ),
    rule("expr.instr", "INSTR with position and occurrence → oracompat.instr",
         on("INSTR", "exp.StrPosition", STRINGS, "golden:sql/instr_substr", EXPR_EXEC),
    ),
    rule("expr.substr", "SUBSTR: position 0 means 1, negative positions count from the end",
         on("SUBSTR", "exp.Substring", STRINGS, "golden:sql/instr_substr", "test_sql_rules.py::test_substr_zero_and_negative_execute_differently_from_sqlglot"),
    ),
    rule("expr.lpad", "LPAD/RPAD to a length below 1 → NULL (PostgreSQL gives '')",
         on("LPAD, RPAD", "exp.Pad", STRINGS, "golden:sql/pad_greatest", SQL_TEXT + "test_lpad_of_cursor_record_field"),
    ),
    rule("expr.greatest_least", "GREATEST/LEAST are NULL when any argument is NULL",
         on("GREATEST, LEAST", ("exp.Greatest", "exp.Least"), STRINGS, "golden:sql/pad_greatest"),
    ),
    rule("expr.listagg", "LISTAGG → string_agg, with Oracle's default empty separator",
         on("LISTAGG", "exp.GroupConcat", STRINGS, "golden:sql/listagg_default", SQL_EXEC + "test_listagg_and_analytic"),
    ),
    rule("expr.to_number", "TO_NUMBER(x) → numeric (not double precision)",
         on("TO_NUMBER", "exp.ToNumber", STRINGS, "golden:sql/to_char_date", EXPR_EXEC),
    ),
    rule("expr.division", "NUMBER division is exact decimal (7/2 = 3.5 for integer columns too)",
         on("/ (division)", "exp.Div", STRINGS, "golden:sql/date_arith", "golden:plsql/forall"),
    ),
    rule("expr.raw_hex", "HEXTORAW/RAWTOHEX → decode/encode 'hex' on bytea; text assigned to a RAW is hex",
         on("HEXTORAW, RAWTOHEX", "exp.Anonymous", STRINGS, "golden:sql/raw_lob", EXPR_EXEC),
         on("RAW ↔ text (implicit HEXTORAW on assignment, hex in concatenation)", "ast.Assign", "plsql/emit_stmt.py", "golden:plsql/raw_text", TYPES_EXEC + "test_raw_is_bytea_with_oracle_hex_text"),
    ),
    rule("expr.lob_conversion", "TO_BLOB/TO_CLOB/TO_NCLOB and EMPTY_BLOB/EMPTY_CLOB → bytea/text values",
         on("TO_CLOB, TO_BLOB, EMPTY_CLOB, EMPTY_BLOB", "exp.Anonymous", STRINGS, "golden:sql/raw_lob", EXPR_EXEC),
    ),
    rule("expr.sysdate", "SYSDATE → oracompat.sysdate() (honours a frozen clock); SYSTIMESTAMP likewise",
         on("SYSDATE, SYSTIMESTAMP", ("exp.CurrentTimestamp", "exp.Systimestamp"), DATES, "golden:sql/sysdate", SQL_EXEC + "test_trunc_sysdate_is_midnight_today"),
    ),
    rule("expr.date_arith", "date ± n → interval days; date - date → days as numeric",
         on("date ± number, date - date", ("exp.Add", "exp.Sub"), DATES, "golden:sql/date_arith", SQL_EXEC + "test_typed_variable_date_arithmetic"),
    ),
    rule("expr.trunc_date", "TRUNC(date[, fmt]) → date_trunc(unit, date)::timestamp(0)",
         on("TRUNC(date)", ("exp.DateTrunc", "exp.Anonymous"), DATES, "golden:sql/trunc_round", SQL_TEXT + "test_trunc_of_column_minus_trunc_date"),
    ),
    rule("expr.round_date", "ROUND(date[, fmt]) → date_trunc of the date shifted by half a unit",
         on("ROUND(date)", "exp.Round", DATES, "golden:sql/trunc_round"),
    ),
    rule("expr.add_months", "ADD_MONTHS → oracompat.add_months (end of month stays end of month)",
         on("ADD_MONTHS", "exp.AddMonths", DATES, "golden:sql/month_funcs", EXPR_EXEC),
    ),
    rule("expr.months_between", "MONTHS_BETWEEN → oracompat.months_between",
         on("MONTHS_BETWEEN", "exp.MonthsBetween", DATES, "golden:sql/month_funcs", EXPR_EXEC),
    ),
    rule("expr.last_day", "LAST_DAY → oracompat.last_day", on("LAST_DAY", "exp.LastDay", DATES, "golden:sql/month_funcs", EXPR_EXEC)),
    rule("expr.to_date", "TO_DATE keeps the time of day → to_timestamp(...)::timestamp(0)",
         on("TO_DATE, TO_TIMESTAMP", ("exp.StrToDate", "exp.StrToTime"), DATES, "golden:sql/to_char_date", "golden:data/insert_to_date"),
         on("TO_DATE with RR / RRRR, TO_DATE without a format (NLS_DATE_FORMAT DD-MON-RR)", "exp.StrToDate", DATES, "golden:sql/nls_to_date", BEYOND + "test_nls_formats"),
         on("TO_DATE, TO_TIMESTAMP with a format model known at run time", ("exp.StrToDate", "exp.StrToTime"), DATES, "golden:sql/nls_format_runtime", BEYOND + "test_nls_formats"),
    ),
    rule("expr.date_type", "CAST(x AS DATE) and DATE literals → timestamp(0)",
         on("CAST(... AS DATE), DATE '...'", ("exp.Cast", "exp.DateStrToDate"), DATES, "golden:data/insert_literals", EXPR_EXEC),
    ),
    rule("expr.to_char", "TO_CHAR(date, fmt): Oracle format model → PostgreSQL template",
         on("TO_CHAR(date, format)", ("exp.ToChar", "exp.TimeToStr"), DATES, "golden:sql/to_char_date", EXPR_EXEC),
         on("TO_CHAR(date, format) with a format model known at run time", "exp.ToChar", DATES, "golden:sql/nls_format_runtime", BEYOND + "test_nls_formats"),
    ),
    rule("expr.interval_functions", "NUMTODSINTERVAL / NUMTOYMINTERVAL / TO_DSINTERVAL / TO_YMINTERVAL → intervals",
         on("NUMTODSINTERVAL, NUMTOYMINTERVAL, TO_DSINTERVAL, TO_YMINTERVAL, date ± interval", "exp.Anonymous", DATES, "golden:sql/interval_functions", BEYOND + "test_interval_functions_and_arithmetic"),
    ),
    rule("expr.next_day", "NEXT_DAY(d, day) → oracompat.next_day (English day names, time kept)",
         on("NEXT_DAY", "exp.NextDay", DATES, "golden:sql/next_day_remainder", BEYOND + "test_next_day_and_remainder"),
    ),
    rule("expr.remainder", "REMAINDER(n2, n1) → oracompat.remainder (n2 - n1 * ROUND(n2/n1), ties to even)",
         on("REMAINDER", "exp.Anonymous", STRINGS, "golden:sql/next_day_remainder", BEYOND + "test_next_day_and_remainder"),
    ),
    rule("expr.regexp_match", "REGEXP_* with Oracle's match parameters ('.' no newline by default: flag p)",
         on("REGEXP_LIKE, REGEXP_SUBSTR, REGEXP_INSTR, REGEXP_COUNT, REGEXP_REPLACE (match parameters i c n m x)", ("exp.RegexpLike", "exp.RegexpSubstr", "exp.RegexpInstr", "exp.RegexpCount", "exp.RegexpReplace"), "sql/regexp.py", "golden:sql/regexp_match", "golden:plsql/regexp_one_line", BEYOND + "test_regexp_match_parameters", SUBTLE + "test_one_line_dot_does_not_match_a_newline"),
    ),
    rule("expr.keep_dense_rank", "agg KEEP (DENSE_RANK FIRST|LAST ORDER BY ...) → oracompat.keep_* over ordered arrays",
         on("KEEP (DENSE_RANK FIRST|LAST ORDER BY ...)", "exp.Window", "sql/analytic.py", "golden:sql/keep_dense_rank", BEYOND + "test_keep_dense_rank_first_and_last"),
    ),
    rule("expr.ratio_to_report", "RATIO_TO_REPORT(x) OVER (...) → x / SUM(x) OVER (...) in exact decimal",
         on("RATIO_TO_REPORT", "exp.Window", "sql/analytic.py", "golden:sql/ratio_to_report", BEYOND + "test_ratio_to_report"),
    ),
    rule("expr.char_semantics", "CHAR(n) keeps its blanks (LENGTH, SUBSTR, assignment); CHAR vs VARCHAR2 unpadded",
         on("CHAR blank-padding and CHAR/VARCHAR2 comparison", ("exp.Length", "exp.EQ"), (TEXT, "plsql/emit_stmt.py"), "golden:sql/char_semantics", "golden:plsql/char_padding", BEYOND + "test_char_is_blank_padded", SUBTLE + "test_padded_code_keeps_the_blanks_of_char"),
    ),
    rule("expr.type_constructor", "object / collection type constructors in SQL → CAST(ROW(...)), <type>__new(...), CAST(ARRAY[...])",
         on("object and collection type constructors in SQL", "exp.Anonymous", "sql/collections.py", "golden:ddl/view_table_function", TYPES_EXEC + "test_object_types_constructors_methods_and_pipelined_rows"),
    ),
    rule("sql.table_collection", "TABLE(f(...)) in SQL → LATERAL over the PIPELINED set or unnest (COLUMN_VALUE)",
         on("TABLE(...) over a PIPELINED function or a returned collection, in SQL", "exp.Table", "sql/collections.py", "golden:ddl/view_table_function", TYPES_EXEC + "test_package_types_pipelined_and_table_across_units"),
    ),
    rule("expr.supplied_package", "functions and constants of Oracle-supplied packages → the oracompat library",
         on("DBMS_LOB, UTL_RAW, DBMS_RANDOM, DBMS_ASSERT, DBMS_UTILITY, DBMS_SQL functions and constants", ("exp.Dot", "exp.Column", "exp.Rand"), "sql/supplied.py", "golden:sql/supplied_functions", SUPPLIED_EXEC + "test_supplied_functions_match_oracle"),
    ),
    rule("expr.sys_context", "SYS_CONTEXT / USERENV → oracompat.sys_context for the attributes with a meaning",
         on("SYS_CONTEXT('USERENV', ...), USERENV", "exp.Anonymous", "sql/supplied.py", "golden:sql/sys_context", SUPPLIED_EXEC + "test_sys_context_reads_the_session"),
    ),
    # -- SQL statements --------------------------------------------------------------------------
    rule("sql.dual", "SELECT ... FROM DUAL → SELECT ... (no FROM)",
         on("FROM DUAL", "exp.Select", SELECT, "golden:sql/dual", SQL_EXEC + "test_sequence_nextval_and_dual"),
    ),
    rule("sql.outer_join_plus", "(+) outer joins → ANSI LEFT JOIN",
         on("(+) outer join", "exp.Select", SELECT, "golden:sql/outer_join", "golden:sql/outer_join_multi", SQL_EXEC + "test_outer_join_keeps_unmatched_rows"),
    ),
    rule("sql.sequence_nextval", "seq.NEXTVAL/CURRVAL → nextval('seq')/currval('seq')",
         on("NEXTVAL, CURRVAL", "exp.Column", SELECT, "golden:sql/sequence", "golden:data/insert_nextval", SQL_EXEC + "test_sequence_nextval_and_dual"),
    ),
    rule("expr.session_user", "USER → oracompat.ora_user(): the Oracle user in upper case, not the PostgreSQL role",
         on("USER", "exp.Column", SELECT, "golden:sql/session_user", SQL_EXEC + "test_user_is_the_oracle_session_user"),
    ),
    rule("sql.rownum", "ROWNUM <= n → LIMIT; ROWNUM elsewhere → row_number() OVER ()",
         on("ROWNUM", "exp.Select", SELECT, "golden:sql/rownum_limit", "golden:sql/rownum_select", SQL_EXEC + "test_rownum_limits_rows"),
    ),
    rule("sql.connect_by", "CONNECT BY hierarchies → recursive CTE (LEVEL, SYS_CONNECT_BY_PATH, ...)",
         on("CONNECT BY, START WITH, LEVEL, SYS_CONNECT_BY_PATH, CONNECT_BY_ISLEAF", "exp.Connect", "sql/hierarchy.py", "golden:sql/connect_by", "golden:sql/connect_by_nocycle", SQL_EXEC + "test_connect_by_order_levels_paths"),
         on("NOCYCLE, CONNECT_BY_ISCYCLE, loops in a hierarchy (ORA-01436)", "exp.Connect", "sql/hierarchy.py", "golden:sql/connect_by_iscycle", BEYOND + "test_connect_by_nocycle_iscycle_and_loops"),
    ),
    rule("sql.pivot", "PIVOT → GROUP BY with agg FILTER per value; UNPIVOT → LATERAL VALUES (Oracle's column names)",
         on("PIVOT", "exp.Pivot", "sql/pivot.py", "golden:sql/pivot", BEYOND + "test_pivot_and_unpivot"),
         on("UNPIVOT [INCLUDE|EXCLUDE NULLS]", "exp.Pivot", "sql/pivot.py", "golden:sql/unpivot", BEYOND + "test_pivot_and_unpivot"),
    ),
    rule("sql.merge", "MERGE: UPDATE/INSERT ... WHERE filters → WHEN [NOT] MATCHED AND ...",
         on("MERGE", "exp.Merge", "sql/merge.py", "golden:sql/merge", SQL_EXEC + "test_merge_effect"),
    ),
    rule("sql.update_set_target", "UPDATE t a SET a.col = ... → SET col = ... (PostgreSQL refuses the alias)",
         on("UPDATE ... SET alias.col", ("exp.Update", "exp.Merge"), "sql/dml.py", "golden:sql/update_alias", SQL_TEXT + "test_update_with_aliased_set_target"),
    ),
    rule("sql.for_update_of", "FOR UPDATE OF alias.col → FOR UPDATE OF alias",
         on("FOR UPDATE OF", "exp.Lock", "sql/dml.py", "golden:sql/for_update_of", SQL_TEXT + "test_for_update_of_column_locks_its_table"),
    ),
    # -- DDL -------------------------------------------------------------------------------------
    rule("ddl.view", "CREATE VIEW → CREATE OR REPLACE VIEW with a converted query",
         on("CREATE VIEW", "UnitKind.VIEW", "ddl/views.py", "golden:ddl/view_check_option", "golden:ddl/view_read_only"),
    ),
    rule("ddl.materialized_view", "CREATE MATERIALIZED VIEW → PostgreSQL materialized view",
         on("CREATE MATERIALIZED VIEW", "UnitKind.MATERIALIZED_VIEW", "ddl/views.py", "golden:ddl/mview_refresh"),
    ),
    rule("ddl.index", "CREATE INDEX (unique, composite, function-based, bitmap) → PostgreSQL index",
         on("CREATE INDEX", "UnitKind.INDEX", "ddl/indexes.py", "golden:ddl/index_unique_composite", "golden:ddl/index_function_based"),
    ),
    rule("ddl.sequence", "CREATE SEQUENCE options → PostgreSQL sequence options",
         on("CREATE SEQUENCE", "UnitKind.SEQUENCE", "ddl/sequences.py", "golden:ddl/sequence_full", "golden:ddl/sequence_desc_cycle"),
    ),
    rule("ddl.synonym", "CREATE SYNONYM → a view over its target (not over a database link)",
         on("CREATE SYNONYM", "UnitKind.SYNONYM", "ddl/objects.py", "golden:ddl/synonym_table"),
    ),
    rule("ddl.grant", "GRANT/REVOKE on objects and system privileges → PostgreSQL privileges",
         on("GRANT, REVOKE", "UnitKind.GRANT", "ddl/grants.py", "golden:ddl/grant_table", "golden:ddl/revoke_table"),
    ),
    rule("ddl.comment", "COMMENT ON TABLE/COLUMN → PostgreSQL COMMENT",
         on("COMMENT ON", "UnitKind.COMMENT", "ddl/objects.py", "golden:ddl/comment_table", "golden:ddl/comment_column"),
    ),
    rule("ddl.object_type", "CREATE TYPE ... AS OBJECT → composite type",
         on("CREATE TYPE ... AS OBJECT", "UnitKind.TYPE", "ddl/object_types.py", "golden:ddl/type_object", "golden:ddl/type_object_methods"),
    ),
    rule("ddl.collection_type", "CREATE TYPE ... AS TABLE OF / VARRAY → a domain over an array (1-based)",
         on("CREATE TYPE ... AS TABLE OF, VARRAY", "UnitKind.TYPE", "ddl/object_types.py", "golden:ddl/type_table_of", "golden:ddl/type_varray"),
    ),
    rule("ddl.alter_table", "ALTER TABLE ADD/MODIFY/DROP/RENAME → PostgreSQL ALTER TABLE actions",
         on("ALTER TABLE", "UnitKind.ALTER", "ddl/alter.py", "golden:ddl/alter_add_columns", "golden:ddl/alter_modify", "golden:ddl/alter_add_constraint"),
    ),
    rule("ddl.identity", "GENERATED ... AS IDENTITY → PostgreSQL identity column",
         on("GENERATED AS IDENTITY", "UnitKind.TABLE", "ddl/columns.py", "golden:ddl/table_identity_virtual"),
    ),
    rule("ddl.virtual_column", "virtual column → STORED generated column",
         on("virtual column", "UnitKind.TABLE", "ddl/columns.py", "golden:ddl/table_identity_virtual"),
    ),
    rule("ddl.default_sysdate", "DEFAULT SYSDATE/CURRENT_DATE/SYSTIMESTAMP → PostgreSQL equivalents",
         on("DEFAULT SYSDATE", "UnitKind.TABLE", "ddl/columns.py", "golden:ddl/table_basic"),
    ),
    rule("ddl.temporary_table", "GLOBAL TEMPORARY TABLE → UNLOGGED table (rows shared, noted)",
         on("GLOBAL TEMPORARY TABLE", "UnitKind.TABLE", "ddl/tables.py", "golden:ddl/table_global_temporary"),
    ),
    rule("ddl.physical_attributes", "storage clauses (TABLESPACE, PCTFREE, STORAGE, ...) dropped with a note",
         on("TABLESPACE, PCTFREE, STORAGE ...", ("UnitKind.TABLE", "UnitKind.INDEX"), ("ddl/tables.py", "ddl/indexes.py"), "golden:ddl/table_basic", "golden:ddl/index_bitmap"),
    ),
    # -- data types (DDL, PL/SQL declarations, CAST) ---------------------------------------------
    rule("ddl.number_type", "NUMBER(p[,s]), INTEGER, FLOAT → smallint/integer/bigint/numeric",
         on("NUMBER, INTEGER, FLOAT", "type:NUMBER(10)", TYPES, "golden:ddl/table_basic", "test_types.py::test_map_type"),
    ),
    rule("ddl.varchar2", "VARCHAR2/NVARCHAR2(n) → varchar(n)", on("VARCHAR2, NVARCHAR2", "type:VARCHAR2(30)", TYPES, "golden:ddl/table_basic")),
    rule("ddl.char_type", "CHAR/NCHAR(n) → char(n)", on("CHAR, NCHAR", "type:CHAR(3)", TYPES, "golden:ddl/table_basic")),
    rule("ddl.date_type", "DATE → timestamp(0) (an Oracle DATE has a time of day)", on("DATE (type)", "type:DATE", TYPES, "golden:ddl/table_basic")),
    rule("ddl.timestamp_type", "TIMESTAMP [WITH [LOCAL] TIME ZONE] → timestamp/timestamptz",
         on("TIMESTAMP", "type:TIMESTAMP WITH TIME ZONE", TYPES, "golden:ddl/table_basic", "golden:ddl/table_types_misc"),
    ),
    rule("ddl.interval_type", "INTERVAL YEAR TO MONTH / DAY TO SECOND → interval",
         on("INTERVAL (type)", "type:INTERVAL DAY TO SECOND", TYPES, "golden:ddl/table_types_misc"),
    ),
    rule("ddl.lob_types", "CLOB/NCLOB/LONG → text, BLOB/RAW/LONG RAW/BFILE → bytea",
         on("CLOB, BLOB, RAW, LONG", "type:CLOB", TYPES, "golden:ddl/table_basic", "golden:ddl/table_types_misc"),
    ),
    rule("ddl.binary_float", "BINARY_FLOAT/BINARY_DOUBLE → real/double precision",
         on("BINARY_FLOAT, BINARY_DOUBLE", "type:BINARY_DOUBLE", TYPES, "golden:ddl/table_types_misc"),
    ),
    rule("ddl.rowid_type", "ROWID/UROWID → text", on("ROWID, UROWID", "type:ROWID", TYPES, "golden:ddl/table_types_misc")),
    rule("ddl.xml_type", "XMLTYPE → xml", on("XMLTYPE", "type:XMLTYPE", TYPES, "golden:ddl/table_types_misc")),
    rule("ddl.boolean_type", "BOOLEAN → boolean", on("BOOLEAN", "type:BOOLEAN", TYPES, "golden:plsql/bulk_collect")),
    rule("ddl.plsql_integer", "PLS_INTEGER/BINARY_INTEGER/NATURAL/POSITIVE/... → integer",
         on("PLS_INTEGER, BINARY_INTEGER", "type:PLS_INTEGER", TYPES, "golden:plsql/procedure_loops", "golden:plsql/package_state"),
    ),
    rule("ddl.ref_cursor", "SYS_REFCURSOR → refcursor",
         on("SYS_REFCURSOR", "type:SYS_REFCURSOR", TYPES, "golden:plsql/cursors", PLSQL_EXEC + "test_refcursor_function_and_statement_trigger"),
    ),
    # -- data statements -------------------------------------------------------------------------
    rule("data.insert", "INSERT/UPDATE/DELETE/MERGE statements with the target table's column types",
         on("INSERT, UPDATE, DELETE (data)", "UnitKind.DATA", "ddl/data.py", "golden:data/insert_literals", "golden:data/update_sysdate", "golden:data/delete_rownum"),
    ),
    rule("data.insert_all", "unconditional INSERT ALL → one INSERT per INTO clause",
         on("INSERT ALL", "UnitKind.DATA", "ddl/data.py", "golden:data/insert_all_dual", "golden:data/insert_all_query"),
    ),
    # -- PL/SQL ----------------------------------------------------------------------------------
    rule("plsql.function", "CREATE FUNCTION → PL/pgSQL function",
         on("CREATE FUNCTION", "ast.Routine", "plsql/emit_routine.py", "golden:plsql/function_select_into", "golden:plsql/cursors"),
         on("PIPELINED functions, PIPE ROW", "ast.PipeRow", "plsql/emit_routine.py", "golden:plsql/pipelined", TYPES_EXEC + "test_object_types_constructors_methods_and_pipelined_rows"),
    ),
    rule("plsql.procedure", "CREATE PROCEDURE → PL/pgSQL procedure (calls become CALL)",
         on("CREATE PROCEDURE", "ast.Routine", "plsql/emit_routine.py", "golden:plsql/procedure_loops", PLSQL_EXEC + "test_out_params_through_call_and_defaults"),
         on("procedure call", "ast.Call", "plsql/emit_call.py", "golden:plsql/exceptions_user"),
    ),
    rule("plsql.call_conversion", "calls of converted routines: the overload Oracle picks, arguments converted to it",
         on("call of a converted routine (implicit argument conversion, overloads)", ("ast.Call", "exp.Anonymous"), ("plsql/emit_call.py", "sql/implicit.py"), "golden:plsql/call_conversion", CALLS_EXEC + "test_number_argument_reaches_an_integer_parameter", CALLS_EXEC + "test_the_overload_oracle_picks"),
    ),
    rule("plsql.out_after_default", "an OUT parameter after a defaulted one → INOUT ... DEFAULT NULL; the default kept",
         on("DEFAULT before an OUT parameter", "ast.Param", "plsql/emit_routine.py", "golden:plsql/call_conversion", CALLS_EXEC + "test_default_before_out_parameter_keeps_every_call_form"),
    ),
    rule("plsql.dynamic_bind_types", "EXECUTE IMMEDIATE / OPEN FOR ... USING: binds typed by their values",
         on("EXECUTE IMMEDIATE ... USING (binds)", ("ast.ExecImmediate", "ast.Open"), "plsql/emit_dyn.py", "golden:plsql/dynamic_binds", CALLS_EXEC + "test_varchar_bind_compared_with_number_column"),
    ),
    rule("plsql.package", "package spec/body → a schema with functions and session state",
         on("CREATE PACKAGE [BODY]", "ast.Package", "plsql/emit_package.py", "golden:plsql/package_state", PLSQL_EXEC + "test_package_state_per_session_and_init_once"),
         on("package SUBTYPEs and TABLE OF / VARRAY types (domains); pkg.type, pkg.var%TYPE across packages", "ast.TypeDecl", "plsql/emit_decl.py", "golden:plsql/package_types", TYPES_EXEC + "test_package_types_pipelined_and_table_across_units"),
         on("SUBTYPE anchored to a package variable (SUBTYPE t IS g_var%TYPE), named by other packages", "ast.TypeDecl", "plsql/emit_package.py", "golden:plsql/package_subtype_anchored", TYPES_EXEC + "test_library_style_subtypes_raw_parameters_and_self_calls"),
    ),
    rule("plsql.object_type_body", "TYPE BODY: constructors → <type>__new, MEMBER/STATIC methods → functions",
         on("TYPE BODY (CONSTRUCTOR, MEMBER, STATIC)", "ast.Routine", "plsql/emit_unit.py", "golden:plsql/object_type_body", TYPES_EXEC + "test_object_types_constructors_methods_and_pipelined_rows"),
         on("methods calling each other on SELF; SELF declared as a parameter", "ast.Routine", "plsql/emit_unit.py", "golden:plsql/object_type_self_calls", TYPES_EXEC + "test_library_style_subtypes_raw_parameters_and_self_calls"),
    ),
    rule("plsql.trigger", "row/statement triggers → trigger function plus CREATE TRIGGER",
         on("CREATE TRIGGER, :NEW/:OLD, INSERTING/UPDATING/DELETING", "ast.Trigger", "plsql/emit_trigger.py", "golden:plsql/trigger_row", "test_plsql_exec_fields.py::test_updating_column_means_listed_in_set_not_changed"),
         on("INSTEAD OF triggers on views", "ast.Trigger", "plsql/emit_trigger.py", "golden:plsql/trigger_instead_of", PLSQL_BEYOND + "test_instead_of_trigger_counts_the_rows_it_handles"),
    ),
    rule("plsql.exceptions", "exception declarations, RAISE, handlers, SQLCODE/SQLERRM → SQLSTATE-based",
         on("exception declarations, RAISE", ("ast.ExceptionDecl", "ast.Raise"), "plsql/emit_exceptions.py", "golden:plsql/exceptions_user"),
         on("PRAGMA EXCEPTION_INIT", "ast.Pragma", "plsql/emit_exceptions.py", "golden:plsql/exception_init", PLSQL_EXEC + "test_raise_application_error_reaches_caller_and_user_exceptions"),
         on("EXCEPTION WHEN ... THEN (handlers)", "ast.Handler", "plsql/emit_exceptions.py", "golden:plsql/exceptions_user", "golden:plsql/function_select_into"),
         on("every predefined exception (PROGRAM_ERROR, STORAGE_ERROR, ROWTYPE_MISMATCH, SELF_IS_NULL ...)", "ast.Handler", "plsql/emit_exceptions.py", "golden:plsql/predefined_exceptions", PLSQL_BEYOND + "test_every_predefined_exception_is_raised_and_caught_by_name"),
         on("SQLCODE, SQLERRM", ("name:SQLCODE", "name:SQLERRM"), "plsql/emit_exceptions.py", "golden:plsql/exception_init", "test_plsql_exec_errors.py::test_sqlerrm_names_constraint_with_owner"),
    ),
    rule("plsql.collections", "nested tables, VARRAYs, INDEX BY tables, methods, BULK COLLECT, FORALL",
         on("BULK COLLECT", ("ast.Sql", "ast.Fetch"), "plsql/emit_bulk.py", "golden:plsql/bulk_collect", "test_plsql_exec_fields.py::test_record_field_dates_and_bulk_collect_of_records"),
         on("FORALL", "ast.Forall", "plsql/emit_bulk.py", "golden:plsql/forall", PLSQL_EXEC + "test_collections_assoc_and_nested"),
         on("SAVE EXCEPTIONS, SQL%BULK_EXCEPTIONS, SQL%BULK_ROWCOUNT (bulk DML errors)", "ast.Forall", ("plsql/emit_bulk.py", "plsql/emit_stmt.py"), "golden:plsql/forall_save_exceptions", PLSQL_BEYOND + "test_forall_save_exceptions_keeps_the_good_rows_and_reports_the_bad", PLSQL_BEYOND + "test_forall_save_exceptions_unhandled_raises_ora_24381"),
         on("collection methods and constructors (COUNT, EXISTS, EXTEND, DELETE ...)", ("ast.Call", "name:COUNT"), "plsql/emit_collections.py", "golden:plsql/package_state", PLSQL_EXEC + "test_sparse_nested_table_compacts_on_return"),
         on("TABLE(collection) in PL/SQL queries; object constructors and methods of elements", ("ast.Sql", "name:TABLE"), "plsql/emit_collections.py", "golden:plsql/object_type_use", TYPES_EXEC + "test_object_types_constructors_methods_and_pipelined_rows"),
         on("element reads outside a collection (SUBSCRIPT_BEYOND_COUNT, SUBSCRIPT_OUTSIDE_LIMIT); a VARRAY's LIMIT", ("ast.Call", "name:LIMIT"), "plsql/emit_collections.py", "golden:plsql/collection_subscripts", TYPES_EXEC + "test_collection_subscripts_raise_as_oracle_and_varray_limits", TYPES_EXEC + "test_an_element_read_is_inlined_and_raises_only_where_the_row_reads_it"),
    ),
    rule("plsql.dbms_output", "DBMS_OUTPUT.PUT_LINE → RAISE NOTICE",
         on("DBMS_OUTPUT", "ast.Call", "plsql/emit_call.py", "golden:plsql/procedure_loops", PLSQL_EXEC + "test_reverse_loop_order_and_dbms_output"),
    ),
    rule("plsql.raise_application_error", "RAISE_APPLICATION_ERROR → RAISE EXCEPTION with Oracle's error code",
         on("RAISE_APPLICATION_ERROR", "ast.Call", "plsql/emit_exceptions.py", "golden:plsql/exceptions_user", PLSQL_EXEC + "test_raise_application_error_reaches_caller_and_user_exceptions"),
    ),
    rule("plsql.empty_string_params", "string parameters normalised on entry ('' is NULL)",
         on("'' passed to a VARCHAR2 parameter", "ast.Param", "plsql/emit_routine.py", "golden:plsql/function_select_into"),
    ),
    rule("plsql.autonomous", "PRAGMA AUTONOMOUS_TRANSACTION → a dblink loopback call",
         on("PRAGMA AUTONOMOUS_TRANSACTION", "ast.Pragma", "plsql/emit_autonomous.py", "golden:plsql/autonomous", PLSQL_EXEC + "test_autonomous_insert_survives_rollback"),
    ),
    rule("plsql.supplied_package", "Oracle-supplied procedures (IN OUT / OUT arguments assigned back), types, exceptions, error stacks",
         on("DBMS_LOB, DBMS_SQL, DBMS_UTILITY, DBMS_APPLICATION_INFO ... procedure calls", "ast.Call", "plsql/emit_supplied.py", "golden:plsql/supplied_packages", SUPPLIED_EXEC + "test_lob_and_dbms_sql_procedures", SUPPLIED_EXEC + "test_every_member_converts_deploys_and_runs"),
         on("DBMS_LOB.CONVERTTOBLOB / CONVERTTOCLOB (character sets, IN OUT offsets, named arguments)", "ast.Call", "plsql/emit_supplied.py", "golden:plsql/supplied_lob_convert", SUPPLIED_EXEC + "test_clob_to_blob_with_named_in_out_arguments"),
         on("DBMS_UTILITY.FORMAT_ERROR_STACK, FORMAT_ERROR_BACKTRACE; DBMS_ASSERT exceptions", ("name:FORMAT_ERROR_STACK", "ast.Handler"), "plsql/emit_supplied.py", "golden:plsql/supplied_packages", SUPPLIED_EXEC + "test_package_exceptions_and_error_stacks"),
    ),
    rule("plsql.nested_subprogram", "nested subprograms → lifted routines taking the enclosing variables they use",
         on("nested procedures and functions (using the enclosing routine's variables)", "ast.Routine", "plsql/emit_nested.py", "golden:plsql/nested_outer_variables", PLSQL_BEYOND + "test_nested_subprograms_share_the_enclosing_variables"),
    ),
    rule("plsql.where_current_of", "UPDATE/DELETE ... WHERE CURRENT OF cursor → PL/pgSQL's (the cursor names its portal)",
         on("WHERE CURRENT OF", "ast.Sql", "plsql/emit_sql.py", "golden:plsql/where_current_of", PLSQL_BEYOND + "test_where_current_of_updates_and_deletes_the_fetched_row"),
    ),
    rule("plsql.autonomous_output", "what an autonomous transaction's session prints (DBMS_OUTPUT) and raises reaches the caller",
         on("DBMS_OUTPUT in an autonomous transaction", "ast.Pragma", "plsql/emit_autonomous.py", "golden:plsql/autonomous", PLSQL_EXEC + "test_autonomous_output_reaches_the_caller"),
    ),
)
# fmt: on
