"""BM25: the incremental delta scores exactly like bm25s's base segment, and compaction is exact."""

from __future__ import annotations

import math

import numpy as np
import pytest

from knowledge_base.lexical import CorpusStats, LexicalIndex, tokenize

DOCS = [
    tokenize(t)
    for t in (
        "NVL returns the second argument when the first is null",
        "DECODE compares an expression to each search value",
        "ROWNUM limits the rows of a query result",
        "CONNECT BY walks a hierarchy of rows rows rows",
        "the outer join operator marks the optional side",
        "SYSDATE returns the current date and time",
    )
]


def test_tokenizer_is_merits():
    assert tokenize("NVL(a.b_1, 'X-y')") == ["nvl", "a", "b_1", "x", "y"]


def test_idf_formula_by_hand():
    stats = CorpusStats.of(DOCS)
    df = sum("rows" in d for d in DOCS)
    assert stats.idf("rows") == pytest.approx(math.log(1 + (6 - df + 0.5) / (df + 0.5)))
    assert stats.avgdl == pytest.approx(sum(map(len, DOCS)) / 6)


def test_delta_scores_match_bm25s_base_scores():
    index = LexicalIndex()
    index.build(DOCS)
    for doc in (DOCS[3], DOCS[0]):
        index.add(doc)  # the same text again, now in the delta
    for query in (["rows", "hierarchy"], ["null", "nvl", "unknownword"], ["the"]):
        s = index.scores(query)
        assert len(s) == 8
        assert s[6] == pytest.approx(s[3], rel=1e-5) and s[7] == pytest.approx(s[0], rel=1e-5)
    assert index.scores(["rows"])[3] > 0 and index.scores(["zzz"]).sum() == 0


def test_compaction_rebuilds_with_current_statistics():
    index = LexicalIndex(delta_min=2, delta_share=0.01)
    index.build(DOCS[:3])
    for doc in DOCS[3:]:
        index.add(doc)
    assert index.maybe_compact(lambda: DOCS) and index.compactions == 1 and index.base_count == 6
    fresh = LexicalIndex()
    fresh.build(DOCS)
    np.testing.assert_allclose(index.scores(["rows", "null"]), fresh.scores(["rows", "null"]), rtol=1e-6)
    for extra in (["x"], ["y"], ["z"]):
        index.add(extra)
    with pytest.raises(RuntimeError):
        index.maybe_compact(lambda: DOCS)  # a wrong document count is refused, never half-built


def test_empty_start_uses_exact_statistics():
    index = LexicalIndex()
    index.build([])
    for doc in DOCS:
        index.add(doc)
    fresh = LexicalIndex()
    fresh.build(DOCS)
    np.testing.assert_allclose(index.scores(["rows", "date"]), fresh.scores(["rows", "date"]), rtol=1e-5)
