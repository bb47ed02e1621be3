CREATE OR REPLACE FUNCTION bump (p_id IN VARCHAR2) RETURN NUMBER IS
    v_qty NUMBER;
    v_old NUMBER;
BEGIN
    EXECUTE IMMEDIATE 'UPDATE items SET qty = qty + 1 WHERE item_id = :1 RETURNING qty INTO :2' USING p_id RETURNING INTO v_qty;
    EXECUTE IMMEDIATE 'UPDATE items SET qty = qty - 1 WHERE item_id = :1 RETURNING qty INTO :2' USING IN p_id, OUT v_old;
    RETURN v_qty + v_old;
END bump;
/
