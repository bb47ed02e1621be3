-- rules: plsql.package, ddl.number_type, ddl.boolean_type, plsql.function_out_params, expr.greatest_least, plsql.function, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.procedure
CREATE SCHEMA IF NOT EXISTS ledger_pkg;

CREATE OR REPLACE FUNCTION ledger_pkg.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF current_setting('oracompat.init_199d5cd97c3dc842aa79f899663e00a2', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__ledger_pkg___initialized', 'oracompat.init_199d5cd97c3dc842aa79f899663e00a2') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__ledger_pkg___initialized', 'Y');
    PERFORM set_config('oracompat.init_199d5cd97c3dc842aa79f899663e00a2', 'Y', false);
END;
$fn$;

CREATE OR REPLACE FUNCTION ledger_pkg.take(INOUT p_balance numeric, p_amount numeric, OUT p_short numeric, OUT "RETURN" boolean)
RETURNS record
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM ledger_pkg.initialize__();
    p_short := CASE WHEN (p_amount - p_balance) IS NULL THEN NULL ELSE GREATEST(p_amount - p_balance, 0) END;
    IF p_short > 0 THEN
        "RETURN" := FALSE;
        RETURN;
    END IF;
    p_balance := p_balance - p_amount;
    "RETURN" := TRUE;
    RETURN;
END;
$fn$;

CREATE OR REPLACE PROCEDURE ledger_pkg.settle(INOUT p_balance numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__1 record;
    tmp__2 record;
    tmp__3 record;
    v_short numeric;
    v_ok boolean;
BEGIN
    PERFORM ledger_pkg.initialize__();
    SELECT * INTO tmp__1 FROM ledger_pkg.take(p_balance, 10);
    p_balance := tmp__1.p_balance;
    v_short := tmp__1.p_short;
    v_ok := tmp__1."RETURN";
    IF p_balance > 100 THEN
        RAISE NOTICE '%', 'rich';
    ELSE
        SELECT * INTO tmp__2 FROM ledger_pkg.take(p_amount => 5, p_balance => p_balance);
        p_balance := tmp__2.p_balance;
        v_short := tmp__2.p_short;
        IF tmp__2."RETURN" THEN
            RAISE NOTICE '%', coalesce((CONCAT('took 5, left ', oracompat.to_text(p_balance)))::text, '');
        END IF;
    END IF;
    LOOP
        SELECT * INTO tmp__3 FROM ledger_pkg.take(p_balance, 1);
        p_balance := tmp__3.p_balance;
        v_short := tmp__3.p_short;
        EXIT WHEN NOT coalesce(tmp__3."RETURN", false);
        RAISE NOTICE '%', coalesce((CONCAT('left ', oracompat.to_text(p_balance)))::text, '');
    END LOOP;
    RAISE NOTICE '%', coalesce((CONCAT('short ', oracompat.to_text(v_short)))::text, '');
END;
$fn$;
