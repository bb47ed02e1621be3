"""`text2sql score` against accuracy worked out by hand on tricky predictions: ties under ORDER BY,
NULLs, duplicates, floats, column order, empty results, errors, a missing prediction and a bad entry."""

from __future__ import annotations

import json

import pytest

from migrator.cli.main import main
from tests.migrator.agent.text_to_sql.t2s_support import tiny_sqlite, write_json

DB = """CREATE TABLE p (name TEXT, team TEXT, score INTEGER, rate REAL);
INSERT INTO p VALUES ('ann', 'red', 10, 0.1), ('bob', 'red', 10, 0.2), ('cid', 'blue', 7, NULL),
                     ('dan', 'blue', NULL, 0.3), ('eve', 'red', 3, 0.1);"""

# (difficulty, gold, prediction or None, Spider says correct, BIRD says correct) -- worked by hand:
CASES = [
    # a tie on the sort key broken the other way: order matters for Spider (gold orders), not for BIRD
    (
        "easy",
        "SELECT name FROM p WHERE score = 10 ORDER BY score DESC, name",
        "SELECT name FROM p WHERE score = 10 ORDER BY score DESC, name DESC",
        False,
        True,
    ),
    # = NULL is never true: 0 instead of 1
    ("easy", "SELECT count(*) FROM p WHERE score IS NULL", "SELECT count(*) FROM p WHERE score = NULL", False, False),
    # duplicates dropped: a multiset for Spider, a set for BIRD
    ("medium", "SELECT team FROM p", "SELECT DISTINCT team FROM p", False, True),
    # 0.1 + 0.2 + 0.3 + 0.1 summed in double precision is 0.7000000000000001: no tolerance
    ("medium", "SELECT sum(rate) FROM p", "SELECT 0.7", False, False),
    # AVG ignores NULL anyway: same value
    (
        "medium",
        "SELECT avg(score) FROM p WHERE team = 'red'",
        "SELECT avg(score) FROM p WHERE team = 'red' AND score IS NOT NULL",
        True,
        True,
    ),
    # columns swapped (with a NULL in one): Spider finds the permutation, BIRD compares in place
    (
        "hard",
        "SELECT name, score FROM p WHERE team = 'blue'",
        "SELECT score, name FROM p WHERE team = 'blue'",
        True,
        False,
    ),
    # does not run
    ("hard", "SELECT name FROM p WHERE rate IS NULL", "SELEC name FROM p", False, False),
    # 5 == 5.0
    ("extra", "SELECT count(*) FROM p", "SELECT 5.0", True, True),
    # two empty results
    ("extra", "SELECT name FROM p WHERE score > 100", "SELECT name FROM p WHERE score > 50", True, True),
    # no prediction at all
    ("easy", "SELECT name FROM p WHERE team = 'red'", None, False, False),
]
BAD = {"db_id": "missing", "question": "q", "query": "SELECT 1", "SQL": "SELECT 1", "difficulty": "easy"}


def _expected(rule_index: int) -> dict:
    out = {"correct": 0, "total": 0, "by_difficulty": {}}
    for case in CASES:
        ok = case[rule_index]
        bucket = out["by_difficulty"].setdefault(case[0], {"correct": 0, "total": 0})
        bucket["correct"] += ok
        bucket["total"] += 1
        out["correct"] += ok
        out["total"] += 1
    out["by_difficulty"] = dict(sorted(out["by_difficulty"].items()))
    return out


def test_hand_computed_figures():
    # The figures the tests below must reproduce, written out: Spider 4/10, BIRD 5/10.
    assert (_expected(3)["correct"], _expected(4)["correct"]) == (4, 5)
    assert _expected(3)["by_difficulty"]["hard"] == {"correct": 1, "total": 2}
    assert _expected(4)["by_difficulty"]["hard"] == {"correct": 0, "total": 2}


def _run(args, tmp_path) -> dict:
    out = tmp_path / "score.json"
    assert main(["text2sql", "score", *map(str, args), "--json", str(out), "--no-progress"]) == 0
    return json.loads(out.read_text())


def test_spider_format(tmp_path):
    tiny_sqlite(tmp_path / "database" / "game" / "game.sqlite", DB)
    rows = [{"db_id": "game", "question": f"q{i}", "query": g, "difficulty": d} for i, (d, g, *_) in enumerate(CASES)]
    write_json(tmp_path / "dev.json", rows + [BAD])
    lines = [p if p is not None else "" for _, _, p, _, _ in CASES]
    (tmp_path / "pred.sql").write_text("\n".join(lines[:-1]) + "\n")  # the last one missing: 9 lines for 11
    got = _run([tmp_path, "--predictions", tmp_path / "pred.sql"], tmp_path)
    assert {k: got[k] for k in ("correct", "total", "by_difficulty")} == _expected(3)
    assert got["rule"] == "spider" and got["bad_entries"][0]["index"] == len(CASES)
    assert got["prediction_problems"] == [f"{len(CASES) - 1} prediction line(s) for {len(CASES) + 1} question(s)"]


def test_bird_format(tmp_path):
    tiny_sqlite(tmp_path / "dev_databases" / "game" / "game.sqlite", DB)
    rows = [
        {"question_id": i, "db_id": "game", "question": f"q{i}", "evidence": "", "SQL": g, "difficulty": d}
        for i, (d, g, *_) in enumerate(CASES)
    ]
    write_json(tmp_path / "dev.json", rows + [BAD])
    preds = {str(i): f"{p}\t----- bird -----\tgame" for i, (_, _, p, _, _) in enumerate(CASES) if p is not None}
    write_json(tmp_path / "predict_dev.json", preds)
    got = _run([tmp_path, "--predictions", tmp_path / "predict_dev.json"], tmp_path)
    assert {k: got[k] for k in ("correct", "total", "by_difficulty")} == _expected(4)
    assert got["rule"] == "bird"


def test_wrong_database_in_a_prediction_is_reported(tmp_path):
    tiny_sqlite(tmp_path / "dev_databases" / "game" / "game.sqlite", DB)
    write_json(tmp_path / "dev.json", [{"db_id": "game", "question": "q", "SQL": "SELECT count(*) FROM p"}])
    write_json(tmp_path / "p.json", {"0": "SELECT 5\t----- bird -----\tother", "x": 3})
    got = _run([tmp_path, "--predictions", tmp_path / "p.json"], tmp_path)
    assert got["correct"] == 0 and got["total"] == 1
    assert any("other" in p for p in got["prediction_problems"]) and any("'x'" in p for p in got["prediction_problems"])


@pytest.mark.parametrize("content", ["{not json", None])
def test_unreadable_predictions_exit_2(tmp_path, content, capsys):
    tiny_sqlite(tmp_path / "database" / "game" / "game.sqlite", DB)
    write_json(tmp_path / "dev.json", [{"db_id": "game", "question": "q", "query": "SELECT 1"}])
    if content is not None:
        (tmp_path / "p.json").write_text(content)
    assert main(["text2sql", "score", str(tmp_path), "--predictions", str(tmp_path / "p.json")]) == 2
    assert "error:" in capsys.readouterr().err
