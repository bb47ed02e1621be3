-- rules: ddl.number_type, expr.division, plsql.goto, plsql.function
CREATE OR REPLACE FUNCTION s.halvings(p_n numeric)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_n numeric := p_n;
    l_count numeric := 0;
BEGIN
    <<goto_again_again>>
    LOOP
        IF l_n > 1 THEN
            l_n := TRUNC(CAST(l_n AS DECIMAL) / 2);
            l_count := l_count + 1;
            CONTINUE goto_again_again;  -- GOTO again (backward)
        END IF;
        EXIT goto_again_again;
    END LOOP;
    RETURN l_count;
END;
$fn$;
