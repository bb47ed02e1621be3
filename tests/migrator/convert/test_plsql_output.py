"""The statement emitters' output object: it owns the indentation (nested levels, lines written
aside and placed later, deeper when wrapped) and the quoting of identifiers and literals."""

from __future__ import annotations

from migrator.convert.plsql.output import IND, Out


def test_lines_stand_at_the_current_level_and_the_level_comes_back():
    out = Out()
    out.line("IF x THEN")
    with out.indented():
        out.line("NULL;")
        with out.indented(2):
            out.each(["a;", "b;"])
    out.line("END IF;")
    assert out.lines == ["IF x THEN", f"{IND}NULL;", f"{IND * 3}a;", f"{IND * 3}b;", "END IF;"]


def test_lines_written_aside_are_placed_later_as_written_or_deeper():
    out = Out()
    with out.indented(), out.aside() as body:
        out.line("x := 1;")
    assert out.lines == [] and body == [f"{IND}x := 1;"]
    out.line("BEGIN")
    out.place(body)
    out.place(body, deeper=1)
    out.line("END;")
    assert out.lines == ["BEGIN", f"{IND}x := 1;", f"{IND * 2}x := 1;", "END;"]
    out.line("after")  # the level an `aside` was entered at is back too
    assert out.lines[-1] == "after"


def test_identifiers_and_literals_are_quoted_by_the_output():
    assert Out.ident("emp") == "emp"
    assert Out.ident("Mixed Case") == '"Mixed Case"'
    assert Out.literal("it's") == "'it''s'"
