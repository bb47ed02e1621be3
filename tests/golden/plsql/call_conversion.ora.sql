CREATE OR REPLACE PACKAGE BODY counter_pkg AS
  PROCEDURE bump (p_id IN emp.id%TYPE, p_by IN PLS_INTEGER DEFAULT 1, p_total OUT PLS_INTEGER) IS
  BEGIN
    UPDATE emp SET salary = salary + p_by WHERE id = p_id RETURNING salary INTO p_total;
  END bump;

  FUNCTION label (p_dept IN emp.dept%TYPE) RETURN VARCHAR2 IS
  BEGIN
    RETURN 'dept ' || p_dept;
  END label;

  FUNCTION label (p_name IN VARCHAR2, p_since IN DATE) RETURN VARCHAR2 IS
  BEGIN
    RETURN p_name || ' since ' || TO_CHAR(p_since, 'YYYY');
  END label;

  FUNCTION kind_of (p IN NUMBER) RETURN VARCHAR2 IS BEGIN RETURN 'number'; END kind_of;
  FUNCTION kind_of (p IN VARCHAR2) RETURN VARCHAR2 IS BEGIN RETURN 'string'; END kind_of;

  FUNCTION next_val RETURN PLS_INTEGER IS
    v_id    NUMBER := 1;
    v_text  VARCHAR2(10) := '2';
    v_total NUMBER;
    v_name  VARCHAR2(40);
  BEGIN
    bump(v_id, p_total => v_total);
    bump(p_id => v_text, p_by => v_id, p_total => v_total);
    SELECT label(salary / 100) INTO v_name FROM emp WHERE id = v_id;
    DBMS_OUTPUT.PUT_LINE(label(v_id * 10) || label(v_name, '2024-01-31') || kind_of(v_text) || kind_of(v_id));
    g_count := g_count + c_step;
    RETURN v_total;
  END next_val;

  PROCEDURE reset IS
  BEGIN
    g_count := 0;
  END reset;
END counter_pkg;
