"""PIPELINED functions and TABLE() whose collection types are declared in another schema of a
multi-schema export (PL/SQL Language Reference, "Pipelined Table Functions"; "CREATE TYPE"): a
package type of another schema's package (`lib.lib_pkg.t_words`), a schema-level nested table of
another schema (`lib.t_name_list`) and one of another schema's object type, whose element type the
collection names unqualified (`lib.t_pair_list` of `t_pair`: resolved in the collection's own
schema, not the caller's); calls of another schema's package functions `lib.lib_pkg.f(...)` in
PL/SQL and in its SQL (a package is a PostgreSQL schema of its own). Deployed on PostgreSQL and run."""

from __future__ import annotations

import json

import psycopg

from harness.judge.deploy import execute_script
from migrator.batch.output import PREAMBLE
from migrator.batch.pipeline import MigrateOptions, migrate

FILES = {
    "lib/types.sql": """
CREATE OR REPLACE TYPE t_name_list AS TABLE OF VARCHAR2(100);
/
CREATE OR REPLACE TYPE t_pair AS OBJECT (k VARCHAR2(30), v NUMBER);
/
CREATE OR REPLACE TYPE t_pair_list AS TABLE OF t_pair;
/
""",
    "lib/lib_pkg.pks": """
CREATE OR REPLACE PACKAGE lib_pkg AS
  TYPE t_words IS TABLE OF VARCHAR2(50);
  FUNCTION words (p_text IN VARCHAR2) RETURN t_words PIPELINED;
  FUNCTION width (p_text IN VARCHAR2) RETURN NUMBER;
END lib_pkg;
/
""",
    "lib/lib_pkg.pkb": """
CREATE OR REPLACE PACKAGE BODY lib_pkg AS
  FUNCTION words (p_text IN VARCHAR2) RETURN t_words PIPELINED IS
  BEGIN
    FOR i IN 1 .. NVL(REGEXP_COUNT(p_text, '[^ ]+'), 0) LOOP
      PIPE ROW (REGEXP_SUBSTR(p_text, '[^ ]+', 1, i));
    END LOOP;
    RETURN;
  END words;
  FUNCTION width (p_text IN VARCHAR2) RETURN NUMBER IS
  BEGIN
    RETURN LENGTH(p_text);
  END width;
END lib_pkg;
/
""",
    "app/app_pkg.pks": """
CREATE OR REPLACE PACKAGE app_pkg AS
  FUNCTION upper_words (p_text IN VARCHAR2) RETURN lib.lib_pkg.t_words PIPELINED;
  FUNCTION names (p_n IN NUMBER) RETURN lib.t_name_list PIPELINED;
  FUNCTION pairs (p_n IN NUMBER) RETURN lib.t_pair_list PIPELINED;
  FUNCTION joined (p_text IN VARCHAR2) RETURN VARCHAR2;
END app_pkg;
/
""",
    "app/app_pkg.pkb": """
CREATE OR REPLACE PACKAGE BODY app_pkg AS
  FUNCTION upper_words (p_text IN VARCHAR2) RETURN lib.lib_pkg.t_words PIPELINED IS
  BEGIN
    FOR r IN (SELECT column_value AS w FROM TABLE(lib.lib_pkg.words(p_text))) LOOP
      PIPE ROW (UPPER(r.w));
    END LOOP;
    RETURN;
  END upper_words;
  FUNCTION names (p_n IN NUMBER) RETURN lib.t_name_list PIPELINED IS
  BEGIN
    FOR i IN 1 .. p_n LOOP
      PIPE ROW ('n' || i);
    END LOOP;
    RETURN;
  END names;
  FUNCTION pairs (p_n IN NUMBER) RETURN lib.t_pair_list PIPELINED IS
  BEGIN
    FOR i IN 1 .. p_n LOOP
      PIPE ROW (lib.t_pair('k' || i, i * 10));
    END LOOP;
    RETURN;
  END pairs;
  FUNCTION joined (p_text IN VARCHAR2) RETURN VARCHAR2 IS
    l_out VARCHAR2(4000);
  BEGIN
    FOR r IN (SELECT column_value AS w FROM TABLE(upper_words(p_text))) LOOP
      l_out := l_out || r.w || ';';
    END LOOP;
    FOR r IN (SELECT k, v FROM TABLE(pairs(2))) LOOP
      l_out := l_out || r.k || '=' || r.v || ';';
    END LOOP;
    FOR r IN (SELECT column_value AS n FROM TABLE(names(1))) LOOP
      l_out := l_out || r.n;
    END LOOP;
    SELECT l_out || ';' || lib.lib_pkg.width(p_text) INTO l_out FROM dual;
    l_out := l_out || ';' || lib.lib_pkg.width('xy');
    RETURN l_out;
  END joined;
END app_pkg;
/
""",
}


def test_pipelined_types_of_another_schema_deploy_and_run(pg_engine, pg_dsn, tmp_path):
    src = tmp_path / "export"
    for name, text in FILES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text.lstrip(), encoding="utf-8")
    out = tmp_path / "out"
    report = migrate(src, out, MigrateOptions(deploy=pg_engine.admin_dsn(), progress=False))
    assert {u.id: (u.status, u.deploy_error) for u in report.units if not u.deployed} == {}
    assert all(u.status == "converted" for u in report.units), [(u.id, u.unconverted) for u in report.units]
    deployed = {u["output"] for u in json.loads((out / "report.json").read_text())["units"] if u["deployed"]}
    included = [line.split(" ", 1)[1] for line in (out / "deploy.sql").read_text().splitlines() if line[:4] == "\\ir "]
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute((out / PREAMBLE).read_text())
        for path in (p for p in included if p in deployed):
            assert execute_script(conn, (out / path).read_text()) == (None, None), path
        assert conn.execute("SELECT app_pkg.joined('a bb  c')").fetchone()[0] == "A;BB;C;k1=10;k2=20;n1;7;2"
        assert conn.execute("SELECT count(*) FROM app_pkg.names(3)").fetchone()[0] == 3
