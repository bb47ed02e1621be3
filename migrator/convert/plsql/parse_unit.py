"""Entry point: parse the text of one PL/SQL unit into its tree."""

from __future__ import annotations

from dataclasses import dataclass

from migrator.convert.plsql import ast as A
from migrator.convert.plsql.parse_stmt import PlsqlParser
from migrator.convert.plsql.parser import ParseError


@dataclass
class TypeBody:
    name: tuple[str, ...]  # plain parts, possibly schema-qualified
    routines: list  # member routines (MEMBER / STATIC / CONSTRUCTOR), as A.Routine


@dataclass
class ParsedUnit:
    tree: object  # A.Routine | A.Package | A.Trigger | A.Block | TypeBody
    parser: PlsqlParser

    def line(self, tok) -> int:
        return self.parser.lines.line(tok.start)


def parse_unit(text: str) -> ParsedUnit:
    p = PlsqlParser(text)
    p.create_prefix()
    t = p.tok
    tree: A.Routine | A.Package | A.Trigger | A.Block | TypeBody
    if t.is_word("FUNCTION", "PROCEDURE"):
        tree = p.routine()
    elif t.is_word("PACKAGE"):
        tree = p.package()
    elif t.is_word("TRIGGER"):
        tree = trigger(p)
    elif t.is_word("TYPE"):
        tree = type_body(p)
    elif t.is_word("DECLARE", "BEGIN") or t.is_op("<<"):
        label = None
        if p.accept_op("<<"):
            label = p.ident()
            p.expect_op(">>")
        decls = p.declarations() if p.accept("DECLARE") else []
        tree = p.block_body(decls, label, p.line())
    else:
        p.error("not a PL/SQL unit")
    if p.tok.kind != "eof" and not (p.tok.is_op("/") and p.peek().kind == "eof"):
        p.error("unexpected text after the end of the unit")
    return ParsedUnit(tree, p)


def trigger(p: PlsqlParser) -> A.Trigger:
    p.expect("TRIGGER")
    name = p.dotted()[-1]
    timing = p.expect("BEFORE", "AFTER", "INSTEAD", "FOR").upper
    if timing == "INSTEAD":
        p.expect("OF")
        timing = "INSTEAD OF"
    compound = timing == "FOR"
    events = []
    while True:
        ev = p.expect("INSERT", "UPDATE", "DELETE").upper
        cols = []
        if ev == "UPDATE" and p.accept("OF"):
            cols.append(p.ident())
            while p.tok.is_op(",") and p.peek().kind in ("word", "qident"):
                p.advance()
                cols.append(p.ident())
        events.append((ev, cols))
        if not p.accept("OR"):
            break
    p.expect("ON")
    table = p.dotted()
    referencing = {}
    row = False
    while True:
        if p.accept("REFERENCING"):
            while p.tok.is_word("NEW", "OLD", "PARENT"):
                which = p.advance().upper
                p.accept("AS")
                referencing[which] = p.ident().upper()
        elif p.accept("FOR"):
            p.expect("EACH")
            p.expect("ROW")
            row = True
        elif p.tok.is_word("ENABLE", "DISABLE", "FORWARD", "REVERSE", "CROSSEDITION", "FOLLOWS", "PRECEDES"):
            p.advance()
            if p.toks[p.i - 1].is_word("FOLLOWS", "PRECEDES"):
                p.dotted()
        else:
            break
    when = p.paren_contents() if p.accept("WHEN") else None
    if compound:
        p.expect("COMPOUND")
        p.expect("TRIGGER")
        p.scan(stop_ops=set())
        return A.Trigger(name, "COMPOUND", events, table, row, when, referencing, None, compound=True)
    if p.tok.is_word("CALL"):
        p.error("CALL triggers are not supported")
    decls = p.declarations() if p.accept("DECLARE") else []
    block = p.block_body(decls, None, p.line())
    return A.Trigger(name, timing, events, table, row, when, referencing, block)


def type_body(p: PlsqlParser) -> TypeBody:
    p.expect("TYPE")
    p.expect("BODY")
    name = p.dotted()
    p.expect("IS", "AS")
    routines = []
    while not p.tok.is_word("END") and p.tok.kind != "eof":
        flavour = "MEMBER"
        while p.tok.is_word(
            "MEMBER", "STATIC", "CONSTRUCTOR", "MAP", "ORDER", "OVERRIDING", "FINAL", "NOT", "INSTANTIABLE"
        ):
            if p.tok.is_word("STATIC", "CONSTRUCTOR", "MAP", "ORDER"):
                flavour = p.tok.upper
            p.advance()
        if p.tok.is_word("FUNCTION", "PROCEDURE"):
            r = _type_routine(p)
            r.flavour = flavour
            routines.append(r)
        else:
            p.error("unexpected token in TYPE BODY")
    p.end_name()
    return TypeBody(name, routines)


def _type_routine(p: PlsqlParser) -> A.Routine:
    """MEMBER/STATIC routines; a CONSTRUCTOR's `RETURN SELF AS RESULT` is read as its return type."""
    return p.routine(nested=True)


__all__ = ["parse_unit", "ParsedUnit", "ParseError", "TypeBody"]
