"""Units with hostile names, converted and deployed on a real PostgreSQL: the catalog shows the
objects under exactly those names, nothing else was created or dropped, and the code runs."""

from __future__ import annotations

import psycopg
from psycopg import sql

from harness.judge.deploy import execute_script
from migrator.convert.oracompat.runtime import RUNTIME_SQL
from migrator.convert.oracompat.support import SUPPORT_SQL
from tests.migrator.name_support import convert_folder

TABLE = "Order Lines"
SEQUENCE = "seq; DROP TABLE victim; --"
VIEW = 'x"y view'
FUNCTION = "x; COPY (SELECT 1) TO PROGRAM 'id'; --"
PROCEDURE = 'we;ird"proc'
PACKAGE = "a$$b /* c"
MEMBER = "Mixed Ünï"
TRIGGER = "inner"

SOURCE = """CREATE TABLE "Order Lines" (id NUMBER PRIMARY KEY, "Qty" NUMBER, line# NUMBER, "SELECT" VARCHAR2(20));
CREATE SEQUENCE "seq; DROP TABLE victim; --" START WITH 10;
CREATE VIEW "x""y view" AS SELECT id, "Qty", line#, "SELECT" FROM "Order Lines";
CREATE OR REPLACE FUNCTION "x; COPY (SELECT 1) TO PROGRAM 'id'; --" (p NUMBER) RETURN NUMBER IS
  v NUMBER;
BEGIN
  SELECT COUNT(*) INTO v FROM "Order Lines" WHERE "Qty" >= p;
  RETURN v;
END;
/
CREATE OR REPLACE PROCEDURE "we;ird""proc" (p_qty NUMBER) IS
BEGIN
  INSERT INTO "Order Lines" (id, "Qty") VALUES ("seq; DROP TABLE victim; --".NEXTVAL, p_qty);
END;
/
CREATE OR REPLACE PACKAGE "a$$b /* c" AS
  FUNCTION "Mixed Ünï" (p NUMBER) RETURN NUMBER;
END;
/
CREATE OR REPLACE PACKAGE BODY "a$$b /* c" AS
  FUNCTION "Mixed Ünï" (p NUMBER) RETURN NUMBER IS
  BEGIN
    RETURN p * 100;
  END;
END;
/
CREATE OR REPLACE TRIGGER "inner" BEFORE INSERT ON "Order Lines" FOR EACH ROW
BEGIN
  :NEW.line# := "a$$b /* c"."Mixed Ünï"(:NEW."Qty");
  :NEW."SELECT" := 'via trigger';
END;
/
"""


def deploy(dsn: str, schema: str, outputs: list[str]) -> psycopg.Connection:
    """The support libraries, the unit's schema first on the search path (the pipeline's preamble
    does the same), then each converted unit as it is, run as the pipeline runs it (a table's data
    unit streams its inline COPY rows)."""
    conn = psycopg.connect(dsn, autocommit=True)
    conn.execute(SUPPORT_SQL)
    conn.execute(RUNTIME_SQL)
    conn.execute(
        sql.SQL("CREATE SCHEMA {s}; SET search_path = {s}, oracompat, public").format(s=sql.Identifier(schema))
    )
    conn.execute(sql.SQL("CREATE TABLE {}.victim (x integer)").format(sql.Identifier(schema)))
    for text in outputs:
        error, _ = execute_script(conn, text)
        assert error is None, error
    return conn


def objects(conn: psycopg.Connection, schema: str) -> set[tuple[str, str]]:
    rows = conn.execute(
        "SELECT relname, relkind FROM pg_class WHERE relnamespace = %s::regnamespace AND relkind IN ('r', 'S', 'v')",
        [sql.Identifier(schema).as_string(conn)],
    )
    return set(rows.fetchall())


def routines(conn: psycopg.Connection, schema: str) -> set[tuple[str, str]]:
    rows = conn.execute(
        "SELECT proname, prokind FROM pg_proc WHERE pronamespace = %s::regnamespace",
        [sql.Identifier(schema).as_string(conn)],
    )
    return set(rows.fetchall())


def test_hostile_names_deploy_under_exactly_their_names_and_run(pg_dsn, tmp_path):
    converted = convert_folder(tmp_path / "hr", {"objects.sql": SOURCE})
    conn = deploy(pg_dsn, "hr", [text for _, text in converted])

    assert objects(conn, "hr") == {(TABLE, "r"), (SEQUENCE, "S"), (VIEW, "v"), ("victim", "r")}
    columns = conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 ORDER BY attnum",
        [sql.Identifier("hr", TABLE).as_string(conn)],
    ).fetchall()
    assert [c for (c,) in columns] == ["id", "Qty", "line#", "select"]
    assert routines(conn, "hr") == {(FUNCTION, "f"), (PROCEDURE, "p"), (f"{TRIGGER}_fn", "f")}
    assert routines(conn, PACKAGE) == {(MEMBER, "f"), ("initialize__", "f")}
    trigger = conn.execute(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
        [sql.Identifier("hr", TABLE).as_string(conn)],
    ).fetchall()
    assert trigger == [(TRIGGER,)]

    conn.execute(sql.SQL("CALL {}(%s)").format(sql.Identifier("hr", PROCEDURE)), [5])
    conn.execute(sql.SQL("CALL {}(%s)").format(sql.Identifier("hr", PROCEDURE)), [7])
    rows = conn.execute(sql.SQL("SELECT * FROM {} ORDER BY id").format(sql.Identifier("hr", VIEW))).fetchall()
    # ids from the sequence (START WITH 10); line# and "SELECT" set by the trigger through the package
    assert rows == [(10, 5, 500, "via trigger"), (11, 7, 700, "via trigger")]
    counted = conn.execute(sql.SQL("SELECT {}(%s)").format(sql.Identifier("hr", FUNCTION)), [6]).fetchone()
    assert counted == (1,)
    assert conn.execute("SELECT count(*) FROM hr.victim").fetchone() == (0,)  # still there


def test_unit_in_a_schema_named_by_a_reserved_word(pg_dsn, tmp_path):
    converted = convert_folder(
        tmp_path / "inner",
        {
            "objects.sql": """CREATE TABLE t (n NUMBER);
CREATE OR REPLACE FUNCTION g RETURN NUMBER IS
  v NUMBER;
BEGIN
  SELECT COUNT(*) + 42 INTO v FROM t;
  RETURN v;
END;
/
CREATE OR REPLACE PROCEDURE add_row (p NUMBER) IS
BEGIN
  INSERT INTO t (n) VALUES (p);
END;
/
"""
        },
    )
    outputs = {unit.name: text for unit, text in converted}
    assert outputs["g"].startswith('CREATE OR REPLACE FUNCTION "inner".g()')
    conn = deploy(pg_dsn, "inner", outputs.values())
    conn.execute('CALL "inner".add_row(1)')
    assert conn.execute('SELECT "inner".g()').fetchone() == (43,)
    assert routines(conn, "inner") == {("g", "f"), ("add_row", "p")}


DDL = """CREATE TABLE "P t" ("K k" NUMBER PRIMARY KEY);
CREATE TABLE "T x" ("C;1" NUMBER CONSTRAINT "pk ""x" PRIMARY KEY, "D" NUMBER REFERENCES "P t" ("K k"),
  line# NUMBER DEFAULT 0, CONSTRAINT "chk$$" CHECK ("C;1" > 0));
CREATE UNIQUE INDEX "ix /*" ON "T x" ("D", line#);
CREATE TYPE "Addr t" AS OBJECT ("Street" VARCHAR2(10));
/
CREATE TYPE "list;t" AS TABLE OF NUMBER;
/
CREATE SYNONYM "syn--" FOR "T x";
COMMENT ON TABLE "T x" IS 'c';
COMMENT ON COLUMN "T x"."C;1" IS 'd';
ALTER TABLE "T x" ADD CONSTRAINT "u q" UNIQUE (line#);
ALTER TABLE "T x" ADD ("New col" "Addr t");
GRANT SELECT ON "T x" TO "Role;x";
CREATE MATERIALIZED VIEW "mv x" AS SELECT "C;1", line# FROM "T x";
INSERT INTO "P t" ("K k") VALUES (1);
INSERT INTO "T x" ("C;1", "D", line#) VALUES (5, 1, 2);
"""


def test_ddl_names_deploy_exactly(pg_dsn, tmp_path):
    converted = convert_folder(tmp_path / "hr", {"ddl.sql": DDL})
    conn = deploy(pg_dsn, "hr", [text for _, text in converted])
    assert objects(conn, "hr") == {("P t", "r"), ("T x", "r"), ("syn--", "v"), ("victim", "r")}
    relations = conn.execute(
        "SELECT relname, relkind FROM pg_class WHERE relnamespace = 'hr'::regnamespace AND relkind IN ('i', 'm', 'c')"
    ).fetchall()
    assert {("ix /*", "i"), ("mv x", "m"), ("Addr t", "c")} <= set(relations)
    constraints = conn.execute("SELECT conname FROM pg_constraint WHERE conrelid = 'hr.\"T x\"'::regclass").fetchall()
    assert {'pk "x', "chk$$", "u q"} <= {c for (c,) in constraints}
    domains = conn.execute("SELECT typname FROM pg_type WHERE typnamespace = 'hr'::regnamespace AND typtype = 'd'")
    assert domains.fetchall() == [("list;t",)]
    comment = conn.execute("SELECT col_description('hr.\"T x\"'::regclass, 1)").fetchone()
    assert comment == ("d",)
    assert conn.execute('SELECT "C;1", "line#", "New col" FROM hr."T x"').fetchall() == [(5, 2, None)]
    assert conn.execute('SELECT "C;1" FROM hr."syn--"').fetchall() == [(5,)]


PLSQL = """CREATE TABLE "T x" ("C;1" NUMBER, line# NUMBER, "Note" VARCHAR2(40));
CREATE OR REPLACE PACKAGE "p;kg" AS
  "Count" NUMBER := 0;
  TYPE "Rec t" IS RECORD ("F 1" NUMBER, f2 VARCHAR2(10));
  PROCEDURE "bump" (by_ NUMBER DEFAULT 1);
  FUNCTION "get" RETURN NUMBER;
END;
/
CREATE OR REPLACE PACKAGE BODY "p;kg" AS
  PROCEDURE "bump" (by_ NUMBER DEFAULT 1) IS
    r "Rec t";
  BEGIN
    r."F 1" := by_;
    "Count" := "Count" + r."F 1";
  END;
  FUNCTION "get" RETURN NUMBER IS
  BEGIN
    RETURN "Count";
  END;
END;
/
CREATE OR REPLACE PROCEDURE "Outer x" (p_n NUMBER) IS
  TYPE "Rec$$" IS RECORD (a NUMBER, "B b" NUMBER);
  v "Rec$$";
  CURSOR "c;1" IS SELECT "C;1", line# FROM "T x" ORDER BY "C;1" DESC;
  row_ "c;1"%ROWTYPE;
  "v#" NUMBER := 0;
  PROCEDURE "in ner" (q NUMBER) IS
  BEGIN
    INSERT INTO "T x" ("C;1", line#, "Note") VALUES (q, q * 2, 'nested');
  END;
BEGIN
  v.a := p_n;
  v."B b" := p_n + 1;
  <<"lbl x">>
  FOR "i i" IN 1 .. 10 LOOP
    "in ner"("i i");
    EXIT "lbl x" WHEN "i i" >= v."B b";
  END LOOP;
  OPEN "c;1";
  FETCH "c;1" INTO row_;
  IF "c;1"%FOUND THEN
    "v#" := row_."C;1" + row_.line#;
  END IF;
  CLOSE "c;1";
  "p;kg"."bump"(by_ => "v#");
END;
/
CREATE OR REPLACE TRIGGER "trg;x" BEFORE UPDATE ON "T x" FOR EACH ROW
BEGIN
  IF UPDATING('Note') THEN
    :NEW.line# := -1;
  END IF;
END;
/
"""


def test_plsql_helper_names_derive_from_hostile_names(pg_dsn, tmp_path):
    """Names the converter derives (record types, cursor row views, lifted nested routines,
    package state accessors, UPDATING helper triggers) are built from the plain name and quoted
    once: they deploy, and the code that uses them runs."""
    converted = convert_folder(tmp_path / "hr", {"plsql.sql": PLSQL})
    conn = deploy(pg_dsn, "hr", [text for _, text in converted])
    assert routines(conn, "p;kg") == {
        ("Count", "f"),
        ("set__Count", "f"),
        ("initialize__", "f"),
        ("bump", "p"),
        ("get", "f"),
    }
    assert {("Outer x", "p"), ("Outer x__in ner", "p"), ("trg;x_fn", "f")} <= routines(conn, "hr")
    types = conn.execute(
        "SELECT typnamespace::regnamespace::text, typname FROM pg_type WHERE typtype = 'c' "
        "AND typnamespace IN ('hr'::regnamespace, '\"p;kg\"'::regnamespace)"
    ).fetchall()
    # record types and the cursor's row view, named after their owners
    assert {("hr", "Outer x__Rec$$"), ("hr", "Outer x__c;1_row"), ('"p;kg"', "Rec t")} <= set(types)

    conn.execute('CALL hr."Outer x"(2)')  # rows 1, 2, 3; the cursor reads 3 first: 3 + 6
    assert conn.execute('SELECT "p;kg".get()').fetchone() == (9,)
    conn.execute('UPDATE hr."T x" SET "Note" = \'changed\' WHERE "C;1" = 1')
    conn.execute('UPDATE hr."T x" SET "C;1" = "C;1" + 10 WHERE "C;1" = 2')
    rows = conn.execute('SELECT "C;1", "line#" FROM hr."T x" ORDER BY 1').fetchall()
    assert rows == [(1, -1), (3, 6), (12, 4)]  # only the update that named "Note" fired UPDATING('Note')
