-- rules: ddl.varchar2, plsql.empty_string_params, ddl.lob_types, expr.raw_hex, expr.concat_null, expr.implicit_to_text, expr.supplied_package, plsql.function
CREATE OR REPLACE FUNCTION s.raw_demo(p_hex varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_raw bytea := decode('CAFE', 'hex');
    l_more bytea;
BEGIN
    p_hex := nullif(p_hex, '');
    l_more := decode(p_hex, 'hex');
    RETURN CONCAT('raw ', oracompat.to_text(l_raw), '/', oracompat.to_text(oracompat.utl_raw_length(l_more)), '/', UPPER(ENCODE(oracompat.utl_raw_concat(l_raw, l_more), 'hex')));
END;
$fn$;
