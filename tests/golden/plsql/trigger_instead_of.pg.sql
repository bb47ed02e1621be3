-- rules: plsql.trigger
CREATE OR REPLACE FUNCTION s.emp_v_io_fn()
RETURNS trigger
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF (TG_OP = 'INSERT') THEN
        INSERT INTO emp (id, name, salary, dept) VALUES (NEW.id, UPPER(NEW.name), 0, 0);
    ELSIF (TG_OP = 'UPDATE' AND NEW.name IS DISTINCT FROM OLD.name) THEN
        UPDATE emp SET name = UPPER(NEW.name) WHERE id = OLD.id;
    ELSE
        DELETE FROM emp WHERE id = OLD.id;
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END;
$fn$;

CREATE OR REPLACE TRIGGER emp_v_io
INSTEAD OF INSERT OR UPDATE OR DELETE ON emp_v
FOR EACH ROW
EXECUTE FUNCTION s.emp_v_io_fn();
