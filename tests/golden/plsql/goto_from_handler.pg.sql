-- rules: ddl.number_type, ddl.varchar2, expr.concat_null, expr.implicit_to_text, plsql.exceptions, plsql.goto, plsql.procedure
CREATE OR REPLACE PROCEDURE s.checked_count(p_n numeric, OUT p_msg varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_msg := 'start';
    <<goto_finish>>
    BEGIN
        BEGIN
            IF p_n IS NULL THEN
                EXIT goto_finish;  -- GOTO finish
            END IF;
            p_msg := CONCAT(p_msg, ' counted ', oracompat.to_text(p_n));
        EXCEPTION
            WHEN OTHERS THEN
                p_msg := 'failed';
                EXIT goto_finish;  -- GOTO finish
        END;
        p_msg := CONCAT(p_msg, ' checked');
    END;
    p_msg := CONCAT(p_msg, ' end');
END;
$fn$;
