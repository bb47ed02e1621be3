-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, plsql.dynamic_returning, plsql.function
CREATE OR REPLACE FUNCTION s.bump(p_id varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_qty numeric;
    v_old numeric;
BEGIN
    p_id := nullif(p_id, '');
    EXECUTE 'UPDATE items SET qty = qty + 1 WHERE item_id = $1 RETURNING qty' INTO v_qty USING p_id;
    EXECUTE 'UPDATE items SET qty = qty - 1 WHERE item_id = $1 RETURNING qty' INTO v_old USING p_id;
    RETURN v_qty + v_old;
END;
$fn$;
