-- rules: ddl.number_type, ddl.number_precision, ddl.varchar2, ddl.boolean_type, plsql.collections, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE OR REPLACE PROCEDURE s.list_dept(p_dept numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__1 varchar(40);
    c_names__found boolean;
    c_names__rowcount integer := 0;
    c_names CURSOR FOR SELECT name FROM emp WHERE dept = p_dept ORDER BY name;
    v_ids numeric(10)[];
    v_names jsonb := '{}'::jsonb;
    v_found boolean := FALSE;
BEGIN
    SELECT coalesce(array_agg(q__.c1), '{}') FROM (SELECT id FROM emp WHERE dept = p_dept ORDER BY id) AS q__(c1) INTO v_ids;
    v_found := coalesce(cardinality(v_ids), 0) > 0;
    c_names__rowcount := 0;
    OPEN c_names;
    LOOP
        v_names := '{}'::jsonb;
        LOOP
            EXIT WHEN coalesce(cardinality(v_names), 0) >= 2;
            FETCH c_names INTO tmp__1;
            c_names__found := FOUND;
            EXIT WHEN NOT FOUND;
            c_names__rowcount := c_names__rowcount + 1;
            v_names := oracompat.aa_set(v_names, (oracompat.aa_count(v_names) + 1)::text, tmp__1);
        END LOOP;
        EXIT WHEN oracompat.aa_count(v_names) = 0;
        FOR i IN 1..oracompat.aa_count(v_names) LOOP
            RAISE NOTICE '%', coalesce(((oracompat.aa_get(v_names, ((i)::bigint)::text) #>> '{}')::varchar(40))::text, '');
        END LOOP;
        EXIT WHEN (NOT c_names__found);
    END LOOP;
    CLOSE c_names;
    IF v_found THEN
        RAISE NOTICE '%', coalesce((CONCAT(oracompat.to_text(coalesce(cardinality(v_ids), 0)), ' employees'))::text, '');
    END IF;
END;
$fn$;
