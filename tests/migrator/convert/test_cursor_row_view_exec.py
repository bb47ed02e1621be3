"""A cursor whose query reads the enclosing routine's parameters and variables (Oracle binds them
when the cursor opens), with a record of its %ROWTYPE: the view that stands for the row type takes
them as typed NULLs, as it takes the cursor's own parameters, so it deploys; the routine reads the
rows with the values of the call."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

ITEMS = """
CREATE TABLE items (id NUMBER PRIMARY KEY, name VARCHAR2(30), qty NUMBER);
INSERT INTO items VALUES (1, 'apple', 3);
INSERT INTO items VALUES (2, 'apricot', 0);
INSERT INTO items VALUES (3, 'banana', 7);
CREATE OR REPLACE FUNCTION first_like (p_prefix IN VARCHAR2, p_min IN NUMBER := 0) RETURN VARCHAR2 IS
  l_limit NUMBER := p_min;
  CURSOR c_items (p_order IN VARCHAR2) IS
    SELECT name, qty FROM items
     WHERE name LIKE p_prefix || '%' AND qty >= l_limit
     ORDER BY CASE p_order WHEN 'D' THEN -id ELSE id END;
  r c_items%ROWTYPE;
BEGIN
  OPEN c_items('D');
  FETCH c_items INTO r;
  CLOSE c_items;
  RETURN r.name || ':' || r.qty;
END first_like;
/
"""


def test_cursor_reading_the_routine_s_parameters_has_a_row_type(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "items", {"items.sql": ITEMS})
        assert conn.execute("SELECT first_like('ap')").fetchone()[0] == "apricot:0"
        assert conn.execute("SELECT first_like('ap', 1)").fetchone()[0] == "apple:3"
        assert conn.execute("SELECT first_like('b', 8)").fetchone()[0] == ":"
