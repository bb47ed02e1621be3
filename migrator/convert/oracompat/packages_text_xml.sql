-- UTL_URL, DBMS_XMLGEN.CONVERT, UTL_RAW.CONVERT, DBMS_LOB's locator queries, and XMLTYPE's
-- methods and SQL functions over PostgreSQL's xml type (libxml2's XPath 1.0).

-- An Oracle or IANA character set name (NLS_LANG's 'language_territory.charset' too) as
-- PostgreSQL's encoding name; NULL for NULL (the database's). A set not listed raises.
CREATE OR REPLACE FUNCTION oracompat.pg_encoding(name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    n text := upper(btrim(name));
BEGIN
    IF name IS NULL THEN
        RETURN NULL;
    END IF;
    IF position('.' IN n) > 0 THEN
        n := substr(n, length(n) - position('.' IN reverse(n)) + 2);
    END IF;
    n := CASE n
        WHEN 'AL32UTF8' THEN 'UTF8' WHEN 'UTF8' THEN 'UTF8' WHEN 'UTF-8' THEN 'UTF8'
        WHEN 'WE8ISO8859P1' THEN 'LATIN1' WHEN 'ISO-8859-1' THEN 'LATIN1' WHEN 'ISO8859-1' THEN 'LATIN1'
        WHEN 'WE8ISO8859P15' THEN 'LATIN9' WHEN 'ISO-8859-15' THEN 'LATIN9'
        WHEN 'WE8MSWIN1252' THEN 'WIN1252' WHEN 'WINDOWS-1252' THEN 'WIN1252'
        WHEN 'US7ASCII' THEN 'SQL_ASCII' WHEN 'US-ASCII' THEN 'SQL_ASCII' END;
    IF n IS NULL THEN
        RAISE EXCEPTION 'character set % is not one this library converts', name USING ERRCODE = 'OS560';
    END IF;
    RETURN n;
END;
$fn$;

-- UTL_URL.ESCAPE(url, escape_reserved_chars, url_charset): every character outside the
-- unreserved set (A-Z a-z 0-9 - _ . ! ~ * ' ( )) and, unless escape_reserved_chars, the reserved
-- set (; / ? : @ & = + $ % ,) becomes %XX per byte of the character in url_charset (default
-- UTL_HTTP's body character set, ISO-8859-1; NULL: the database's), upper-case hex.
CREATE OR REPLACE FUNCTION oracompat.utl_url_escape(url text, escape_reserved_chars boolean DEFAULT false,
                                                  url_charset text DEFAULT 'ISO-8859-1') RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text := '';
    ch text;
    enc text := coalesce(oracompat.pg_encoding(url_charset), pg_client_encoding());
    b bytea;
BEGIN
    IF url IS NULL OR url = '' THEN
        RETURN NULL;
    END IF;
    FOREACH ch IN ARRAY regexp_split_to_array(url, '') LOOP
        IF ch ~ '^[A-Za-z0-9_.!~*''()-]$' OR (NOT coalesce(escape_reserved_chars, false) AND ch ~ '^[;/?:@&=+$%,]$') THEN
            out := out || ch;
        ELSE
            b := convert_to(ch, CASE enc WHEN 'SQL_ASCII' THEN 'UTF8' ELSE enc END);
            FOR i IN 0 .. length(b) - 1 LOOP
                out := out || '%' || upper(lpad(to_hex(get_byte(b, i)), 2, '0'));
            END LOOP;
        END IF;
    END LOOP;
    RETURN out;
END;
$fn$;

-- UTL_URL.UNESCAPE(url, url_charset): each %XX run back to its bytes, read in url_charset.
CREATE OR REPLACE FUNCTION oracompat.utl_url_unescape(url text, url_charset text DEFAULT 'ISO-8859-1') RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    enc text := coalesce(oracompat.pg_encoding(url_charset), pg_client_encoding());
    out text := '';
    m text[];
BEGIN
    IF url IS NULL OR url = '' THEN
        RETURN NULL;
    END IF;
    IF url ~ '%([^0-9A-Fa-f]|.[^0-9A-Fa-f]|.?$)' THEN
        RAISE EXCEPTION 'ORA-29262: bad URL' USING ERRCODE = 'OS262';
    END IF;
    FOR m IN SELECT regexp_matches(url, '((?:%[0-9A-Fa-f]{2})+)|([^%]+)', 'g') LOOP
        IF m[1] IS NOT NULL THEN
            out := out || convert_from(decode(replace(m[1], '%', ''), 'hex'), CASE enc WHEN 'SQL_ASCII' THEN 'UTF8' ELSE enc END);
        ELSE
            out := out || m[2];
        END IF;
    END LOOP;
    RETURN out;
END;
$fn$;

-- DBMS_XMLGEN.CONVERT(xmlData, flag): ENTITY_ENCODE (0) writes XML's five predefined entities,
-- ENTITY_DECODE (1) reads them back (&amp; last, so '&amp;lt;' becomes '&lt;').
CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_convert(xmldata text, flag numeric DEFAULT 0) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN coalesce(flag, 0) = 1 THEN
           replace(replace(replace(replace(replace(xmldata, '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&apos;', ''''), '&amp;', '&')
         ELSE
           replace(replace(replace(replace(replace(xmldata, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&apos;')
         END
$fn$;

-- UTL_RAW.CONVERT(r, to_charset, from_charset): the bytes of r read in from_charset, written in
-- to_charset (NLS_LANG-style names: 'AMERICAN_AMERICA.AL32UTF8').
CREATE OR REPLACE FUNCTION oracompat.utl_raw_convert(r bytea, to_charset text, from_charset text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    dst text := oracompat.pg_encoding(to_charset);
    src text := oracompat.pg_encoding(from_charset);
BEGIN
    IF r IS NULL OR length(r) = 0 THEN
        RETURN NULL;
    END IF;
    IF dst IS NULL OR src IS NULL THEN
        RAISE EXCEPTION 'character set required' USING ERRCODE = 'OS560';
    END IF;
    IF dst = src OR (dst = 'SQL_ASCII' AND src = 'UTF8') OR (src = 'SQL_ASCII' AND dst = 'UTF8') THEN
        RETURN r;  -- ASCII is a subset of UTF-8: its bytes are the same
    END IF;
    RETURN convert(r, CASE src WHEN 'SQL_ASCII' THEN 'UTF8' ELSE src END, CASE dst WHEN 'SQL_ASCII' THEN 'UTF8' ELSE dst END);
END;
$fn$;

-- DBMS_LOB.GETCHUNKSIZE: the usable bytes of a LOB chunk in an 8 KB-block tablespace (Oracle's
-- default); callers size their read buffers with it. ISOPEN / ISTEMPORARY: LOBs are values here,
-- not locators, so none is open (OPEN/CLOSE bracket nothing) or temporary (nothing to free).
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_getchunksize(lob_loc text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN lob_loc IS NOT NULL THEN 8132 END::numeric $fn$;
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_getchunksize(lob_loc bytea) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN lob_loc IS NOT NULL THEN 8132 END::numeric $fn$;
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_isopen(lob_loc text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT 0::numeric $fn$;
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_isopen(lob_loc bytea) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT 0::numeric $fn$;
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_istemporary(lob_loc text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN lob_loc IS NOT NULL THEN 0 END::numeric $fn$;
CREATE OR REPLACE FUNCTION oracompat.dbms_lob_istemporary(lob_loc bytea) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN lob_loc IS NOT NULL THEN 0 END::numeric $fn$;

-- ---- XMLTYPE ------------------------------------------------------------------------------------
-- XMLTYPE(text) / XMLTYPE.CREATEXML(text): a well-formed document (ORA-31011 otherwise; no
-- content at all: ORA-19032).
CREATE OR REPLACE FUNCTION oracompat.xmltype(xmldata text) RETURNS xml
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF xmldata IS NULL OR btrim(xmldata) = '' THEN
        RAISE EXCEPTION 'ORA-19032: Expected XML tag , got no content' USING ERRCODE = 'OS032';
    END IF;
    RETURN XMLPARSE(DOCUMENT xmldata);
EXCEPTION
    WHEN invalid_xml_document OR invalid_xml_content OR invalid_xml_comment
         OR invalid_xml_processing_instruction THEN
        RAISE EXCEPTION 'ORA-31011: XML parsing failed' USING ERRCODE = 'OS011';
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.xmltype(xmldata xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmltype(xmldata::text) $fn$;

-- Oracle's namespace map ('xmlns:p="uri" xmlns:q="uri2"') as xpath()'s array of (prefix, uri).
-- A default namespace (xmlns="uri") would apply to the XPath's unprefixed names in Oracle;
-- libxml2's XPath has no default namespace, so such a map is refused rather than read wrongly.
CREATE OR REPLACE FUNCTION oracompat.xml_nsarray(nsmap text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text[] := ARRAY[]::text[];
    m text[];
BEGIN
    IF nsmap IS NULL OR btrim(nsmap) = '' THEN
        RETURN out;
    END IF;
    FOR m IN SELECT regexp_matches(nsmap, 'xmlns(:([A-Za-z_][A-Za-z0-9_.-]*))?\s*=\s*("([^"]*)"|''([^'']*)'')', 'g') LOOP
        IF m[2] IS NULL THEN
            RAISE EXCEPTION 'a default namespace (%) in an XPath namespace map is not supported: give it a prefix', nsmap
                USING ERRCODE = 'OS560';
        END IF;
        out := out || ARRAY[ARRAY[m[2], coalesce(m[4], m[5])]];
    END LOOP;
    RETURN out;
END;
$fn$;

-- The nodes an XPath selects. Oracle evaluates XPath over fragments too (what EXTRACT returns):
-- a fragment is read under a synthetic root, its absolute paths starting there.
CREATE OR REPLACE FUNCTION oracompat.xml_nodes(x xml, path text, nsmap text DEFAULT NULL) RETURNS xml[]
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF x IS NULL OR path IS NULL THEN
        RETURN NULL;
    END IF;
    IF x IS DOCUMENT THEN
        RETURN xpath(path, x, oracompat.xml_nsarray(nsmap));
    END IF;
    RETURN xpath(regexp_replace(path, '^/(?!/)', '/oracompat-fragment/'),
                 XMLPARSE(DOCUMENT '<oracompat-fragment>' || x::text || '</oracompat-fragment>'),
                 oracompat.xml_nsarray(nsmap));
END;
$fn$;

-- x.EXTRACT(path [, nsmap]) / EXTRACT(x, path): the selected nodes as one XMLTYPE (a fragment
-- when several), NULL when none; text nodes keep their entities, as Oracle's do.
CREATE OR REPLACE FUNCTION oracompat.xml_extract(x xml, path text, nsmap text DEFAULT NULL) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN count(*) > 0 THEN xmlagg(u.e ORDER BY u.o) END
    FROM unnest(oracompat.xml_nodes(x, path, nsmap)) WITH ORDINALITY AS u(e, o)
$fn$;

-- x.EXISTSNODE(path [, nsmap]) / EXISTSNODE(x, path): 1 when the XPath selects a node, else 0.
CREATE OR REPLACE FUNCTION oracompat.xml_existsnode(x xml, path text, nsmap text DEFAULT NULL) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN x IS NULL THEN NULL WHEN cardinality(oracompat.xml_nodes(x, path, nsmap)) > 0 THEN 1 ELSE 0 END
$fn$;

-- EXTRACTVALUE(x, path [, nsmap]): the text value of the one node selected (an element's text, an
-- attribute's or text node's value), entities resolved; NULL when none; several raise ORA-19025.
CREATE OR REPLACE FUNCTION oracompat.xml_extractvalue(x xml, path text, nsmap text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    nodes xml[] := oracompat.xml_nodes(x, path, nsmap);
    v text;
BEGIN
    IF nodes IS NULL OR cardinality(nodes) = 0 THEN
        RETURN NULL;
    END IF;
    IF cardinality(nodes) > 1 THEN
        RAISE EXCEPTION 'ORA-19025: EXTRACTVALUE returns value of only one node' USING ERRCODE = 'OS025';
    END IF;
    SELECT t.v INTO v FROM XMLTABLE('/r' PASSING XMLPARSE(DOCUMENT '<r>' || nodes[1]::text || '</r>')
                                    COLUMNS v text PATH '.') t;
    RETURN nullif(v, '');
END;
$fn$;

-- GETSTRINGVAL / GETCLOBVAL: the serialized value; GETNUMBERVAL: that text as a number.
CREATE OR REPLACE FUNCTION oracompat.xml_getstringval(x xml) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT x::text $fn$;

CREATE OR REPLACE FUNCTION oracompat.xml_getnumberval(x xml) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT btrim(x::text)::numeric $fn$;

-- ISFRAGMENT: 1 for a fragment (several top-level nodes, as EXTRACT may return), 0 for a document.
CREATE OR REPLACE FUNCTION oracompat.xml_isfragment(x xml) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN x IS NULL THEN NULL WHEN x IS DOCUMENT THEN 0 ELSE 1 END $fn$;

-- XMLSEQUENCE(x): its top-level nodes, each an XMLTYPE (TABLE(XMLSEQUENCE(...)) reads them as rows).
CREATE OR REPLACE FUNCTION oracompat.xml_sequence(x xml) RETURNS xml[]
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xml_nodes(x, '/node()') $fn$;

-- ---- DBMS_XMLGEN query contexts ------------------------------------------------------------------
-- NEWCONTEXT(query | ref cursor) → a context number whose settings (row and row-set tags, maximum
-- and skipped rows, NULL handling, binds) and position are kept in the session store, as DBMS_SQL's
-- cursors are. GETXML renders Oracle's canonical form: '<?xml version="1.0"?>', ROWSET, one ROW
-- per row, one element per column named in upper case, one space of indentation per level, a
-- newline after every line; values as Oracle converts them to text (numbers without trailing
-- zeros, dates DD-MON-RR), escaped; a NULL column left out (DROP_NULLS), written <COL/>
-- (EMPTY_TAG) or <COL xsi:nil = "true"/> (NULL_ATTR). No row: NULL. Each GETXML continues where
-- the previous one stopped (MAXROWS rows at a time). Binds are written into the query as quoted
-- literals (SETBINDVALUE's value is text, as in Oracle).
CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_key(ctx numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT 'oracompat.dbms_xmlgen.' || ctx::bigint $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_state(ctx numeric) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v text := CASE WHEN ctx IS NOT NULL THEN oracompat.pkg_get(oracompat.dbms_xmlgen_key(ctx)) END;
BEGIN
    IF v IS NULL THEN
        RAISE EXCEPTION 'invalid DBMS_XMLGEN context %', ctx USING ERRCODE = 'OS560';
    END IF;
    RETURN v::jsonb;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_set(ctx numeric, k text, v jsonb) RETURNS void
LANGUAGE sql VOLATILE AS $fn$
  SELECT oracompat.pkg_set(oracompat.dbms_xmlgen_key(ctx), jsonb_set(oracompat.dbms_xmlgen_state(ctx), ARRAY[k], v)::text)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_open(q text, portal text) RETURNS numeric
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_id integer := coalesce(oracompat.pkg_get('oracompat.dbms_xmlgen.last')::integer, 0) + 1;
BEGIN
    PERFORM oracompat.pkg_set('oracompat.dbms_xmlgen.last', v_id::text);
    PERFORM oracompat.pkg_set(oracompat.dbms_xmlgen_key(v_id), jsonb_build_object(
        'sql', q, 'portal', portal, 'rowtag', 'ROW', 'rowsettag', 'ROWSET', 'maxrows', NULL, 'skip', 0,
        'nulls', 0, 'binds', '{}'::jsonb, 'pos', 0, 'processed', 0)::text);
    RETURN v_id;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_newcontext(querystring text) RETURNS numeric
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_open(querystring, NULL) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_newcontext(querystring refcursor) RETURNS numeric
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_open(NULL, querystring::text) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setrowtag(ctx numeric, rowtagname text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'rowtag', to_jsonb(rowtagname)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setrowsettag(ctx numeric, rowsettagname text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'rowsettag', to_jsonb(rowsettagname)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setmaxrows(ctx numeric, maxrows numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'maxrows', to_jsonb(maxrows)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setskiprows(ctx numeric, skiprows numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'skip', to_jsonb(coalesce(skiprows, 0))) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setnullhandling(ctx numeric, flag numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'nulls', to_jsonb(coalesce(flag, 0))) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_setbindvalue(ctx numeric, bindvariablename text, bindvalue text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$
  SELECT oracompat.dbms_xmlgen_set(ctx, 'binds',
           oracompat.dbms_xmlgen_state(ctx)->'binds' || jsonb_build_object(ltrim(upper(bindvariablename), ':'), bindvalue))
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_clearbindvalues(ctx numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'binds', '{}'::jsonb) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_restartquery(ctx numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_xmlgen_set(ctx, 'pos', '0'::jsonb) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_getnumrowsprocessed(ctx numeric) RETURNS numeric
LANGUAGE sql STABLE AS $fn$ SELECT (oracompat.dbms_xmlgen_state(ctx)->>'processed')::numeric $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_closecontext(ctx numeric) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM oracompat.dbms_xmlgen_state(ctx);
    PERFORM oracompat.pkg_set(oracompat.dbms_xmlgen_key(ctx), NULL);
END;
$fn$;

-- One row's XML (the column names and texts in query order).
CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_row(rowtag text, names text[], vals text[], nulls integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text := ' <' || rowtag || '>' || E'\n';
BEGIN
    FOR i IN 1 .. cardinality(names) LOOP
        IF vals[i] IS NOT NULL AND vals[i] <> '' THEN
            out := out || '  <' || upper(names[i]) || '>' || oracompat.dbms_xmlgen_convert(vals[i], 0)
                || '</' || upper(names[i]) || '>' || E'\n';
        ELSIF nulls = 2 THEN
            out := out || '  <' || upper(names[i]) || '/>' || E'\n';
        ELSIF nulls = 1 THEN
            out := out || '  <' || upper(names[i]) || ' xsi:nil = "true"/>' || E'\n';
        END IF;
    END LOOP;
    RETURN out || ' </' || rowtag || '>' || E'\n';
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_getxml(ctx numeric, dtdorschema numeric DEFAULT 0) RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_xmlgen_state(ctx);
    q text := st->>'sql';
    b record;
    rec record;
    cur refcursor := st->>'portal';
    j json;
    names text[];
    types text[];
    exprs text;
    vals text[];
    out text := '';
    n integer := 0;
    pos integer := (st->>'pos')::integer;
    maxrows integer := (st->>'maxrows')::integer;
    nulls integer := (st->>'nulls')::integer;
BEGIN
    IF q IS NOT NULL THEN
        -- a query: run again from its start, its first rows skipped, every value typed as selected
        FOR b IN SELECT key, value FROM jsonb_each_text(st->'binds') LOOP
            q := regexp_replace(q, ':' || b.key || '\M', quote_nullable(b.value), 'gi');
        END LOOP;
        EXECUTE 'SELECT row_to_json(oracompat_q) FROM (' || q || ') oracompat_q LIMIT 1' INTO j;
        IF j IS NOT NULL THEN
            SELECT array_agg(k ORDER BY o) INTO names FROM json_object_keys(j) WITH ORDINALITY AS t(k, o);
            EXECUTE 'SELECT ARRAY[' || (SELECT string_agg(format('pg_typeof(oracompat_q.%I)::text', k), ', ') FROM unnest(names) k)
                || '] FROM (' || q || ') oracompat_q LIMIT 1' INTO types;
            SELECT string_agg(CASE WHEN types[i] IN ('numeric', 'integer', 'bigint', 'smallint', 'double precision',
                                     'real', 'text', 'character varying', 'character', 'timestamp without time zone',
                                     'timestamp with time zone', 'date')
                                   THEN format('oracompat.to_text(oracompat_q.%I)', names[i])
                                   ELSE format('(oracompat_q.%I)::text', names[i]) END, ', ' ORDER BY i)
              INTO exprs FROM generate_subscripts(names, 1) i;
            FOR vals IN EXECUTE 'SELECT ARRAY[' || exprs || ']::text[] FROM (' || q || ') oracompat_q OFFSET '
                    || ((st->>'skip')::integer + pos) || coalesce(' LIMIT ' || maxrows, '') LOOP
                out := out || oracompat.dbms_xmlgen_row(st->>'rowtag', names, vals, nulls);
                n := n + 1;
            END LOOP;
        END IF;
    ELSE
        -- a ref cursor: read on from where it is; values as their JSON text (numbers as Oracle writes them)
        LOOP
            EXIT WHEN maxrows IS NOT NULL AND n >= maxrows;
            FETCH cur INTO rec;
            EXIT WHEN NOT FOUND;
            pos := pos + 1;
            CONTINUE WHEN pos <= (st->>'skip')::integer;
            j := row_to_json(rec);
            SELECT array_agg(key ORDER BY o),
                   array_agg(CASE json_typeof(value) WHEN 'number' THEN oracompat.to_text((value #>> '{}')::numeric)
                                                     ELSE value #>> '{}' END ORDER BY o)
              INTO names, vals FROM json_each(j) WITH ORDINALITY AS t(key, value, o);
            out := out || oracompat.dbms_xmlgen_row(st->>'rowtag', names, vals, nulls);
            n := n + 1;
        END LOOP;
        pos := pos - n;
    END IF;
    st := jsonb_set(jsonb_set(st, '{processed}', to_jsonb(n)), '{pos}', to_jsonb(pos + n));
    PERFORM oracompat.pkg_set(oracompat.dbms_xmlgen_key(ctx), st::text);
    IF n = 0 THEN
        RETURN NULL;
    END IF;
    RETURN '<?xml version="1.0"?>' || E'\n<' || (st->>'rowsettag')
        || CASE WHEN nulls = 1 THEN ' xmlns:xsi = "http://www.w3.org/2001/XMLSchema-instance"' ELSE '' END
        || E'>\n' || out || '</' || (st->>'rowsettag') || E'>\n';
END;
$fn$;

-- GETXML(query): a context of its own, rendered once.
CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_getxml(sqlquery text, dtdorschema numeric DEFAULT 0) RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    ctx numeric := oracompat.dbms_xmlgen_newcontext(sqlquery);
    v text := oracompat.dbms_xmlgen_getxml(ctx, dtdorschema);
BEGIN
    PERFORM oracompat.dbms_xmlgen_closecontext(ctx);
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlgen_getxmltype(ctx numeric, dtdorschema numeric DEFAULT 0) RETURNS xml
LANGUAGE sql VOLATILE AS $fn$
  SELECT XMLPARSE(DOCUMENT regexp_replace(x, '^<\?xml[^>]*\?>\n', '')) FROM oracompat.dbms_xmlgen_getxml(ctx, dtdorschema) x
$fn$;
