-- rules: plsql.conditional_compilation, ddl.varchar2, plsql.empty_string_params, expr.concat_null, plsql.function
CREATE OR REPLACE FUNCTION s.build_info(p_tag varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_out varchar(200);
BEGIN
    p_tag := nullif(p_tag, '');
    l_out := 'current';
    l_out := CONCAT(l_out, '/optimized');
    RETURN CONCAT('BUILD_INFO', '@', '14', ': ', l_out, ' ', p_tag);
END;
$fn$;
