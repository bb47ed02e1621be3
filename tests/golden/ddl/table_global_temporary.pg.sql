CREATE UNLOGGED TABLE tmp_batch (
    batch_id numeric(10),
    payload varchar(4000)
);
-- note: GLOBAL TEMPORARY TABLE (ON COMMIT PRESERVE ROWS) → UNLOGGED TABLE: rows are shared between sessions and not cleared at commit; callers should delete their own rows (or create a session TEMP table of the same shape)
-- rules: ddl.number_type, ddl.number_precision, ddl.varchar2, ddl.temporary_table
