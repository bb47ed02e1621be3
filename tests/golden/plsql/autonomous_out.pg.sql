-- rules: ddl.number_type, ddl.varchar2, plsql.empty_string_params, expr.concat_null, expr.implicit_to_text, plsql.procedure, plsql.autonomous, plsql.autonomous_output
CREATE OR REPLACE FUNCTION s.reserve_seat__autonomous(p_row numeric, OUT p_seat numeric, INOUT p_note varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_note := nullif(p_note, '');
    p_seat := p_row * 100 + 1;
    p_note := CONCAT(p_note, ' row ', oracompat.to_text(p_row));
    NULL;  -- COMMIT: done by the autonomous (dblink) session
END;
$fn$;

CREATE OR REPLACE PROCEDURE s.reserve_seat(p_row numeric, OUT p_seat numeric, INOUT p_note varchar)
LANGUAGE plpgsql AS $fn$
DECLARE
    result__ jsonb;
BEGIN
    result__ := oracompat.autonomous(format('SELECT json_build_array(r.o1::text, r.o2::text)::text FROM s.reserve_seat__autonomous(%L::numeric, %L::varchar) AS r(o1, o2)', p_row, p_note))::jsonb;
    p_seat := (result__ ->> 0)::numeric;
    p_note := (result__ ->> 1)::varchar;
END;
$fn$;
