-- rules: ddl.date_type, expr.sysdate, expr.nvl, sql.sequence_nextval, plsql.raise_application_error, plsql.trigger
CREATE OR REPLACE FUNCTION s.emp_biu_fn()
RETURNS trigger
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    updating__salary boolean := oracompat.take_flag('oracompat_upd.s__emp_biu__salary');
    v_now timestamp(0) := oracompat.sysdate();
BEGIN
    IF (TG_OP = 'INSERT') THEN
        NEW.id := COALESCE(NEW.id, NEXTVAL('emp_seq'));
    ELSIF (TG_OP = 'UPDATE' AND updating__salary) AND NEW.salary < OLD.salary THEN
        RAISE EXCEPTION USING ERRCODE = 'O2001', MESSAGE = coalesce('salary cannot decrease', '');
    END IF;
    RETURN NEW;
END;
$fn$;

CREATE OR REPLACE TRIGGER emp_biu
BEFORE INSERT OR UPDATE OF salary, name ON emp
FOR EACH ROW
WHEN (NOT NEW.salary IS NULL)
EXECUTE FUNCTION s.emp_biu_fn();

CREATE OR REPLACE TRIGGER _emp_biu__upd_salary
BEFORE UPDATE OF salary ON emp
FOR EACH ROW
WHEN (NOT NEW.salary IS NULL)
EXECUTE FUNCTION oracompat.mark_updating('oracompat_upd.s__emp_biu__salary');
