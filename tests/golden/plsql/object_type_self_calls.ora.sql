CREATE OR REPLACE TYPE BODY point_t AS
  CONSTRUCTOR FUNCTION point_t (p_xy IN VARCHAR2) RETURN SELF AS RESULT IS
  BEGIN
    x := LENGTH(p_xy);
    y := 0;
    x := x + norm1;
    RETURN;
  END;
  MEMBER FUNCTION norm1 (SELF IN point_t) RETURN NUMBER IS
  BEGIN
    RETURN ABS(x) + ABS(y);
  END;
  STATIC FUNCTION origin RETURN point_t IS
  BEGIN
    RETURN point_t(0, 0);
  END;
END;
/
