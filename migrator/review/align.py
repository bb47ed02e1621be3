"""Oracle source and PostgreSQL output side by side, with the lines the rules changed marked.

Lines are aligned with difflib on a normalised form (blanks collapsed, case folded: PostgreSQL
output is the same code in another case far more often than it is different code), so a row pairs
an Oracle line with the PostgreSQL line that replaced it. The header comments the migrator writes
at the top of each unit file are kept apart: no rule wrote them.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from migrator.convert.context import MARKER_TOKEN

SAME, CHANGED, REMOVED, ADDED, HEADER = "same", "changed", "removed", "added", "header"
SIMILAR = 0.5  # two lines this alike (difflib ratio, normalised) are one line the rules rewrote
_TOKEN = re.compile(r"\w+|[^\w\s]")
MAX_PAIRING = 10_000  # lines x lines of one replaced block paired by similarity; beyond, in order


@dataclass(frozen=True)
class Line:
    number: int
    text: str


@dataclass(frozen=True)
class AlignedRow:
    left: Line | None
    right: Line | None
    change: str  # SAME | CHANGED | REMOVED | ADDED | HEADER

    @property
    def unconverted(self) -> bool:
        """The output line carries a not-converted marker (PostgreSQL refuses it on purpose)."""
        return self.right is not None and MARKER_TOKEN in self.right.text


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def _tokens(line: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(line))


def _scores(left: list[tuple[str, ...]], right: list[tuple[str, ...]]) -> list[list[float]]:
    """Similarity of every (left, right) pair of token sequences; 0 below SIMILAR. Lines compare as
    words and symbols, not characters (ten times fewer elements); one matcher per right line
    (difflib indexes its second sequence once), cheap upper bounds first."""
    scores = [[0.0] * len(right) for _ in left]
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    for j, b in enumerate(right):
        matcher.set_seq2(b)
        for i, a in enumerate(left):
            matcher.set_seq1(a)
            if matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR:
                score = matcher.ratio()
                scores[i][j] = score if score >= SIMILAR else 0.0
    return scores


def _replace(left: list[Line], right: list[Line]) -> list[AlignedRow]:
    """Pair a replaced block by similarity, as difflib.Differ does: the most similar pair is one
    row, the lines before and after it are paired the same way; a line like no other on the far
    side stands alone (a dropped comment is not "changed into" the next statement)."""
    if len(left) * len(right) > MAX_PAIRING:  # a huge rewritten block: keep it linear, pair in order
        paired = [AlignedRow(a, b, CHANGED) for a, b in zip(left, right)]
        return paired + _alone(left[len(right) :], right[len(left) :])
    scores = _scores([_tokens(_norm(x.text)) for x in left], [_tokens(_norm(x.text)) for x in right])
    rows: list[AlignedRow] = []
    _pair_range(left, right, scores, (0, len(left)), (0, len(right)), rows)
    return rows


def _alone(left: list[Line], right: list[Line]) -> list[AlignedRow]:
    return [AlignedRow(a, None, REMOVED) for a in left] + [AlignedRow(None, b, ADDED) for b in right]


def _pair_range(left, right, scores, rows_range: tuple[int, int], cols: tuple[int, int], out: list) -> None:
    (i1, i2), (j1, j2) = rows_range, cols
    best, at = 0.0, None
    for i in range(i1, i2):
        row = scores[i]
        for j in range(j1, j2):
            if row[j] > best:
                best, at = row[j], (i, j)
    if at is None:
        out += _alone(left[i1:i2], right[j1:j2])
        return
    i, j = at
    _pair_range(left, right, scores, (i1, i), (j1, j), out)
    out.append(AlignedRow(left[i], right[j], CHANGED))
    _pair_range(left, right, scores, (i + 1, i2), (j + 1, j2), out)


def _pairs(tag: str, left: list[Line], right: list[Line]) -> list[AlignedRow]:
    if tag == "equal":
        return [AlignedRow(a, b, SAME) for a, b in zip(left, right)]
    return _replace(left, right)


def side_by_side(source: str, output: str, *, source_start: int = 1, header: int = 0) -> list[AlignedRow]:
    """Rows pairing source lines (numbered from `source_start`, the unit's first line in its file)
    with output lines (numbered from 1, the unit file's own lines); the first `header` output lines
    are the migrator's header comments."""
    left = [Line(source_start + i, text) for i, text in enumerate(source.splitlines())]
    all_right = [Line(i + 1, text) for i, text in enumerate(output.splitlines())]
    rows = [AlignedRow(None, line, HEADER) for line in all_right[:header]]
    right = all_right[header:]
    matcher = difflib.SequenceMatcher(None, [_norm(x.text) for x in left], [_norm(x.text) for x in right], False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        rows += _pairs(tag, left[i1:i2], right[j1:j2])
    return rows


def header_lines(unconverted: int, failed: bool) -> int:
    """How many header comments the migrator wrote (migrator.batch.output.unit_file_text): the unit
    line, one per construct not converted, and one when the conversion failed."""
    return 1 + unconverted + (1 if failed else 0)
