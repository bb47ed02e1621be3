-- UTL_FILE over the file gate (schema oracompat_fs, installed by a role that may use server files:
-- harness/engines/file_gate.sql). A FILE_TYPE is Oracle's record (id, datatype, byte_mode); the
-- open handles live in a session temporary table: the bytes read at FOPEN ('r'), or the content to
-- be written (all of it: 'a' starts from the file's content), written through the gate at FFLUSH,
-- FCLOSE, FCLOSE_ALL and PUT_LINE's / PUT_RAW's autoflush. Text is UTF-8, lines end with LF;
-- positions and GET_LINE's / GET_RAW's `len` count bytes, as Oracle's do.
-- Deviation: the handle table is transactional, so a ROLLBACK between FOPEN and FCLOSE loses the
-- handle (INVALID_FILEHANDLE then); what was flushed stays in the file, as in Oracle.
DO $do$ BEGIN
    IF to_regtype('oracompat.utl_file_file_type') IS NULL THEN
        CREATE TYPE oracompat.utl_file_file_type AS (id integer, datatype integer, byte_mode boolean);
    END IF;
    IF to_regtype('oracompat.utl_file_handle_t') IS NULL THEN
        CREATE TYPE oracompat.utl_file_handle_t AS (
            id integer, dir text, fname text, mode text, byte_mode boolean, max_linesize integer,
            content bytea, pos integer, closed_all boolean);
    END IF;
END $do$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_store() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF to_regnamespace('oracompat_fs') IS NULL THEN
        RAISE EXCEPTION 'UTL_FILE needs the file gate (schema oracompat_fs), installed by a role that may read and write server files'
            USING ERRCODE = 'feature_not_supported', HINT = 'see support/00_extensions.sql';
    END IF;
    IF to_regclass('pg_temp.oracompat_utl_file') IS NULL THEN
        CREATE TEMPORARY TABLE oracompat_utl_file OF oracompat.utl_file_handle_t (PRIMARY KEY (id));
    END IF;
END;
$fn$;

-- The open handle `file` names, for reading ('r') or writing ('w'): INVALID_FILEHANDLE when it is
-- not open (or FCLOSE_ALL closed it), INVALID_OPERATION when it is open the other way.
CREATE OR REPLACE FUNCTION oracompat.utl_file_handle(file oracompat.utl_file_file_type, want text)
RETURNS oracompat.utl_file_handle_t LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t;
BEGIN
    PERFORM oracompat.utl_file_store();
    SELECT * INTO h FROM pg_temp.oracompat_utl_file t WHERE t.id = file.id;
    IF NOT FOUND OR h.closed_all THEN
        RAISE EXCEPTION 'ORA-29282: invalid file ID' USING ERRCODE = 'OS282';
    END IF;
    IF want IS NOT NULL AND (want = 'r') <> (h.mode = 'r') THEN
        RAISE EXCEPTION 'ORA-29283: invalid file operation' USING ERRCODE = 'OS283';
    END IF;
    RETURN h;
END;
$fn$;

-- FOPEN(location, filename, open_mode, max_linesize): 'r' reads the file (none: INVALID_OPERATION),
-- 'w' creates or empties it now, 'a' appends (creating it); 'rb'/'wb'/'ab' are byte mode.
CREATE OR REPLACE FUNCTION oracompat.utl_file_fopen(location text, filename text, open_mode text,
                                                    max_linesize numeric DEFAULT 1024)
RETURNS oracompat.utl_file_file_type LANGUAGE plpgsql AS $fn$
DECLARE
    v_mode text := lower(btrim(open_mode));
    v_data bytea;
    v_content bytea := ''::bytea;
    v_id integer;
BEGIN
    PERFORM oracompat.utl_file_store();
    IF v_mode IS NULL OR v_mode NOT IN ('r', 'w', 'a', 'rb', 'wb', 'ab') THEN
        RAISE EXCEPTION 'ORA-29281: invalid mode' USING ERRCODE = 'OS281';
    END IF;
    IF max_linesize IS NULL OR max_linesize < 1 OR max_linesize > 32767 THEN
        RAISE EXCEPTION 'ORA-29287: invalid maximum line size' USING ERRCODE = 'OS287';
    END IF;
    PERFORM oracompat_fs.file_path(location, filename);  -- INVALID_PATH / INVALID_FILENAME first
    IF left(v_mode, 1) IN ('r', 'a') THEN
        v_data := oracompat_fs.read(location, filename);
        IF v_data IS NULL AND left(v_mode, 1) = 'r' THEN
            RAISE EXCEPTION 'ORA-29283: invalid file operation' USING ERRCODE = 'OS283';
        END IF;
        v_content := COALESCE(v_data, ''::bytea);
    END IF;
    IF v_data IS NULL THEN
        PERFORM oracompat_fs.write(location, filename, ''::bytea);
    END IF;
    SELECT COALESCE(max(t.id), 0) + 1 INTO v_id FROM pg_temp.oracompat_utl_file t;
    INSERT INTO pg_temp.oracompat_utl_file VALUES
        (v_id, location, filename, left(v_mode, 1), length(v_mode) = 2, max_linesize::integer, v_content, 1, false);
    RETURN ROW(v_id, 1, length(v_mode) = 2)::oracompat.utl_file_file_type;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_is_open(file oracompat.utl_file_file_type) RETURNS boolean
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_store();
    -- FCLOSE_ALL leaves the records alone: IS_OPEN still says TRUE for them, as Oracle documents
    RETURN file.id IS NOT NULL AND EXISTS (SELECT 1 FROM pg_temp.oracompat_utl_file t WHERE t.id = file.id);
END;
$fn$;

-- Bytes added to a handle's content; in text mode a line longer than max_linesize: WRITE_ERROR.
CREATE OR REPLACE FUNCTION oracompat.utl_file_add(file oracompat.utl_file_file_type, buffer bytea) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'w');
    v_tail bytea;
    v_nl integer;
    v_line bytea;
BEGIN
    IF NOT h.byte_mode THEN
        -- the lines this write touches: the last (unfinished) one so far, and the new ones
        -- (a line within the limit ends in the last max_linesize + 1 bytes, so only those are read)
        v_tail := substr(h.content, GREATEST(1, octet_length(h.content) - h.max_linesize));
        v_nl := position('\x0a'::bytea IN oracompat.utl_file_reverse(v_tail));
        v_tail := CASE WHEN v_nl = 0 THEN v_tail ELSE substr(v_tail, octet_length(v_tail) - v_nl + 2) END
                  || COALESCE(buffer, ''::bytea);
        LOOP
            v_nl := position('\x0a'::bytea IN v_tail);
            v_line := CASE WHEN v_nl = 0 THEN v_tail ELSE substr(v_tail, 1, v_nl - 1) END;
            IF octet_length(v_line) > h.max_linesize THEN
                RAISE EXCEPTION 'ORA-29285: file write error' USING ERRCODE = 'OS285';
            END IF;
            EXIT WHEN v_nl = 0;
            v_tail := substr(v_tail, v_nl + 1);
        END LOOP;
    END IF;
    UPDATE pg_temp.oracompat_utl_file t SET content = h.content || COALESCE(buffer, ''::bytea) WHERE t.id = h.id;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_add(file oracompat.utl_file_file_type, buffer text) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.utl_file_add(file, convert_to(COALESCE(buffer, ''), 'UTF8')) $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_reverse(b bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $fn$
    SELECT COALESCE(string_agg(substr(b, i, 1), ''::bytea ORDER BY i DESC), ''::bytea)
      FROM generate_series(1, octet_length(b)) AS i
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fflush(file oracompat.utl_file_file_type) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'w');
BEGIN
    PERFORM oracompat_fs.write(h.dir, h.fname, h.content);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_put(file oracompat.utl_file_file_type, buffer text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_add(file, buffer);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_put_line(file oracompat.utl_file_file_type, buffer text,
                                                       autoflush boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_add(file, COALESCE(buffer, '') || E'\n');
    IF autoflush THEN
        PERFORM oracompat.utl_file_fflush(file);
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_new_line(file oracompat.utl_file_file_type, lines numeric DEFAULT 1)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_add(file, repeat(E'\n', GREATEST(COALESCE(lines, 1), 0)::integer));
END;
$fn$;

-- PUTF(file, format, arg1 .. arg5): each %s takes the next argument (a missing one: nothing), \n is
-- a line end.
CREATE OR REPLACE FUNCTION oracompat.utl_file_putf(file oracompat.utl_file_file_type, format text,
        arg1 text DEFAULT NULL, arg2 text DEFAULT NULL, arg3 text DEFAULT NULL, arg4 text DEFAULT NULL,
        arg5 text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_args text[] := ARRAY[arg1, arg2, arg3, arg4, arg5];
    v_out text := '';
    v_rest text := COALESCE(format, '');
    v_k integer := 0;
    v_at integer;
BEGIN
    LOOP
        v_at := strpos(v_rest, '%s');
        EXIT WHEN v_at = 0;
        v_k := v_k + 1;
        v_out := v_out || left(v_rest, v_at - 1) || COALESCE(CASE WHEN v_k <= 5 THEN v_args[v_k] END, '');
        v_rest := substr(v_rest, v_at + 2);
    END LOOP;
    PERFORM oracompat.utl_file_add(file, replace(v_out || v_rest, '\n', E'\n'));
END;
$fn$;

-- GET_LINE(file, OUT buffer, len): the next line without its terminator (at most len, or the
-- handle's max_linesize, bytes: the rest comes next); past the end: NO_DATA_FOUND.
CREATE OR REPLACE FUNCTION oracompat.utl_file_get_line(file oracompat.utl_file_file_type, OUT buffer text,
                                                       len numeric DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'r');
    v_rest bytea;
    v_end integer;
    v_limit integer := LEAST(COALESCE(len, h.max_linesize), h.max_linesize)::integer;
BEGIN
    IF h.pos > octet_length(h.content) THEN
        RAISE no_data_found;
    END IF;
    v_rest := substr(h.content, h.pos);
    v_end := position('\x0a'::bytea IN v_rest);
    IF v_end = 0 THEN
        v_end := octet_length(v_rest) + 1;
    END IF;
    IF v_end - 1 > v_limit THEN
        buffer := convert_from(substr(v_rest, 1, v_limit), 'UTF8');
        UPDATE pg_temp.oracompat_utl_file t SET pos = h.pos + v_limit WHERE t.id = h.id;
    ELSE
        buffer := convert_from(substr(v_rest, 1, v_end - 1), 'UTF8');
        UPDATE pg_temp.oracompat_utl_file t SET pos = h.pos + v_end WHERE t.id = h.id;
    END IF;
    buffer := NULLIF(buffer, '');  -- an empty line is a NULL VARCHAR2
END;
$fn$;

-- GET_RAW(file, OUT buffer, len): the next `len` bytes (default and at most 32767); past the end:
-- NO_DATA_FOUND.
CREATE OR REPLACE FUNCTION oracompat.utl_file_get_raw(file oracompat.utl_file_file_type, OUT buffer bytea,
                                                      len numeric DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'r');
    v_len integer := LEAST(COALESCE(len, 32767), 32767)::integer;
BEGIN
    IF h.pos > octet_length(h.content) THEN
        RAISE no_data_found;
    END IF;
    buffer := substr(h.content, h.pos, v_len);
    UPDATE pg_temp.oracompat_utl_file t SET pos = h.pos + octet_length(buffer) WHERE t.id = h.id;
END;
$fn$;

-- PUT_RAW(file, buffer, autoflush): bytes written as they are (32767 at most per call).
CREATE OR REPLACE FUNCTION oracompat.utl_file_put_raw(file oracompat.utl_file_file_type, buffer bytea,
                                                      autoflush boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF octet_length(buffer) > 32767 THEN
        RAISE EXCEPTION 'ORA-29285: file write error' USING ERRCODE = 'OS285';
    END IF;
    PERFORM oracompat.utl_file_add(file, COALESCE(buffer, ''::bytea));
    IF autoflush THEN
        PERFORM oracompat.utl_file_fflush(file);
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fclose(INOUT file oracompat.utl_file_file_type)
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, NULL);
BEGIN
    IF h.mode <> 'r' THEN
        PERFORM oracompat_fs.write(h.dir, h.fname, h.content);
    END IF;
    DELETE FROM pg_temp.oracompat_utl_file t WHERE t.id = h.id;
    file := ROW(NULL, NULL, NULL)::oracompat.utl_file_file_type;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fclose_all() RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t;
BEGIN
    PERFORM oracompat.utl_file_store();
    FOR h IN SELECT * FROM pg_temp.oracompat_utl_file t WHERE NOT t.closed_all ORDER BY t.id LOOP
        IF h.mode <> 'r' THEN
            PERFORM oracompat_fs.write(h.dir, h.fname, h.content);
        END IF;
    END LOOP;
    UPDATE pg_temp.oracompat_utl_file t SET closed_all = true, content = ''::bytea;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fremove(location text, filename text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_store();
    PERFORM oracompat_fs.remove(location, filename);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_frename(src_location text, src_filename text, dest_location text,
                                                      dest_filename text, overwrite boolean DEFAULT false)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.utl_file_store();
    PERFORM oracompat_fs.rename(src_location, src_filename, dest_location, dest_filename, overwrite);
END;
$fn$;

-- FCOPY: lines start_line .. end_line (NULL: to the end) of a text file into a new one.
CREATE OR REPLACE FUNCTION oracompat.utl_file_fcopy(src_location text, src_filename text, dest_location text,
        dest_filename text, start_line numeric DEFAULT 1, end_line numeric DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_data bytea;
    v_lines text[];
    v_out text;
BEGIN
    PERFORM oracompat.utl_file_store();
    IF start_line IS NULL OR start_line < 1 OR end_line < start_line THEN
        RAISE EXCEPTION 'ORA-29290: invalid offset specified' USING ERRCODE = 'OS290';
    END IF;
    v_data := oracompat_fs.read(src_location, src_filename);
    IF v_data IS NULL THEN
        RAISE EXCEPTION 'ORA-29283: invalid file operation' USING ERRCODE = 'OS283';
    END IF;
    v_lines := string_to_array(rtrim(convert_from(v_data, 'UTF8'), E'\n'), E'\n');
    v_out := array_to_string(v_lines[start_line::integer : COALESCE(end_line, cardinality(v_lines))::integer], E'\n');
    PERFORM oracompat_fs.write(dest_location, dest_filename,
                               convert_to(v_out || CASE WHEN v_out = '' THEN '' ELSE E'\n' END, 'UTF8'));
END;
$fn$;

-- BFILE: a locator (directory name, file name), as BFILENAME makes it without touching the file;
-- DBMS_LOB's file members read the file through the gate. Which locators are open is session
-- state (a temporary table keyed by directory and file name).
DO $do$ BEGIN
    IF to_regtype('oracompat.bfile') IS NULL THEN
        CREATE TYPE oracompat.bfile AS (directory text, filename text);
    END IF;
END $do$;

CREATE OR REPLACE FUNCTION oracompat.bfilename(directory text, filename text) RETURNS oracompat.bfile
LANGUAGE sql IMMUTABLE AS $fn$ SELECT ROW(directory, filename)::oracompat.bfile $fn$;

CREATE OR REPLACE FUNCTION oracompat.bfile_open_store() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF to_regnamespace('oracompat_fs') IS NULL THEN
        RAISE EXCEPTION 'BFILE needs the file gate (schema oracompat_fs), installed by a role that may read server files'
            USING ERRCODE = 'feature_not_supported', HINT = 'see support/00_extensions.sql';
    END IF;
    IF to_regclass('pg_temp.oracompat_bfile_open') IS NULL THEN
        CREATE TEMPORARY TABLE oracompat_bfile_open (directory text, filename text, PRIMARY KEY (directory, filename));
    END IF;
END;
$fn$;

-- The file's bytes: ORA-22285 for a directory that does not exist, ORA-22288 for a missing file.
CREATE OR REPLACE FUNCTION oracompat.bfile_bytes(file_loc oracompat.bfile, operation text) RETURNS bytea
LANGUAGE plpgsql AS $fn$
DECLARE
    v_data bytea;
BEGIN
    PERFORM oracompat.bfile_open_store();
    IF file_loc IS NULL OR file_loc.directory IS NULL THEN
        RAISE EXCEPTION 'ORA-22275: invalid LOB locator specified' USING ERRCODE = 'OL275';
    END IF;
    BEGIN
        v_data := oracompat_fs.read(file_loc.directory, file_loc.filename);
    EXCEPTION
        WHEN SQLSTATE 'OS280' OR SQLSTATE 'OS288' THEN
            RAISE EXCEPTION 'ORA-22285: non-existent directory or file for % operation', operation USING ERRCODE = 'OL285';
    END;
    IF v_data IS NULL THEN
        RAISE EXCEPTION 'ORA-22288: file or LOB operation % failed', operation USING ERRCODE = 'OL288';
    END IF;
    RETURN v_data;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_fileopen(INOUT file_loc oracompat.bfile, open_mode numeric DEFAULT 0)
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.bfile_bytes(file_loc, 'FILEOPEN');
    INSERT INTO pg_temp.oracompat_bfile_open VALUES (file_loc.directory, file_loc.filename) ON CONFLICT DO NOTHING;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_open(INOUT lob_loc oracompat.bfile, open_mode numeric)
LANGUAGE sql AS $fn$ SELECT oracompat.dbms_lob_fileopen(lob_loc, open_mode) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_fileclose(INOUT file_loc oracompat.bfile)
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.bfile_open_store();
    DELETE FROM pg_temp.oracompat_bfile_open o
     WHERE o.directory = file_loc.directory AND o.filename = file_loc.filename;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_close(INOUT lob_loc oracompat.bfile)
LANGUAGE sql AS $fn$ SELECT oracompat.dbms_lob_fileclose(lob_loc) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_filecloseall() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.bfile_open_store();
    DELETE FROM pg_temp.oracompat_bfile_open;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_fileisopen(file_loc oracompat.bfile) RETURNS integer
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.bfile_open_store();
    RETURN CASE WHEN EXISTS (SELECT 1 FROM pg_temp.oracompat_bfile_open o
                              WHERE o.directory = file_loc.directory AND o.filename = file_loc.filename)
                THEN 1 ELSE 0 END;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_fileexists(file_loc oracompat.bfile) RETURNS integer
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.bfile_bytes(file_loc, 'FILEEXISTS');
    RETURN 1;
EXCEPTION
    WHEN SQLSTATE 'OL288' THEN
        RETURN 0;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_filegetname(file_loc oracompat.bfile, OUT dir_alias text, OUT filename text)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT file_loc.directory, file_loc.filename $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_getlength(lob_loc oracompat.bfile) RETURNS integer
LANGUAGE sql AS $fn$ SELECT octet_length(oracompat.bfile_bytes(lob_loc, 'GETLENGTH')) $fn$;

-- `amount` bytes of an open BFILE from byte `src_offset` (LOBMAXSIZE: to its end; more than it
-- holds: ORA-21560).
CREATE OR REPLACE FUNCTION oracompat.bfile_read(src oracompat.bfile, amount numeric, src_offset numeric) RETURNS bytea
LANGUAGE plpgsql AS $fn$
DECLARE
    v_data bytea := oracompat.bfile_bytes(src, 'FILEREAD');
BEGIN
    IF oracompat.dbms_lob_fileisopen(src) = 0 THEN
        RAISE EXCEPTION 'ORA-22289: cannot perform FILEREAD operation on an unopened file or LOB' USING ERRCODE = 'OL289';
    END IF;
    IF amount IS NULL OR src_offset IS NULL OR amount < 1 OR src_offset < 1
       OR (amount < 18446744073709551615 AND src_offset - 1 + amount > octet_length(v_data)) THEN
        RAISE EXCEPTION 'ORA-21560: argument is null, invalid, or out of range' USING ERRCODE = 'OS560';
    END IF;
    RETURN substr(v_data, src_offset::integer, LEAST(amount, octet_length(v_data))::integer);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_loadfromfile(INOUT dest_lob bytea, src_lob oracompat.bfile, amount numeric,
                                                           dest_offset numeric DEFAULT 1, src_offset numeric DEFAULT 1)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_part bytea := oracompat.bfile_read(src_lob, amount, src_offset);
    v_dest bytea := COALESCE(dest_lob, ''::bytea);
BEGIN
    IF octet_length(v_dest) < dest_offset - 1 THEN  -- a BLOB is zero-filled up to the offset
        v_dest := v_dest || decode(repeat('00', (dest_offset - 1 - octet_length(v_dest))::integer), 'hex');
    END IF;
    dest_lob := overlay(v_dest PLACING v_part FROM dest_offset::integer FOR octet_length(v_part));
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_loadblobfromfile(INOUT dest_lob bytea, src_bfile oracompat.bfile, amount numeric,
                                                               INOUT dest_offset numeric, INOUT src_offset numeric)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_part bytea := oracompat.bfile_read(src_bfile, amount, src_offset);
BEGIN
    dest_lob := oracompat.dbms_lob_loadfromfile(dest_lob, src_bfile, octet_length(v_part), dest_offset, src_offset);
    dest_offset := dest_offset + octet_length(v_part);
    src_offset := src_offset + octet_length(v_part);
END;
$fn$;

-- The file's bytes as text in bfile_csid's character set (0: the database's, UTF-8); dest_offset and
-- src_offset advance by the characters written and the bytes read.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_loadclobfromfile(INOUT dest_lob text, src_bfile oracompat.bfile, amount numeric,
        INOUT dest_offset numeric, INOUT src_offset numeric, bfile_csid numeric, INOUT lang_context numeric,
        OUT warning numeric)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_part bytea := oracompat.bfile_read(src_bfile, amount, src_offset);
    v_text text := convert_from(v_part, CASE bfile_csid WHEN 31 THEN 'LATIN1' WHEN 178 THEN 'WIN1252' ELSE 'UTF8' END);
    v_dest text := COALESCE(dest_lob, '');
BEGIN
    IF length(v_dest) < dest_offset - 1 THEN  -- a CLOB is space-filled up to the offset
        v_dest := v_dest || repeat(' ', (dest_offset - 1 - length(v_dest))::integer);
    END IF;
    dest_lob := overlay(v_dest PLACING v_text FROM dest_offset::integer FOR length(v_text));
    dest_offset := dest_offset + length(v_text);
    src_offset := src_offset + octet_length(v_part);
    warning := 0;
END;
$fn$;

-- DBMS_METADATA.GET_DDL of PL/SQL objects: the Oracle text each unit was created from, recorded
-- when it deploys (only in a run where some unit calls DBMS_METADATA: migrator/convert/dispatch.py
-- keep_source). 'PACKAGE' / 'TYPE' give the specification and the body, the *_SPEC / *_BODY forms
-- one of them; each part is the CREATE statement as the export wrote it (Oracle rewrites its first
-- line as CREATE OR REPLACE EDITIONABLE <type> "OWNER"."NAME"; the rest is the stored source). The
-- DDL of tables, views and other objects is Oracle's own rendering of its dictionary: not kept,
-- refused with a message.
CREATE TABLE IF NOT EXISTS oracompat.oracle_source (
    owner text NOT NULL, object_type text NOT NULL, name text NOT NULL, text text NOT NULL,
    PRIMARY KEY (owner, object_type, name));

CREATE OR REPLACE FUNCTION oracompat.dbms_metadata_get_ddl(object_type text, name text, schema text DEFAULT NULL,
        version text DEFAULT 'COMPATIBLE', model text DEFAULT 'ORACLE', transform text DEFAULT 'DDL') RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v_owner text := COALESCE(schema, upper(current_schema()));
    v_types text[] := CASE upper(object_type)
        WHEN 'PACKAGE' THEN ARRAY['PACKAGE', 'PACKAGE BODY'] WHEN 'PACKAGE_SPEC' THEN ARRAY['PACKAGE']
        WHEN 'PACKAGE_BODY' THEN ARRAY['PACKAGE BODY'] WHEN 'TYPE' THEN ARRAY['TYPE', 'TYPE BODY']
        WHEN 'TYPE_SPEC' THEN ARRAY['TYPE'] WHEN 'TYPE_BODY' THEN ARRAY['TYPE BODY']
        WHEN 'PROCEDURE' THEN ARRAY['PROCEDURE'] WHEN 'FUNCTION' THEN ARRAY['FUNCTION']
        WHEN 'TRIGGER' THEN ARRAY['TRIGGER'] END;
    v_out text;
BEGIN
    IF v_types IS NULL THEN
        RAISE EXCEPTION 'DBMS_METADATA.GET_DDL of a % is not available here: only PL/SQL source is kept', object_type
            USING ERRCODE = 'feature_not_supported';
    END IF;
    SELECT string_agg(E'\n  ' || btrim(s.text, E' \t\r\n'), E'\n' ORDER BY array_position(v_types, s.object_type))
      INTO v_out
      FROM oracompat.oracle_source s
     WHERE s.owner = v_owner AND s.name = dbms_metadata_get_ddl.name AND s.object_type = ANY (v_types);
    IF v_out IS NULL THEN
        RAISE EXCEPTION 'ORA-31603: object "%" of type % not found in schema "%"', name, upper(object_type), v_owner
            USING ERRCODE = 'OS603';
    END IF;
    RETURN v_out;
END;
$fn$;

-- FGETATTR(location, filename, OUT fexists, OUT file_length, OUT block_size): whether the file
-- exists and its length in bytes (NULL when it does not). block_size, the file system's block size,
-- is not something PostgreSQL reports: NULL (a deviation, said in the README).
CREATE OR REPLACE FUNCTION oracompat.utl_file_fgetattr(location text, filename text, OUT fexists boolean,
                                                       OUT file_length numeric, OUT block_size numeric)
LANGUAGE plpgsql AS $fn$
DECLARE
    v_data bytea;
BEGIN
    PERFORM oracompat.utl_file_store();
    v_data := oracompat_fs.read(location, filename);
    fexists := v_data IS NOT NULL;
    file_length := octet_length(v_data);
    block_size := NULL;
END;
$fn$;
