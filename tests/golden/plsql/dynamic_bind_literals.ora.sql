CREATE OR REPLACE FUNCTION count_rows (p_table IN VARCHAR2, p_id IN VARCHAR2, p_day IN VARCHAR2) RETURN NUMBER IS
    v_sql   VARCHAR2(200);
    v_count NUMBER;
BEGIN
    v_sql := 'SELECT COUNT(*) FROM ' || p_table || ' WHERE id = :id AND created < TO_DATE(:d, ''YYYY-MM-DD'')';
    EXECUTE IMMEDIATE v_sql INTO v_count USING p_id, p_day;
    RETURN v_count;
EXCEPTION
    WHEN OTHERS THEN
        RETURN -1;
END count_rows;
/
