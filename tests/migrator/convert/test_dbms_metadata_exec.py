"""DBMS_METADATA.GET_DDL of PL/SQL objects (PL/SQL Packages and Types Reference, "DBMS_METADATA"):
the source Oracle would give back is the export's own text, recorded by each PL/SQL unit when it
deploys in a run where some unit calls DBMS_METADATA. Code that keeps data in its own source (a
block Oracle's compiler skips, `$IF FALSE $THEN ... $END`) reads it back; an unknown object is
ORA-31603; the DDL of a table is refused with a message (only PL/SQL source is kept)."""

from __future__ import annotations

import psycopg
import pytest

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

SOURCE = """
CREATE TABLE notes (id NUMBER);
CREATE OR REPLACE PACKAGE templates AS
  FUNCTION template (p_name IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION describe (p_type IN VARCHAR2, p_name IN VARCHAR2) RETURN VARCHAR2;
END templates;
/
CREATE OR REPLACE PACKAGE BODY templates AS
  $IF FALSE $THEN
  [greeting]Hello, ${name}![/greeting]
  [farewell]Bye.[/farewell]
  $END
  FUNCTION template (p_name IN VARCHAR2) RETURN VARCHAR2 IS
    l_ddl CLOB := DBMS_METADATA.GET_DDL('PACKAGE_BODY', 'TEMPLATES');
  BEGIN
    RETURN REGEXP_SUBSTR(l_ddl, '\\[' || p_name || '\\](.*?)\\[/' || p_name || '\\]', 1, 1, 'n', 1);
  END template;
  FUNCTION describe (p_type IN VARCHAR2, p_name IN VARCHAR2) RETURN VARCHAR2 IS
    l_ddl CLOB;
  BEGIN
    l_ddl := DBMS_METADATA.GET_DDL(p_type, p_name);
    RETURN SUBSTR(LTRIM(l_ddl), 1, 40) || '|' || LENGTH(l_ddl);
  EXCEPTION
    WHEN OTHERS THEN
      RETURN 'error ' || SQLCODE;
  END describe;
END templates;
/
"""


def test_get_ddl_gives_back_the_source(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "tpl", {"tpl.sql": SOURCE})
        assert conn.execute("SELECT templates.template('greeting')").fetchone()[0] == "Hello, ${name}!"
        assert conn.execute("SELECT templates.template('farewell')").fetchone()[0] == "Bye."
        spec = conn.execute("SELECT templates.describe('PACKAGE_SPEC', 'TEMPLATES')").fetchone()[0]
        # Oracle's GET_DDL starts each part on a new line, indented by two spaces (LTRIM keeps the newline)
        assert spec.startswith("\n  CREATE OR REPLACE PACKAGE templates A|")
        both = conn.execute("SELECT oracompat.dbms_metadata_get_ddl('PACKAGE', 'TEMPLATES')").fetchone()[0]
        assert both.index("PACKAGE templates AS") < both.index("PACKAGE BODY templates AS")
        assert conn.execute("SELECT templates.describe('PACKAGE', 'NO_SUCH')").fetchone()[0] == "error -31603"
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="only PL/SQL source is kept"):
            conn.execute("SELECT oracompat.dbms_metadata_get_ddl('TABLE', 'NOTES')")
