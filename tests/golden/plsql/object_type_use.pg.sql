-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, plsql.collections, plsql.function
CREATE OR REPLACE FUNCTION s.path_length(p_points varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_points s.point_list := ARRAY[s.point_t__origin(), s.point_t__new('3,4')]::s.point_list;
    l_total numeric := 0;
BEGIN
    p_points := nullif(p_points, '');
    l_points := array_append(l_points, NULL);
    l_points[coalesce(cardinality(l_points), 0)] := s.point_t__new(p_points);
    FOR i IN 1..coalesce(cardinality(l_points), 0) LOOP
        l_total := l_total + s.point_t__norm1(oracompat.arr_get(l_points, i));
    END LOOP;
    DECLARE
        r record;
    BEGIN
        FOR r IN SELECT x, y FROM LATERAL (SELECT * FROM unnest(l_points)) AS table__1 WHERE x > 0 LOOP
            l_total := l_total + r.x;
        END LOOP;
    END;
    RETURN l_total;
END;
$fn$;
