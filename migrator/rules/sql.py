"""Public entry points for converting Oracle SQL (statements and expressions) to PostgreSQL.

Other converters (DDL, PL/SQL) call only these two functions; the construct families behind
them live in their own modules. sqlglot (read='oracle', write='postgres') does the parsing and
printing; our transforms run on its tree where sqlglot is wrong or silent.
"""

from __future__ import annotations

import sqlglot

from migrator.rules.context import ConversionContext, unconverted_marker


def convert_statement(text: str, ctx: ConversionContext) -> str:
    """Convert one Oracle SQL statement (no trailing ';') to PostgreSQL text (no trailing ';')."""
    try:
        return sqlglot.transpile(text, read="oracle", write="postgres")[0]
    except sqlglot.errors.ParseError as exc:
        ctx.unconverted("sql statement", f"sqlglot could not parse: {exc}")
        return unconverted_marker("sql statement", text)


def convert_expression(text: str, ctx: ConversionContext) -> str:
    """Convert one Oracle SQL expression to PostgreSQL text."""
    return convert_statement(f"SELECT {text}", ctx)[len("SELECT "):]
