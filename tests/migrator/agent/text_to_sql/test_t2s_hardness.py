"""Spider difficulty computed from gold SQL, checked on queries whose level the Spider dev set gives."""

from __future__ import annotations

import pytest

from migrator.agent.tasks.text_to_sql.hardness import spider_hardness


@pytest.mark.parametrize(
    "sql, level",
    [
        ("SELECT count(*) FROM singer", "easy"),
        ("SELECT name, country, age FROM singer ORDER BY age DESC", "medium"),
        ("SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'", "medium"),
        ("SELECT song_name, song_release_year FROM singer ORDER BY age LIMIT 1", "medium"),
        ("SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)", "hard"),
        ("SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE age < 30", "hard"),
        (
            "SELECT T2.name, T2.capacity FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id "
            "WHERE T1.year >= 2014 GROUP BY T2.stadium_id ORDER BY count(*) DESC LIMIT 1",
            "extra",
        ),
        # by hand: component1 = WHERE + OR + LIKE = 3, others = 1 (two WHERE conditions) -> hard
        ("SELECT name FROM t WHERE a LIKE '%x%' OR b = 1", "hard"),
        ("not sql at all (", "unlabelled"),
    ],
)
def test_levels(sql, level):
    assert spider_hardness(sql) == level


def test_fixture_labels_follow_spiders_rules():
    import json

    from tests.migrator.agent.text_to_sql.t2s_support import FIXTURE

    rows = json.loads((FIXTURE / "dev.json").read_text())
    assert [r["difficulty"] for r in rows] == [spider_hardness(r["query"]) for r in rows]
    assert {r["difficulty"] for r in rows} == {"easy", "medium", "hard", "extra"}
