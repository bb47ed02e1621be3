-- UTL_FILE over the file gate (schema oracompat_fs, installed by a role that may use server files:
-- harness/engines/file_gate.sql). A FILE_TYPE is Oracle's record (id, datatype, byte_mode); the
-- open handles live in a session temporary table: the text read at FOPEN ('r'), or the content to
-- be written (all of it: 'a' starts from the file's content), written through the gate at FFLUSH,
-- FCLOSE, FCLOSE_ALL and PUT_LINE's autoflush. Text is UTF-8, lines end with LF.
-- Deviation: the handle table is transactional, so a ROLLBACK between FOPEN and FCLOSE loses the
-- handle (INVALID_FILEHANDLE then); what was flushed stays in the file, as in Oracle.
DO $do$ BEGIN
    IF to_regtype('oracompat.utl_file_file_type') IS NULL THEN
        CREATE TYPE oracompat.utl_file_file_type AS (id integer, datatype integer, byte_mode boolean);
    END IF;
    IF to_regtype('oracompat.utl_file_handle_t') IS NULL THEN
        CREATE TYPE oracompat.utl_file_handle_t AS (
            id integer, dir text, fname text, mode text, byte_mode boolean, max_linesize integer,
            content text, pos integer, closed_all boolean);
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
    v_content text := '';
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
        v_content := COALESCE(convert_from(v_data, 'UTF8'), '');
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

-- Text added to a handle's content; a line longer than max_linesize: WRITE_ERROR.
CREATE OR REPLACE FUNCTION oracompat.utl_file_add(file oracompat.utl_file_file_type, buffer text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'w');
    v_new text := h.content || COALESCE(buffer, '');
    -- the lines this write touches: the last (unfinished) one so far, and the new ones
    v_tail text := regexp_replace(h.content, '^.*\n', '') || COALESCE(buffer, '');
    v_line text;
BEGIN
    FOREACH v_line IN ARRAY string_to_array(v_tail, E'\n') LOOP
        IF octet_length(v_line) > h.max_linesize THEN
            RAISE EXCEPTION 'ORA-29285: file write error' USING ERRCODE = 'OS285';
        END IF;
    END LOOP;
    UPDATE pg_temp.oracompat_utl_file t SET content = v_new WHERE t.id = h.id;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fflush(file oracompat.utl_file_file_type) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'w');
BEGIN
    PERFORM oracompat_fs.write(h.dir, h.fname, convert_to(h.content, 'UTF8'));
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
-- handle's max_linesize, characters: the rest comes next); past the end: NO_DATA_FOUND.
CREATE OR REPLACE FUNCTION oracompat.utl_file_get_line(file oracompat.utl_file_file_type, OUT buffer text,
                                                       len numeric DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, 'r');
    v_rest text;
    v_end integer;
    v_limit integer := LEAST(COALESCE(len, h.max_linesize), h.max_linesize)::integer;
BEGIN
    IF h.pos > length(h.content) THEN
        RAISE no_data_found;
    END IF;
    v_rest := substr(h.content, h.pos);
    v_end := strpos(v_rest, E'\n');
    IF v_end = 0 THEN
        v_end := length(v_rest) + 1;
    END IF;
    IF v_end - 1 > v_limit THEN
        buffer := left(v_rest, v_limit);
        UPDATE pg_temp.oracompat_utl_file t SET pos = h.pos + v_limit WHERE t.id = h.id;
    ELSE
        buffer := left(v_rest, v_end - 1);
        UPDATE pg_temp.oracompat_utl_file t SET pos = h.pos + v_end WHERE t.id = h.id;
    END IF;
    buffer := NULLIF(buffer, '');  -- an empty line is a NULL VARCHAR2
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_file_fclose(INOUT file oracompat.utl_file_file_type)
LANGUAGE plpgsql AS $fn$
DECLARE
    h oracompat.utl_file_handle_t := oracompat.utl_file_handle(file, NULL);
BEGIN
    IF h.mode <> 'r' THEN
        PERFORM oracompat_fs.write(h.dir, h.fname, convert_to(h.content, 'UTF8'));
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
            PERFORM oracompat_fs.write(h.dir, h.fname, convert_to(h.content, 'UTF8'));
        END IF;
    END LOOP;
    UPDATE pg_temp.oracompat_utl_file t SET closed_all = true, content = '';
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
