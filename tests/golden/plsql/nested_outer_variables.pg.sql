-- rules: ddl.varchar2, plsql.empty_string_params, ddl.plsql_integer, plsql.nested_subprogram, expr.concat_null, plsql.function, expr.implicit_to_text, plsql.procedure, expr.instr, expr.substr, plsql.declaration_order
CREATE OR REPLACE FUNCTION s.format_list__quoted(l_count integer, p_text varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_text := nullif(p_text, '');
    RETURN CONCAT('"', p_text, '"', CASE WHEN l_count > 0 THEN '*' END);
END;
$fn$;

CREATE OR REPLACE PROCEDURE s.format_list__add_item(INOUT l_count integer, INOUT l_out varchar(4000), INOUT p_sep varchar, p_text varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    l_out := nullif(l_out, '');
    p_sep := nullif(p_sep, '');
    p_text := nullif(p_text, '');
    IF l_out IS NOT NULL THEN
        l_out := NULLIF(CONCAT(l_out, p_sep), '');
    END IF;
    l_out := NULLIF(CONCAT(l_out, oracompat.to_text(s.format_list__quoted(l_count, p_text))), '');
    l_count := l_count + 1;
END;
$fn$;

CREATE OR REPLACE FUNCTION s.format_list(p_items varchar, p_sep varchar DEFAULT ', ')
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_items := nullif(p_items, '');
    p_sep := nullif(p_sep, '');
    DECLARE
        l_out varchar(4000);
        l_count integer := 0;
        l_rest varchar(4000) := p_items;
    BEGIN
        WHILE l_rest IS NOT NULL LOOP
            IF STRPOS(l_rest, ',') > 0 THEN
                CALL s.format_list__add_item(l_count, l_out, p_sep, oracompat.substr(l_rest, 1, STRPOS(l_rest, ',') - 1));
                l_rest := oracompat.substr(l_rest, STRPOS(l_rest, ',') + 1);
            ELSE
                CALL s.format_list__add_item(l_count, l_out, p_sep, l_rest);
                l_rest := NULL;
            END IF;
        END LOOP;
        RETURN CONCAT(l_out, ' (', oracompat.to_text(l_count), ')');
    END;
END;
$fn$;
