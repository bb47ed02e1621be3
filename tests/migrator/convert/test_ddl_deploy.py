"""Deploy a small realistic converted schema on a real PostgreSQL and check the data came out right."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import psycopg

from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.source.units import UnitKind as K
from tests.migrator.ddl_support import context_for, convert, make_unit

SCHEMA = [
    (K.SEQUENCE, "dept_seq", "CREATE SEQUENCE dept_seq START WITH 100 INCREMENT BY 10 NOCACHE NOCYCLE"),
    (
        K.TABLE,
        "departments",
        """CREATE TABLE departments (
        department_id   NUMBER(5) NOT NULL,
        department_name VARCHAR2(60 CHAR) NOT NULL,
        budget          NUMBER,
        created_on      DATE DEFAULT SYSDATE NOT NULL,
        CONSTRAINT departments_pk PRIMARY KEY (department_id) USING INDEX TABLESPACE idx,
        CONSTRAINT departments_name_uk UNIQUE (department_name)
    ) TABLESPACE users PCTFREE 10 STORAGE (INITIAL 64K) LOGGING""",
    ),
    (
        K.TABLE,
        "employees",
        """CREATE TABLE employees (
        employee_id   NUMBER(10) CONSTRAINT employees_pk PRIMARY KEY,
        last_name     VARCHAR2(60) NOT NULL,
        middle_name   VARCHAR2(40),
        department_id NUMBER(5) REFERENCES departments (department_id) ON DELETE SET NULL,
        hire_date     DATE DEFAULT SYSDATE NOT NULL,
        salary        NUMBER(12,2) CHECK (salary >= 0),
        commission    NUMBER(4,2),
        rating        FLOAT,
        bonus         NUMBER(12,2) GENERATED ALWAYS AS (salary * 0.1) VIRTUAL,
        photo         BLOB,
        updated_at    TIMESTAMP(6)
    ) SEGMENT CREATION IMMEDIATE NOCOMPRESS""",
    ),
    (K.TABLE, "tmp_ids", "CREATE GLOBAL TEMPORARY TABLE tmp_ids (id NUMBER(10)) ON COMMIT DELETE ROWS"),
    (
        K.INDEX,
        "employees_name_ix",
        "CREATE INDEX employees_name_ix ON employees (UPPER(last_name), hire_date DESC) TABLESPACE idx",
    ),
    (K.INDEX, "employees_dept_bix", "CREATE BITMAP INDEX employees_dept_bix ON employees (department_id)"),
    (
        K.VIEW,
        "emp_v",
        """CREATE OR REPLACE FORCE VIEW emp_v (id, name, dept) AS
        SELECT e.employee_id, e.last_name || ', ' || e.middle_name, d.department_name
        FROM employees e JOIN departments d ON d.department_id = e.department_id
        WITH READ ONLY""",
    ),
    (K.TYPE, "phone_list", "CREATE TYPE phone_list AS VARRAY(2) OF VARCHAR2(20)"),
    (K.TYPE, "address_t", "CREATE TYPE address_t AS OBJECT (street VARCHAR2(40), since DATE)"),
    (K.COMMENT, "departments", "COMMENT ON TABLE departments IS q'[Org units' master]'"),
    (K.COMMENT, "employees", "COMMENT ON COLUMN employees.salary IS 'Monthly gross'"),
    (K.COMMENT, "emp_v", "COMMENT ON TABLE emp_v IS 'Employees with department names'"),
    (K.GRANT, "employees", "GRANT SELECT, UPDATE ON employees TO no_such_role_xyz"),
    (K.SYNONYM, "staff", "CREATE SYNONYM staff FOR employees"),
    (
        K.DATA,
        "departments",
        "INSERT INTO departments (department_id, department_name, budget, created_on) "
        "VALUES (dept_seq.NEXTVAL, 'Finance', 1e3, TO_DATE('2018-07-01 08:30:00', 'YYYY-MM-DD HH24:MI:SS'))",
    ),
    (
        K.DATA,
        "departments",
        "INSERT ALL INTO departments (department_id, department_name, budget) VALUES (200, 'Ops', .5) "
        "INTO departments (department_id, department_name) VALUES (300, q'{R&D}') SELECT * FROM dual",
    ),
    (
        K.DATA,
        "employees",
        "INSERT INTO employees (employee_id, last_name, middle_name, department_id, hire_date, salary, "
        "commission, rating, updated_at) VALUES (1, q'[O'Connor]', '', 100, DATE '2024-01-31', 2450.75, .05, 0.1, "
        "TIMESTAMP '2024-02-01 10:30:00.250000')",
    ),
    (
        K.DATA,
        "employees",
        "INSERT INTO employees (employee_id, last_name, department_id, salary) VALUES (2, 'Tanaka', 200, 1000)",
    ),
    (K.DATA, "employees", "UPDATE employees SET salary = salary + 0.25 WHERE employee_id = 2"),
]


def _deploy(dsn: str) -> dict[str, str]:
    units = [make_unit(kind, name, text) for kind, name, text in SCHEMA]
    ctx = context_for(units)
    outputs = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)  # DEFAULT SYSDATE calls oracompat.sysdate()
        conn.execute("CREATE SCHEMA IF NOT EXISTS hr; SET search_path = hr, public")
        for unit in units:
            out = convert(unit, ctx)
            assert not ctx.unconverted_items, (unit.text, ctx.unconverted_items)
            conn.execute(out)
            outputs[unit.id] = out
    return outputs


def test_converted_schema_deploys_and_data_is_right(pg_dsn):
    _deploy(pg_dsn)
    with psycopg.connect(pg_dsn) as conn:
        conn.execute("SET search_path = hr, public")
        dept = conn.execute(
            "SELECT department_id, budget, created_on FROM departments WHERE department_name = 'Finance'"
        ).fetchone()
        assert dept == (100, Decimal("1E+3"), dt.datetime(2018, 7, 1, 8, 30))
        assert conn.execute("SELECT budget FROM departments WHERE department_id = 200").fetchone() == (Decimal("0.5"),)
        assert conn.execute("SELECT department_name FROM departments WHERE department_id = 300").fetchone() == ("R&D",)
        emp = conn.execute(
            "SELECT last_name, middle_name, hire_date, salary, commission, rating, bonus, updated_at "
            "FROM employees WHERE employee_id = 1"
        ).fetchone()
        assert emp == (
            "O'Connor",
            None,
            dt.datetime(2024, 1, 31),
            Decimal("2450.75"),
            Decimal("0.05"),
            Decimal("0.1"),
            Decimal("245.08"),
            dt.datetime(2024, 2, 1, 10, 30, 0, 250000),
        )
        assert conn.execute("SELECT salary FROM employees WHERE employee_id = 2").fetchone() == (Decimal("1000.25"),)
        # DEFAULT SYSDATE filled a whole-second timestamp
        (hired,) = conn.execute("SELECT hire_date FROM employees WHERE employee_id = 2").fetchone()
        assert hired.microsecond == 0 and abs((dt.datetime.now() - hired).total_seconds()) < 86400 * 2
        # view, synonym-view and the comment on the view
        assert conn.execute("SELECT name, dept FROM emp_v WHERE id = 1").fetchone() == ("O'Connor, ", "Finance")
        assert conn.execute("SELECT count(*) FROM staff").fetchone() == (2,)
        assert conn.execute("SELECT obj_description('hr.emp_v'::regclass)").fetchone() == (
            "Employees with department names",
        )
        assert conn.execute("SELECT obj_description('hr.departments'::regclass)").fetchone() == ("Org units' master",)
        assert conn.execute("SELECT nextval('dept_seq')").fetchone() == (110,)


def test_constraints_are_enforced(pg_dsn):
    _deploy(pg_dsn)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("SET search_path = hr, public")
        for bad, sqlstate in [
            ("INSERT INTO employees (employee_id, last_name, salary) VALUES (9, 'X', -1)", "23514"),
            ("INSERT INTO employees (employee_id, last_name, department_id) VALUES (9, 'X', 999)", "23503"),
            ("INSERT INTO departments (department_id, department_name) VALUES (1, 'Finance')", "23505"),
            ("SELECT ARRAY['a', 'b', 'c']::phone_list", "23514"),
        ]:
            try:
                conn.execute(bad)
            except psycopg.Error as exc:
                assert exc.sqlstate == sqlstate, bad
            else:
                raise AssertionError(f"accepted: {bad}")
        conn.execute("DELETE FROM departments WHERE department_id = 100")  # ON DELETE SET NULL
        assert conn.execute("SELECT department_id FROM employees WHERE employee_id = 1").fetchone() == (None,)
