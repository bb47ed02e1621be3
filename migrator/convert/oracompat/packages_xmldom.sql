-- oracompat: the reading part of DBMS_XMLDOM, DBMS_XMLPARSER and DBMS_XSLPROCESSOR over
-- PostgreSQL's xml type (libxml2's XPath 1.0).
--
-- Oracle's DOM handles are references into a tree; a program that only reads the tree (parse,
-- document element, child nodes, elements by tag name, node name/value/type, XPath selection and
-- values) sees the same results when each handle is the value of the subtree it points at, which is
-- what is kept here: a DOMNode / DOMElement is the xml of its node, a DOMNodeList the xml fragment
-- of its nodes in order, a DOMDocument the document's xml marked as a document (the processing
-- instruction <?oracompat-dom-document?> first: a document node and its document element are two
-- nodes with two names and two sets of children). What needs a node's place in its tree (parent
-- and sibling navigation, an absolute XPath from a node other than the document) or changes the
-- tree (createElement, appendChild ...) has no faithful value form: those members are not in the
-- converter's table (reported), and an absolute XPath from a non-document node raises at run time.
-- The parser is the value of the document it last parsed (PARSEBUFFER / PARSECLOB give it back to
-- the caller's variable, as an IN OUT argument). FREE* have nothing to release.
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE OR REPLACE FUNCTION oracompat.xmldom_is_document(n xml) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT n IS NOT NULL AND position('<?oracompat-dom-document?>' IN n::text) > 0
         AND (xpath('count(/processing-instruction(''oracompat-dom-document''))', n))[1]::text = '1'
$fn$;

-- A parsed document (XMLTYPE value or text) as a DOMDocument.
CREATE OR REPLACE FUNCTION oracompat.xmldom_document(x xml) RETURNS xml
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v text;
    decl text;
BEGIN
    IF x IS NULL OR oracompat.xmldom_is_document(x) THEN
        RETURN x;
    END IF;
    v := x::text;
    decl := substring(v FROM '^\s*<\?xml[^?]*\?>');  -- the XML declaration stays first
    IF decl IS NOT NULL THEN
        v := substr(v, length(decl) + 1);
    END IF;
    RETURN XMLPARSE(DOCUMENT coalesce(decl, '') || '<?oracompat-dom-document?>' || v);
END;
$fn$;

-- The document's own text, without the marker.
CREATE OR REPLACE FUNCTION oracompat.xmldom_text(n xml) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT replace(n::text, '<?oracompat-dom-document?>', '') $fn$;

-- The DOM node type: ELEMENT_NODE 1, TEXT_NODE 3, CDATA_SECTION_NODE 4, PROCESSING_INSTRUCTION_NODE
-- 7, COMMENT_NODE 8, DOCUMENT_NODE 9 (an attribute selected by XPath is its value: a text).
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getnodetype(n xml) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN n IS NULL THEN NULL
              WHEN oracompat.xmldom_is_document(n) THEN 9
              WHEN n::text LIKE '<!--%' THEN 8
              WHEN n::text LIKE '<![CDATA[%' THEN 4
              WHEN n::text LIKE '<?%' THEN 7
              WHEN n::text LIKE '<%' THEN 1
              ELSE 3 END
$fn$;

-- The nodes of a node list (a fragment), in order.
CREATE OR REPLACE FUNCTION oracompat.xmldom_list_nodes(nl xml) RETURNS xml[]
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN nl IS NULL THEN NULL
              WHEN nl::text = '' THEN ARRAY[]::xml[]
              ELSE xpath('/oracompat-list/node()', XMLPARSE(DOCUMENT '<oracompat-list>' || nl::text || '</oracompat-list>')) END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.xmldom_list(nodes xml[]) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN nodes IS NOT NULL THEN XMLPARSE(CONTENT array_to_string(nodes, '')) END
$fn$;

-- A node's children: the document's are its top-level nodes (the marker aside), an element's its
-- child nodes; other nodes have none.
CREATE OR REPLACE FUNCTION oracompat.xmldom_children(n xml) RETURNS xml[]
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE oracompat.dbms_xmldom_getnodetype(n)
              WHEN 9 THEN xpath('/node()[not(self::processing-instruction(''oracompat-dom-document''))]', n)
              WHEN 1 THEN xpath('/*/node()', XMLPARSE(DOCUMENT n::text))
              ELSE ARRAY[]::xml[] END
$fn$;

-- The nodes an XPath selects with `n` as the context node (DBMS_XSLPROCESSOR's selection): from a
-- document every path reads as in the document; from an element a relative path starts at the
-- element. An absolute path from an element would start at its document, which a node's value does
-- not keep: refused.
CREATE OR REPLACE FUNCTION oracompat.xmldom_select(n xml, pattern text) RETURNS xml[]
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF n IS NULL OR pattern IS NULL THEN
        RETURN NULL;
    END IF;
    IF oracompat.xmldom_is_document(n) THEN
        RETURN xpath(pattern, n);
    END IF;
    IF oracompat.dbms_xmldom_getnodetype(n) <> 1 THEN
        RETURN ARRAY[]::xml[];
    END IF;
    IF btrim(pattern) LIKE '/%' OR pattern LIKE '%|%' THEN
        RAISE EXCEPTION 'XPath % from a node other than the document is not supported here (the node''s document is not kept)', pattern
            USING ERRCODE = '0A000';
    END IF;
    RETURN xpath('/*/' || btrim(pattern), XMLPARSE(DOCUMENT n::text));
END;
$fn$;

-- The string value of a node or fragment (its text, entities resolved; '' is NULL, as in Oracle).
CREATE OR REPLACE FUNCTION oracompat.xmldom_string(f text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v text;
BEGIN
    IF f IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT t.v INTO v FROM XMLTABLE('/r' PASSING XMLPARSE(DOCUMENT '<r>' || f || '</r>') COLUMNS v text PATH '.') t;
    RETURN nullif(v, '');
END;
$fn$;

-- ---- DBMS_XMLPARSER ----------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION oracompat.dbms_xmlparser_newparser() RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT NULL::xml $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlparser_parsebuffer(INOUT p xml, buffer text)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmldom_document(oracompat.xmltype(buffer)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlparser_parseclob(INOUT p xml, doc text)
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmldom_document(oracompat.xmltype(doc)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmlparser_getdocument(p xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT p $fn$;

-- ---- DBMS_XMLDOM -------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_newdomdocument(xmldoc xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmldom_document(oracompat.xmltype(xmldoc)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_newdomdocument(xmldoc text) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmldom_document(oracompat.xmltype(xmldoc)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_makenode(n xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT n $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_makeelement(n xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN oracompat.dbms_xmldom_getnodetype(n) = 1 THEN n END $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_isnull(n xml) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$ SELECT n IS NULL $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getdocumentelement(doc xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT (xpath('/*', doc))[1] $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getxmltype(doc xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT XMLPARSE(DOCUMENT oracompat.xmldom_text(doc)) $fn$;

-- GETELEMENTSBYTAGNAME(doc | element, name): the elements of that (qualified) name, '*' for all,
-- in document order: a document's all, an element's its descendants (not itself).
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getelementsbytagname(elem xml, name text) RETURNS xml
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    test text := CASE WHEN name = '*' THEN '' ELSE format('[name()=%s]', '"' || replace(name, '"', '') || '"') END;
BEGIN
    IF elem IS NULL OR name IS NULL THEN
        RETURN NULL;
    END IF;
    IF oracompat.xmldom_is_document(elem) THEN
        RETURN oracompat.xmldom_list(xpath('//*' || test, elem));
    END IF;
    IF oracompat.dbms_xmldom_getnodetype(elem) <> 1 THEN
        RETURN ''::xml;
    END IF;
    RETURN oracompat.xmldom_list(xpath('/*//*' || test, XMLPARSE(DOCUMENT elem::text)));
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getchildnodes(n xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT CASE WHEN n IS NOT NULL THEN oracompat.xmldom_list(oracompat.xmldom_children(n)) END $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getfirstchild(n xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT (oracompat.xmldom_children(n))[1] $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getlastchild(n xml) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT c[cardinality(c)] FROM (SELECT oracompat.xmldom_children(n) AS c) s
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_haschildnodes(n xml) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$ SELECT cardinality(oracompat.xmldom_children(n)) > 0 $fn$;

-- GETLENGTH(list): its number of nodes; ITEM(list, idx): the node at 0-based idx, NULL past the end.
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getlength(nl xml) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT cardinality(oracompat.xmldom_list_nodes(nl)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_item(nl xml, idx numeric) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT (oracompat.xmldom_list_nodes(nl))[round(idx)::integer + 1] $fn$;

-- GETNODENAME: an element's qualified name, '#text', '#comment', '#cdata-section', '#document', a
-- processing instruction's target.
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getnodename(n xml) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE oracompat.dbms_xmldom_getnodetype(n)
              WHEN 1 THEN (xpath('name(/*)', XMLPARSE(DOCUMENT n::text)))[1]::text
              WHEN 3 THEN '#text' WHEN 4 THEN '#cdata-section' WHEN 8 THEN '#comment' WHEN 9 THEN '#document'
              WHEN 7 THEN substring(n::text FROM '^<\?([^\s?]+)') END
$fn$;

-- GETNODEVALUE: a text's (or CDATA section's, comment's) characters, entities resolved; NULL for an
-- element or a document.
CREATE OR REPLACE FUNCTION oracompat.dbms_xmldom_getnodevalue(n xml) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE oracompat.dbms_xmldom_getnodetype(n)
              WHEN 3 THEN oracompat.xmldom_string(n::text)
              WHEN 4 THEN oracompat.xmldom_string(n::text)
              WHEN 8 THEN substring(n::text FROM '^<!--(.*)-->$') END
$fn$;

-- ---- DBMS_XSLPROCESSOR -------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION oracompat.dbms_xslprocessor_selectsinglenode(n xml, pattern text) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT (oracompat.xmldom_select(n, pattern))[1] $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_xslprocessor_selectnodes(n xml, pattern text) RETURNS xml
LANGUAGE sql IMMUTABLE AS $fn$ SELECT oracompat.xmldom_list(oracompat.xmldom_select(n, pattern)) $fn$;

-- VALUEOF(n, pattern, val OUT): the string value of the first node selected (an element's text
-- content, entities resolved), NULL when none.
CREATE OR REPLACE FUNCTION oracompat.dbms_xslprocessor_valueof(n xml, pattern text, OUT val text)
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT oracompat.xmldom_string(oracompat.xmldom_text(f))
    FROM (SELECT (oracompat.xmldom_select(n, pattern))[1] AS f) s
$fn$;
