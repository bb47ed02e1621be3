-- oracompat_fs: the one place converted code reaches server files (UTL_FILE, BFILE), installed by a
-- role that may read and write server files (a superuser, or a member of pg_read_server_files and
-- pg_write_server_files that may EXECUTE lo_export) -- never by the role that runs converted code.
-- Every function is SECURITY DEFINER with a fixed search_path and touches only
-- <directory path>/<file name> of a directory object registered here; a file name is one path
-- component (no '/', '\', '.' or '..'). With `confine_root` set (verification in the sandbox) every
-- directory object, whatever path its CREATE DIRECTORY asked for, is a file-name prefix inside
-- <confine_root>/<current database>/, a folder the sandbox creates per scratch database.
CREATE SCHEMA IF NOT EXISTS oracompat_fs;
CREATE TABLE IF NOT EXISTS oracompat_fs.directory (
    name text PRIMARY KEY,   -- as Oracle stores it (upper case unless quoted): FOPEN's location
    path text NOT NULL,      -- the server folder (ignored when confined)
    asked_path text,         -- what CREATE DIRECTORY asked for, kept for the reader
    pinned boolean NOT NULL DEFAULT false  -- mapped by the administrator (--directory): CREATE DIRECTORY keeps it
);
CREATE TABLE IF NOT EXISTS oracompat_fs.setting (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    confine_root text
);

CREATE OR REPLACE FUNCTION oracompat_fs.file_path(p_dir text, p_file text) RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_path text;
    v_root text;
BEGIN
    IF p_file IS NULL OR p_file IN ('', '.', '..') OR p_file ~ '[/\\]' THEN
        RAISE EXCEPTION 'ORA-29288: invalid file name' USING ERRCODE = 'OS288';
    END IF;
    SELECT d.path INTO v_path FROM oracompat_fs.directory d WHERE d.name = p_dir;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ORA-29280: invalid directory path' USING ERRCODE = 'OS280';
    END IF;
    SELECT s.confine_root INTO v_root FROM oracompat_fs.setting s;
    IF v_root IS NOT NULL THEN
        RETURN v_root || '/' || current_database() || '/' || p_dir || '.' || p_file;
    END IF;
    RETURN rtrim(v_path, '/') || '/' || p_file;
END;
$fn$;

-- The file's bytes; NULL when there is no such file.
CREATE OR REPLACE FUNCTION oracompat_fs.read(p_dir text, p_file text) RETURNS bytea
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_path text := oracompat_fs.file_path(p_dir, p_file);
    v_isdir boolean;
BEGIN
    SELECT isdir INTO v_isdir FROM pg_stat_file(v_path, true);
    IF v_isdir IS NULL OR v_isdir THEN
        RETURN NULL;
    END IF;
    RETURN pg_read_binary_file(v_path);
EXCEPTION
    WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'ORA-29289: directory access denied' USING ERRCODE = 'OS289';
END;
$fn$;

-- The file's whole content replaced by p_data (created when missing); through a large object,
-- the one built-in way to write arbitrary bytes to a server file.
CREATE OR REPLACE FUNCTION oracompat_fs.write(p_dir text, p_file text, p_data bytea) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_path text := oracompat_fs.file_path(p_dir, p_file);
    v_lo oid;
BEGIN
    v_lo := lo_from_bytea(0, COALESCE(p_data, ''::bytea));
    BEGIN
        PERFORM lo_export(v_lo, v_path);
    EXCEPTION
        WHEN insufficient_privilege THEN
            PERFORM lo_unlink(v_lo);
            RAISE EXCEPTION 'ORA-29289: directory access denied' USING ERRCODE = 'OS289';
        WHEN OTHERS THEN  -- the folder does not exist, is not writable, the disk is full ...
            PERFORM lo_unlink(v_lo);
            RAISE EXCEPTION 'ORA-29283: invalid file operation' USING ERRCODE = 'OS283',
                DETAIL = SQLERRM;
    END;
    PERFORM lo_unlink(v_lo);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat_fs.exists(p_dir text, p_file text) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_isdir boolean;
BEGIN
    SELECT isdir INTO v_isdir FROM pg_stat_file(oracompat_fs.file_path(p_dir, p_file), true);
    RETURN v_isdir IS NOT NULL AND NOT v_isdir;
END;
$fn$;

-- Removing and renaming: PostgreSQL itself has no function for either; adminpack's pg_file_unlink
-- and pg_file_rename do it where the installer created that extension.
CREATE OR REPLACE FUNCTION oracompat_fs.remove(p_dir text, p_file text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_path text := oracompat_fs.file_path(p_dir, p_file);
BEGIN
    IF to_regprocedure('pg_catalog.pg_file_unlink(text)') IS NULL THEN
        RAISE EXCEPTION 'removing a server file needs the adminpack extension on this server'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    IF NOT oracompat_fs.exists(p_dir, p_file) THEN
        RAISE EXCEPTION 'ORA-29291: file remove operation failed' USING ERRCODE = 'OS291';
    END IF;
    EXECUTE format('SELECT %I.%I($1)', 'pg_catalog', 'pg_file_unlink') USING v_path;  -- adminpack may be absent
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat_fs.rename(p_src_dir text, p_src_file text, p_dst_dir text, p_dst_file text,
                                               p_overwrite boolean) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_src text := oracompat_fs.file_path(p_src_dir, p_src_file);
    v_dst text := oracompat_fs.file_path(p_dst_dir, p_dst_file);
BEGIN
    IF to_regprocedure('pg_catalog.pg_file_rename(text,text)') IS NULL THEN
        RAISE EXCEPTION 'renaming a server file needs the adminpack extension on this server'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    IF NOT oracompat_fs.exists(p_src_dir, p_src_file)
       OR (oracompat_fs.exists(p_dst_dir, p_dst_file) AND NOT COALESCE(p_overwrite, false)) THEN
        RAISE EXCEPTION 'ORA-29292: file rename operation failed' USING ERRCODE = 'OS292';
    END IF;
    IF oracompat_fs.exists(p_dst_dir, p_dst_file) THEN
        EXECUTE format('SELECT %I.%I($1)', 'pg_catalog', 'pg_file_unlink') USING v_dst;
    END IF;
    EXECUTE format('SELECT %I.%I($1, $2)', 'pg_catalog', 'pg_file_rename') USING v_src, v_dst;
END;
$fn$;

-- CREATE [OR REPLACE] DIRECTORY: a name the administrator mapped (pinned) keeps its folder; confined
-- (the sandbox), any name may be registered (its files stay in the scratch folder); otherwise only a
-- role that may write server files maps a name to a path (Oracle asks for CREATE ANY DIRECTORY).
CREATE OR REPLACE FUNCTION oracompat_fs.create_directory(p_name text, p_path text, p_replace boolean) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
    v_confined boolean := (SELECT s.confine_root IS NOT NULL FROM oracompat_fs.setting s);
    v_known boolean := EXISTS (SELECT 1 FROM oracompat_fs.directory d WHERE d.name = p_name);
    v_pinned boolean := EXISTS (SELECT 1 FROM oracompat_fs.directory d WHERE d.name = p_name AND d.pinned);
BEGIN
    IF p_name IS NULL OR p_name IN ('', '.', '..') OR p_name ~ '[/\\]' THEN
        RAISE EXCEPTION 'ORA-29280: invalid directory path' USING ERRCODE = 'OS280';
    END IF;
    IF v_known AND NOT COALESCE(p_replace, false) THEN
        RAISE EXCEPTION 'ORA-00955: name is already used by an existing object' USING ERRCODE = 'duplicate_object';
    END IF;
    IF v_pinned THEN  -- the export's path is the Oracle server's; the administrator said where it is here
        UPDATE oracompat_fs.directory d SET asked_path = p_path WHERE d.name = p_name;
        RETURN;
    END IF;
    IF NOT COALESCE(v_confined, false) AND NOT pg_has_role(session_user, 'pg_write_server_files', 'MEMBER') THEN
        IF v_known THEN
            RAISE NOTICE 'directory % kept as the administrator mapped it', p_name;
            RETURN;
        END IF;
        RAISE EXCEPTION 'ORA-01031: insufficient privileges' USING ERRCODE = 'insufficient_privilege',
            HINT = 'an administrator maps Oracle directories to server folders (oracompat_fs.directory)';
    END IF;
    INSERT INTO oracompat_fs.directory (name, path, asked_path) VALUES (p_name, p_path, p_path)
        ON CONFLICT (name) DO UPDATE SET path = EXCLUDED.path, asked_path = EXCLUDED.asked_path;
END;
$fn$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA oracompat_fs FROM PUBLIC;
GRANT USAGE ON SCHEMA oracompat_fs TO PUBLIC;
GRANT SELECT ON oracompat_fs.directory TO PUBLIC;  -- ALL_DIRECTORIES: which names exist
GRANT EXECUTE ON FUNCTION oracompat_fs.file_path(text, text), oracompat_fs.read(text, text),
    oracompat_fs.write(text, text, bytea), oracompat_fs.exists(text, text), oracompat_fs.remove(text, text),
    oracompat_fs.rename(text, text, text, text, boolean), oracompat_fs.create_directory(text, text, boolean)
    TO PUBLIC;
