CREATE OR REPLACE FUNCTION named_points RETURN NUMBER IS
  l_a point_t := NEW point_t(y => 4, x => 3);
  l_b point_t := point_t(p_xy => '1,2');
BEGIN
  RETURN l_a.norm1() + l_b.norm1();
END named_points;
/
