"""A hierarchy whose subtypes hold values of their own hierarchy (an expression tree: a negation
node holding a node, an addition holding two, a sum holding a collection of them): Oracle allows it,
one PostgreSQL composite per hierarchy cannot contain itself, so such attributes are held in their
text form and read back through a cast (`migrator.convert.type_hierarchy.boxed`). Execution shows
dynamic dispatch through the inner values, copy semantics, NULL inner values and DBMS_OUTPUT."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

TREE = """
CREATE OR REPLACE TYPE node_t AS OBJECT (
  sym VARCHAR2(10),
  NOT INSTANTIABLE MEMBER FUNCTION eval RETURN NUMBER,
  MEMBER FUNCTION show RETURN VARCHAR2
) NOT FINAL NOT INSTANTIABLE;
/
CREATE OR REPLACE TYPE BODY node_t AS
  MEMBER FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN sym;
  END;
END;
/
CREATE OR REPLACE TYPE node_list AS TABLE OF node_t;
/
CREATE OR REPLACE TYPE num_t UNDER node_t (
  val NUMBER,
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER,
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY num_t AS
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER IS
  BEGIN
    RETURN val;
  END;
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN TO_CHAR(val);
  END;
END;
/
CREATE OR REPLACE TYPE neg_t UNDER node_t (
  operand node_t,
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER,
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY neg_t AS
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER IS
  BEGIN
    RETURN -operand.eval();
  END;
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN '-(' || self.operand.show() || ')';
  END;
END;
/
CREATE OR REPLACE TYPE add_t UNDER node_t (
  lhs node_t,
  rhs node_t,
  CONSTRUCTOR FUNCTION add_t (l node_t, r node_t) RETURN SELF AS RESULT,
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER,
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY add_t AS
  CONSTRUCTOR FUNCTION add_t (l node_t, r node_t) RETURN SELF AS RESULT IS
  BEGIN
    self.sym := '+';
    self.lhs := l;
    rhs := r;
    RETURN;
  END;
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER IS
  BEGIN
    RETURN lhs.eval() + self.rhs.eval();
  END;
  OVERRIDING MEMBER FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN '(' || lhs.show() || sym || rhs.show() || ')';
  END;
END;
/
CREATE OR REPLACE TYPE sum_t UNDER node_t (
  items node_list,
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY sum_t AS
  OVERRIDING MEMBER FUNCTION eval RETURN NUMBER IS
    l_total NUMBER := 0;
  BEGIN
    IF items IS NULL THEN
      RETURN NULL;
    END IF;
    FOR i IN 1 .. items.COUNT LOOP
      l_total := l_total + items(i).eval();
    END LOOP;
    RETURN l_total;
  END;
END;
/
CREATE OR REPLACE FUNCTION run_tree RETURN VARCHAR2 IS
  l_tree add_t := add_t(num_t('n', 2), neg_t('-', num_t('n', 3)));
  l_left node_t;
  l_neg  neg_t;
  l_sum  sum_t;
BEGIN
  l_left := l_tree.lhs;
  l_neg := TREAT(l_tree.rhs AS neg_t);
  DBMS_OUTPUT.PUT_LINE('left ' || l_left.show() || ' inner ' || l_neg.operand.show());
  l_sum := sum_t('s', node_list(l_tree, num_t('n', 10), l_neg.operand));
  l_tree.lhs := l_sum;
  DBMS_OUTPUT.PUT_LINE('nested ' || l_tree.eval());
  RETURN l_tree.show() || '=' || l_tree.eval() || ';' || l_sum.eval()
    || ';' || CASE WHEN l_neg.operand IS NULL THEN 'none' ELSE 'some' END;
END;
/
CREATE OR REPLACE FUNCTION treat_chain RETURN VARCHAR2 IS
  l_tree add_t := add_t(num_t('n', 2), neg_t('-', num_t('n', 3)));
BEGIN
  RETURN TREAT(l_tree.rhs AS neg_t).operand.show() || TREAT(l_tree.lhs AS num_t).val
    || NVL(TO_CHAR(TREAT(l_tree.lhs AS neg_t).sym), 'null');
END;
/
CREATE OR REPLACE FUNCTION empty_sum RETURN VARCHAR2 IS
  l_sum sum_t := sum_t('s', NULL);
  l_neg neg_t := neg_t('-', NULL);
BEGIN
  RETURN NVL(TO_CHAR(l_sum.eval()), 'null') || ';'
    || CASE WHEN l_neg.operand IS NULL THEN 'none' ELSE 'some' END;
END;
/
CREATE OR REPLACE FUNCTION neg_of_null RETURN NUMBER IS
  l_neg neg_t := neg_t('-', NULL);
BEGIN
  RETURN l_neg.eval();
END;
/
"""


def test_self_referencing_hierarchy_attributes(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "tree", {"tree.sql": TREE})
        got: list[str] = []
        conn.add_notice_handler(lambda d: got.append(d.message_primary))
        # (2 + -(3)); its left side replaced by sum(tree, 10, 3) = -1 + 10 + 3 = 12: 12 - 3 = 9.
        # The sum holds a copy of the tree taken before the assignment (Oracle's value semantics);
        # sum_t does not override show, so node_t's (its symbol) answers
        assert conn.execute("SELECT run_tree()").fetchone()[0] == "(s+-(3))=9;12;some"
        assert got == ["left 2 inner 3", "nested 9"]
        assert conn.execute("SELECT empty_sum()").fetchone()[0] == "null;none"
        # TREAT(x AS t).attr.method(), TREAT(...).attr; a TREAT to a type x is not: NULL, its attribute too
        assert conn.execute("SELECT treat_chain()").fetchone()[0] == "32null"
        # a method called on a NULL inner value: Oracle's ORA-30625
        try:
            conn.execute("SELECT neg_of_null()")
            raise AssertionError("dispatch on a NULL attribute must fail")
        except psycopg.errors.RaiseException as exc:
            assert "ORA-30625" in str(exc)


BAG = """
CREATE OR REPLACE TYPE num_list AS TABLE OF NUMBER;
/
CREATE OR REPLACE TYPE bag_t AS OBJECT (
  items num_list,
  MEMBER PROCEDURE push (p_v NUMBER),
  MEMBER PROCEDURE push_twice (p_v NUMBER),
  MEMBER FUNCTION total RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY bag_t AS
  MEMBER PROCEDURE push (p_v NUMBER) IS
  BEGIN
    IF items IS NULL THEN
      items := num_list();
    END IF;
    items.EXTEND;
    items(items.COUNT) := p_v;
  END;
  MEMBER PROCEDURE push_twice (p_v NUMBER) IS
  BEGIN
    self.items.EXTEND(2);
    self.items(self.items.COUNT - 1) := p_v;
    self.items(self.items.COUNT) := p_v;
  END;
  MEMBER FUNCTION total RETURN NUMBER IS
    l_sum NUMBER := 0;
  BEGIN
    FOR i IN 1 .. items.COUNT LOOP
      l_sum := l_sum + items(i);
    END LOOP;
    RETURN l_sum;
  END;
END;
/
CREATE OR REPLACE TYPE bag_list AS TABLE OF bag_t;
/
CREATE OR REPLACE FUNCTION sum_bags RETURN VARCHAR2 IS
  l_bags bag_list := bag_list(bag_t(num_list(1, 2)), bag_t(num_list(30)));
  l_sum  NUMBER := 0;
BEGIN
  FOR i IN 1 .. l_bags.COUNT LOOP
    FOR j IN 1 .. l_bags(i).items.COUNT LOOP
      l_sum := l_sum + l_bags(i).items(j);
    END LOOP;
  END LOOP;
  RETURN l_sum || ':' || l_bags(2).items (1);
END;
/
CREATE OR REPLACE FUNCTION fill_bag RETURN VARCHAR2 IS
  l_bag bag_t := bag_t(NULL);
BEGIN
  l_bag.push(5);
  l_bag.push_twice(7);
  l_bag.items(1) := l_bag.items(1) + 100;
  RETURN l_bag.items.COUNT || ':' || l_bag.total() || ':' || l_bag.items(1);
END;
/
"""


def test_collection_attributes_written_by_member_procedures(pg_dsn, tmp_path):
    """A collection attribute grown and written through SELF (bare and SELF.-qualified) by MEMBER
    procedures, an element of an object variable's collection attribute assigned, and the
    collection attribute of a collection's element read."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "bag", {"bag.sql": BAG})
        assert conn.execute("SELECT fill_bag()").fetchone()[0] == "3:119:105"
        # an element's collection attribute: its elements and COUNT (l(i).items(j))
        assert conn.execute("SELECT sum_bags()").fetchone()[0] == "33:30"
