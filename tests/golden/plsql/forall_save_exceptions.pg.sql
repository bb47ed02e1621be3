-- rules: ddl.varchar2, ddl.number_type, plsql.collections, plsql.exceptions, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE OR REPLACE PROCEDURE s.load_emps(OUT p_report varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    sql__bulk_rowcount integer[] := '{}';
    forall__rows integer;
    sql__bulk_exceptions jsonb := '[]';
    forall__iteration integer;
    l_ids numeric[] := ARRAY[10, 1, 11, 2, 12]::numeric[];
    bulk__failed boolean := false;
BEGIN
    BEGIN
        sql__bulk_rowcount := '{}';
        sql__bulk_exceptions := '[]';
        forall__iteration := 0;
        FOR i IN 1..coalesce(cardinality(l_ids), 0) LOOP
            forall__iteration := forall__iteration + 1;
            BEGIN
                    INSERT INTO emp (id, name, salary, dept) VALUES (oracompat.arr_get(l_ids, i), CONCAT('x', oracompat.to_text(oracompat.arr_get(l_ids, i))), 1, 1);
            EXCEPTION WHEN OTHERS THEN
                sql__bulk_exceptions := sql__bulk_exceptions || jsonb_build_object('error_index', forall__iteration, 'error_code', -oracompat.sqlcode(SQLSTATE));
            END;
            GET DIAGNOSTICS forall__rows = ROW_COUNT;
            sql__bulk_rowcount := array_append(sql__bulk_rowcount, forall__rows);
        END LOOP;
        bulk__failed := jsonb_array_length(sql__bulk_exceptions) > 0;
        IF NOT bulk__failed THEN
            p_report := CONCAT('all ', oracompat.to_text(sql__bulk_rowcount[1]));
        END IF;
    EXCEPTION
        WHEN SQLSTATE 'OS381' THEN
            p_report := CONCAT(oracompat.to_text(jsonb_array_length(sql__bulk_exceptions)), ':');
            FOR j IN 1..jsonb_array_length(sql__bulk_exceptions) LOOP
                p_report := CONCAT(p_report, ' #', oracompat.to_text(((sql__bulk_exceptions -> ((j) - 1)::integer ->> 'error_index')::integer)), ' ', oracompat.sqlerrm_of(- ((sql__bulk_exceptions -> ((j) - 1)::integer ->> 'error_code')::integer)));
            END LOOP;
    END;
    IF bulk__failed THEN
        BEGIN
            RAISE EXCEPTION 'error(s) in array DML' USING ERRCODE = 'OS381';
        EXCEPTION
            WHEN SQLSTATE 'OS381' THEN
                p_report := CONCAT(oracompat.to_text(jsonb_array_length(sql__bulk_exceptions)), ':');
                FOR j IN 1..jsonb_array_length(sql__bulk_exceptions) LOOP
                    p_report := CONCAT(p_report, ' #', oracompat.to_text(((sql__bulk_exceptions -> ((j) - 1)::integer ->> 'error_index')::integer)), ' ', oracompat.sqlerrm_of(- ((sql__bulk_exceptions -> ((j) - 1)::integer ->> 'error_code')::integer)));
                END LOOP;
        END;
    END IF;
END;
$fn$;
