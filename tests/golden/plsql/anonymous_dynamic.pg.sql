-- rules: ddl.number_type, plsql.collections, plsql.dbms_output, expr.concat_null, expr.implicit_to_text
DO $do$
#variable_conflict use_column
DECLARE
    v_ids numeric[] := '{}'::numeric[];
    v_n numeric;
BEGIN
    SELECT coalesce(array_agg(q__.c1), '{}') FROM (SELECT id FROM emp ORDER BY id) AS q__(c1) INTO v_ids;
    FOR i IN 1..coalesce(cardinality(v_ids), 0) LOOP
        DELETE FROM emp WHERE id = oracompat.arr_get(v_ids, i);
    END LOOP;
    EXECUTE 'SELECT COUNT(*) FROM emp WHERE dept = $1 AND id > $2' INTO STRICT v_n USING 10, (CASE WHEN coalesce(cardinality(v_ids), 0) > 0 THEN 1 END);
    EXECUTE 'TRUNCATE TABLE emp_stage';
    FOR extend__i IN 1..2 LOOP v_ids := array_append(v_ids, NULL); END LOOP;
    v_ids := v_ids[1:coalesce(cardinality(v_ids), 0) - (1)];
    RAISE NOTICE '%', coalesce((CONCAT(oracompat.to_text(coalesce(cardinality(v_ids), 0)), ' ', oracompat.to_text(v_n)))::text, '');
END;
$do$;
