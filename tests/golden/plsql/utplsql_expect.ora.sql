CREATE OR REPLACE PACKAGE BODY test_account AS
  PROCEDURE balances IS
    l_balance NUMBER := 120.50;
    l_owner   VARCHAR2(30) := 'Ann';
    l_opened  DATE := DATE '2024-01-31';
    l_rows    SYS_REFCURSOR;
    l_expect  SYS_REFCURSOR;
  BEGIN
    ut.expect(l_balance).to_equal(120.5);
    ut.expect(l_balance, 'balance after deposit').not_to_equal(0);
    ut.expect(l_owner).to_(equal('Ann'));
    ut.expect(l_owner).not_to(be_null);
    ut.expect(l_opened).to_be_less_than(SYSDATE);
    ut.expect(l_balance).to_be_between(a_lower_bound => 100, a_upper_bound => 200);
    ut.expect(l_owner).to_match('^a', 'i');
    ut.expect(l_owner).to_be_like('A%');
    ut.expect(l_balance > 100).to_be_true();
    OPEN l_rows FOR SELECT 1 AS id FROM dual;
    OPEN l_expect FOR SELECT 1 AS id FROM dual;
    ut3.ut.expect(l_rows).to_equal(l_expect).unordered();
    IF l_balance < 0 THEN
      ut.fail('negative balance');
    END IF;
  END balances;
END test_account;
/
