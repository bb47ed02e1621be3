-- oracompat: the PL/SQL Web Toolkit's page buffer (HTP, HTF, OWA_UTIL, OWA), for the members whose
-- meaning is the session's page buffer and CGI environment, not the web gateway itself.
--
-- In Oracle, HTP.PRINT / HTP.PRN append to a buffer held in the session's package state; a gateway
-- (mod_plsql, ORDS) initialises the CGI environment with OWA.INIT_CGI_ENV, calls the procedure and
-- then reads the buffer (OWA.GET_PAGE); SQL*Plus users read it with OWA_UTIL.SHOWPAGE, which writes
-- it to DBMS_OUTPUT. All of that is session state, so it is kept here exactly so: the buffer and the
-- CGI environment live in the non-transactional session store package state uses
-- (oracompat.pkg_get / pkg_set, runtime.sql): like Oracle's, a rollback does not undo what was
-- printed. What serves the page to a browser is the application's gateway, outside the database in
-- both systems; it reads the page with oracompat.owa_get_page_text().
-- Members with no page-buffer meaning (WPG_DOCLOAD's file download, HTP's tag generators such as
-- HTMLOPEN/BOLD) are not here: the converter reports them (supplied.PARTLY_CONVERTED).
CREATE SCHEMA IF NOT EXISTS oracompat;

-- The page so far (NULL: nothing printed since the session started or HTP.INIT).
CREATE OR REPLACE FUNCTION oracompat.owa_get_page_text() RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT oracompat.pkg_get('oracompat.htp.page')
$fn$;

-- HTP.PRN(cbuf): append the text as it is (no line feed); NULL appends nothing.
CREATE OR REPLACE FUNCTION oracompat.htp_prn(cbuf text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    IF cbuf IS NOT NULL AND cbuf <> '' THEN
        PERFORM oracompat.pkg_set('oracompat.htp.page', coalesce(oracompat.owa_get_page_text(), '') || cbuf);
    END IF;
END;
$fn$;

-- HTP's overloads for NUMBER and DATE print Oracle's implicit conversion of the value.
CREATE OR REPLACE FUNCTION oracompat.htp_prn(cbuf numeric) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_prn(oracompat.to_text(cbuf)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.htp_prn(cbuf timestamp) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_prn(oracompat.to_text(cbuf)) $fn$;

-- HTP.PRINT(cbuf) / HTP.P: the text and a line feed (a NULL text: the line feed alone).
CREATE OR REPLACE FUNCTION oracompat.htp_print(cbuf text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_prn(coalesce(cbuf, '') || chr(10)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.htp_print(cbuf numeric) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_print(oracompat.to_text(cbuf)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.htp_print(cbuf timestamp) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_print(oracompat.to_text(cbuf)) $fn$;

-- HTF.ESCAPE_SC(ctext): the text with the characters that mean something in HTML replaced by
-- their entities (& first, so that the others' ampersands stay).
CREATE OR REPLACE FUNCTION oracompat.htf_escape_sc(ctext text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT replace(replace(replace(replace(ctext, '&', '&amp;'), '"', '&quot;'), '<', '&lt;'), '>', '&gt;')
$fn$;

-- HTP.PRINTS(ctext) / HTP.PS: HTP.PRINT of the escaped text.
CREATE OR REPLACE FUNCTION oracompat.htp_prints(ctext text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_print(oracompat.htf_escape_sc(ctext)) $fn$;

-- HTP.INIT: empty the page buffer.
CREATE OR REPLACE FUNCTION oracompat.htp_init() RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.pkg_set('oracompat.htp.page', NULL) $fn$;

-- OWA_UTIL.MIME_HEADER(ccontent_type, bclose_header, ccharset): the Content-type header line into
-- the page; with bclose_header, the empty line that closes the headers. The charset named is the
-- one given, else the database's (its IANA name).
CREATE OR REPLACE FUNCTION oracompat.owa_util_mime_header(
    ccontent_type text DEFAULT 'text/html', bclose_header boolean DEFAULT true, ccharset text DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_charset text := ccharset;
BEGIN
    IF v_charset IS NULL THEN
        v_charset := CASE pg_catalog.getdatabaseencoding()
            WHEN 'UTF8' THEN 'UTF-8' WHEN 'LATIN1' THEN 'ISO-8859-1' WHEN 'SQL_ASCII' THEN 'US-ASCII'
            WHEN 'WIN1252' THEN 'windows-1252' ELSE pg_catalog.getdatabaseencoding() END;
    END IF;
    PERFORM oracompat.htp_print('Content-type: ' || coalesce(ccontent_type, 'text/html') || '; charset=' || v_charset);
    IF coalesce(bclose_header, true) THEN
        PERFORM oracompat.htp_print();
    END IF;
END;
$fn$;

-- OWA_UTIL.HTTP_HEADER_CLOSE: the empty line that ends the HTTP headers.
CREATE OR REPLACE FUNCTION oracompat.owa_util_http_header_close() RETURNS void
LANGUAGE sql AS $fn$ SELECT oracompat.htp_print() $fn$;

-- OWA_UTIL.SHOWPAGE: the page so far to DBMS_OUTPUT, a line each, and the buffer emptied.
CREATE OR REPLACE FUNCTION oracompat.owa_util_showpage() RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_page text := oracompat.owa_get_page_text();
    v_line text;
BEGIN
    IF v_page IS NULL THEN
        RETURN;
    END IF;
    IF right(v_page, 1) = chr(10) THEN
        v_page := left(v_page, -1);
    END IF;
    FOREACH v_line IN ARRAY string_to_array(v_page, chr(10)) LOOP
        PERFORM oracompat.put_line(v_line);
    END LOOP;
    PERFORM oracompat.htp_init();
END;
$fn$;

-- OWA.INIT_CGI_ENV(num_params, param_name, param_val): the request's CGI environment, as the
-- gateway passes it (OWA.VC_ARR arrays: jsonb maps index → value); the first num_params entries.
CREATE OR REPLACE FUNCTION oracompat.owa_init_cgi_env(num_params numeric, param_name jsonb, param_val jsonb)
RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_env jsonb := '{}'::jsonb;
BEGIN
    FOR k IN 1 .. coalesce(num_params, 0)::integer LOOP
        IF param_name ->> k::text IS NOT NULL THEN
            v_env := v_env || jsonb_build_object(upper(param_name ->> k::text), param_val ->> k::text);
        END IF;
    END LOOP;
    PERFORM oracompat.pkg_set('oracompat.owa.cgi_env', v_env::text);
END;
$fn$;

-- OWA_UTIL.GET_CGI_ENV(param_name): the CGI variable's value (name in any case); NULL when the
-- request did not set it, or outside a request (no OWA.INIT_CGI_ENV in the session).
CREATE OR REPLACE FUNCTION oracompat.owa_util_get_cgi_env(param_name text) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT (oracompat.pkg_get('oracompat.owa.cgi_env')::jsonb) ->> upper(param_name)
$fn$;
