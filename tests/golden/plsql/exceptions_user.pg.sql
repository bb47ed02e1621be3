-- rules: ddl.number_type, plsql.exceptions, plsql.raise_application_error, expr.concat_null, expr.implicit_to_text, plsql.dbms_output, plsql.procedure
CREATE OR REPLACE PROCEDURE s.check_salary(p_sal numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF p_sal < 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'O2042', MESSAGE = coalesce(CONCAT('negative salary ', oracompat.to_text(p_sal)), '');
    ELSIF p_sal < 10 THEN
        RAISE EXCEPTION USING ERRCODE = 'OUCP7', MESSAGE = 'User-Defined Exception';
    END IF;
EXCEPTION
    WHEN SQLSTATE 'OUCP7' THEN
        RAISE NOTICE '%', coalesce((oracompat.sqlerrm(SQLSTATE, SQLERRM))::text, '');
    WHEN unique_violation THEN
        RAISE;
END;
$fn$;
