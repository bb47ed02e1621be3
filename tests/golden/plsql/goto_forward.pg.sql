-- rules: ddl.varchar2, plsql.empty_string_params, ddl.plsql_integer, ddl.boolean_type, expr.nvl, expr.substr, expr.concat_null, plsql.goto, plsql.function
CREATE OR REPLACE FUNCTION s.split_quoted(p_line varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_pos integer := 0;
    l_char varchar(1);
    l_quoted boolean := FALSE;
    l_field varchar(4000);
    l_out varchar(4000);
BEGIN
    p_line := nullif(p_line, '');
    <<goto_done>>
    BEGIN
        LOOP
            l_pos := l_pos + 1;
            EXIT WHEN l_pos > COALESCE(LENGTH(p_line), 0) + 1;
            l_char := oracompat.substr(p_line, l_pos, 1);
            <<goto_next_char>>
            BEGIN
                IF l_char = '"' THEN
                    l_quoted := NOT l_quoted;
                    EXIT goto_next_char;  -- GOTO next_char
                END IF;
                IF (l_char = ',' AND NOT l_quoted) OR l_char IS NULL THEN
                    l_out := CONCAT(l_out, '[', l_field, ']');
                    l_field := NULL;
                    IF l_char IS NULL THEN
                        EXIT goto_done;  -- GOTO done
                    END IF;
                    EXIT goto_next_char;  -- GOTO next_char
                END IF;
                l_field := NULLIF(CONCAT(l_field, l_char), '');
            END;
            NULL;
        END LOOP;
    END;
    RETURN l_out;
END;
$fn$;
