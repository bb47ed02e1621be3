-- rules: ddl.number_type, plsql.collections, expr.division, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE OR REPLACE PROCEDURE s.give_raise(p_pct numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    forall__rowcount integer;
    sql__rowcount integer := 0;
    v_ids numeric[];
BEGIN
    SELECT coalesce(array_agg(q__.c1), '{}') FROM (SELECT id FROM emp WHERE dept = 10) AS q__(c1) INTO v_ids;
    GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
    sql__rowcount := 0;
    FOR i IN 1..coalesce(cardinality(v_ids), 0) LOOP
        UPDATE emp SET salary = salary * (1 + CAST(p_pct AS DECIMAL) / 100) WHERE id = oracompat.arr_get(v_ids, i);
        GET DIAGNOSTICS forall__rowcount = ROW_COUNT;
        sql__rowcount := sql__rowcount + forall__rowcount;
    END LOOP;
    RAISE NOTICE '%', coalesce((CONCAT(oracompat.to_text(sql__rowcount), ' rows'))::text, '');
END;
$fn$;
