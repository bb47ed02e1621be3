"""The Oracle-supplied packages the ``oracompat`` library implements, deployed after `support.sql`
and `runtime.sql` (it calls both): DBMS_LOB and UTL_RAW (`packages_lob_raw.sql`), DBMS_UTILITY,
DBMS_RANDOM, DBMS_ASSERT, DBMS_APPLICATION_INFO, DBMS_SESSION and SYS_CONTEXT
(`packages_misc.sql`), DBMS_SQL (`packages_dbms_sql.sql`), UTL_URL, DBMS_XMLGEN.CONVERT,
UTL_RAW.CONVERT and XMLTYPE's methods (`packages_text_xml.sql`), the PL/SQL Web Toolkit's page
buffer and CGI environment (HTP, HTF, OWA_UTIL, OWA: `packages_web.sql`), reading a parsed tree with
DBMS_XMLDOM / DBMS_XMLPARSER / DBMS_XSLPROCESSOR (`packages_xmldom.sql`), APEX_UTIL's string/array
utilities (`packages_apex.sql`), DBMS_STATS's gathering as ANALYZE (`packages_stats.sql`), UTL_FILE
over the file gate (`packages_utl_file.sql`; `harness/engines/file_gate.py`).

Each member is a function ``oracompat.<package>_<member>`` with Oracle's parameter names, defaults
and documented results; a procedure's IN OUT and OUT parameters are the function's INOUT and OUT
parameters, which the converter assigns back to the caller's variables. What converts to which
function is the table in `migrator.convert.supplied`; packages without a faithful PostgreSQL
meaning (UTL_HTTP, UTL_TCP, WPG_DOCLOAD, APEX_* ...) are not here, and units that call them are reported.
"""

from __future__ import annotations

from pathlib import Path

_FILES = (
    "packages_lob_raw.sql",
    "packages_misc.sql",
    "packages_dbms_sql.sql",
    "packages_text_xml.sql",
    "packages_web.sql",
    "packages_xmldom.sql",
    "packages_apex.sql",
    "packages_stats.sql",
    "packages_utl_file.sql",
)

PACKAGES_SQL: str = "\n\n".join(Path(__file__).with_name(f).read_text(encoding="utf-8") for f in _FILES)
