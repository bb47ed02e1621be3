-- rules: plsql.object_type_body, ddl.number_type, ddl.varchar2, plsql.empty_string_params, expr.to_number, expr.substr, expr.instr, plsql.function, plsql.collections
CREATE OR REPLACE FUNCTION s.point_t__new(p_xy varchar)
RETURNS s.point_t
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    self s.point_t;
BEGIN
    p_xy := nullif(p_xy, '');
    self.x := CAST(oracompat.substr(p_xy, 1, STRPOS(p_xy, ',') - 1) AS DECIMAL);
    self.y := CAST(oracompat.substr(p_xy, STRPOS(p_xy, ',') + 1) AS DECIMAL);
    RETURN self;
END;
$fn$;

CREATE OR REPLACE FUNCTION s.point_t__norm1(self s.point_t)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    RETURN ABS(self.x) + ABS(self.y);
END;
$fn$;

CREATE OR REPLACE FUNCTION s.point_t__origin()
RETURNS s.point_t
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    RETURN ROW(0, 0)::s.point_t;
END;
$fn$;
