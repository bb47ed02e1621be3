-- rules: ddl.varchar2, plsql.empty_string_params, plsql.collections, expr.regexp_match, expr.empty_result_null, plsql.function
CREATE OR REPLACE FUNCTION s.words(p_text varchar)
RETURNS SETOF s.point_t
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_words s.point_list := '{}'::s.point_list;
BEGIN
    p_text := nullif(p_text, '');
    FOR i IN 1..REGEXP_COUNT(p_text, '[^ ]+', 1, 'p') LOOP
        RETURN NEXT ROW(i, LENGTH(NULLIF(REGEXP_SUBSTR(p_text, '[^ ]+', 1, CAST(i AS INT), 'p'), '')))::s.point_t;
    END LOOP;
    DECLARE
        r record;
    BEGIN
        FOR r IN SELECT x FROM LATERAL (SELECT * FROM unnest(l_words)) AS table__1 LOOP
            RETURN NEXT ROW(r.x, 0)::s.point_t;
        END LOOP;
    END;
    RETURN;
END;
$fn$;
