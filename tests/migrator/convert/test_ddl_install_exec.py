"""Install-script DDL on a real PostgreSQL: constraint states (ENABLE / DISABLE [VALIDATE |
NOVALIDATE], MODIFY CONSTRAINT, PRIMARY KEY ... CASCADE), trigger states (ALTER TRIGGER, ALL
TRIGGERS), identity START WITH LIMIT VALUE, and anonymous blocks that run DDL through EXECUTE
IMMEDIATE (guarded by a dictionary query), whose objects later units use.

Fixture units written from the Oracle SQL Language Reference (ALTER TABLE constraint_state,
ALTER TRIGGER, identity_options) and the PL/SQL Language Reference (EXECUTE IMMEDIATE). Each
schema is converted as `migrate` converts it (reader, dependency order, catalog); the tests run
the converted statements one at a time, with DML between them, and check what Oracle documents:
which rows are accepted and which refused at each state."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from migrator.batch.output import preamble_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir


def convert_schema(folder: Path, files: dict[str, str]) -> tuple[str, dict[str, str], list[str]]:
    """(schema, unit id → converted text, ids in deployment order); every unit fully converted."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    source = read_schema_dir(folder)
    graph = analyze_dependencies(source)
    ctx = prepare_context(source)
    by_id = source.by_id()
    out: dict[str, str] = {}
    for unit_id in graph.order:
        conversion = convert_unit(by_id[unit_id], ctx)
        assert conversion.error is None and not conversion.unconverted, (unit_id, conversion.unconverted)
        out[unit_id] = conversion.output
    return source.schema, out, list(graph.order)


STATES = """
CREATE TABLE cs_parent (id NUMBER(6) CONSTRAINT cs_parent_pk PRIMARY KEY, name VARCHAR2(20));
CREATE TABLE cs_child (
  id NUMBER(6),
  parent_id NUMBER(6) CONSTRAINT cs_child_parent_fk REFERENCES cs_parent (id),
  qty NUMBER(4),
  CONSTRAINT cs_child_pk PRIMARY KEY (id) DISABLE NOVALIDATE,
  CONSTRAINT cs_child_qty_ck CHECK (qty > 0)
);
ALTER TABLE cs_child DISABLE CONSTRAINT cs_child_parent_fk;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_parent_fk ENABLE NOVALIDATE;
ALTER TABLE cs_child ENABLE VALIDATE CONSTRAINT cs_child_parent_fk;
ALTER TABLE cs_child ENABLE CONSTRAINT cs_child_pk;
ALTER TABLE cs_parent DISABLE PRIMARY KEY;
ALTER TABLE cs_parent DISABLE PRIMARY KEY CASCADE;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_qty_ck DISABLE NOVALIDATE;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_qty_ck RELY;
"""


def test_constraint_states_on_postgresql(pg_dsn, tmp_path):
    schema, out, order = convert_schema(tmp_path / "cs", {"states.sql": STATES})
    alters = [u for u in order if u.startswith("alter:")]
    assert [u.split("#")[0] for u in alters] == ["alter:cs.cs_child"] * 4 + ["alter:cs.cs_parent"] * 2 + [
        "alter:cs.cs_child"
    ] * 2
    disable_fk, novalidate_fk, validate_fk, enable_pk, parent_pk, parent_pk_cascade, disable_ck, rely = (
        out[u] for u in alters
    )
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        conn.execute(out["table:cs.cs_parent"])
        conn.execute(out["table:cs.cs_child"])
        conn.execute("INSERT INTO cs_parent VALUES (1, 'one')")
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO cs_child VALUES (1, 99, 1)")
        # DISABLE: not enforced (an orphan row is accepted), as in Oracle
        conn.execute(disable_fk)
        conn.execute(disable_fk)  # disabling a disabled constraint again is accepted
        conn.execute("INSERT INTO cs_child VALUES (1, 99, 1)")
        # ENABLE NOVALIDATE: the orphan stays, a new orphan is refused
        conn.execute(novalidate_fk)
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO cs_child VALUES (2, 98, 1)")
        assert conn.execute(
            "SELECT convalidated FROM pg_constraint WHERE conname = 'cs_child_parent_fk'"
        ).fetchone() == (False,)
        # ENABLE VALIDATE with the orphan present fails (Oracle: ORA-02298), and succeeds once fixed
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute(validate_fk)
        conn.execute("UPDATE cs_child SET parent_id = 1 WHERE id = 1")
        conn.execute(validate_fk)
        assert conn.execute(
            "SELECT convalidated FROM pg_constraint WHERE conname = 'cs_child_parent_fk'"
        ).fetchone() == (True,)
        # a primary key declared DISABLE in CREATE TABLE: duplicates accepted until ENABLE creates it
        conn.execute("INSERT INTO cs_child VALUES (1, 1, 2)")
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(enable_pk)  # Oracle: ORA-02437 (primary key violated)
        conn.execute("DELETE FROM cs_child WHERE qty = 2")
        conn.execute(enable_pk)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO cs_child VALUES (1, 1, 3)")
        # a referenced key cannot be disabled without CASCADE (ORA-02297); with it, the FK goes too
        with pytest.raises(psycopg.errors.DependentObjectsStillExist, match="ORA-02297"):
            conn.execute(parent_pk)
        conn.execute(parent_pk_cascade)
        conn.execute("INSERT INTO cs_parent VALUES (1, 'again')")  # PK disabled
        conn.execute("INSERT INTO cs_child VALUES (5, 77, 1)")  # FK disabled by the cascade
        assert conn.execute("SELECT constraint_name FROM oracompat.disabled_constraint ORDER BY 1").fetchall() == [
            ("cs_child_parent_fk",),
            ("cs_parent_pk",),
        ]
        # MODIFY CONSTRAINT ... DISABLE of a CHECK; RELY alone changes nothing
        conn.execute(disable_ck)
        conn.execute("INSERT INTO cs_child VALUES (6, 1, -1)")
        assert rely.startswith("--")


INSTALL = """
CREATE TABLE ins_app (id NUMBER(6) PRIMARY KEY, name VARCHAR2(20));
CREATE OR REPLACE TRIGGER ins_app_bi BEFORE INSERT ON ins_app FOR EACH ROW
BEGIN
  :NEW.name := UPPER(:NEW.name);
END;
/
ALTER TRIGGER ins_app_bi DISABLE;
DROP TABLE ins_leftover CASCADE CONSTRAINTS PURGE;
ALTER SESSION SET NLS_LANGUAGE = AMERICAN;
DECLARE
  l_n PLS_INTEGER;
BEGIN
  -- add the column only if it is not there (an install script run again must not fail)
  SELECT COUNT(*) INTO l_n FROM user_tab_columns WHERE table_name = 'INS_APP' AND column_name = 'CREATED';
  IF l_n = 0 THEN
    EXECUTE IMMEDIATE 'ALTER TABLE ins_app ADD (created DATE DEFAULT SYSDATE, flag VARCHAR2(1) DEFAULT ''N'' NOT NULL)';
  END IF;
  EXECUTE IMMEDIATE 'CREATE TABLE ins_log (id NUMBER(10) GENERATED ALWAYS AS IDENTITY, msg VARCHAR2(100))';
  EXECUTE IMMEDIATE 'CREATE SEQUENCE ins_seq START WITH 10 INCREMENT BY 10 NOCACHE';
  BEGIN
    EXECUTE IMMEDIATE 'DROP TABLE ins_absent';
  EXCEPTION
    WHEN OTHERS THEN
      -- ins_log did not exist when the block was compiled: only dynamic SQL can name it
      EXECUTE IMMEDIATE 'INSERT INTO ins_log (msg) VALUES (''no ins_absent'')';
  END;
END;
/
CREATE OR REPLACE VIEW ins_log_v AS SELECT id, UPPER(msg) AS msg FROM ins_log;
CREATE OR REPLACE PROCEDURE ins_note (p_msg IN VARCHAR2) IS
  l_msg ins_log.msg%TYPE := SUBSTR(p_msg, 1, 100);
BEGIN
  INSERT INTO ins_log (msg) VALUES (l_msg);
END;
/
"""


def test_install_statements_on_postgresql(pg_dsn, tmp_path):
    """ALTER TRIGGER ... DISABLE, a DROP of an absent table, ALTER SESSION of the defaults."""
    schema, out, order = convert_schema(tmp_path / "ins", {"install.sql": INSTALL.split("DECLARE")[0]})
    assert not any(u.startswith(("view:", "procedure:")) for u in order)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])
        # the trigger exists and is disabled: the name is stored as given
        conn.execute("INSERT INTO ins_app (id, name) VALUES (1, 'low')")
        assert conn.execute("SELECT name FROM ins_app").fetchone() == ("low",)
        conn.execute(out["other:ins.alter_trigger#1"].replace("false", "true"))
        conn.execute("INSERT INTO ins_app (id, name) VALUES (2, 'low')")
        assert conn.execute("SELECT name FROM ins_app WHERE id = 2").fetchone() == ("LOW",)
        with pytest.raises(psycopg.errors.UndefinedObject, match="ORA-04080"):
            conn.execute("SELECT oracompat.trigger_state(NULL, 'no_such_trigger', true)")


def test_install_block_runs_converted_ddl(pg_dsn, tmp_path):
    """The block's DDL strings are converted (DATE → timestamp(0), SYSDATE, identity, sequence
    options); the guard reads the dictionary, so the block runs twice like an install script run
    again; an absent table's DROP raises inside the block and its handler runs."""
    schema, out, order = convert_schema(tmp_path / "ins", {"install.sql": INSTALL})
    block = next(u for u in order if u.startswith("anonymous_block:"))
    assert "timestamp(0)" in out[block] and "NO CACHE" not in out[block]
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])
        conn.execute("INSERT INTO ins_app (id, name) VALUES (1, 'a')")
        row = conn.execute("SELECT created IS NOT NULL, flag FROM ins_app").fetchone()
        assert row == (True, "N")
        assert conn.execute("SELECT nextval('ins_seq'), nextval('ins_seq')").fetchone() == (10, 20)
        assert conn.execute("SELECT msg FROM ins_log").fetchall() == [("no ins_absent",)]
        # the view and the procedure after the block use the table it created (the procedure's
        # %TYPE anchor read from the CREATE TABLE in the block's literal)
        assert order.index(block) < order.index("view:ins.ins_log_v")
        assert order.index(block) < order.index("procedure:ins.ins_note")
        conn.execute("CALL ins_note('second')")
        assert conn.execute("SELECT msg FROM ins_log_v ORDER BY id").fetchall() == [("NO INS_ABSENT",), ("SECOND",)]
        # run again: the guarded ALTER is skipped, the unguarded CREATE TABLE fails as in Oracle
        with pytest.raises(psycopg.errors.DuplicateTable):
            conn.execute(out[block])


PARTITIONED = """
CREATE TABLE pt_sales (sale_id NUMBER(10), sold_on DATE NOT NULL, amount NUMBER(10,2))
PARTITION BY RANGE (sold_on) (
  PARTITION s2023 VALUES LESS THAN (TO_DATE('2024-01-01', 'YYYY-MM-DD')) TABLESPACE users,
  PARTITION s2024h1 VALUES LESS THAN (TO_DATE('2024-07-01', 'YYYY-MM-DD'))
);
CREATE TABLE pt_readings (k NUMBER, v NUMBER)
PARTITION BY RANGE (k) (PARTITION low VALUES LESS THAN (100), PARTITION high VALUES LESS THAN (MAXVALUE));
CREATE TABLE pt_orders (id NUMBER, region VARCHAR2(10))
PARTITION BY LIST (region) (
  PARTITION east VALUES ('EAST', 'NE'),
  PARTITION west VALUES ('WEST'),
  PARTITION other VALUES (DEFAULT)
);
CREATE TABLE pt_events (id NUMBER PRIMARY KEY, payload VARCHAR2(20)) PARTITION BY HASH (id) PARTITIONS 4;
"""


def test_partitioned_tables_route_rows_as_oracle(pg_dsn, tmp_path):
    """Rows go to the partition Oracle puts them in; a key above every bound is refused (Oracle's
    ORA-14400); a MAXVALUE partition takes NULL keys; LIST DEFAULT takes the rest; HASH spreads."""
    schema, out, order = convert_schema(tmp_path / "pt", {"parts.sql": PARTITIONED})
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])

        def where(table: str) -> list[tuple]:
            return conn.execute(
                f"SELECT tableoid::regclass::text, count(*) FROM {table} GROUP BY 1 ORDER BY 1"
            ).fetchall()

        conn.execute(
            "INSERT INTO pt_sales VALUES (1, '2023-12-31 23:59:59', 1), (2, '2024-01-01', 2), (3, '2024-06-30', 3)"
        )
        assert where("pt_sales") == [("pt_sales_s2023", 1), ("pt_sales_s2024h1", 2)]
        with pytest.raises(psycopg.errors.CheckViolation):  # no partition for 2024-07-01 (ORA-14400)
            conn.execute("INSERT INTO pt_sales VALUES (4, '2024-07-01', 4)")
        conn.execute("INSERT INTO pt_readings VALUES (99, 1), (100, 2), (NULL, 3)")
        assert where("pt_readings") == [("pt_readings_high", 2), ("pt_readings_low", 1)]
        conn.execute("INSERT INTO pt_orders VALUES (1, 'NE'), (2, 'WEST'), (3, 'SOUTH'), (4, NULL)")
        assert where("pt_orders") == [("pt_orders_east", 1), ("pt_orders_other", 2), ("pt_orders_west", 1)]
        conn.execute("INSERT INTO pt_events SELECT g, 'x' FROM generate_series(1, 40) g")
        assert len(where("pt_events")) == 4 and conn.execute("SELECT count(*) FROM pt_events").fetchone() == (40,)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO pt_events VALUES (7, 'again')")


KEYS = """
CREATE TABLE kt_cust (cust_id INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY PRIMARY KEY, name VARCHAR2(10));
CREATE TABLE kt_promo (promo_id NUMBER(6) PRIMARY KEY);
CREATE TABLE kt_order (order_id NUMBER PRIMARY KEY, cust_id INTEGER NOT NULL, promo_id NUMBER REFERENCES kt_promo);
ALTER TABLE kt_order ADD CONSTRAINT kt_order_cust_fk FOREIGN KEY (cust_id) REFERENCES kt_cust (cust_id);
ALTER TABLE kt_cust MODIFY cust_id GENERATED BY DEFAULT ON NULL AS IDENTITY (START WITH LIMIT VALUE);
ALTER TABLE kt_cust MODIFY (cust_id GENERATED BY DEFAULT AS IDENTITY (START WITH 500 INCREMENT BY 5));
"""


def test_foreign_keys_across_number_types_and_identity_restarts(pg_dsn, tmp_path):
    """A NUMBER / INTEGER column referencing a NUMBER(6) or identity key (one type in Oracle, three
    in PostgreSQL) gets the key's type, and the foreign key is enforced; an identity column's
    START WITH LIMIT VALUE continues after the rows loaded with explicit ids, START WITH n at n."""
    schema, out, order = convert_schema(tmp_path / "kt", {"keys.sql": KEYS})
    alters = [u for u in order if u.startswith("alter:kt.kt_cust")]
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            if unit_id not in alters:
                conn.execute(out[unit_id])
        conn.execute("INSERT INTO kt_cust (cust_id, name) VALUES (41, 'a'), (7, 'b')")
        conn.execute("INSERT INTO kt_promo VALUES (3)")
        conn.execute("INSERT INTO kt_order VALUES (1, 41, 3)")
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO kt_order VALUES (2, 8, 3)")
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO kt_order VALUES (3, 41, 4)")
        conn.execute(out[alters[0]])  # START WITH LIMIT VALUE: after the highest id, 41
        assert conn.execute("INSERT INTO kt_cust (name) VALUES ('c') RETURNING cust_id").fetchone() == (42,)
        conn.execute(out[alters[1]])
        ids = [conn.execute("INSERT INTO kt_cust (name) VALUES ('d') RETURNING cust_id").fetchone()[0] for _ in "ab"]
        assert ids == [500, 505]


KEY_INDEXES = """
CREATE TABLE ki_reg (region_id NUMBER CONSTRAINT ki_reg_nn NOT NULL, name VARCHAR2(25));
CREATE UNIQUE INDEX ki_reg_pk ON ki_reg (region_id);
ALTER TABLE ki_reg ADD ( CONSTRAINT ki_reg_pk PRIMARY KEY (region_id));
CREATE TABLE ki_t (code VARCHAR2(5), CONSTRAINT ki_t_uk UNIQUE (code));
CREATE UNIQUE INDEX ki_t_uk ON ki_t (code);
"""


def test_an_index_named_like_its_key_constraint_is_the_constraints_index(pg_dsn, tmp_path):
    """Oracle's install pattern: CREATE UNIQUE INDEX x, then a constraint x using it. In PostgreSQL
    the constraint's index is named x: one index, uniqueness enforced, whatever the deploy order."""
    schema, out, order = convert_schema(tmp_path / "ki", {"keys.sql": KEY_INDEXES})
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])
        conn.execute("INSERT INTO ki_reg VALUES (1, 'a')")
        with pytest.raises(psycopg.errors.UniqueViolation, match="ki_reg_pk"):
            conn.execute("INSERT INTO ki_reg VALUES (1, 'b')")
        with pytest.raises(psycopg.errors.UniqueViolation, match="ki_t_uk"):
            conn.execute("INSERT INTO ki_t VALUES ('x'), ('x')")
        assert conn.execute(
            "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = 'ki_reg'::regclass"
        ).fetchall() == [("ki_reg_pk",)]


LOAD_FILES = {
    "a_create.sql": """
CREATE TABLE so_emp (id NUMBER PRIMARY KEY, dept_id NUMBER);
CREATE TABLE so_dept (id NUMBER PRIMARY KEY, mgr_id NUMBER CONSTRAINT so_dept_mgr_fk REFERENCES so_emp (id));
""",
    "b_load.sql": """
ALTER TABLE so_dept DISABLE CONSTRAINT so_dept_mgr_fk;
BEGIN
  INSERT INTO so_dept VALUES (10, 100);
END;
/
BEGIN
  INSERT INTO so_emp VALUES (100, 10);
END;
/
ALTER TABLE so_dept ENABLE CONSTRAINT so_dept_mgr_fk;
""",
    "c_code.sql": """
CREATE OR REPLACE TRIGGER so_emp_bi BEFORE INSERT ON so_emp FOR EACH ROW
BEGIN
  RAISE_APPLICATION_ERROR(-20001, 'closed');
END;
/
ALTER TRIGGER so_emp_bi DISABLE;
""",
}


def test_a_load_between_disable_and_enable_deploys_in_script_order(pg_dsn, tmp_path):
    """An export that disables a foreign key, loads rows that would break it one at a time, and
    enables it (validating them), in one file; and a trigger created in a later file and disabled
    there, which Oracle's install never fired on the load: deployed in dependency order, every unit
    succeeds and the end state is Oracle's (constraint enabled, trigger disabled, rows loaded)."""
    schema, out, order = convert_schema(tmp_path / "so", LOAD_FILES)
    assert order.index("alter:so.so_dept#1") < order.index("anonymous_block:so.block#1")
    assert order.index("anonymous_block:so.block#2") < order.index("alter:so.so_dept#2")
    assert order.index("other:so.alter_trigger#1") < order.index("anonymous_block:so.block#2")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])
        assert conn.execute("SELECT count(*) FROM so_emp JOIN so_dept ON so_dept.mgr_id = so_emp.id").fetchone() == (1,)
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO so_dept VALUES (20, 999)")
        assert conn.execute("SELECT tgenabled FROM pg_trigger WHERE tgname = 'so_emp_bi'").fetchone() == ("D",)


DROPS = """
DROP TABLE dr_t CASCADE CONSTRAINTS;
CREATE TABLE dr_t (id NUMBER PRIMARY KEY);
CREATE TABLE dr_child (id NUMBER, t_id NUMBER REFERENCES dr_t (id));
CREATE SEQUENCE dr_s;
CREATE SYNONYM dr_syn FOR dr_child;
CREATE TABLE dr_tmp (x NUMBER);
DROP SYNONYM dr_syn;
DROP SEQUENCE dr_s;
DROP TABLE dr_tmp PURGE;
DROP TABLE dr_never_created;
"""


def test_drops_run_where_the_script_runs_them(pg_dsn, tmp_path):
    """An install script that drops before it creates (re-runnable) and drops its scratch objects
    at the end: the first DROP runs before the CREATE it precedes (not after it, which would remove
    the table), the later ones after what they drop, and a DROP of what never existed changes
    nothing (SQL*Plus reports it and goes on)."""
    schema, out, order = convert_schema(tmp_path / "dr", {"drops.sql": DROPS})
    assert order.index("other:dr.drop#1") < order.index("table:dr.dr_t")
    assert order.index("table:dr.dr_tmp") < order.index("other:dr.drop#4")
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        for unit_id in order:
            conn.execute(out[unit_id])
        left = conn.execute(
            "SELECT relname FROM pg_class WHERE relnamespace = 'dr'::regnamespace AND relkind IN ('r', 'v', 'S')"
            " ORDER BY 1"
        ).fetchall()
        assert left == [("dr_child",), ("dr_t",)]
