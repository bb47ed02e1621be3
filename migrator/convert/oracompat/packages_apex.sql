-- oracompat: APEX's string-and-array utilities that are plain PL/SQL functions of their arguments
-- (APEX_UTIL.STRING_TO_TABLE / TABLE_TO_STRING over APEX_APPLICATION_GLOBAL.VC_ARR2): they need no
-- APEX session, page or web request, so they keep their meaning outside APEX. The rest of APEX
-- (session state, pages, collections, web services) is reported by the converter.
-- VC_ARR2 is an INDEX BY table (a jsonb map index → value, as the converter holds such tables).
CREATE SCHEMA IF NOT EXISTS oracompat;

-- STRING_TO_TABLE(p_string, p_separator = ':'): the pieces between separators at 1..n (an empty
-- piece is NULL, as Oracle's ''); a NULL string gives an empty table. The separator is a string,
-- matched as written (not a pattern).
CREATE OR REPLACE FUNCTION oracompat.apex_util_string_to_table(p_string text, p_separator text DEFAULT ':')
RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT coalesce(jsonb_object_agg(p.n::text, nullif(p.piece, '') ORDER BY p.n), '{}'::jsonb)
    FROM unnest(CASE WHEN p_string IS NULL OR p_string = '' THEN ARRAY[]::text[]
                     WHEN p_separator IS NULL OR p_separator = '' THEN ARRAY[p_string]
                     ELSE string_to_array(p_string, p_separator) END) WITH ORDINALITY AS p(piece, n)
$fn$;

-- TABLE_TO_STRING(p_table, p_string = ':'): the elements in index order joined by the separator
-- (a NULL element adds nothing but its separator); an empty table gives NULL.
CREATE OR REPLACE FUNCTION oracompat.apex_util_table_to_string(p_table jsonb, p_string text DEFAULT ':')
RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT nullif(string_agg(coalesce(e.value, ''), coalesce(p_string, '') ORDER BY e.key::numeric), '')
    FROM jsonb_each_text(p_table) AS e(key, value)
$fn$;
