-- REF t: Oracle's logical pointer to a row object (an object of an object table or object view).
-- Its value names the object's table and the object's identifier (Oracle: the table's system OID
-- or its primary key); as an attribute, column or collection element it is stored as this pair,
-- so an object type with a REF attribute keeps its shape and a NULL or stored reference survives
-- storage and comparison (equal when both parts are). Making a reference (REF(alias), MAKE_REF)
-- and following one (DEREF, implicit dereference) are not converted: the converter reports them.
DO $$
BEGIN
  IF to_regtype('oracompat.object_ref') IS NULL THEN
    CREATE TYPE oracompat.object_ref AS (table_name text, object_id text);
  END IF;
END
$$;
