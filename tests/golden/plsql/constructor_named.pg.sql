-- rules: ddl.number_type, plsql.collections, ddl.varchar2, plsql.function
CREATE OR REPLACE FUNCTION s.named_points()
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_a s.point_t := ROW(3, 4)::s.point_t;
    l_b s.point_t := s.point_t__new(p_xy => '1,2');
BEGIN
    RETURN s.point_t__norm1(l_a) + s.point_t__norm1(l_b);
END;
$fn$;
