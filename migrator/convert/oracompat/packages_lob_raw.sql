-- oracompat: DBMS_LOB and UTL_RAW, the Oracle-supplied packages for large and raw values.
-- A CLOB is text and a BLOB or RAW is bytea (migrator/convert/datatypes.py), so every DBMS_LOB
-- member has one overload per type. Offsets and amounts are 1-based and counted in characters
-- for text and bytes for bytea, as in Oracle. A procedure with IN OUT parameters is a function
-- whose INOUT parameters come back as its result (one) or its columns (several): the converter
-- assigns them to the caller's arguments (migrator/convert/supplied.py). Errors are Oracle's:
-- VALUE_ERROR (ORA-06502, SQLSTATE 22003) for NULL arguments, INVALID_ARGVAL (ORA-21560, OS560)
-- for amounts and offsets out of range, as the PL/SQL Packages and Types Reference documents.
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE OR REPLACE FUNCTION oracompat.lob_value_error(p_what text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION 'PL/SQL: numeric or value error: %', p_what USING ERRCODE = '22003';
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.lob_invalid_argval(p_what text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION 'argument % is null, invalid, or out of range', p_what USING ERRCODE = 'OS560';
END;
$fn$;

-- GETLENGTH(lob): characters of a CLOB, bytes of a BLOB; NULL for NULL; 0 for an empty LOB.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_getlength(lob_loc text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT length(lob_loc) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_getlength(lob_loc bytea) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT octet_length(lob_loc) $fn$;

-- SUBSTR(lob, amount = 32767, offset = 1): NULL when an argument is NULL, amount is outside
-- 1..32767, offset < 1, or nothing is left from offset on (Oracle has no empty VARCHAR2/RAW).
-- Integer arguments are rounded, as PL/SQL rounds a NUMBER passed for an INTEGER parameter.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_substr(lob_loc text, amount numeric DEFAULT 32767, "offset" numeric DEFAULT 1)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN amount IS NULL OR "offset" IS NULL OR round(amount) NOT BETWEEN 1 AND 32767 OR round("offset") < 1
              THEN NULL
              ELSE nullif(substr(lob_loc, round("offset")::integer, round(amount)::integer), '') END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_substr(lob_loc bytea, amount numeric DEFAULT 32767, "offset" numeric DEFAULT 1)
RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN amount IS NULL OR "offset" IS NULL OR round(amount) NOT BETWEEN 1 AND 32767 OR round("offset") < 1
              THEN NULL
              ELSE nullif(substring(lob_loc FROM round("offset")::integer FOR round(amount)::integer), ''::bytea) END
$fn$;

-- INSTR(lob, pattern, offset = 1, nth = 1): position of the nth match at or after offset, 0 when
-- there is none; NULL for NULL arguments and for offset or nth below 1.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_instr(lob_loc text, pattern text, "offset" numeric DEFAULT 1, nth numeric DEFAULT 1)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN lob_loc IS NULL OR pattern IS NULL OR pattern = '' OR "offset" IS NULL OR nth IS NULL
                   OR round("offset") < 1 OR round(nth) < 1 THEN NULL
              ELSE oracompat.instr(lob_loc, pattern, round("offset"), round(nth)) END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_instr(lob_loc bytea, pattern bytea, "offset" numeric DEFAULT 1, nth numeric DEFAULT 1)
RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
    p integer;
    found integer := 0;
    hit integer;
BEGIN
    IF lob_loc IS NULL OR pattern IS NULL OR octet_length(pattern) = 0 OR "offset" IS NULL OR nth IS NULL
       OR round("offset") < 1 OR round(nth) < 1 THEN
        RETURN NULL;
    END IF;
    p := round("offset");
    LOOP
        IF p > octet_length(lob_loc) THEN
            RETURN 0;
        END IF;
        hit := position(pattern IN substring(lob_loc FROM p));
        IF hit = 0 THEN
            RETURN 0;
        END IF;
        found := found + 1;
        IF found = round(nth) THEN
            RETURN p + hit - 1;
        END IF;
        p := p + hit;  -- overlapping matches count, as in INSTR
    END LOOP;
END;
$fn$;

-- APPEND(dest IN OUT, src): VALUE_ERROR when either LOB is NULL.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_append(INOUT dest_lob text, src_lob text)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF dest_lob IS NULL OR src_lob IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    dest_lob := dest_lob || src_lob;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_append(INOUT dest_lob bytea, src_lob bytea)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF dest_lob IS NULL OR src_lob IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    dest_lob := dest_lob || src_lob;
END;
$fn$;

-- WRITEAPPEND(lob IN OUT, amount, buffer): the first `amount` characters of buffer appended;
-- INVALID_ARGVAL when amount is outside 1..32767 or more than the buffer holds.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_writeappend(INOUT lob_loc text, amount numeric, buffer text)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR buffer IS NULL OR amount IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND least(32767, length(buffer)) THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT');
    END IF;
    lob_loc := lob_loc || substr(buffer, 1, round(amount)::integer);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_writeappend(INOUT lob_loc bytea, amount numeric, buffer bytea)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR buffer IS NULL OR amount IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND least(32767, octet_length(buffer)) THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT');
    END IF;
    lob_loc := lob_loc || substring(buffer FROM 1 FOR round(amount)::integer);
END;
$fn$;

-- The piece `p` written into `lob` at `offset`, overwriting what is there; a gap after the end is
-- filled with spaces (CLOB) or zero bytes (BLOB), as COPY and WRITE do.
CREATE OR REPLACE FUNCTION oracompat.lob_overwrite(lob text, "offset" integer, p text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT rpad(substr(lob, 1, "offset" - 1), "offset" - 1, ' ') || p || substr(lob, "offset" + length(p))
$fn$;

CREATE OR REPLACE FUNCTION oracompat.lob_overwrite(lob bytea, "offset" integer, p bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT substring(lob FROM 1 FOR "offset" - 1)
         || decode(repeat('00', greatest("offset" - 1 - octet_length(lob), 0)), 'hex')
         || p || substring(lob FROM "offset" + octet_length(p))
$fn$;

-- COPY(dest IN OUT, src, amount, dest_offset = 1, src_offset = 1)
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_copy(INOUT dest_lob text, src_lob text, amount numeric,
                                                   dest_offset numeric DEFAULT 1, src_offset numeric DEFAULT 1)
LANGUAGE plpgsql AS $fn$
DECLARE
    piece text;
BEGIN
    IF dest_lob IS NULL OR src_lob IS NULL OR amount IS NULL OR dest_offset IS NULL OR src_offset IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round(dest_offset) < 1 OR round(src_offset) < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    piece := substr(src_lob, round(src_offset)::integer, round(amount)::integer);
    IF piece <> '' THEN
        dest_lob := oracompat.lob_overwrite(dest_lob, round(dest_offset)::integer, piece);
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_copy(INOUT dest_lob bytea, src_lob bytea, amount numeric,
                                                   dest_offset numeric DEFAULT 1, src_offset numeric DEFAULT 1)
LANGUAGE plpgsql AS $fn$
DECLARE
    piece bytea;
BEGIN
    IF dest_lob IS NULL OR src_lob IS NULL OR amount IS NULL OR dest_offset IS NULL OR src_offset IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round(dest_offset) < 1 OR round(src_offset) < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    piece := substring(src_lob FROM round(src_offset)::integer FOR round(amount)::integer);
    IF octet_length(piece) > 0 THEN
        dest_lob := oracompat.lob_overwrite(dest_lob, round(dest_offset)::integer, piece);
    END IF;
END;
$fn$;

-- TRIM(lob IN OUT, newlen): ORA-22926 when newlen is beyond the current length.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_trim(INOUT lob_loc text, newlen numeric)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR newlen IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(newlen) < 0 THEN
        PERFORM oracompat.lob_invalid_argval('NEWLEN');
    END IF;
    IF round(newlen) > length(lob_loc) THEN
        RAISE EXCEPTION 'specified trim length is greater than current LOB value''s length' USING ERRCODE = 'OS926';
    END IF;
    lob_loc := substr(lob_loc, 1, round(newlen)::integer);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_trim(INOUT lob_loc bytea, newlen numeric)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR newlen IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(newlen) < 0 THEN
        PERFORM oracompat.lob_invalid_argval('NEWLEN');
    END IF;
    IF round(newlen) > octet_length(lob_loc) THEN
        RAISE EXCEPTION 'specified trim length is greater than current LOB value''s length' USING ERRCODE = 'OS926';
    END IF;
    lob_loc := substring(lob_loc FROM 1 FOR round(newlen)::integer);
END;
$fn$;

-- ERASE(lob IN OUT, amount IN OUT, offset = 1): `amount` characters from offset become spaces
-- (zero bytes in a BLOB); amount comes back as the number actually erased (the LOB may end first).
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_erase(INOUT lob_loc text, INOUT amount numeric, "offset" numeric DEFAULT 1)
LANGUAGE plpgsql AS $fn$
DECLARE
    n integer;
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    n := greatest(least(round(amount)::integer, length(lob_loc) - round("offset")::integer + 1), 0);
    IF n > 0 THEN
        lob_loc := oracompat.lob_overwrite(lob_loc, round("offset")::integer, repeat(' ', n));
    END IF;
    amount := n;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_erase(INOUT lob_loc bytea, INOUT amount numeric, "offset" numeric DEFAULT 1)
LANGUAGE plpgsql AS $fn$
DECLARE
    n integer;
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    n := greatest(least(round(amount)::integer, octet_length(lob_loc) - round("offset")::integer + 1), 0);
    IF n > 0 THEN
        lob_loc := oracompat.lob_overwrite(lob_loc, round("offset")::integer, decode(repeat('00', n), 'hex'));
    END IF;
    amount := n;
END;
$fn$;

-- CREATETEMPORARY(lob IN OUT, cache, dur): an empty LOB (not NULL); FREETEMPORARY: NULL again.
-- OPEN / CLOSE only bracket a series of writes in Oracle: nothing to do here.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_createtemporary(INOUT lob_loc text, cache boolean, dur numeric DEFAULT 10)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT ''::text $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_createtemporary(INOUT lob_loc bytea, cache boolean, dur numeric DEFAULT 10)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT ''::bytea $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_freetemporary(INOUT lob_loc text)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT NULL::text $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_freetemporary(INOUT lob_loc bytea)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT NULL::bytea $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_open(INOUT lob_loc text, open_mode numeric)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT lob_loc $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_open(INOUT lob_loc bytea, open_mode numeric)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT lob_loc $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_close(INOUT lob_loc text)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT lob_loc $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_close(INOUT lob_loc bytea)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT lob_loc $fn$;

-- COMPARE(lob1, lob2, amount = LOBMAXSIZE, offset1 = 1, offset2 = 1): 0 when the ranges hold the
-- same data, -1 / 1 when the first is smaller / larger (binary order); NULL for NULL arguments and
-- for an amount or offset below 1.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_compare(lob_1 text, lob_2 text, amount numeric DEFAULT 18446744073709551615,
                                                      offset_1 numeric DEFAULT 1, offset_2 numeric DEFAULT 1)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a = b THEN 0 WHEN a < b THEN -1 ELSE 1 END
    FROM (SELECT CASE WHEN round(amount) >= 1 AND round(offset_1) >= 1
                      THEN substr(lob_1, round(offset_1)::integer, least(round(amount), 2147483647)::integer) END COLLATE "C" AS a,
                 CASE WHEN round(amount) >= 1 AND round(offset_2) >= 1
                      THEN substr(lob_2, round(offset_2)::integer, least(round(amount), 2147483647)::integer) END COLLATE "C" AS b) s
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_compare(lob_1 bytea, lob_2 bytea, amount numeric DEFAULT 18446744073709551615,
                                                      offset_1 numeric DEFAULT 1, offset_2 numeric DEFAULT 1)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a = b THEN 0 WHEN a < b THEN -1 ELSE 1 END
    FROM (SELECT CASE WHEN round(amount) >= 1 AND round(offset_1) >= 1
                      THEN substring(lob_1 FROM round(offset_1)::integer FOR least(round(amount), 2147483647)::integer) END AS a,
                 CASE WHEN round(amount) >= 1 AND round(offset_2) >= 1
                      THEN substring(lob_2 FROM round(offset_2)::integer FOR least(round(amount), 2147483647)::integer) END AS b) s
$fn$;

-- READ(lob, amount IN OUT, offset, buffer OUT): NO_DATA_FOUND when offset is past the end.
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_read(lob_loc text, INOUT amount numeric, "offset" numeric, OUT buffer text)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND 32767 OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    IF round("offset") > length(lob_loc) THEN
        RAISE no_data_found;
    END IF;
    buffer := substr(lob_loc, round("offset")::integer, round(amount)::integer);
    amount := length(buffer);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_read(lob_loc bytea, INOUT amount numeric, "offset" numeric, OUT buffer bytea)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND 32767 OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    IF round("offset") > octet_length(lob_loc) THEN
        RAISE no_data_found;
    END IF;
    buffer := substring(lob_loc FROM round("offset")::integer FOR round(amount)::integer);
    amount := octet_length(buffer);
END;
$fn$;

-- WRITE(lob IN OUT, amount, offset, buffer): overwrite from offset (a gap is padded).
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_write(INOUT lob_loc text, amount numeric, "offset" numeric, buffer text)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL OR buffer IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND least(32767, length(buffer)) OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    lob_loc := oracompat.lob_overwrite(lob_loc, round("offset")::integer, substr(buffer, 1, round(amount)::integer));
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_write(INOUT lob_loc bytea, amount numeric, "offset" numeric, buffer bytea)
LANGUAGE plpgsql AS $fn$
BEGIN
    IF lob_loc IS NULL OR amount IS NULL OR "offset" IS NULL OR buffer IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) NOT BETWEEN 1 AND least(32767, octet_length(buffer)) OR round("offset") < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    lob_loc := oracompat.lob_overwrite(lob_loc, round("offset")::integer,
                                       substring(buffer FROM 1 FOR round(amount)::integer));
END;
$fn$;

-- CONVERTTOBLOB / CONVERTTOCLOB: text ↔ bytes in a character set (BLOB_CSID: DEFAULT_CSID 0 is
-- the database's; the ids of NLS_CHARSET_ID for AL32UTF8/UTF8, WE8ISO8859P1, WE8MSWIN1252 and
-- US7ASCII are known, any other is INVALID_ARGVAL). AMOUNT counts the source's characters (CLOB)
-- or bytes (BLOB), DBMS_LOB.LOBMAXSIZE meaning all of it; the result is written over DEST_LOB at
-- DEST_OFFSET; DEST_OFFSET and SRC_OFFSET come back just past what was written and read. A
-- character the target cannot hold becomes the replacement character (? in a single-byte set,
-- U+FFFD read from invalid UTF-8) and WARNING is WARN_INCONVERTIBLE_CHAR (1), else NO_WARNING (0);
-- LANG_CONTEXT is returned unchanged (no stateful character sets here).
CREATE OR REPLACE FUNCTION oracompat.lob_charset(csid numeric) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    RETURN CASE round(csid)
        WHEN 0 THEN pg_encoding_to_char(
            (SELECT encoding FROM pg_database WHERE datname = current_database()))
        WHEN 873 THEN 'UTF8' WHEN 871 THEN 'UTF8'
        WHEN 31 THEN 'LATIN1' WHEN 178 THEN 'WIN1252' WHEN 1 THEN 'SQL_ASCII' END;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_converttoblob(
    INOUT dest_lob bytea, src_clob text, amount numeric, INOUT dest_offset numeric, INOUT src_offset numeric,
    blob_csid numeric, INOUT lang_context numeric, OUT warning numeric)
LANGUAGE plpgsql AS $fn$
DECLARE
    enc text := oracompat.lob_charset(blob_csid);
    piece text;
    bytes bytea := '';
    ch text;
BEGIN
    IF dest_lob IS NULL OR src_clob IS NULL OR amount IS NULL OR dest_offset IS NULL OR src_offset IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round(dest_offset) < 1 OR round(src_offset) < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    IF enc IS NULL THEN
        PERFORM oracompat.lob_invalid_argval('BLOB_CSID');
    END IF;
    piece := substr(src_clob, round(src_offset)::integer, least(round(amount), 2147483647)::integer);
    warning := 0;
    IF enc = 'SQL_ASCII' THEN  -- US7ASCII: 7-bit characters only
        FOREACH ch IN ARRAY regexp_split_to_array(piece, '') LOOP
            IF ascii(ch) > 127 THEN
                bytes := bytes || '\x3f'::bytea;
                warning := 1;
            ELSE
                bytes := bytes || convert_to(ch, 'UTF8');
            END IF;
        END LOOP;
    ELSE
        BEGIN
            bytes := convert_to(piece, enc);
        EXCEPTION WHEN untranslatable_character THEN
            bytes := '';
            FOREACH ch IN ARRAY regexp_split_to_array(piece, '') LOOP
                BEGIN
                    bytes := bytes || convert_to(ch, enc);
                EXCEPTION WHEN untranslatable_character THEN
                    bytes := bytes || '\x3f'::bytea;
                    warning := 1;
                END;
            END LOOP;
        END;
    END IF;
    IF octet_length(bytes) > 0 THEN
        dest_lob := oracompat.lob_overwrite(dest_lob, round(dest_offset)::integer, bytes);
    END IF;
    dest_offset := round(dest_offset) + octet_length(bytes);
    src_offset := round(src_offset) + length(piece);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_lob_converttoclob(
    INOUT dest_lob text, src_blob bytea, amount numeric, INOUT dest_offset numeric, INOUT src_offset numeric,
    blob_csid numeric, INOUT lang_context numeric, OUT warning numeric)
LANGUAGE plpgsql AS $fn$
DECLARE
    enc text := oracompat.lob_charset(blob_csid);
    piece bytea;
    chars text := '';
    i integer := 0;
    n integer;
    b integer;
BEGIN
    IF dest_lob IS NULL OR src_blob IS NULL OR amount IS NULL OR dest_offset IS NULL OR src_offset IS NULL THEN
        PERFORM oracompat.lob_value_error('invalid LOB locator specified');
    END IF;
    IF round(amount) < 1 OR round(dest_offset) < 1 OR round(src_offset) < 1 THEN
        PERFORM oracompat.lob_invalid_argval('AMOUNT/OFFSET');
    END IF;
    IF enc IS NULL THEN
        PERFORM oracompat.lob_invalid_argval('BLOB_CSID');
    END IF;
    piece := substring(src_blob FROM round(src_offset)::integer FOR least(round(amount), 2147483647)::integer);
    warning := 0;
    BEGIN
        IF enc = 'SQL_ASCII' THEN  -- US7ASCII: byte by byte below, 8-bit bytes replaced
            RAISE character_not_in_repertoire;
        END IF;
        chars := convert_from(piece, enc);
    EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
        chars := '';  -- one character at a time: an invalid one is replaced
        WHILE i < octet_length(piece) LOOP
            b := get_byte(piece, i);
            n := CASE WHEN enc <> 'UTF8' OR b < 128 THEN 1 WHEN b >= 240 THEN 4 WHEN b >= 224 THEN 3
                      WHEN b >= 192 THEN 2 ELSE 1 END;
            IF enc = 'SQL_ASCII' THEN
                IF b > 127 THEN
                    chars := chars || '?';
                    warning := 1;
                ELSE
                    chars := chars || chr(b);
                END IF;
            ELSE
                BEGIN
                    chars := chars || convert_from(substring(piece FROM i + 1 FOR n), enc);
                EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
                    chars := chars || CASE WHEN enc = 'UTF8' THEN U&'\FFFD' ELSE '?' END;
                    warning := 1;
                    n := 1;
                END;
            END IF;
            i := i + n;
        END LOOP;
    END;
    IF chars <> '' THEN
        dest_lob := oracompat.lob_overwrite(dest_lob, round(dest_offset)::integer, chars);
    END IF;
    dest_offset := round(dest_offset) + length(chars);
    src_offset := round(src_offset) + octet_length(piece);
END;
$fn$;

-- UTL_RAW: RAW is bytea; text ↔ RAW in the database character set. NULL in, NULL out unless the
-- reference says otherwise; VALUE_ERROR (22003) where it documents one.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_cast_to_raw(c text) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$ SELECT convert_to(c, pg_catalog.getdatabaseencoding()) $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_cast_to_varchar2(r bytea) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$ SELECT nullif(convert_from(r, pg_catalog.getdatabaseencoding()), '') $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_length(r bytea) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT octet_length(r) $fn$;

-- CONCAT(r1, ..., r12): the non-NULL arguments joined; NULL when all are NULL.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_concat(
    r1 bytea DEFAULT NULL, r2 bytea DEFAULT NULL, r3 bytea DEFAULT NULL, r4 bytea DEFAULT NULL,
    r5 bytea DEFAULT NULL, r6 bytea DEFAULT NULL, r7 bytea DEFAULT NULL, r8 bytea DEFAULT NULL,
    r9 bytea DEFAULT NULL, r10 bytea DEFAULT NULL, r11 bytea DEFAULT NULL, r12 bytea DEFAULT NULL)
RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT nullif(coalesce(r1, '') || coalesce(r2, '') || coalesce(r3, '') || coalesce(r4, '') || coalesce(r5, '')
                || coalesce(r6, '') || coalesce(r7, '') || coalesce(r8, '') || coalesce(r9, '') || coalesce(r10, '')
                || coalesce(r11, '') || coalesce(r12, ''), ''::bytea)
$fn$;

-- SUBSTR(r, pos, len = to the end): pos < 0 counts from the end; VALUE_ERROR for pos 0, pos beyond
-- the end, len < 1 or len reaching past the end.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_substr(r bytea, pos numeric, len numeric DEFAULT NULL)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    n integer := octet_length(r);
    p integer := round(pos);
    l integer := round(len);
BEGIN
    IF r IS NULL OR n = 0 THEN
        RETURN NULL;
    END IF;
    IF p < 0 THEN
        p := n + p + 1;
    END IF;
    IF pos IS NULL OR p < 1 OR p > n OR round(pos) = 0 THEN
        PERFORM oracompat.lob_value_error('pos');
    END IF;
    IF len IS NULL THEN
        l := n - p + 1;
    END IF;
    IF l < 1 OR l > n - p + 1 THEN
        PERFORM oracompat.lob_value_error('len');
    END IF;
    RETURN substring(r FROM p FOR l);
END;
$fn$;

-- BIT_AND / BIT_OR / BIT_XOR(r1, r2): byte by byte over the shorter value, the rest of the longer
-- one appended unchanged; NULL when either is NULL. BIT_COMPLEMENT(r): every bit flipped.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_bitop(r1 bytea, r2 bytea, op text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    n integer;
    out bytea;
    a integer;
    b integer;
BEGIN
    IF r1 IS NULL OR r2 IS NULL THEN
        RETURN NULL;
    END IF;
    n := least(octet_length(r1), octet_length(r2));
    out := CASE WHEN octet_length(r1) >= octet_length(r2) THEN r1 ELSE r2 END;
    FOR i IN 0 .. n - 1 LOOP
        a := get_byte(r1, i);
        b := get_byte(r2, i);
        out := set_byte(out, i, CASE op WHEN 'and' THEN a & b WHEN 'or' THEN a | b ELSE a # b END);
    END LOOP;
    RETURN out;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_bit_and(r1 bytea, r2 bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.utl_raw_bitop(r1, r2, 'and') $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_bit_or(r1 bytea, r2 bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.utl_raw_bitop(r1, r2, 'or') $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_bit_xor(r1 bytea, r2 bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.utl_raw_bitop(r1, r2, 'xor') $fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_bit_complement(r bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out bytea := r;
BEGIN
    IF r IS NULL THEN
        RETURN NULL;
    END IF;
    FOR i IN 0 .. octet_length(r) - 1 LOOP
        out := set_byte(out, i, 255 - get_byte(r, i));
    END LOOP;
    RETURN out;
END;
$fn$;

-- COMPARE(r1, r2, pad = 0x00): 0 when equal, else the 1-based position of the first differing
-- byte, the shorter value extended with the pad byte; NULL counts as a zero-length value.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_compare(r1 bytea, r2 bytea, pad bytea DEFAULT NULL)
RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    a bytea := coalesce(r1, '');
    b bytea := coalesce(r2, '');
    fill integer := CASE WHEN pad IS NULL OR octet_length(pad) = 0 THEN 0 ELSE get_byte(pad, 0) END;
    x integer;
    y integer;
BEGIN
    FOR i IN 0 .. greatest(octet_length(a), octet_length(b)) - 1 LOOP
        x := CASE WHEN i < octet_length(a) THEN get_byte(a, i) ELSE fill END;
        y := CASE WHEN i < octet_length(b) THEN get_byte(b, i) ELSE fill END;
        IF x <> y THEN
            RETURN i + 1;
        END IF;
    END LOOP;
    RETURN 0;
END;
$fn$;

-- REVERSE(r) and COPIES(r, n): VALUE_ERROR for a NULL or empty r (and n < 1).
CREATE OR REPLACE FUNCTION oracompat.utl_raw_reverse(r bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out bytea := r;
    n integer := octet_length(r);
BEGIN
    IF r IS NULL OR n = 0 THEN
        PERFORM oracompat.lob_value_error('r');
    END IF;
    FOR i IN 0 .. n - 1 LOOP
        out := set_byte(out, i, get_byte(r, n - 1 - i));
    END LOOP;
    RETURN out;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_copies(r bytea, n numeric) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out bytea := '';
BEGIN
    IF r IS NULL OR octet_length(r) = 0 OR n IS NULL OR round(n) < 1 THEN
        PERFORM oracompat.lob_value_error('r/n');
    END IF;
    FOR i IN 1 .. round(n)::integer LOOP
        out := out || r;
    END LOOP;
    RETURN out;
END;
$fn$;

-- CAST_FROM_BINARY_INTEGER(n, endianess = BIG_ENDIAN (1)) / CAST_TO_BINARY_INTEGER(r, endianess):
-- a 32-bit two's-complement integer as 4 bytes; LITTLE_ENDIAN (2) reverses them. MACHINE_ENDIAN (3)
-- is the server's byte order, which SQL cannot see: refused rather than guessed.
CREATE OR REPLACE FUNCTION oracompat.utl_raw_endianess(p numeric) RETURNS integer
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF p IS NULL OR p NOT IN (1, 2) THEN
        RAISE EXCEPTION 'UTL_RAW endianess % is not supported (MACHINE_ENDIAN depends on the server)', p
            USING ERRCODE = '22023';
    END IF;
    RETURN p;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_cast_from_binary_integer(n numeric, endianess numeric DEFAULT 1)
RETURNS bytea LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN n IS NULL THEN NULL
              WHEN oracompat.utl_raw_endianess(endianess) = 1 THEN int4send(round(n)::integer)
              ELSE oracompat.utl_raw_reverse(int4send(round(n)::integer)) END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_raw_cast_to_binary_integer(r bytea, endianess numeric DEFAULT 1)
RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    b bytea;
    v bigint := 0;
BEGIN
    IF r IS NULL THEN
        RETURN NULL;
    END IF;
    IF octet_length(r) NOT BETWEEN 1 AND 4 THEN
        PERFORM oracompat.lob_value_error('r');
    END IF;
    b := CASE WHEN oracompat.utl_raw_endianess(endianess) = 1 THEN r ELSE oracompat.utl_raw_reverse(r) END;
    FOR i IN 0 .. octet_length(b) - 1 LOOP
        v := v * 256 + get_byte(b, i);
    END LOOP;
    IF octet_length(b) = 4 AND v >= 2147483648 THEN
        v := v - 4294967296;
    END IF;
    RETURN v;
END;
$fn$;

-- SHA-1 (FIPS 180-4), for DBMS_CRYPTO.HASH_SH1: PostgreSQL has it only in pgcrypto, which the
-- execution role cannot install. 32-bit words in bigint, masked after every addition and shift.
CREATE OR REPLACE FUNCTION oracompat.sha1(msg bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
    m constant bigint := 4294967295;
    bits bigint := octet_length(msg)::bigint * 8;
    data bytea := msg || '\x80'::bytea;
    h bigint[] := ARRAY[1732584193, 4023233417, 2562383102, 271733878, 3285377520];
    w bigint[];
    a bigint; b bigint; c bigint; d bigint; e bigint; f bigint; k bigint; tmp bigint;
    chunk integer;
    t integer;
BEGIN
    WHILE octet_length(data) % 64 <> 56 LOOP
        data := data || '\x00'::bytea;
    END LOOP;
    data := data || int8send(bits);
    FOR chunk IN 0 .. octet_length(data) / 64 - 1 LOOP
        w := ARRAY[]::bigint[];
        FOR t IN 0 .. 15 LOOP
            w[t] := (get_byte(data, chunk * 64 + t * 4)::bigint << 24) | (get_byte(data, chunk * 64 + t * 4 + 1) << 16)
                | (get_byte(data, chunk * 64 + t * 4 + 2) << 8) | get_byte(data, chunk * 64 + t * 4 + 3);
        END LOOP;
        FOR t IN 16 .. 79 LOOP
            tmp := w[t - 3] # w[t - 8] # w[t - 14] # w[t - 16];
            w[t] := ((tmp << 1) | (tmp >> 31)) & m;
        END LOOP;
        a := h[1]; b := h[2]; c := h[3]; d := h[4]; e := h[5];
        FOR t IN 0 .. 79 LOOP
            IF t < 20 THEN
                f := (b & c) | ((~b & m) & d); k := 1518500249;
            ELSIF t < 40 THEN
                f := b # c # d; k := 1859775393;
            ELSIF t < 60 THEN
                f := (b & c) | (b & d) | (c & d); k := 2400959708;
            ELSE
                f := b # c # d; k := 3395469782;
            END IF;
            tmp := ((((a << 5) | (a >> 27)) & m) + f + e + k + w[t]) & m;
            e := d; d := c; c := ((b << 30) | (b >> 2)) & m; b := a; a := tmp;
        END LOOP;
        h[1] := (h[1] + a) & m; h[2] := (h[2] + b) & m; h[3] := (h[3] + c) & m;
        h[4] := (h[4] + d) & m; h[5] := (h[5] + e) & m;
    END LOOP;
    RETURN substring(int8send(h[1]) FROM 5) || substring(int8send(h[2]) FROM 5) || substring(int8send(h[3]) FROM 5)
        || substring(int8send(h[4]) FROM 5) || substring(int8send(h[5]) FROM 5);
END;
$fn$;

-- DBMS_CRYPTO.HASH(src, typ): the digest as RAW. A CLOB is hashed as its AL32UTF8 bytes (Oracle
-- converts a CLOB to AL32UTF8 before any DBMS_CRYPTO operation). HASH_MD5 (2) and the SHA-2
-- family (HASH_SH256 4, HASH_SH384 5, HASH_SH512 6) are PostgreSQL built-ins, HASH_SH1 (3) is
-- oracompat.sha1; HASH_MD4 (1) needs pgcrypto, which the execution role cannot install: it
-- raises, naming the algorithm, rather than return another digest. NULL in, NULL out.
CREATE OR REPLACE FUNCTION oracompat.dbms_crypto_hash(src bytea, typ numeric) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
BEGIN
    IF src IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN CASE round(typ)
        WHEN 2 THEN decode(md5(src), 'hex')
        WHEN 3 THEN oracompat.sha1(src)
        WHEN 4 THEN sha256(src)
        WHEN 5 THEN sha384(src)
        WHEN 6 THEN sha512(src)
        ELSE oracompat.crypto_unsupported(typ) END;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_crypto_hash(src text, typ numeric) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT oracompat.dbms_crypto_hash(convert_to(src, 'UTF8'), typ) $fn$;

CREATE OR REPLACE FUNCTION oracompat.crypto_unsupported(typ numeric) RETURNS bytea
LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION 'DBMS_CRYPTO hash type % (%) needs pgcrypto, not available to the execution role',
        typ, CASE round(typ) WHEN 1 THEN 'HASH_MD4' ELSE 'unknown' END
        USING ERRCODE = 'OS560';
END;
$fn$;

-- UTL_I18N.STRING_TO_RAW(data, dst_charset) / RAW_TO_CHAR(data, src_charset): text <-> bytes in
-- an Oracle character set (NULL: the database's), with CONVERTTOBLOB/CONVERTTOCLOB's conversion
-- (a character the set cannot hold becomes its replacement character). The sets lob_charset knows
-- are accepted by name (AL32UTF8, UTF8, WE8ISO8859P1, WE8MSWIN1252, US7ASCII); any other raises.
CREATE OR REPLACE FUNCTION oracompat.charset_id(name text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    id numeric := CASE upper(btrim(name))
        WHEN 'AL32UTF8' THEN 873 WHEN 'UTF8' THEN 871 WHEN 'WE8ISO8859P1' THEN 31
        WHEN 'WE8MSWIN1252' THEN 178 WHEN 'US7ASCII' THEN 1 END;
BEGIN
    IF name IS NULL THEN
        RETURN 0;  -- the database's character set
    END IF;
    IF id IS NULL THEN
        RAISE EXCEPTION 'character set % is not one this library converts', name USING ERRCODE = 'OS560';
    END IF;
    RETURN id;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_i18n_string_to_raw(data text, dst_charset text DEFAULT NULL) RETURNS bytea
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    dest bytea := '';
    dest_offset numeric := 1;
    src_offset numeric := 1;
    ctx numeric := 0;
    warn numeric;
BEGIN
    IF data IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT r.dest_lob INTO dest FROM oracompat.dbms_lob_converttoblob(
        dest, data, 18446744073709551615, dest_offset, src_offset, oracompat.charset_id(dst_charset), ctx) r;
    RETURN dest;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_i18n_raw_to_char(data bytea, src_charset text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    dest text := '';
    dest_offset numeric := 1;
    src_offset numeric := 1;
    ctx numeric := 0;
BEGIN
    IF data IS NULL OR octet_length(data) = 0 THEN
        RETURN NULL;
    END IF;
    SELECT r.dest_lob INTO dest FROM oracompat.dbms_lob_converttoclob(
        dest, data, 18446744073709551615, dest_offset, src_offset, oracompat.charset_id(src_charset), ctx) r;
    RETURN nullif(dest, '');
END;
$fn$;

-- DBMS_CRYPTO.MAC(src, typ, key): HMAC (RFC 2104) over the digests above: HMAC_MD5 (1),
-- HMAC_SH1 (2), HMAC_SH256 (3), HMAC_SH384 (4), HMAC_SH512 (5); block 64 bytes (128 for SHA-384
-- and SHA-512), a longer key hashed first. A CLOB is its AL32UTF8 bytes. NULL in, NULL out.
CREATE OR REPLACE FUNCTION oracompat.dbms_crypto_mac(src bytea, typ numeric, key bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
    hash_typ integer := CASE round(typ) WHEN 1 THEN 2 WHEN 2 THEN 3 WHEN 3 THEN 4 WHEN 4 THEN 5 WHEN 5 THEN 6 END;
    block integer := CASE WHEN round(typ) IN (4, 5) THEN 128 ELSE 64 END;
    k bytea := key;
    inner_pad bytea;
    outer_pad bytea;
    i integer;
BEGIN
    IF src IS NULL OR key IS NULL THEN
        RETURN NULL;
    END IF;
    IF hash_typ IS NULL THEN
        RAISE EXCEPTION 'DBMS_CRYPTO MAC type % is not one of HMAC_MD5 .. HMAC_SH512', typ USING ERRCODE = 'OS560';
    END IF;
    IF octet_length(k) > block THEN
        k := oracompat.dbms_crypto_hash(k, hash_typ);
    END IF;
    k := k || decode(repeat('00', block - octet_length(k)), 'hex');
    inner_pad := k;
    outer_pad := k;
    FOR i IN 0 .. block - 1 LOOP
        inner_pad := set_byte(inner_pad, i, get_byte(k, i) # 54);
        outer_pad := set_byte(outer_pad, i, get_byte(k, i) # 92);
    END LOOP;
    RETURN oracompat.dbms_crypto_hash(outer_pad || oracompat.dbms_crypto_hash(inner_pad || src, hash_typ), hash_typ);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_crypto_mac(src text, typ numeric, key bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT oracompat.dbms_crypto_mac(convert_to(src, 'UTF8'), typ, key) $fn$;

-- UTL_ENCODE.BASE64_ENCODE(r) / BASE64_DECODE(r): RAW in, RAW (of the base64 text) out. Oracle
-- writes 64 characters a line, each full line ended by CR LF (every 48 input bytes make one; a
-- last, shorter line has none: why only chunks of a multiple of 48 bytes encode piecewise to the
-- same text). Decoding skips CR, LF and blanks. NULL in, NULL out.
CREATE OR REPLACE FUNCTION oracompat.utl_encode_base64_encode(r bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
    out text := '';
    pos integer := 1;
    n integer := octet_length(r);
BEGIN
    IF r IS NULL THEN
        RETURN NULL;
    END IF;
    WHILE pos + 47 <= n LOOP
        out := out || encode(substring(r FROM pos FOR 48), 'base64') || E'\r\n';
        pos := pos + 48;
    END LOOP;
    IF pos <= n THEN
        out := out || encode(substring(r FROM pos), 'base64');
    END IF;
    RETURN convert_to(out, 'UTF8');
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.utl_encode_base64_decode(r bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$ SELECT decode(convert_from(r, 'UTF8'), 'base64') $fn$;
