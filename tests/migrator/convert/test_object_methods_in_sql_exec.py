"""Object type methods called from SQL deploy and answer as in Oracle (issue #29.7).

Oracle Database Object-Relational Developer's Guide, "Using Object Types in SQL" / "Object Methods"
→ "Member Methods" and "Static Methods": a member method is invoked with dot notation on an
instance — a column through its table alias, a constructor, TREAT(x AS t) — anywhere an expression
may stand (select list, WHERE, ORDER BY), a static method on the type; in SQL, a method invoked on
an atomically NULL instance is not run and the result is NULL (PL/SQL raises SELF_IS_NULL).

Before rule ``expr.object_method`` a view calling ``w.balance.in_cents()`` did not deploy
(PostgreSQL reads it as a cross-database reference); the last test shows that with the rule off.
"""

from __future__ import annotations

from decimal import Decimal

import psycopg

from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.reader import read_schema_dir
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

WALLETS = """
CREATE OR REPLACE TYPE money_t AS OBJECT (
    amount NUMBER,
    cur    VARCHAR2(3),
    MEMBER FUNCTION in_cents RETURN NUMBER,
    MEMBER FUNCTION label (p_prefix VARCHAR2) RETURN VARCHAR2,
    STATIC FUNCTION zero (p_cur VARCHAR2) RETURN money_t
);
/
CREATE OR REPLACE TYPE BODY money_t AS
    MEMBER FUNCTION in_cents RETURN NUMBER IS
    BEGIN
        RETURN amount * 100;
    END;
    MEMBER FUNCTION label (p_prefix VARCHAR2) RETURN VARCHAR2 IS
    BEGIN
        RETURN p_prefix || cur || ' ' || amount;
    END;
    STATIC FUNCTION zero (p_cur VARCHAR2) RETURN money_t IS
    BEGIN
        RETURN money_t(0, p_cur);
    END;
END;
/
CREATE TABLE wallets (
    wallet_id NUMBER(10) PRIMARY KEY,
    balance   money_t
);
INSERT INTO wallets (wallet_id, balance) VALUES (1, money_t(2.5, 'EUR'));
INSERT INTO wallets (wallet_id, balance) VALUES (2, money_t(0.75, 'USD'));
INSERT INTO wallets (wallet_id, balance) VALUES (3, NULL);
INSERT INTO wallets (wallet_id, balance) VALUES (4, money_t(NULL, NULL));

CREATE OR REPLACE VIEW wallet_cents AS
    SELECT w.wallet_id, w.balance.in_cents() AS cents, w.balance.label('>') AS lbl
      FROM wallets w
     WHERE w.balance.in_cents() > 0 OR w.balance.in_cents() IS NULL
     ORDER BY w.balance.in_cents();

CREATE OR REPLACE VIEW money_consts AS
    SELECT money_t(1.25, 'GBP').in_cents() AS c, money_t.zero('CHF').label('=') AS z FROM dual;

CREATE OR REPLACE FUNCTION richest RETURN VARCHAR2 IS
    v VARCHAR2(40);
BEGIN
    SELECT w.balance.label('max ') INTO v FROM wallets w
     WHERE w.balance.in_cents() = (SELECT MAX(x.balance.in_cents()) FROM wallets x);
    RETURN v;
END;
/
"""


def test_member_functions_in_a_view(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "wallets", {"wallets.sql": WALLETS})
        rows = conn.execute("SELECT wallet_id, cents, lbl FROM wallet_cents").fetchall()
        # ORDER BY in_cents: 75, 250, then the NULLs (wallet 3: a NULL instance, the method is not
        # run; wallet 4: an instance with NULL attributes, the method runs: '>' || NULL || ' ')
        assert rows[:2] == [(2, Decimal("75.00"), ">USD .75"), (1, Decimal("250.0"), ">EUR 2.5")]
        assert sorted(rows[2:]) == [(3, None, None), (4, None, "> ")]
        got = conn.execute("SELECT c, z FROM money_consts").fetchone()
        assert got == (Decimal("125.00"), "=CHF 0")
        assert conn.execute("SELECT richest()").fetchone()[0] == "max EUR 2.5"


def test_with_the_rule_off_the_view_is_not_converted(tmp_path):
    folder = tmp_path / "off"
    folder.mkdir()
    (folder / "wallets.sql").write_text(WALLETS, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source, disabled_rules=frozenset({"expr.object_method"}))
    view = next(u for u in source.units if u.name.endswith("wallet_cents"))
    out = convert_unit(view, ctx).output
    assert "w.balance.in_cents()" in out  # what PostgreSQL refuses as a cross-database reference


RANKED = """
CREATE OR REPLACE TYPE size_t AS OBJECT (
    w NUMBER,
    h NUMBER,
    MAP MEMBER FUNCTION area RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY size_t AS
    MAP MEMBER FUNCTION area RETURN NUMBER IS
    BEGIN
        RETURN w * h;
    END;
END;
/
CREATE TABLE boxes (box_id NUMBER(10) PRIMARY KEY, dims size_t);
INSERT INTO boxes (box_id, dims) VALUES (1, size_t(1, 10));
INSERT INTO boxes (box_id, dims) VALUES (2, size_t(3, 3));
INSERT INTO boxes (box_id, dims) VALUES (3, size_t(2, 4));

CREATE OR REPLACE VIEW boxes_by_area AS
    SELECT b.box_id FROM boxes b WHERE b.dims > size_t(2, 3) ORDER BY b.dims;

CREATE OR REPLACE TYPE ver_t AS OBJECT (
    major NUMBER,
    minor NUMBER,
    ORDER MEMBER FUNCTION cmp (other ver_t) RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY ver_t AS
    ORDER MEMBER FUNCTION cmp (other ver_t) RETURN NUMBER IS
    BEGIN
        RETURN (minor - other.minor);  -- by minor only: not what attribute order gives
    END;
END;
/
CREATE TABLE releases (rel_id NUMBER(10) PRIMARY KEY, ver ver_t);
INSERT INTO releases (rel_id, ver) VALUES (1, ver_t(1, 5));
INSERT INTO releases (rel_id, ver) VALUES (2, ver_t(2, 1));
CREATE OR REPLACE VIEW newer_releases AS
    SELECT r.rel_id FROM releases r WHERE r.ver > ver_t(9, 2);
"""


def test_map_method_orders_and_compares_instances(pg_dsn, tmp_path):
    """Object-Relational Developer's Guide, "Comparing Objects" → MAP methods: instances compare
    and sort by their MAP value (areas 10, 9, 8; > 6), not attribute by attribute (which would
    sort (1,10) first and find (1,10) < (2,3))."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "boxes", {"boxes.sql": RANKED})
        assert conn.execute("SELECT box_id FROM boxes_by_area").fetchall() == [(3,), (2,), (1,)]
        # ORDER method: a > b when a.cmp(b) > 0 (minor 5 > 2; minor 1 is not), whatever major says
        assert conn.execute("SELECT rel_id FROM newer_releases").fetchall() == [(1,)]
