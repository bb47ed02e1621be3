"""Side by side: lines paired with the line that replaced them, the rules' changes marked."""

from __future__ import annotations

from migrator.review.align import ADDED, CHANGED, HEADER, REMOVED, SAME, side_by_side

SOURCE = """CREATE OR REPLACE FUNCTION f (p IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  -- a comment the converter drops
  IF p = '' THEN
    RETURN NVL(p, 'x');
  END IF;
  RETURN p;
END f;"""
OUTPUT = """-- function:app.f  from f.fnc:10-17
CREATE OR REPLACE FUNCTION app.f(p varchar) RETURNS varchar LANGUAGE plpgsql AS $fn$
BEGIN
  p := nullif(p, '');
  IF p = NULL THEN
    RETURN COALESCE(p, 'x');
  END IF;
  RETURN p;
END;
$fn$;"""


def test_rows_pair_rewritten_lines_and_mark_the_rest():
    rows = side_by_side(SOURCE, OUTPUT, source_start=10, header=1)
    assert rows[0].change == HEADER and rows[0].left is None and rows[0].right.number == 1
    by_left = {r.left.number: r for r in rows if r.left}
    assert by_left[11].change == SAME and by_left[11].right.text == "BEGIN"
    assert by_left[13].change == CHANGED and by_left[13].right.text == "  IF p = NULL THEN"  # by similarity
    assert by_left[14].right.text == "    RETURN COALESCE(p, 'x');"
    assert by_left[12].change == REMOVED and by_left[12].right is None  # the comment is not "changed into" code
    added = [r.right.text for r in rows if r.change == ADDED]
    assert "  p := nullif(p, '');" in added and "$fn$;" in added
    # every line of both texts appears exactly once, in order
    assert [r.left.number for r in rows if r.left] == list(range(10, 18))
    assert [r.right.number for r in rows if r.right] == list(range(1, 11))


def test_case_and_blanks_do_not_count_as_changes():
    rows = side_by_side("select  a\nFROM t;", "SELECT a\nfrom t;")
    assert [r.change for r in rows] == [SAME, SAME]


def test_unconverted_marker_lines_are_flagged():
    rows = side_by_side("CONNECT BY NOCYCLE x", "/* MIGRATOR_UNCONVERTED(x): y */ MIGRATOR_UNCONVERTED")
    assert [r.unconverted for r in rows] == [False, True]  # the Oracle line alone, then the marker
    assert not side_by_side("a", "a")[0].unconverted
