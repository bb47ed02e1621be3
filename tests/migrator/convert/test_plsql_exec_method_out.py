"""Object type methods that change SELF or set OUT parameters, run on a real PostgreSQL (rule
plsql.function_out_params, `emit_method_out`): a MEMBER FUNCTION declaring ``SELF IN OUT``
returns its value and the changed object as a row, and each call — on a local variable, on a
package variable (through its getter and setter), on SELF explicitly or bare inside another
method of the type, with another OUT parameter besides — is hoisted and writes SELF back as
Oracle copies it back on return; a MEMBER PROCEDURE of the same name and inputs as such a
function is ``__proc`` and every call statement names it so. The expected lines are what Oracle
prints for these units (a queue of names and a counter, written for this test)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_outfuncs import convert_folder, run_output
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

QUEUE = """
CREATE OR REPLACE TYPE name_list AS TABLE OF VARCHAR2(40);
/
CREATE OR REPLACE TYPE name_queue AS OBJECT (
  items name_list,
  taken NUMBER,
  CONSTRUCTOR FUNCTION name_queue RETURN SELF AS RESULT,
  MEMBER PROCEDURE put (SELF IN OUT name_queue, p_name VARCHAR2),
  MEMBER FUNCTION take (SELF IN OUT name_queue) RETURN VARCHAR2,
  MEMBER PROCEDURE take (SELF IN OUT name_queue),
  MEMBER FUNCTION take_two (SELF IN OUT name_queue, p_second OUT VARCHAR2) RETURN VARCHAR2,
  MEMBER FUNCTION size_of RETURN PLS_INTEGER
);
/
CREATE OR REPLACE TYPE BODY name_queue AS
  CONSTRUCTOR FUNCTION name_queue RETURN SELF AS RESULT IS
  BEGIN
    items := name_list();
    taken := 0;
    RETURN;
  END;
  MEMBER PROCEDURE put (SELF IN OUT name_queue, p_name VARCHAR2) IS
  BEGIN
    items.EXTEND;
    items(items.COUNT) := p_name;
  END;
  MEMBER FUNCTION take (SELF IN OUT name_queue) RETURN VARCHAR2 IS
    l_first VARCHAR2(40);
  BEGIN
    IF items.COUNT = 0 THEN
      RAISE_APPLICATION_ERROR(-20001, 'queue is empty');
    END IF;
    l_first := items(1);
    FOR i IN 1 .. items.COUNT - 1 LOOP
      items(i) := items(i + 1);
    END LOOP;
    items.TRIM;
    taken := taken + 1;
    RETURN l_first;
  END;
  MEMBER PROCEDURE take (SELF IN OUT name_queue) IS
    l_ignored VARCHAR2(40);
  BEGIN
    l_ignored := SELF.take();
  END;
  MEMBER FUNCTION take_two (SELF IN OUT name_queue, p_second OUT VARCHAR2) RETURN VARCHAR2 IS
    l_first VARCHAR2(40);
  BEGIN
    l_first := take();
    p_second := SELF.take();
    RETURN l_first;
  END;
  MEMBER FUNCTION size_of RETURN PLS_INTEGER IS
  BEGIN
    RETURN items.COUNT;
  END;
END;
/
CREATE OR REPLACE PACKAGE desk AS
  PROCEDURE run;
END desk;
/
CREATE OR REPLACE PACKAGE BODY desk AS
  g_queue name_queue;
  PROCEDURE serve IS
    l_name VARCHAR2(40);
  BEGIN
    l_name := g_queue.take();
    DBMS_OUTPUT.PUT_LINE('served ' || l_name || ', left ' || g_queue.size_of());
  END serve;
  PROCEDURE run IS
    q name_queue := name_queue();
    l_a VARCHAR2(40);
    l_b VARCHAR2(40);
  BEGIN
    q.put('ann'); q.put('bob'); q.put('cy'); q.put('dee'); q.put('eve');
    l_a := q.take();
    DBMS_OUTPUT.PUT_LINE('first ' || l_a || ', size ' || q.size_of());
    q.take;
    l_a := q.take_two(l_b);
    DBMS_OUTPUT.PUT_LINE(l_a || '+' || l_b || ', size ' || q.size_of() || ', taken ' || q.taken);
    g_queue := name_queue();
    g_queue.put('x1');
    g_queue.put('x2');
    serve;
    IF g_queue.take() = 'x2' THEN
      DBMS_OUTPUT.PUT_LINE('then empty: ' || g_queue.size_of());
    END IF;
    BEGIN
      l_a := g_queue.take();
    EXCEPTION
      WHEN OTHERS THEN DBMS_OUTPUT.PUT_LINE(SQLERRM);
    END;
  END run;
END desk;
/
CREATE OR REPLACE TYPE tally AS OBJECT (
  n NUMBER,
  MEMBER PROCEDURE bump,
  MEMBER PROCEDURE bump (p_by NUMBER),
  MEMBER FUNCTION next_value RETURN NUMBER,
  MEMBER FUNCTION next_value (SELF IN OUT tally, p_by NUMBER) RETURN NUMBER,
  MEMBER PROCEDURE twice
);
/
CREATE OR REPLACE TYPE BODY tally AS
  MEMBER PROCEDURE bump IS BEGIN n := NVL(n, 0) + 1; END;
  MEMBER PROCEDURE bump (p_by NUMBER) IS BEGIN n := NVL(n, 0) + p_by; END;
  MEMBER FUNCTION next_value RETURN NUMBER IS BEGIN RETURN NVL(n, 0) + 1; END;
  MEMBER FUNCTION next_value (SELF IN OUT tally, p_by NUMBER) RETURN NUMBER IS
  BEGIN
    bump(p_by);
    RETURN n;
  END;
  MEMBER PROCEDURE twice IS
    l NUMBER;
  BEGIN
    bump;
    l := next_value(10);
    DBMS_OUTPUT.PUT_LINE('in twice ' || l || ' ' || next_value());
  END;
END;
/
CREATE OR REPLACE PROCEDURE tally_demo IS
  t tally := tally(1);
  l NUMBER;
BEGIN
  t.twice;
  DBMS_OUTPUT.PUT_LINE('after twice ' || t.n);
  l := t.next_value(5);
  DBMS_OUTPUT.PUT_LINE('next ' || l || ', n ' || t.n || ', peek ' || t.next_value());
END;
/
"""


def test_member_functions_that_change_self(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"queue.sql": QUEUE})
        assert run_output(conn, "CALL desk.run()") == [
            "first ann, size 4",
            "cy+dee, size 1, taken 4",
            "served x1, left 1",
            "then empty: 0",
            "ORA-20001: queue is empty",
        ]
        assert run_output(conn, "CALL tally_demo()") == ["in twice 12 13", "after twice 12", "next 17, n 17, peek 18"]


ELEMENT_SELF = """
CREATE OR REPLACE TYPE counter AS OBJECT (
  n NUMBER,
  MEMBER FUNCTION tick (SELF IN OUT counter) RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY counter AS
  MEMBER FUNCTION tick (SELF IN OUT counter) RETURN NUMBER IS
  BEGIN
    n := n + 1;
    RETURN n;
  END;
END;
/
CREATE OR REPLACE TYPE counters AS TABLE OF counter;
/
CREATE OR REPLACE PROCEDURE tick_first (p_all IN OUT counters) IS
  l NUMBER;
BEGIN
  l := p_all(1).tick();
END;
/
"""


def test_self_in_out_on_a_value_no_assignment_writes_back_is_reported(tmp_path):
    """Running the method on a copy would drop the change Oracle makes to the element: reported."""
    found = convert_folder(tmp_path / "app", {"units.sql": ELEMENT_SELF})
    reasons = {uid.split(":")[1]: " | ".join(u.message for u in items) for uid, items in found.items() if items}
    assert set(reasons) == {"app.tick_first"}
    assert "no variable to write it back to" in reasons["app.tick_first"]
