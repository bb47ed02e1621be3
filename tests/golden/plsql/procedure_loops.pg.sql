-- rules: ddl.plsql_integer, ddl.number_type, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE OR REPLACE PROCEDURE s.countdown(p_from integer, OUT p_total numeric, INOUT p_acc numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_i integer := 0;
BEGIN
    p_total := 0;
    FOR i IN REVERSE p_from..1 LOOP
        RAISE NOTICE '%', coalesce((CONCAT('i=', oracompat.to_text(i)))::text, '');
        p_total := p_total + i;
    END LOOP;
    WHILE v_i < 3 LOOP
        v_i := v_i + 1;
        CONTINUE WHEN v_i = 2;
        p_acc := p_acc + v_i;
    END LOOP;
    <<"outer">>
    LOOP
        EXIT "outer" WHEN p_acc > 100;
        p_acc := p_acc * 2;
    END LOOP;
    CASE p_from
        WHEN 1 THEN
            NULL;
        WHEN 2 THEN
            CALL log_it('two');
    END CASE;
END;
$fn$;
