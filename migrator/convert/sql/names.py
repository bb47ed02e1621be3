"""Names in sqlglot trees: Oracle folding on the way in, PostgreSQL quoting on the way out.

sqlglot keeps an identifier's text as written and prints it back unquoted unless it was quoted in
the source; its PostgreSQL generator quotes no keywords. So `emp#` (valid unquoted in Oracle) was
printed bare and read by PostgreSQL as an operator, a column named `"EMP"` in Oracle (the same
object as `emp`) was printed `"EMP"` (another object in PostgreSQL), and a quoted function name
came out upper-cased. Two passes over the tree fix this:

* `fold_names`, right after parsing: every identifier gets its plain name (`migrator.source.identifiers`);
  the `quoted` flag keeps what the Oracle source said, which some rules read (ROWNUM vs "ROWNUM").
  Rules then see, compare and build plain names only.
* `quote_names`, right before printing: every identifier is quoted exactly when
  `harness.quoting.quote_ident` quotes its plain name, so ordinary names stay bare — and keep
  the source's spelling (`NEW.SAL` stays `NEW.SAL`: PostgreSQL folds it to the same name).

An unquoted Oracle reserved word is never a name in Oracle (USER, UID, ROWNUM, LEVEL... are
built-ins there), so it is left as the rules made it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.helper import name_sequence

from harness.quoting import quote_ident
from migrator.source.identifiers import fold

# Oracle's reserved words (V$RESERVED_WORDS, RESERVED = 'Y'): never a name when unquoted.
ORACLE_RESERVED = frozenset(
    """ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER COLUMN COMMENT
    COMPRESS CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC DISTINCT DROP ELSE EXCLUSIVE
    EXISTS FILE FLOAT FOR FROM GRANT GROUP HAVING IDENTIFIED IMMEDIATE IN INCREMENT INDEX INITIAL
    INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK LONG MAXEXTENTS MINUS MLSLABEL MODE MODIFY
    NOAUDIT NOCOMPRESS NOT NOWAIT NULL NUMBER OF OFFLINE ON ONLINE OPTION OR ORDER PCTFREE PRIOR
    PUBLIC RAW RENAME RESOURCE REVOKE ROW ROWID ROWNUM ROWS SELECT SESSION SET SHARE SIZE SMALLINT
    START SUCCESSFUL SYNONYM SYSDATE TABLE THEN TO TRIGGER UID UNION UNIQUE UPDATE USER VALIDATE
    VALUES VARCHAR VARCHAR2 VIEW WHENEVER WHERE WITH""".split()
)
# What PostgreSQL folds to a lower-case name by itself (it folds ASCII letters only).
_ASCII_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
# What PostgreSQL reads as one bare function name (keywords included: `greatest(...)` is the
# built-in in both dialects, so a function name is quoted only for its characters).
_BARE_FUNCTION = re.compile(r"[a-z_][a-z0-9_$]*")


def _builtin_word(ident: exp.Identifier) -> bool:
    return not ident.quoted and ident.this.upper() in ORACLE_RESERVED


def fold_names(tree: exp.Expression) -> None:
    for ident in tree.find_all(exp.Identifier):
        if isinstance(ident.this, str) and not _builtin_word(ident):
            if ident.quoted:
                ident.set("this", fold('"' + ident.this.replace('"', '""') + '"'))
            else:
                ident.meta["spelling"] = ident.this
                ident.set("this", ident.this.lower())


def quote_names(tree: exp.Expression) -> None:
    _quote_identifiers(tree.find_all(exp.Identifier))
    _quote_calls(tree.find_all(exp.Anonymous))


def _quote_identifiers(idents: Iterable[exp.Identifier]) -> None:
    for ident in idents:
        if isinstance(ident.this, str) and ident.this and not _builtin_word(ident):
            quoted = quote_ident(ident.this) != ident.this
            ident.set("quoted", quoted)
            spelling = ident.meta.get("spelling") if ident._meta else None
            if not quoted and spelling and spelling.lower() == ident.this and _ASCII_WORD.fullmatch(spelling):
                ident.set("this", spelling)


def _quote_calls(calls: Iterable[exp.Anonymous]) -> None:
    for call in calls:
        name = call.this
        # an unquoted function name arrives as text: quoted only when PostgreSQL could not read
        # it bare (e.g. `calc#total(...)`, valid unquoted in Oracle)
        if isinstance(name, str) and not _BARE_FUNCTION.fullmatch(name.lower()):
            call.set("this", exp.Identifier(this=name.lower(), quoted=True))


def quote_and_print(tree: exp.Expression) -> str:
    """`quote_names(tree)` then `to_postgres(tree, copy=False)`, the tree walked once for both:
    they looked for the identifiers and the calls in three walks of every converted tree. The
    nodes are taken in the order those walks found them (breadth first, sqlglot's default), and
    neither step adds or removes an identifier or a call the other looks at."""
    idents: list[exp.Identifier] = []
    calls: list[exp.Anonymous] = []
    for node in tree.walk():
        if isinstance(node, exp.Identifier):
            idents.append(node)
        elif isinstance(node, exp.Anonymous):
            calls.append(node)
    _quote_identifiers(idents)
    _quote_calls(calls)
    return _generate(tree, calls)


# One PostgreSQL generator for every tree: `tree.sql(dialect="postgres")` builds one per call. It
# keeps no state from one `generate` to the next: its unsupported messages are reset by each, and
# `_generate` resets its counter of made-up table aliases (`_t0`, `_t1`, ...), or a unit's output
# would depend on what the process generated before it.
_POSTGRES = Dialect.get_or_raise("postgres").generator()


def to_postgres(tree: exp.Expression, copy: bool = True) -> str:
    """The tree printed as PostgreSQL, a quoted function name in its own case: sqlglot upper-cases
    unqualified function names, quoted ones included ("My Func"(1) became "MY FUNC"(1)). Such a
    call is printed as a user-defined function call, which sqlglot writes as it stands. (Not by
    overriding the generator: the compiled sqlglot, sqlglotc, refuses Python subclasses of its
    generators.)"""
    if copy:
        tree = tree.copy()
    return _generate(tree, list(tree.find_all(exp.Anonymous)))


def _generate(tree: exp.Expression, calls: list[exp.Anonymous]) -> str:
    """to_postgres for a tree whose calls are `calls`."""
    for call in calls:
        name = call.this
        if isinstance(name, exp.Identifier) and name.quoted:
            verbatim = exp.UserDefinedFunction(this=name, expressions=list(call.expressions), wrapped=True)
            if call is tree:
                tree = verbatim
            else:
                call.replace(verbatim)
    _POSTGRES._next_name = name_sequence("_t")
    return _POSTGRES.generate(tree, copy=False)
