-- rules: ddl.varchar2, ddl.lob_types, plsql.empty_string_params, plsql.supplied_package, plsql.declaration_order, plsql.function
-- unconverted: needs an Oracle-supplied package with no PostgreSQL equivalent: BFILENAME: 1 call site(s): line 2 BFILENAME
-- unconverted: needs an Oracle-supplied package with no PostgreSQL equivalent: DBMS_LOB file operations (BFILE): 4 call site(s): line 6 DBMS_LOB.FILEOPEN, line 6 DBMS_LOB.FILE_READONLY, line 7 DBMS_LOB.LOADFROMFILE, line 8 DBMS_LOB.FILECLOSE
/* MIGRATOR_UNCONVERTED(Oracle-supplied package BFILENAME): BFILENAME */ MIGRATOR_UNCONVERTED;
CREATE OR REPLACE FUNCTION s.file_blob(p_file varchar)
RETURNS bytea
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_file := nullif(p_file, '');
    DECLARE
        l_bfile bytea := BFILENAME('DIR', p_file);
        l_blob bytea;
    BEGIN
        l_blob := oracompat.dbms_lob_createtemporary(l_blob, TRUE);
        /* MIGRATOR_UNCONVERTED(Oracle-supplied package DBMS_LOB file operations (BFILE)): DBMS_LOB.FILEOPEN(l_bfile, DBMS_LOB.FILE_READONLY) */ MIGRATOR_UNCONVERTED;
        /* MIGRATOR_UNCONVERTED(Oracle-supplied package DBMS_LOB file operations (BFILE)): DBMS_LOB.LOADFROMFILE(l_blob, l_bfile, DBMS_LOB.GETLENGTH(l_bfile)) */ MIGRATOR_UNCONVERTED;
        /* MIGRATOR_UNCONVERTED(Oracle-supplied package DBMS_LOB file operations (BFILE)): DBMS_LOB.FILECLOSE(l_bfile) */ MIGRATOR_UNCONVERTED;
        RETURN l_blob;
    END;
END;
$fn$;
