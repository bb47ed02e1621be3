CREATE OR REPLACE TRIGGER emp_biu
BEFORE INSERT OR UPDATE OF salary, name ON emp
REFERENCING NEW AS n OLD AS o
FOR EACH ROW
WHEN (n.salary IS NOT NULL)
DECLARE
  v_now DATE := SYSDATE;
BEGIN
  IF INSERTING THEN
    :n.id := NVL(:n.id, emp_seq.NEXTVAL);
  ELSIF UPDATING('salary') AND :n.salary < :o.salary THEN
    RAISE_APPLICATION_ERROR(-20001, 'salary cannot decrease');
  END IF;
END;
