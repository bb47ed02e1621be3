"""Oracle-supplied packages (DBMS_*, UTL_*, HTP, APEX_* ...): what the converter makes of a reference.

One table for the SQL rules (`sql/supplied.py`: functions in expressions, constants), the PL/SQL
emitter (`plsql/emit_supplied.py`: procedure calls, types, exceptions, functions that need the
handler's error) and the assessment (`migrator.assess.packages`). A member with a faithful
PostgreSQL meaning maps to a function of the ``oracompat`` library (`oracompat/packages_*.sql`)
with Oracle's parameter names and defaults; its IN OUT and OUT parameters come back from the
function and are assigned to the caller's arguments.

A package with no faithful meaning (UTL_HTTP, UTL_TCP, UTL_SMTP, WPG_DOCLOAD, APEX_* beyond the
string/array utilities, HTP/HTF beyond the page buffer,
SDO_* ...) is never imitated: every reference to it gets a marker (deployment fails), and the unit
is reported once per package with the category ``needs an Oracle-supplied package with no
PostgreSQL equivalent: <name>`` and all its call sites (`report_redesign`), so a reader can plan the
redesign. A member of a converted package that is not in the table is reported at its call site.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from migrator.convert.context import MARKER_TOKEN, ConversionContext, Unconverted, unconverted_marker
from migrator.source.lexer import QIDENT, WORD, LineIndex, Token, code_tokens, normalize_identifier
from migrator.source.oracle_names import SUPPLIED_PACKAGE_PREFIXES

SUPPLIED_CONSTRUCT = "Oracle supplied package"  # the construct name of a member not converted
REDESIGN = "needs an Oracle-supplied package with no PostgreSQL equivalent"
NAMES = frozenset({"HTP", "HTF", "OWA", "WPG_DOCLOAD"})
# Oracle-supplied object types named without a package (MDSYS.SDO_GEOMETRY ...). Oracle Spatial's
# types convert (the catalog holds them: oracompat/spatial.py); the names stay here so that a
# reference the catalog does not resolve is still known as Oracle's.
SUPPLIED_TYPES = frozenset({"SDO_GEOMETRY", "SDO_POINT_TYPE", "SDO_ELEM_INFO_ARRAY", "SDO_ORDINATE_ARRAY"})
_OWNERS = ("SYS", "MDSYS", "CTXSYS", "XDB", "PUBLIC")
NUMBER, STRING = "number", "string"  # result kinds (migrator.convert.sql.expression_types)


@dataclass(frozen=True)
class Param:
    name: str  # Oracle's name, lower case; also the oracompat function's
    mode: str = "IN"  # IN | INOUT | OUT, as the oracompat function declares it
    default: bool = False  # the function has a default for it (Oracle's)


@dataclass(frozen=True)
class Member:
    package: str
    name: str
    kind: str  # FUNCTION | PROCEDURE
    params: tuple[Param, ...]
    pg: str  # the PostgreSQL function (SQL text, qualified)
    result: str | None = None  # coarse Oracle kind of a function's result
    example: str = ""  # arguments of a typical call (tests call every member with them)
    noop: str = ""  # a procedure with nothing to do in PostgreSQL: why

    @property
    def label(self) -> str:
        return f"{self.package}.{self.name}"

    def param(self, name: str) -> tuple[int, Param] | None:
        return next(((k, p) for k, p in enumerate(self.params) if p.name == name.lower()), None)


def _params(spec: str) -> tuple[Param, ...]:
    """'INOUT lob_loc, amount=, OUT buffer' → Params (= marks a default)."""
    out = []
    for item in filter(None, (s.strip() for s in spec.split(","))):
        words = item.split()
        mode = words[0] if words[0] in ("INOUT", "OUT") else "IN"
        name = words[-1]
        out.append(Param(name.rstrip("=").lower(), mode, name.endswith("=")))
    return tuple(out)


def _fn(package: str, name: str, params: str, result: str | None = None, example: str = "", pg: str = "") -> Member:
    pg = pg or f"oracompat.{package.lower()}_{name.lower()}"
    return Member(package, name, "FUNCTION", _params(params), pg, result, example)


def _proc(package: str, name: str, params: str, example: str = "", pg: str = "", noop: str = "") -> Member:
    pg = pg or f"oracompat.{package.lower()}_{name.lower()}"
    return Member(package, name, "PROCEDURE", _params(params), pg, None, example, noop)


# Examples use these PL/SQL variables: v_clob CLOB, v_blob BLOB, v_n NUMBER, v_s VARCHAR2(4000),
# v_raw RAW(100), v_c INTEGER (an open DBMS_SQL cursor), v_tab DBMS_UTILITY.UNCL_ARRAY, v_o INTEGER
# (1), v_i INTEGER (0), v_w INTEGER, v_x / v_e DBMS_XMLGEN.CTXHANDLE (a context over one row / none).
# fmt: off
MEMBERS: tuple[Member, ...] = (
    # DBMS_LOB: CLOB is text, BLOB bytea (one overload each)
    _fn("DBMS_LOB", "GETLENGTH", "lob_loc", NUMBER, "v_clob"),
    _fn("DBMS_LOB", "SUBSTR", "lob_loc, amount=, offset=", None, "v_clob, 3, 2"),
    _fn("DBMS_LOB", "INSTR", "lob_loc, pattern, offset=, nth=", NUMBER, "v_clob, 'b'"),
    _fn("DBMS_LOB", "COMPARE", "lob_1, lob_2, amount=, offset_1=, offset_2=", NUMBER, "v_clob, v_clob"),
    _proc("DBMS_LOB", "APPEND", "INOUT dest_lob, src_lob", "v_clob, 'xyz'"),
    _proc("DBMS_LOB", "WRITEAPPEND", "INOUT lob_loc, amount, buffer", "v_clob, 2, 'pq'"),
    _proc("DBMS_LOB", "COPY", "INOUT dest_lob, src_lob, amount, dest_offset=, src_offset=", "v_clob, 'AB', 2, 1"),
    _proc("DBMS_LOB", "TRIM", "INOUT lob_loc, newlen", "v_clob, 2"),
    _proc("DBMS_LOB", "ERASE", "INOUT lob_loc, INOUT amount, offset=", "v_clob, v_n, 1"),
    _proc("DBMS_LOB", "CREATETEMPORARY", "INOUT lob_loc, cache, dur=", "v_clob, TRUE"),
    _proc("DBMS_LOB", "FREETEMPORARY", "INOUT lob_loc", "v_blob"),
    _proc("DBMS_LOB", "READ", "lob_loc, INOUT amount, offset, OUT buffer", "v_clob, v_n, 1, v_s"),
    _proc("DBMS_LOB", "WRITE", "INOUT lob_loc, amount, offset, buffer", "v_clob, 1, 1, 'Z'"),
    _proc("DBMS_LOB", "OPEN", "INOUT lob_loc, open_mode", "v_clob, DBMS_LOB.LOB_READWRITE"),
    _proc("DBMS_LOB", "CLOSE", "INOUT lob_loc", "v_clob"),
    _proc("DBMS_LOB", "CONVERTTOBLOB", "INOUT dest_lob, src_clob, amount, INOUT dest_offset, INOUT src_offset, blob_csid, INOUT lang_context, OUT warning", "v_blob, 'h\u00e9', DBMS_LOB.LOBMAXSIZE, v_n, v_o, DBMS_LOB.DEFAULT_CSID, v_i, v_w"),
    _proc("DBMS_LOB", "CONVERTTOCLOB", "INOUT dest_lob, src_blob, amount, INOUT dest_offset, INOUT src_offset, blob_csid, INOUT lang_context, OUT warning", "v_clob, v_blob, DBMS_LOB.LOBMAXSIZE, v_n, v_o, DBMS_LOB.DEFAULT_CSID, v_i, v_w"),
    # UTL_RAW: RAW is bytea
    _fn("UTL_RAW", "CAST_TO_RAW", "c", None, "'AB'"),
    _fn("UTL_RAW", "CAST_TO_VARCHAR2", "r", STRING, "v_raw"),
    _fn("UTL_RAW", "LENGTH", "r", NUMBER, "v_raw"),
    _fn("UTL_RAW", "CONCAT", "r1=, r2=, r3=, r4=, r5=, r6=, r7=, r8=, r9=, r10=, r11=, r12=", None, "v_raw, v_raw"),
    _fn("UTL_RAW", "SUBSTR", "r, pos, len=", None, "v_raw, 1, 1"),
    _fn("UTL_RAW", "BIT_AND", "r1, r2", None, "v_raw, v_raw"),
    _fn("UTL_RAW", "BIT_OR", "r1, r2", None, "v_raw, v_raw"),
    _fn("UTL_RAW", "BIT_XOR", "r1, r2", None, "v_raw, v_raw"),
    _fn("UTL_RAW", "BIT_COMPLEMENT", "r", None, "v_raw"),
    _fn("UTL_RAW", "COMPARE", "r1, r2, pad=", NUMBER, "v_raw, v_raw"),
    _fn("UTL_RAW", "REVERSE", "r", None, "v_raw"),
    _fn("UTL_RAW", "COPIES", "r, n", None, "v_raw, 2"),
    _fn("UTL_RAW", "CAST_FROM_BINARY_INTEGER", "n, endianess=", None, "258"),
    _fn("UTL_RAW", "CAST_TO_BINARY_INTEGER", "r, endianess=", NUMBER, "HEXTORAW('0102')"),
    # DBMS_UTILITY (FORMAT_ERROR_STACK / BACKTRACE read the handler's error: emit_supplied)
    _fn("DBMS_UTILITY", "GET_TIME", "", NUMBER),
    _fn("DBMS_UTILITY", "FORMAT_CALL_STACK", "", STRING),
    _fn("DBMS_UTILITY", "FORMAT_ERROR_STACK", "", STRING),
    _fn("DBMS_UTILITY", "FORMAT_ERROR_BACKTRACE", "", STRING),
    _proc("DBMS_UTILITY", "COMMA_TO_TABLE", "list, OUT tablen, OUT tab", "'a,b', v_n, v_tab"),
    _proc("DBMS_UTILITY", "TABLE_TO_COMMA", "tab, OUT tablen, OUT list", "v_tab, v_n, v_s"),
    # DBMS_RANDOM
    _fn("DBMS_RANDOM", "VALUE", "low=, high=", NUMBER, "1, 10"),
    _fn("DBMS_RANDOM", "RANDOM", "", NUMBER),
    _fn("DBMS_RANDOM", "NORMAL", "", NUMBER),
    _fn("DBMS_RANDOM", "STRING", "opt, len", STRING, "'x', 8"),
    _proc("DBMS_RANDOM", "SEED", "val", "42"),
    _proc("DBMS_RANDOM", "INITIALIZE", "val", "42", pg="oracompat.dbms_random_seed"),
    _proc("DBMS_RANDOM", "TERMINATE", "", noop="DBMS_RANDOM.TERMINATE: nothing to release"),
    # DBMS_ASSERT
    _fn("DBMS_ASSERT", "NOOP", "str", STRING, "'x'"),
    _fn("DBMS_ASSERT", "SIMPLE_SQL_NAME", "str", STRING, "'emp'"),
    _fn("DBMS_ASSERT", "QUALIFIED_SQL_NAME", "str", STRING, "'hr.emp'"),
    _fn("DBMS_ASSERT", "ENQUOTE_NAME", "str, capitalize=", STRING, "'emp'"),
    _fn("DBMS_ASSERT", "ENQUOTE_LITERAL", "str", STRING, "'x'"),
    _fn("DBMS_ASSERT", "SCHEMA_NAME", "str", STRING, "'ORACOMPAT'"),
    _fn("DBMS_ASSERT", "SQL_OBJECT_NAME", "str", STRING, "'oracompat.instr'"),
    # DBMS_APPLICATION_INFO
    _proc("DBMS_APPLICATION_INFO", "SET_MODULE", "module_name, action_name", "'app', 'start'"),
    _proc("DBMS_APPLICATION_INFO", "SET_ACTION", "action_name", "'step'"),
    _proc("DBMS_APPLICATION_INFO", "SET_CLIENT_INFO", "client_info", "'batch'"),
    _proc("DBMS_APPLICATION_INFO", "READ_MODULE", "OUT module_name, OUT action_name", "v_s, v_s"),
    _proc("DBMS_APPLICATION_INFO", "READ_CLIENT_INFO", "OUT client_info", "v_s"),
    # DBMS_SESSION, DBMS_LOCK
    _proc("DBMS_SESSION", "SLEEP", "seconds", "0", pg="pg_catalog.pg_sleep"),
    _proc("DBMS_LOCK", "SLEEP", "seconds", "0", pg="pg_catalog.pg_sleep"),
    _proc("DBMS_SESSION", "SET_IDENTIFIER", "client_id", "'ann'"),
    _proc("DBMS_SESSION", "CLEAR_IDENTIFIER", ""),
    _proc("DBMS_SESSION", "SET_CONTEXT", "namespace, attribute, value, username=, client_id=", "'ctx', 'k', 'v'"),
    _proc("DBMS_SESSION", "CLEAR_CONTEXT", "namespace, client_id=, attribute=", "'ctx'"),
    _fn("DBMS_SESSION", "UNIQUE_SESSION_ID", "", STRING),
    # DBMS_CRYPTO (digests and HMACs), UTL_I18N (text <-> bytes in a character set)
    _fn("DBMS_CRYPTO", "HASH", "src, typ", None, "'abc', DBMS_CRYPTO.HASH_SH256"),
    _fn("DBMS_CRYPTO", "MAC", "src, typ, key", None, "'abc', DBMS_CRYPTO.HMAC_SH1, HEXTORAW('6B6579')"),
    _fn("UTL_I18N", "STRING_TO_RAW", "data, dst_charset=", None, "'h\u00e9', 'WE8ISO8859P1'"),
    _fn("UTL_I18N", "RAW_TO_CHAR", "data, src_charset=", STRING, "HEXTORAW('68C3A9'), 'AL32UTF8'"),
    # UTL_ENCODE: base64 (the other encodings are reported)
    _fn("UTL_ENCODE", "BASE64_ENCODE", "r", None, "HEXTORAW('616263')"),
    _fn("UTL_ENCODE", "BASE64_DECODE", "r", None, "HEXTORAW('59574a6a')"),
    # DBMS_SQL: the cursor cycle (COLUMN_VALUE's OUT value carries its type in: INOUT)
    _fn("DBMS_SQL", "OPEN_CURSOR", "", NUMBER),
    _proc("DBMS_SQL", "PARSE", "c, statement, language_flag", "v_c, 'SELECT 1 FROM dual', DBMS_SQL.NATIVE"),
    _proc("DBMS_SQL", "BIND_VARIABLE", "c, name, value, out_value_size=", "v_c, ':x', 1"),
    _proc("DBMS_SQL", "DEFINE_COLUMN", "c, position, column, column_size=", "v_c, 1, v_n"),
    _fn("DBMS_SQL", "EXECUTE", "c", NUMBER, "v_c"),
    _fn("DBMS_SQL", "FETCH_ROWS", "c", NUMBER, "v_c"),
    _fn("DBMS_SQL", "EXECUTE_AND_FETCH", "c, exact=", NUMBER, "v_c"),
    _proc("DBMS_SQL", "COLUMN_VALUE", "c, position, INOUT value", "v_c, 1, v_n"),
    _fn("DBMS_SQL", "LAST_ROW_COUNT", "", NUMBER),
    _fn("DBMS_SQL", "IS_OPEN", "c", None, "v_c"),
    _proc("DBMS_SQL", "CLOSE_CURSOR", "INOUT c", "v_c"),
    _proc("DBMS_SQL", "DESCRIBE_COLUMNS", "c, OUT col_cnt, OUT desc_t", "v_c, v_w, v_desc"),
    _proc("DBMS_SQL", "DESCRIBE_COLUMNS2", "c, OUT col_cnt, OUT desc_t", "v_c, v_w, v_desc"),
    # UTL_URL, DBMS_XMLGEN's entity conversion, UTL_RAW.CONVERT, DBMS_LOB's locator queries
    # (oracompat/packages_text_xml.sql)
    _fn("UTL_URL", "ESCAPE", "url, escape_reserved_chars=, url_charset=", STRING, "'a b/c?d=\u00e9', FALSE, 'UTF8'"),
    _fn("UTL_URL", "UNESCAPE", "url, url_charset=", STRING, "'a%20b%C3%A9', 'UTF8'"),
    _fn("DBMS_XMLGEN", "CONVERT", "xmldata, flag=", STRING, "'<a & b>', DBMS_XMLGEN.ENTITY_ENCODE"),
    _fn("DBMS_XMLGEN", "NEWCONTEXT", "querystring", NUMBER, "'SELECT 1 AS x FROM dual'"),
    _proc("DBMS_XMLGEN", "SETROWTAG", "ctx, rowtagname", "v_x, 'R'"),
    _proc("DBMS_XMLGEN", "SETROWSETTAG", "ctx, rowsettagname", "v_x, 'RS'"),
    _proc("DBMS_XMLGEN", "SETMAXROWS", "ctx, maxrows", "v_x, 10"),
    _proc("DBMS_XMLGEN", "SETSKIPROWS", "ctx, skiprows", "v_x, 0"),
    _proc("DBMS_XMLGEN", "SETNULLHANDLING", "ctx, flag", "v_x, DBMS_XMLGEN.EMPTY_TAG"),
    _proc("DBMS_XMLGEN", "SETBINDVALUE", "ctx, bindvariablename, bindvalue", "v_x, 'B', '1'"),
    _proc("DBMS_XMLGEN", "CLEARBINDVALUES", "ctx", "v_x"),
    _proc("DBMS_XMLGEN", "RESTARTQUERY", "ctx", "v_x"),
    _fn("DBMS_XMLGEN", "GETXML", "ctx, dtdorschema=", STRING, "v_x"),
    _fn("DBMS_XMLGEN", "GETXMLTYPE", "ctx, dtdorschema=", None, "v_e"),
    _fn("DBMS_XMLGEN", "GETNUMROWSPROCESSED", "ctx", NUMBER, "v_x"),
    _proc("DBMS_XMLGEN", "CLOSECONTEXT", "ctx", "v_x"),
    _fn("UTL_RAW", "CONVERT", "r, to_charset, from_charset", None, "v_raw, 'AMERICAN_AMERICA.AL32UTF8', 'WE8ISO8859P1'"),
    _fn("DBMS_LOB", "GETCHUNKSIZE", "lob_loc", NUMBER, "v_blob"),
    _fn("DBMS_LOB", "ISOPEN", "lob_loc", NUMBER, "v_clob"),
    _fn("DBMS_LOB", "ISTEMPORARY", "lob_loc", NUMBER, "v_clob"),
    # The PL/SQL Web Toolkit's page buffer and CGI environment (oracompat/packages_web.sql): session
    # state in Oracle too; the gateway that serves the page is outside the database in both systems.
    _proc("HTP", "PRINT", "cbuf=", "'<p>'"),
    _proc("HTP", "P", "cbuf=", "v_s", pg="oracompat.htp_print"),
    _proc("HTP", "PRN", "cbuf=", "v_n"),
    _proc("HTP", "PRINTS", "ctext=", "'a<b'"),
    _proc("HTP", "PS", "ctext=", "'a&b'", pg="oracompat.htp_prints"),
    _proc("HTP", "INIT", ""),
    _fn("HTF", "ESCAPE_SC", "ctext", STRING, "'<a href=\"x\">&</a>'"),
    _proc("OWA_UTIL", "MIME_HEADER", "ccontent_type=, bclose_header=, ccharset=", "'text/plain', TRUE, 'UTF-8'"),
    _proc("OWA_UTIL", "HTTP_HEADER_CLOSE", ""),
    _proc("OWA_UTIL", "SHOWPAGE", ""),
    _fn("OWA_UTIL", "GET_CGI_ENV", "param_name", STRING, "'REQUEST_METHOD'"),
    _proc("OWA", "INIT_CGI_ENV", "num_params, param_name, param_val", "1, v_vc, v_vc"),
    # DBMS_XMLDOM / DBMS_XMLPARSER / DBMS_XSLPROCESSOR: reading a parsed tree, each handle the value
    # of its node (oracompat/packages_xmldom.sql; what changes the tree or needs a node's place in it
    # is not here)
    _fn("DBMS_XMLPARSER", "NEWPARSER", "", None),
    _proc("DBMS_XMLPARSER", "PARSEBUFFER", "INOUT p, buffer", "v_xp, '<a>1</a>'"),
    _proc("DBMS_XMLPARSER", "PARSECLOB", "INOUT p, doc", "v_xp, '<a>1</a>'"),
    _fn("DBMS_XMLPARSER", "GETDOCUMENT", "p", None, "v_xp"),
    _proc("DBMS_XMLPARSER", "FREEPARSER", "p", "v_xp", noop="DBMS_XMLPARSER.FREEPARSER: a parser is a value"),
    _fn("DBMS_XMLDOM", "NEWDOMDOCUMENT", "xmldoc", None, "'<a><b>1</b></a>'"),
    _fn("DBMS_XMLDOM", "MAKENODE", "n", None, "v_doc"),
    _fn("DBMS_XMLDOM", "MAKEELEMENT", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "ISNULL", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "GETDOCUMENTELEMENT", "doc", None, "v_doc"),
    _fn("DBMS_XMLDOM", "GETXMLTYPE", "doc", None, "v_doc"),
    _fn("DBMS_XMLDOM", "GETELEMENTSBYTAGNAME", "elem, name", None, "v_doc, 'b'"),
    _fn("DBMS_XMLDOM", "GETCHILDNODES", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "GETFIRSTCHILD", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "GETLASTCHILD", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "HASCHILDNODES", "n", None, "v_node"),
    _fn("DBMS_XMLDOM", "GETLENGTH", "nl", NUMBER, "v_doc"),
    _fn("DBMS_XMLDOM", "ITEM", "nl, idx", None, "v_doc, 0"),
    _fn("DBMS_XMLDOM", "GETNODENAME", "n", STRING, "v_node"),
    _fn("DBMS_XMLDOM", "GETNODEVALUE", "n", STRING, "v_node"),
    _fn("DBMS_XMLDOM", "GETNODETYPE", "n", NUMBER, "v_node"),
    _proc("DBMS_XMLDOM", "FREEDOCUMENT", "doc", "v_doc", noop="DBMS_XMLDOM.FREEDOCUMENT: a document is a value"),
    _proc("DBMS_XMLDOM", "FREENODE", "n", "v_node", noop="DBMS_XMLDOM.FREENODE: a node is a value"),
    _proc("DBMS_XMLDOM", "FREENODELIST", "nl", "v_node", noop="DBMS_XMLDOM.FREENODELIST: a node list is a value"),
    _fn("DBMS_XSLPROCESSOR", "SELECTSINGLENODE", "n, pattern", None, "v_doc, '/a/b'"),
    _fn("DBMS_XSLPROCESSOR", "SELECTNODES", "n, pattern", None, "v_doc, '/a/b'"),
    _proc("DBMS_XSLPROCESSOR", "VALUEOF", "n, pattern, OUT val", "v_doc, '/a/b', v_s"),
    # APEX's plain string/array utilities (oracompat/packages_apex.sql); the rest of APEX is reported
    _fn("APEX_UTIL", "STRING_TO_TABLE", "p_string, p_separator=", None, "'a:b', ':'"),
    _fn("APEX_UTIL", "TABLE_TO_STRING", "p_table, p_string=", STRING, "v_vc2, ','"),
    # DBMS_STATS's gathering as ANALYZE (oracompat/packages_stats.sql)
    _proc("DBMS_STATS", "GATHER_TABLE_STATS", "ownname, tabname, partname=, estimate_percent=, block_sample=, method_opt=, degree=, granularity=, cascade=, stattab=, statid=, statown=, no_invalidate=, stattype=, force=", "'S', 'EMP', estimate_percent => 100"),
    _proc("DBMS_STATS", "GATHER_INDEX_STATS", "ownname, indname, partname=, estimate_percent=, stattab=, statid=, statown=, degree=, granularity=, no_invalidate=, force=", "'S', 'EMP_PKEY'"),
    _proc("DBMS_STATS", "GATHER_SCHEMA_STATS", "ownname, estimate_percent=, block_sample=, method_opt=, degree=, granularity=, cascade=, stattab=, statid=, options=, statown=, no_invalidate=, gather_temp=, gather_fixed=, stattype=, force=", "'S', granularity => 'ALL', cascade => TRUE"),
    # UTL_FILE over the file gate that a role with server-file privileges installs
    # (harness/engines/file_gate.py; oracompat/packages_utl_file.sql). Examples use v_f
    # UTL_FILE.FILE_TYPE and directory TMP_DIR (tests/migrator/convert/test_utl_file_exec.py).
    _fn("UTL_FILE", "FOPEN", "location, filename, open_mode, max_linesize=", None, "'TMP_DIR', 'm.txt', 'w'"),
    _fn("UTL_FILE", "IS_OPEN", "file", None, "v_f"),
    _proc("UTL_FILE", "PUT", "file, buffer", "v_f, 'a'"),
    _proc("UTL_FILE", "PUT_LINE", "file, buffer, autoflush=", "v_f, 'a'"),
    _proc("UTL_FILE", "NEW_LINE", "file, lines=", "v_f, 2"),
    _proc("UTL_FILE", "PUTF", "file, format, arg1=, arg2=, arg3=, arg4=, arg5=", "v_f, '%s\\n', 'a'"),
    _proc("UTL_FILE", "FFLUSH", "file", "v_f"),
    _proc("UTL_FILE", "GET_LINE", "file, OUT buffer, len=", "v_r, v_s"),
    _proc("UTL_FILE", "GET_RAW", "file, OUT buffer, len=", "v_r, v_raw"),
    _proc("UTL_FILE", "PUT_RAW", "file, buffer, autoflush=", "v_f, HEXTORAW('00FF')"),
    _proc("UTL_FILE", "FCLOSE", "INOUT file", "v_f"),
    _proc("UTL_FILE", "FCLOSE_ALL", ""),
    _proc("UTL_FILE", "FCOPY", "src_location, src_filename, dest_location, dest_filename, start_line=, end_line=", "'TMP_DIR', 'in.txt', 'TMP_DIR', 'copy.txt'"),
    _proc("UTL_FILE", "FRENAME", "src_location, src_filename, dest_location, dest_filename, overwrite=", "'TMP_DIR', 'copy.txt', 'TMP_DIR', 'moved.txt', TRUE"),
    _proc("UTL_FILE", "FREMOVE", "location, filename", "'TMP_DIR', 'in.txt'"),
    _proc("UTL_FILE", "FGETATTR", "location, filename, OUT fexists, OUT file_length, OUT block_size", "'TMP_DIR', 'in.txt', v_bool, v_n, v_n"),
    # DBMS_METADATA.GET_DDL of PL/SQL objects: the Oracle source each unit recorded (keep_source)
    _fn("DBMS_METADATA", "GET_DDL", "object_type, name, schema=, version=, model=, transform=", STRING, "'PROCEDURE', 'TRY_DBMS_METADATA_GET_DDL'"),
    # DBMS_LOB's BFILE members over the same gate (v_b BFILE := BFILENAME('TMP_DIR', 'in.txt'))
    _proc("DBMS_LOB", "FILEOPEN", "INOUT file_loc, open_mode=", "v_b, DBMS_LOB.FILE_READONLY"),
    _proc("DBMS_LOB", "FILECLOSE", "INOUT file_loc", "v_b"),
    _proc("DBMS_LOB", "FILECLOSEALL", ""),
    _fn("DBMS_LOB", "FILEISOPEN", "file_loc", NUMBER, "v_b"),
    _fn("DBMS_LOB", "FILEEXISTS", "file_loc", NUMBER, "v_b"),
    _proc("DBMS_LOB", "FILEGETNAME", "file_loc, OUT dir_alias, OUT filename", "v_b, v_s, v_s"),
    _proc("DBMS_LOB", "LOADFROMFILE", "INOUT dest_lob, src_lob, amount, dest_offset=, src_offset=", "v_blob, v_b, 2"),
    _proc("DBMS_LOB", "LOADBLOBFROMFILE", "INOUT dest_lob, src_bfile, amount, INOUT dest_offset, INOUT src_offset", "v_blob, v_b, 2, v_o, v_o"),
    _proc("DBMS_LOB", "LOADCLOBFROMFILE", "INOUT dest_lob, src_bfile, amount, INOUT dest_offset, INOUT src_offset, bfile_csid, INOUT lang_context, OUT warning", "v_clob, v_b, 2, v_o, v_o, 0, v_i, v_w"),
)
# fmt: on
BY_NAME: dict[tuple[str, str], Member] = {(m.package, m.name): m for m in MEMBERS}
# DBMS_OUTPUT is converted by the PL/SQL emitter itself (rule plsql.dbms_output).
DBMS_OUTPUT_MEMBERS = frozenset({"PUT_LINE", "PUT", "NEW_LINE", "ENABLE", "DISABLE"})
CONVERTED_PACKAGES = frozenset({m.package for m in MEMBERS} | {"DBMS_OUTPUT"})

# Package constants, as SQL literals.
CONSTANTS: dict[tuple[str, str], str] = {
    ("DBMS_LOB", "CALL"): "12",
    ("DBMS_LOB", "SESSION"): "10",
    ("DBMS_LOB", "LOB_READONLY"): "0",
    ("DBMS_LOB", "LOB_READWRITE"): "1",
    ("DBMS_LOB", "LOBMAXSIZE"): "18446744073709551615",
    ("DBMS_LOB", "DEFAULT_CSID"): "0",
    ("DBMS_LOB", "DEFAULT_LANG_CTX"): "0",
    ("DBMS_LOB", "NO_WARNING"): "0",
    ("DBMS_LOB", "WARN_INCONVERTIBLE_CHAR"): "1",
    ("DBMS_LOB", "FILE_READONLY"): "0",
    ("UTL_RAW", "BIG_ENDIAN"): "1",
    ("UTL_RAW", "LITTLE_ENDIAN"): "2",
    ("UTL_RAW", "MACHINE_ENDIAN"): "3",
    ("DBMS_CRYPTO", "HASH_MD4"): "1",
    ("DBMS_CRYPTO", "HASH_MD5"): "2",
    ("DBMS_CRYPTO", "HASH_SH1"): "3",
    ("DBMS_CRYPTO", "HASH_SH256"): "4",
    ("DBMS_CRYPTO", "HASH_SH384"): "5",
    ("DBMS_CRYPTO", "HASH_SH512"): "6",
    ("DBMS_CRYPTO", "HMAC_MD5"): "1",
    ("DBMS_CRYPTO", "HMAC_SH1"): "2",
    ("DBMS_CRYPTO", "HMAC_SH256"): "3",
    ("DBMS_CRYPTO", "HMAC_SH384"): "4",
    ("DBMS_CRYPTO", "HMAC_SH512"): "5",
    ("DBMS_SQL", "NATIVE"): "1",
    ("DBMS_XMLGEN", "ENTITY_ENCODE"): "0",
    ("DBMS_XMLGEN", "ENTITY_DECODE"): "1",
    ("DBMS_XMLGEN", "NONE"): "0",
    ("DBMS_XMLGEN", "SCHEMA"): "1",
    ("DBMS_XMLGEN", "DTD"): "2",
    ("DBMS_XMLGEN", "DROP_NULLS"): "0",
    ("DBMS_XMLGEN", "NULL_ATTR"): "1",
    ("DBMS_XMLGEN", "EMPTY_TAG"): "2",
    ("DBMS_SQL", "V6"): "0",
    ("DBMS_SQL", "V7"): "2",
    ("OWA", "NL_CHAR"): "E'\\n'",
    **{
        ("DBMS_XMLDOM", k): str(v)
        for k, v in (
            ("ELEMENT_NODE", 1),
            ("ATTRIBUTE_NODE", 2),
            ("TEXT_NODE", 3),
            ("CDATA_SECTION_NODE", 4),
            ("ENTITY_REFERENCE_NODE", 5),
            ("ENTITY_NODE", 6),
            ("PROCESSING_INSTRUCTION_NODE", 7),
            ("COMMENT_NODE", 8),
            ("DOCUMENT_NODE", 9),
            ("DOCUMENT_TYPE_NODE", 10),
            ("DOCUMENT_FRAGMENT_NODE", 11),
            ("NOTATION_NODE", 12),
        )
    },
}

# Package types: (collection kind, Oracle element type); INDEX BY tables are jsonb maps; "scalar":
# a SUBTYPE of the Oracle type given; "record" / "assoc_record": the library's composite type (its
# fields' Oracle types below), alone or as the element of an INDEX BY table.
DESC_REC = "oracompat.dbms_sql_desc_rec"
FILE_TYPE = "oracompat.utl_file_file_type"
RECORD_FIELDS: dict[str, dict[str, str]] = {
    DESC_REC: {
        "col_type": "BINARY_INTEGER", "col_max_len": "BINARY_INTEGER", "col_name": "VARCHAR2(32767)",
        "col_name_len": "BINARY_INTEGER", "col_schema_name": "VARCHAR2(32767)", "col_schema_name_len": "BINARY_INTEGER",
        "col_precision": "BINARY_INTEGER", "col_scale": "BINARY_INTEGER", "col_charsetid": "BINARY_INTEGER",
        "col_charsetform": "BINARY_INTEGER", "col_null_ok": "BOOLEAN",
    },
    FILE_TYPE: {"id": "BINARY_INTEGER", "datatype": "BINARY_INTEGER", "byte_mode": "BOOLEAN"},
}  # fmt: skip
TYPES: dict[tuple[str, str], tuple[str, str]] = {
    ("DBMS_UTILITY", "UNCL_ARRAY"): ("assoc", "VARCHAR2(227)"),
    ("DBMS_UTILITY", "NAME_ARRAY"): ("assoc", "VARCHAR2(128)"),
    ("DBMS_UTILITY", "LNAME_ARRAY"): ("assoc", "VARCHAR2(4000)"),
    ("DBMS_SQL", "VARCHAR2_TABLE"): ("assoc", "VARCHAR2(2000)"),
    ("DBMS_SQL", "VARCHAR2A"): ("assoc", "VARCHAR2(32767)"),
    ("DBMS_SQL", "VARCHAR2S"): ("assoc", "VARCHAR2(256)"),
    ("DBMS_SQL", "NUMBER_TABLE"): ("assoc", "NUMBER"),
    ("DBMS_SQL", "DATE_TABLE"): ("assoc", "DATE"),
    ("DBMS_XMLGEN", "CTXHANDLE"): ("scalar", "NUMBER"),
    ("DBMS_SQL", "DESC_REC"): ("record", DESC_REC),
    ("DBMS_SQL", "DESC_REC2"): ("record", DESC_REC),
    ("DBMS_SQL", "DESC_TAB"): ("assoc_record", DESC_REC),
    ("DBMS_SQL", "DESC_TAB2"): ("assoc_record", DESC_REC),
    ("OWA", "VC_ARR"): ("assoc", "VARCHAR2(32000)"),
    **{
        ("DBMS_XMLDOM", t): ("scalar", "XMLTYPE")
        for t in ("DOMDOCUMENT", "DOMNODE", "DOMELEMENT", "DOMNODELIST", "DOMTEXT")
    },
    ("DBMS_XMLPARSER", "PARSER"): ("scalar", "XMLTYPE"),
    ("APEX_APPLICATION_GLOBAL", "VC_ARR2"): ("assoc", "VARCHAR2(32767)"),
    ("APEX_APPLICATION_GLOBAL", "N_ARR"): ("assoc", "NUMBER"),
    ("APEX_APPLICATION_GLOBAL", "D_ARR"): ("assoc", "DATE"),
    # APEX_APPLICATION_GLOBAL is a public synonym of WWV_FLOW_GLOBAL, which older code names
    ("WWV_FLOW_GLOBAL", "VC_ARR2"): ("assoc", "VARCHAR2(32767)"),
    ("WWV_FLOW_GLOBAL", "N_ARR"): ("assoc", "NUMBER"),
    ("WWV_FLOW_GLOBAL", "D_ARR"): ("assoc", "DATE"),
    ("UTL_FILE", "FILE_TYPE"): ("record", FILE_TYPE),
}

# A package the library holds only types of (APEX_APPLICATION_GLOBAL's arrays) is converted too.
CONVERTED_PACKAGES = CONVERTED_PACKAGES | {package for package, _ in TYPES}

# Exceptions the packages declare, as their Oracle error codes (harness/ground_truth/oracle_errors.py maps them).
EXCEPTIONS: dict[tuple[str, str], int] = {
    ("DBMS_ASSERT", "INVALID_SCHEMA_NAME"): -44001,
    ("DBMS_ASSERT", "INVALID_OBJECT_NAME"): -44002,
    ("DBMS_ASSERT", "INVALID_SQL_NAME"): -44003,
    ("DBMS_ASSERT", "INVALID_QUALIFIED_SQL_NAME"): -44004,
    ("DBMS_LOB", "INVALID_ARGVAL"): -21560,
    ("DBMS_LOB", "VALUE_ERROR"): -6502,
    ("UTL_FILE", "INVALID_PATH"): -29280,
    ("UTL_FILE", "INVALID_MODE"): -29281,
    ("UTL_FILE", "INVALID_FILEHANDLE"): -29282,
    ("UTL_FILE", "INVALID_OPERATION"): -29283,
    ("UTL_FILE", "READ_ERROR"): -29284,
    ("UTL_FILE", "WRITE_ERROR"): -29285,
    ("UTL_FILE", "INTERNAL_ERROR"): -29286,
    ("UTL_FILE", "INVALID_MAXLINESIZE"): -29287,
    ("UTL_FILE", "INVALID_FILENAME"): -29288,
    ("UTL_FILE", "ACCESS_DENIED"): -29289,
    ("UTL_FILE", "INVALID_OFFSET"): -29290,
    ("UTL_FILE", "DELETE_FAILED"): -29291,
    ("UTL_FILE", "RENAME_FAILED"): -29292,
}


# Upper-case text that could hold a supplied name holds one of these (a superset: strings and
# comments match too, and names inside longer words). A name `references` finds is in the text, so
# its upper case is in the text's: no text without one of these holds one. (A plain substring test:
# the case-insensitive regular expression it replaces took a millisecond per unit that has one.)
_SUPPLIED_TEXT = (*SUPPLIED_PACKAGE_PREFIXES, *NAMES, *SUPPLIED_TYPES)


def _may_name_supplied(text: str) -> bool:
    upper = text.upper()
    return any(p in upper for p in _SUPPLIED_TEXT)


def is_supplied(name: str) -> bool:
    """Does a (package or type) name belong to Oracle's supplied packages?"""
    upper = name.upper()
    return upper.startswith(SUPPLIED_PACKAGE_PREFIXES) or upper in NAMES or upper in SUPPLIED_TYPES


@dataclass(frozen=True)
class Ref:
    """A reference to a supplied package: PACKAGE[.MEMBER], as written (SYS. dropped)."""

    package: str  # upper case
    member: str  # upper case; "" for a bare package or type name
    line: int = 0  # 1-based within the unit
    text: str = ""  # as written in the source, for the report

    @property
    def label(self) -> str:
        return f"{self.package}.{self.member}" if self.member else self.package


def split_ref(parts, user_object: Callable[[str], bool] = lambda name: False) -> tuple[Ref, int] | None:
    """(reference, number of name parts it uses) when a name (plain parts, any case) starts with a
    supplied package — `[SYS.]PKG[.MEMBER]` — that is no object of the schema itself."""
    up = [p.upper() for p in parts]
    skip = 1 if len(up) >= 2 and up[0] in _OWNERS and is_supplied(up[1]) else 0
    if not up[skip:] or not is_supplied(up[skip]) or user_object(parts[skip]):
        return None
    if len(up) > skip + 1:
        return Ref(up[skip], up[skip + 1]), skip + 2
    return Ref(up[skip], ""), skip + 1


# Members of a converted package with no PostgreSQL meaning either, reported as a package without
# an equivalent is, under the name given (none today: DBMS_LOB's BFILE members read files through
# the file gate, as UTL_FILE does).
NO_EQUIVALENT_MEMBERS: dict[tuple[str, str], str] = {}


# Packages of which the library holds only some members: every other member (and constant) is
# reported under the group's name, as a package without an equivalent is.
PARTLY_CONVERTED: dict[str, str] = {
    "DBMS_CRYPTO": "DBMS_CRYPTO encryption and random bytes (pgcrypto)",
    "UTL_I18N": "UTL_I18N beyond STRING_TO_RAW / RAW_TO_CHAR",
    "UTL_ENCODE": "UTL_ENCODE beyond base64 (UUENCODE, QUOTED_PRINTABLE, MIMEHEADER, TEXT)",
    # the Web Toolkit's tag generators (HTP.HTMLOPEN, HTF.BOLD ...), OWA.GET_PAGE's row array and the
    # gateway's own procedures are not in the library
    "HTP": "HTP beyond the page buffer (PRINT, P, PRN, PRINTS, PS, INIT)",
    "HTF": "HTF beyond ESCAPE_SC",
    "OWA_UTIL": "OWA_UTIL beyond MIME_HEADER, HTTP_HEADER_CLOSE, SHOWPAGE, GET_CGI_ENV",
    "OWA": "OWA beyond INIT_CGI_ENV, VC_ARR, NL_CHAR",
    "DBMS_XMLDOM": "DBMS_XMLDOM beyond reading a parsed tree (changes to it, parent and sibling navigation)",
    "DBMS_XMLPARSER": "DBMS_XMLPARSER beyond NEWPARSER, PARSEBUFFER, PARSECLOB, GETDOCUMENT",
    "DBMS_XSLPROCESSOR": "DBMS_XSLPROCESSOR beyond SELECTSINGLENODE, SELECTNODES, VALUEOF",
    "APEX_UTIL": "APEX_UTIL beyond STRING_TO_TABLE / TABLE_TO_STRING (APEX session state, pages, users)",
    "APEX_APPLICATION_GLOBAL": "APEX_APPLICATION_GLOBAL beyond its array types (VC_ARR2, N_ARR, D_ARR)",
    "WWV_FLOW_GLOBAL": "WWV_FLOW_GLOBAL beyond its array types (VC_ARR2, N_ARR, D_ARR)",
    "DBMS_STATS": "DBMS_STATS beyond GATHER_TABLE_STATS / GATHER_INDEX_STATS / GATHER_SCHEMA_STATS",
}


def _partly(ref: Ref) -> str | None:
    group = PARTLY_CONVERTED.get(ref.package)
    if group is None or not ref.member:
        return None
    known = (
        (ref.package, ref.member) in BY_NAME
        or (ref.package, ref.member) in CONSTANTS
        or (ref.package, ref.member) in TYPES
    )
    return None if known else group


def is_redesign(ref: Ref) -> bool:
    """A reference to a package (or type, or member) the library has no faithful meaning for."""
    return (
        ref.package not in CONVERTED_PACKAGES
        or (ref.package, ref.member) in NO_EQUIVALENT_MEMBERS
        or _partly(ref) is not None
    )


def redesign_name(ref: Ref) -> str:
    """What a reference without an equivalent is reported under: its package, or the group of
    members of a converted package it belongs to."""
    return NO_EQUIVALENT_MEMBERS.get((ref.package, ref.member)) or _partly(ref) or ref.package


def member(ref: Ref) -> Member | None:
    return BY_NAME.get((ref.package, ref.member))


def redesign_marker(ref: Ref, original: str = "") -> str:
    """The marker written where such a reference stood (reported once per unit: report_redesign)."""
    return unconverted_marker(f"Oracle-supplied package {redesign_name(ref)}", original or ref.label)


def references(
    text: str, user_object: Callable[[str], bool] = lambda name: False, tokens: list[Token] | None = None
) -> list[Ref]:
    """Every reference to a supplied package in a unit's code (never in comments or strings).
    `tokens`: the code tokens of `text` when the caller has them (a parsed unit's, which its parse
    tokenized already: reading them again was most of this function's time)."""
    if not _may_name_supplied(text):  # most units name none: no token walk for them
        return []
    toks = [t for t in code_tokens(text) if t.kind != "comment"] if tokens is None else tokens
    lines = LineIndex(text)
    out: list[Ref] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind not in (WORD, QIDENT) or (i and toks[i - 1].text in (".", "%")):
            i += 1
            continue
        first = normalize_identifier(t.text)
        head = first.upper()
        if head not in _OWNERS and not is_supplied(head):
            # split_ref finds nothing in a chain that starts so; its other names follow a "."
            i += 1
            continue
        parts, j = [first], i
        while j + 2 < len(toks) and toks[j + 1].text == "." and toks[j + 2].kind in (WORD, QIDENT):
            parts.append(normalize_identifier(toks[j + 2].text))
            j += 2
        hit = split_ref(parts, user_object)
        if hit is not None and (hit[0].member or hit[0].package in SUPPLIED_TYPES or hit[0].package in NAMES):
            line = lines.line(t.start)
            written = text[t.start : toks[min(j, i + 2 * hit[1] - 2)].end]
            out.append(Ref(hit[0].package, hit[0].member, line, written))
        i = j + 1
    return out


@dataclass
class RedesignReport:
    package: str
    sites: list[Ref] = field(default_factory=list)

    @property
    def construct(self) -> str:
        return f"{REDESIGN}: {self.package}"

    @property
    def message(self) -> str:
        calls = ", ".join(f"line {r.line} {r.text}" for r in self.sites)
        if self.package in SUPPLIED_TYPES or self.package.startswith("SDO_"):
            # Oracle Spatial's operators and functions compute geometry: PostGIS has their
            # counterparts (its types are converted: oracompat/spatial.sql)
            return (
                f"Oracle Spatial operator or function; needs PostGIS (geometry and its ST_ functions; "
                f"this run installs no PostGIS): {len(self.sites)} site(s): {calls}"
            )
        return f"{len(self.sites)} call site(s): {calls}"


def redesign_reports(
    text: str, user_object: Callable[[str], bool] = lambda name: False, tokens: list[Token] | None = None
) -> list[RedesignReport]:
    """The unit's references to packages without a PostgreSQL equivalent, grouped by package."""
    if not _may_name_supplied(text):
        return []  # no name of a supplied package anywhere: no need to read the tokens
    groups: dict[str, RedesignReport] = {}
    for ref in references(text, user_object, tokens):
        if is_redesign(ref):
            name = redesign_name(ref)
            groups.setdefault(name, RedesignReport(name)).sites.append(ref)
    return list(groups.values())


def report_redesign(
    text: str,
    output: str,
    ctx: ConversionContext,
    user_object: Callable[[str], bool],
    tokens: list[Token] | None = None,
) -> str:
    """Report each package without an equivalent once (construct `REDESIGN: <name>`, every call
    site in the message), replacing what the converters said about single references to it, and
    make sure the output carries a marker for it (so it cannot deploy). `tokens`: `text`'s code
    tokens, when the caller has them (`references`)."""
    reports = redesign_reports(text, user_object, tokens)
    if not reports:
        return output
    # what the converters said about single references is said here once
    keys = {
        s.label if (s.package, s.member) in NO_EQUIVALENT_MEMBERS or _partly(s) else s.package
        for r in reports
        for s in r.sites
    }
    ctx.unconverted_items = [u for u in ctx.unconverted_items if not _about(u, keys)]
    for r in reports:
        ctx.unconverted(r.construct, r.message, r.sites[0].line)
        # a package whose every call sits inside another marked call (HTF.BOLD in HTP.P(...)) is
        # in that marker's text; when a marker in statement position already refuses the unit at
        # CREATE time, a marker put above the unit's CREATE would only stand apart from its code
        if f"Oracle-supplied package {r.package})" not in output and not _inside_markers(r, output):
            output = redesign_marker(r.sites[0], r.sites[0].text) + ";\n" + output
    return output


def _inside_markers(report: RedesignReport, output: str) -> bool:
    """Every call site of `report` is shown in the text of a marker already in `output`, and a
    marker in statement position refuses the unit (dispatch.refuse_partial's test)."""
    from migrator.convert.dispatch import _STATEMENT_MARKER  # dispatch imports this module

    if not _STATEMENT_MARKER.search(output):
        return False
    shown = " ".join(_MARKER_TEXT.findall(output)).upper()
    return all(site.label.upper() in shown for site in report.sites)


_MARKER_TEXT = re.compile(r"/\* " + MARKER_TOKEN + r"\(.*?\*/", re.S)


def _about(item: Unconverted, keys: set[str]) -> bool:
    return item.construct == SUPPLIED_CONSTRUCT and any(k in item.message.upper() for k in keys)
