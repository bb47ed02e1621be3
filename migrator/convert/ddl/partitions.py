"""CREATE TABLE ... PARTITION BY RANGE | LIST | HASH → PostgreSQL declarative partitioning: the
table becomes a partitioned table and each Oracle partition a table ``PARTITION OF`` it.

Oracle's meaning kept:
* RANGE: a partition holds the keys below its VALUES LESS THAN bound and at or above the previous
  partition's, compared as tuples: PostgreSQL's ``FOR VALUES FROM (previous) TO (bound)`` (the first
  from MINVALUE). A last partition bounded by MAXVALUE in every column also takes the rows whose key
  is NULL in Oracle (NULL sorts above every value): it becomes the DEFAULT partition, which takes
  exactly the rows no other partition does.
* LIST: ``VALUES (a, b)`` → ``FOR VALUES IN (a, b)``; ``VALUES (DEFAULT)`` → ``DEFAULT``.
* HASH: ``PARTITIONS n`` or n named partitions → ``FOR VALUES WITH (MODULUS n, REMAINDER i)``.
  Which partition a row lands in differs from Oracle's hash (noted); queries over the table do not
  see partitions, only partition-extended names would.
Physical attributes of a partition (TABLESPACE, COMPRESS, ...) are storage only and dropped (noted).
Refused with the reason: INTERVAL and AUTOMATIC partitioning (PostgreSQL creates no partition when a
row needs one), SUBPARTITION BY (composite partitioning), PARTITION BY REFERENCE / SYSTEM.
A partition's table is named ``<table>_<partition>`` (Oracle partition names are per table,
PostgreSQL tables share the schema's namespace).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import convert_expression, require, words
from migrator.convert.ddl.tokens import Name, ident, source
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level

_METHODS = ("RANGE", "LIST", "HASH")


@dataclass
class Partitioning:
    clause: str  # " PARTITION BY RANGE (a, b)" for the parent table
    children: list[str] = field(default_factory=list)  # CREATE TABLE ... PARTITION OF statements


def parse_partitioning(
    text: str, toks: list[Token], i: int, table: Name, ctx: ConversionContext
) -> tuple[Partitioning, int]:
    """The partitioning clause at toks[i] (`PARTITION BY ...`) → (what PostgreSQL gets, next index)."""
    require(ctx, "ddl.partitioned_table", "partitioned table")
    if not toks[i + 1].is_word("BY"):
        raise LexError("PARTITION without BY in CREATE TABLE")
    method = toks[i + 2].text.upper()
    if method not in _METHODS:
        raise LexError(f"PARTITION BY {method}: no PostgreSQL equivalent (RANGE, LIST and HASH are converted)")
    if toks[i + 3].text != "(":
        raise LexError(f"PARTITION BY {method} without its column list")
    end = matching_paren(toks, i + 3)
    columns = [ident(t) for t in toks[i + 4 : end] if t.kind in ("word", "qident")]
    j = end + 1
    if j < len(toks) and toks[j].is_word("INTERVAL", "AUTOMATIC"):
        raise LexError(
            f"{toks[j].text.upper()} partitioning: Oracle creates a partition when a row needs one,"
            " PostgreSQL does not (create the partitions ahead, or use pg_partman)"
        )
    if j < len(toks) and toks[j].is_word("SUBPARTITION"):
        raise LexError("SUBPARTITION BY (composite partitioning) is not converted")
    out = Partitioning(f"\nPARTITION BY {method} ({', '.join(quote_ident(c) for c in columns)})")
    if method == "HASH" and j < len(toks) and toks[j].is_word("PARTITIONS"):
        n = int(toks[j + 1].text)
        j += 2
        if j < len(toks) and toks[j].is_word("STORE"):  # STORE IN (tablespaces)
            j = matching_paren(toks, j + 2) + 1
        out.children = [_child(table, f"p{k + 1}", f"FOR VALUES WITH (MODULUS {n}, REMAINDER {k})") for k in range(n)]
        _hash_note(ctx)
        ctx.applied("ddl.partitioned_table")
        return out, j
    if j >= len(toks) or toks[j].text != "(":
        raise LexError(f"PARTITION BY {method} without its list of partitions")
    close = matching_paren(toks, j)
    descs = split_top_level(toks[j + 1 : close])
    dropped: list[Token] = []
    previous = ["MINVALUE"] * len(columns)
    for n, desc in enumerate(descs):
        name, k = _partition_name(desc, n)
        if method == "RANGE":
            bound, k = _values_less_than(text, desc, k, ctx)
            if n == len(descs) - 1 and all(b == "MAXVALUE" for b in bound):
                spec = "DEFAULT"
                ctx.note(
                    f"partition {name} (VALUES LESS THAN MAXVALUE) → the DEFAULT partition: it also takes"
                    " NULL keys, as Oracle's does"
                )
            else:
                spec = f"FOR VALUES FROM ({', '.join(previous)}) TO ({', '.join(bound)})"
            previous = bound
        elif method == "LIST":
            values, k = _values(text, desc, k, ctx)
            spec = "DEFAULT" if values == ["DEFAULT"] else f"FOR VALUES IN ({', '.join(values)})"
        else:
            spec = f"FOR VALUES WITH (MODULUS {len(descs)}, REMAINDER {n})"
        if any(t.is_word("SUBPARTITION", "SUBPARTITIONS") for t in desc[k:]):
            raise LexError(f"partition {name}: subpartitions are not converted")
        dropped += desc[k:]
        out.children.append(_child(table, name, spec))
    if method == "HASH":
        _hash_note(ctx)
    if dropped:
        ctx.note(f"partition physical attributes dropped (storage only, no behaviour): {words(dropped)}")
    ctx.applied("ddl.partitioned_table")
    return out, close + 1


def _hash_note(ctx: ConversionContext) -> None:
    ctx.note("HASH partitions: PostgreSQL's hash puts a row in another partition than Oracle's would")


def _child(table: Name, partition: str, spec: str) -> str:
    child = Name([*table[:-1], f"{table.last}_{partition}"])
    return f"CREATE TABLE {child.sql} PARTITION OF {table.sql} {'DEFAULT' if spec == 'DEFAULT' else spec};"


def _partition_name(desc: list[Token], n: int) -> tuple[str, int]:
    if not desc or not desc[0].is_word("PARTITION"):
        raise LexError(f"expected PARTITION, found {desc[0].text if desc else 'nothing'!r}")
    if len(desc) > 1 and desc[1].kind in ("word", "qident") and not desc[1].is_word("VALUES", "TABLESPACE"):
        return ident(desc[1]), 2
    return f"p{n + 1}", 1


def _values_less_than(text: str, desc: list[Token], k: int, ctx: ConversionContext) -> tuple[list[str], int]:
    if not (desc[k].is_word("VALUES") and desc[k + 1].is_word("LESS") and desc[k + 2].is_word("THAN")):
        raise LexError("a RANGE partition without VALUES LESS THAN")
    return _value_list(text, desc, k + 3, ctx)


def _values(text: str, desc: list[Token], k: int, ctx: ConversionContext) -> tuple[list[str], int]:
    if not desc[k].is_word("VALUES"):
        raise LexError("a LIST partition without VALUES")
    return _value_list(text, desc, k + 1, ctx)


def _value_list(text: str, desc: list[Token], k: int, ctx: ConversionContext) -> tuple[list[str], int]:
    if desc[k].text != "(":
        raise LexError("partition bound without parentheses")
    end = matching_paren(desc, k)
    values = []
    for el in split_top_level(desc[k + 1 : end]):
        if len(el) == 1 and el[0].is_word("MAXVALUE", "DEFAULT", "NULL"):
            values.append(el[0].text.upper())
        else:
            values.append(convert_expression(source(text, el), ctx))
    return values, end + 1
