-- rules: ddl.varchar2, plsql.empty_string_params, plsql.record_field_anchor, ddl.number_type, plsql.function
DROP TYPE IF EXISTS s.first_argument__t_arg CASCADE;
DO $fn$
DECLARE
    cols text[] := '{}';
    typ text;
BEGIN
    SELECT format_type(a.atttypid, a.atttypmod) INTO typ FROM pg_attribute a
     WHERE a.attrelid = to_regclass('ext_arguments') AND a.attname = 'argument_name'
       AND a.attnum > 0 AND NOT a.attisdropped;
    IF typ IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42703', MESSAGE = 'record field arg_name: ext_arguments.argument_name%TYPE names no column';
    END IF;
    cols := cols || ('arg_name ' || typ);
    cols := cols || '"position" numeric'::text;
    EXECUTE format('CREATE TYPE %s AS (%s)', 's.first_argument__t_arg', array_to_string(cols, ', '));
END;
$fn$;

CREATE OR REPLACE FUNCTION s.first_argument(p_obj varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_arg s.first_argument__t_arg;
BEGIN
    p_obj := nullif(p_obj, '');
    SELECT argument_name, "position" FROM ext_arguments WHERE object_name = p_obj AND "position" = 1 INTO STRICT l_arg.arg_name, l_arg."position";
    RETURN l_arg.arg_name;
END;
$fn$;
