CREATE INDEX emp_status_bix ON employees (status);
-- note: BITMAP index → btree (PostgreSQL builds bitmaps at query time from btree indexes)
-- note: index options dropped (storage/build only, no behaviour): NOLOGGING
-- rules: ddl.physical_attributes, ddl.index
