CREATE OR REPLACE TRIGGER emp_v_io
INSTEAD OF INSERT OR UPDATE OR DELETE ON emp_v
BEGIN
  IF INSERTING THEN
    INSERT INTO emp (id, name, salary, dept) VALUES (:NEW.id, UPPER(:NEW.name), 0, 0);
  ELSIF UPDATING('NAME') THEN
    UPDATE emp SET name = UPPER(:NEW.name) WHERE id = :OLD.id;
  ELSE
    DELETE FROM emp WHERE id = :OLD.id;
  END IF;
END emp_v_io;
/
