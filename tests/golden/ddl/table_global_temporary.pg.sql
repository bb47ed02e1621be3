CREATE UNLOGGED TABLE tmp_batch$gtt (
    batch_id numeric(10),
    payload varchar(4000),
    "$session" text NOT NULL DEFAULT oracompat.session_key()
);
CREATE INDEX tmp_batch$gtt_session ON tmp_batch$gtt ("$session");
CREATE VIEW tmp_batch AS
    SELECT batch_id, payload FROM tmp_batch$gtt WHERE "$session" = oracompat.session_key();
-- note: GLOBAL TEMPORARY TABLE (ON COMMIT PRESERVE ROWS) → rows in UNLOGGED TABLE tmp_batch$gtt and view tmp_batch of the current session's rows
-- rules: ddl.temporary_table, ddl.session_temporary_table, ddl.number_type, ddl.number_precision, ddl.varchar2
