CREATE UNLOGGED TABLE tmp_lines$gtt (
    line_id numeric(10) NOT NULL,
    code varchar(10),
    qty numeric DEFAULT 0 NOT NULL CHECK (qty >= 0),
    "$session" text NOT NULL DEFAULT oracompat.session_key(),
    "$xact" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    CONSTRAINT tmp_lines_pk PRIMARY KEY ("$session", "$xact", line_id),
    UNIQUE ("$session", "$xact", code)
);
CREATE VIEW tmp_lines AS
    SELECT line_id, code, qty FROM tmp_lines$gtt WHERE "$session" = oracompat.session_key() AND "$xact" = pg_current_xact_id_if_assigned();
-- note: GLOBAL TEMPORARY TABLE (ON COMMIT DELETE ROWS) → rows in UNLOGGED TABLE tmp_lines$gtt and view tmp_lines of the current session's transaction rows
-- rules: ddl.temporary_table, ddl.session_temporary_table, ddl.number_type, ddl.number_precision, ddl.varchar2
