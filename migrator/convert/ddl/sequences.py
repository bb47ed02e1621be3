"""CREATE SEQUENCE (and the identity-column options, which use the same grammar)."""

from __future__ import annotations

from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import unconverted
from migrator.convert.ddl.tokens import read_name
from migrator.source.lexer import LexError, Token, tokenize

_BIGINT_MAX = 9223372036854775807
_BIGINT_MIN = -9223372036854775808
# Oracle options that only tune performance or RAC/sharding behaviour: no observable effect on
# the values a single PostgreSQL server hands out.
_NO_EFFECT = {
    "ORDER",
    "NOORDER",
    "KEEP",
    "NOKEEP",
    "NOSCALE",
    "SESSION",
    "GLOBAL",
    "NOSHARD",
    "NOEXTEND",
    "NOPARTITION",
}


# parse_options' value for START WITH LIMIT VALUE
LIMIT_VALUE = "LIMIT VALUE"


def _number(toks: list[Token], i: int) -> tuple[str, int]:
    """A possibly signed integer literal at toks[i]."""
    sign = ""
    if toks[i].text in ("-", "+"):
        sign = "-" if toks[i].text == "-" else ""
        i += 1
    if toks[i].kind != "number":
        raise LexError(f"sequence option expects a number, found {toks[i].text!r}")
    return sign + toks[i].text, i + 1


def parse_options(toks: list[Token]) -> tuple[dict, list[str]]:
    """Oracle sequence options → ({option: value}, dropped words)."""
    opts: dict = {}
    dropped: list[str] = []
    i = 0
    while i < len(toks):
        w = toks[i].text.upper()
        if w == "START" and i + 3 < len(toks) and toks[i + 2].is_word("LIMIT") and toks[i + 3].is_word("VALUE"):
            # START WITH LIMIT VALUE (ALTER TABLE MODIFY of an identity column only): continue
            # after the column's highest value (lowest for a descending one)
            opts["start"], i = LIMIT_VALUE, i + 4
        elif w in ("START", "INCREMENT"):  # START WITH n, INCREMENT BY n
            opts[w.lower()], i = _number(toks, i + 2)
        elif w in ("MINVALUE", "MAXVALUE", "CACHE"):
            opts[w.lower()], i = _number(toks, i + 1)
        elif w in ("NOMINVALUE", "NOMAXVALUE", "NOCACHE"):
            opts[w[2:].lower()], i = None, i + 1
        elif w in ("CYCLE", "NOCYCLE"):
            opts["cycle"], i = w == "CYCLE", i + 1
        elif w in _NO_EFFECT or w in ("SCALE", "EXTEND", "SHARD"):
            dropped.append(w)
            i += 1
        elif w == "LIMIT":  # identity/sequence LIMIT VALUE n (Oracle 21+): no PG equivalent
            raise LexError("LIMIT VALUE is not supported")
        else:
            raise LexError(f"unknown sequence option {toks[i].text!r}")
    return opts, dropped


def options(toks: list[Token], ctx: ConversionContext) -> list[str]:
    """Oracle options → PostgreSQL option words (also used inside identity column clauses)."""
    opts, dropped = parse_options(toks)
    if dropped:
        ctx.note(f"sequence options dropped (no effect on one PostgreSQL server): {' '.join(dropped)}")
    if any(d in ("SCALE", "EXTEND", "SHARD") for d in dropped):
        ctx.note("SCALE/EXTEND/SHARD change the generated values' shape in Oracle; PostgreSQL gives plain numbers")
    out = []
    if opts.get("start") == LIMIT_VALUE:
        raise LexError("START WITH LIMIT VALUE is only valid in ALTER TABLE ... MODIFY of an identity column")
    if "start" in opts:
        out.append(f"START WITH {opts['start']}")
    if "increment" in opts:
        out.append(f"INCREMENT BY {opts['increment']}")
    out += _bound("MINVALUE", opts, "minvalue", ctx) + _bound("MAXVALUE", opts, "maxvalue", ctx)
    if opts.get("cache") not in (None, "0", "1"):
        out.append(f"CACHE {opts['cache']}")  # NOCACHE is PostgreSQL's default CACHE 1
    if "cycle" in opts:
        out.append("CYCLE" if opts["cycle"] else "NO CYCLE")
    return out


def _bound(word: str, opts: dict, key: str, ctx: ConversionContext) -> list[str]:
    if key not in opts:
        return []
    value = opts[key]
    if value is None:
        return [f"NO {word}"]
    if not _BIGINT_MIN <= int(value) <= _BIGINT_MAX:
        # Oracle sequences reach 10^28; PostgreSQL sequences are bigint. The bigint limit is the
        # effective bound (a sequence reaching it fails loudly rather than wrapping).
        ctx.note(f"{word} {value} is beyond bigint; PostgreSQL's default bound used instead")
        return [f"NO {word}"]
    return [f"{word} {value}"]


def convert_sequence(text: str, ctx: ConversionContext) -> str:
    toks = tokenize(text)
    # CREATE SEQUENCE name ...
    i = 2 if toks[1].is_word("SEQUENCE") else 0
    if not ctx.enabled("ddl.sequence"):
        return unconverted(ctx, "CREATE SEQUENCE", "rule ddl.sequence is disabled", text)
    name, i = read_name(toks, i)
    body = options(toks[i:], ctx)
    ctx.applied("ddl.sequence")
    return " ".join([f"CREATE SEQUENCE {name.sql}", *body]) + ";"


def sequence_info(text: str) -> dict:
    """Options as a dict for the catalog (the SQL/PL/SQL converters read start/increment)."""
    toks = tokenize(text)
    _, i = read_name(toks, 2)
    opts, _ = parse_options(toks[i:])
    return opts
