"""Check the reader's no-silent-drop invariant on a `SourceSet` (used by tests; cheap enough to
run on every migration as a self-check).

For each file: unit and covering-issue spans do not overlap, each one's text is exactly the file
text at its span with matching line numbers, and every character outside them is whitespace, a
comment, or a SQL*Plus terminator (a `;` or a `/` alone on its line).
"""

from __future__ import annotations

from pathlib import Path

from migrator.source.encoding import decode_bytes
from migrator.source.lexer import TRIVIA_KINDS, is_slash_line, iter_tokens
from migrator.source.units import SourceSet, SourceSpan


def gap_problems(text: str, intervals: list[tuple[int, int]], where: str = "") -> list[str]:
    """Overlaps between intervals, and code characters that fall in no interval."""
    problems = []
    pos = 0
    for start, end in sorted(intervals):
        if start < pos:
            problems.append(f"{where}: overlapping spans at offset {start}")
        problems.extend(_gap(text, pos, start, where))
        pos = max(pos, end)
    problems.extend(_gap(text, pos, len(text), where))
    return problems


def _gap(text: str, start: int, end: int, where: str) -> list[str]:
    problems = []
    for tok in iter_tokens(text, start, end):
        if tok.kind in TRIVIA_KINDS or tok.is_op(";") or is_slash_line(text, tok):
            continue
        problems.append(f"{where}: unaccounted {tok.text[:40]!r} at offset {tok.start}")
    return problems


def span_problems(text: str, span: SourceSpan, piece: str, what: str) -> list[str]:
    problems = []
    if text[span.start_offset : span.end_offset] != piece:
        problems.append(f"{what}: text differs from the file at {span}")
    start_line = text.count("\n", 0, span.start_offset) + 1
    end_line = text.count("\n", 0, max(span.start_offset, span.end_offset - 1)) + 1
    if (span.start_line, span.end_line) != (start_line, end_line):
        problems.append(f"{what}: lines {span.start_line}-{span.end_line} should be {start_line}-{end_line}")
    return problems


def accounting_problems(source: SourceSet) -> list[str]:
    """Everything that breaks the invariant; [] when every character is accounted for."""
    root = Path(source.root)
    problems: list[str] = []
    for f in source.files:
        text = decode_bytes((root / f.path).read_bytes()).text
        intervals = []
        covered: list[tuple[str, SourceSpan | None, str]] = [
            (u.id, u.span, u.text) for u in source.units if u.span.file == f.path and not u.parts
        ]
        # a table's data unit: each of its statements where it is in this file
        covered += [(u.id, p, text[p.start_offset : p.end_offset]) for u in source.units for p in u.parts
                    if p.file == f.path]  # fmt: skip
        covered += [(i.code, i.span, i.text) for i in source.issues if i.text and i.file == f.path]
        for what, span, piece in covered:
            if span is None:
                problems.append(f"{what}: issue with text but no span")
                continue
            problems.extend(span_problems(text, span, piece, what))
            intervals.append((span.start_offset, span.end_offset))
        problems.extend(gap_problems(text, intervals, f.path))
    problems.extend(_table_data_problems(source))
    return problems


def _table_data_problems(source: SourceSet) -> list[str]:
    """A table data unit's text is exactly its statements' texts, in order."""
    from migrator.source.reader import join_statements

    root = Path(source.root)
    texts: dict[str, str] = {}
    problems = []
    for u in source.units:
        if not u.parts:
            continue
        pieces = []
        for p in u.parts:
            if p.file not in texts:
                texts[p.file] = decode_bytes((root / p.file).read_bytes()).text
            pieces.append(texts[p.file][p.start_offset : p.end_offset])
        if join_statements(pieces) != u.text:
            problems.append(f"{u.id}: text is not its statements joined")
    return problems
