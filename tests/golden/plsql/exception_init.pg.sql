-- rules: ddl.number_type, plsql.exceptions, plsql.raise_application_error, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE OR REPLACE PROCEDURE s.move_emp(p_id numeric, p_dept numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF p_dept = 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'O2010', MESSAGE = coalesce('department 0 is frozen', '');
    END IF;
    UPDATE emp SET dept = p_dept WHERE id = p_id;
EXCEPTION
    WHEN foreign_key_violation THEN
        DECLARE
            sqlerrm__constraint text;
            sqlerrm__schema text;
        BEGIN
            GET STACKED DIAGNOSTICS sqlerrm__constraint = CONSTRAINT_NAME, sqlerrm__schema = SCHEMA_NAME;
            RAISE NOTICE '%', coalesce((CONCAT('no such department: ', oracompat.sqlerrm(SQLSTATE, SQLERRM, sqlerrm__constraint, sqlerrm__schema, NULL, NULL)))::text, '');
        END;
    WHEN SQLSTATE 'O2010' THEN
        RAISE NOTICE '%', coalesce((CONCAT('frozen: ', oracompat.to_text(oracompat.sqlcode(SQLSTATE))))::text, '');
        RAISE;
END;
$fn$;
