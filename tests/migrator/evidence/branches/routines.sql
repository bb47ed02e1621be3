-- Two parameters compared with each other: the same branch on both sides is a path of its own.
CREATE OR REPLACE FUNCTION transfer_fee (p_amount IN NUMBER, p_from_branch IN VARCHAR2, p_to_branch IN VARCHAR2)
RETURN NUMBER IS
BEGIN
    IF p_amount IS NULL OR p_amount <= 0 THEN
        RETURN NULL;
    END IF;
    IF p_from_branch = p_to_branch THEN
        RETURN 0;
    END IF;
    RETURN ROUND(p_amount * 0.01, 2);
END transfer_fee;
/

-- A raise of the row being updated, a cut, and a raise beyond the cap take different paths.
CREATE OR REPLACE TRIGGER staff_salary_bu
BEFORE UPDATE OF salary ON staff
FOR EACH ROW
BEGIN
    IF :NEW.salary > :OLD.salary * 1.1 THEN
        RAISE_APPLICATION_ERROR(-20001, 'A raise is capped at 10 %');
    ELSIF :NEW.salary > :OLD.salary THEN
        :NEW.raised_on := SYSDATE;
        :NEW.raise_count := :OLD.raise_count + 1;
    ELSIF :NEW.salary < :OLD.salary THEN
        :NEW.raised_on := NULL;
    END IF;
END;
/

-- Two keys of one table compared with each other: a move within one department.
CREATE OR REPLACE PROCEDURE move_staff (
    p_staff_id  IN staff.staff_id%TYPE,
    p_from_dept IN depts.dept_id%TYPE,
    p_to_dept   IN depts.dept_id%TYPE
) IS
BEGIN
    IF p_from_dept = p_to_dept THEN
        RAISE_APPLICATION_ERROR(-20003, 'Already in that department');
    END IF;
    UPDATE staff SET dept_id = p_to_dept WHERE staff_id = p_staff_id AND dept_id = p_from_dept;
    IF SQL%ROWCOUNT = 0 THEN
        RAISE_APPLICATION_ERROR(-20004, 'Not in the department moved from');
    END IF;
END move_staff;
/

-- UPDATE OF one column, a state held in another that no row of the data holds yet.
CREATE OR REPLACE TRIGGER staff_dept_bu
BEFORE UPDATE OF dept_id ON staff
FOR EACH ROW
BEGIN
    IF :NEW.left_on IS NOT NULL THEN
        RAISE_APPLICATION_ERROR(-20002, 'Staff who left cannot move');
    END IF;
END;
/
