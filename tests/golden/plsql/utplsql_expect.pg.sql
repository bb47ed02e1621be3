-- rules: plsql.package, ddl.number_type, ddl.varchar2, ddl.date_type, expr.date_type, ddl.ref_cursor, plsql.utplsql_expect, expr.sysdate, sql.dual, plsql.procedure
CREATE SCHEMA IF NOT EXISTS test_account;

CREATE OR REPLACE FUNCTION test_account.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF current_setting('oracompat.init_91a817e226e48bb8586ff4b72fdadf76', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__test_account___initialized', 'oracompat.init_91a817e226e48bb8586ff4b72fdadf76') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__test_account___initialized', 'Y');
    PERFORM set_config('oracompat.init_91a817e226e48bb8586ff4b72fdadf76', 'Y', false);
END;
$fn$;

CREATE OR REPLACE PROCEDURE test_account.balances()
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_balance numeric := 120.50;
    l_owner varchar(30) := 'Ann';
    l_opened timestamp(0) := CAST('2024-01-31' AS TIMESTAMP(0));
    l_rows refcursor;
    l_expect refcursor;
BEGIN
    PERFORM test_account.initialize__();
    PERFORM ut.to_equal(ut.expect(l_balance), 120.5);
    PERFORM ut.not_to_equal(ut.expect(l_balance, 'balance after deposit'), 0);
    PERFORM ut.to_equal(ut.expect(l_owner), 'Ann');
    PERFORM ut.not_to_be_null(ut.expect(l_owner));
    PERFORM ut.to_be_less_than(ut.expect(l_opened), oracompat.sysdate());
    PERFORM ut.to_be_between(ut.expect(l_balance), a_lower_bound => 100, a_upper_bound => 200);
    PERFORM ut.to_match(ut.expect(l_owner), '^a', 'i');
    PERFORM ut.to_be_like(ut.expect(l_owner), 'A%');
    PERFORM ut.to_be_true(ut.expect(l_balance > 100));
    OPEN l_rows FOR SELECT 1 AS id;
    OPEN l_expect FOR SELECT 1 AS id;
    PERFORM ut.to_equal(ut.expect(l_rows), l_expect, a_unordered => true);
    IF l_balance < 0 THEN
        PERFORM ut.fail('negative balance');
    END IF;
END;
$fn$;
