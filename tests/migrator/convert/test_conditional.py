"""Conditional compilation: the text Oracle's compiler reads, line for line (conditional.py)."""

from __future__ import annotations

import pytest

from migrator.convert.compile_target import Compilation, CompileTarget
from migrator.convert.plsql.conditional import ConditionalError, parse_ccflags, preprocess, static_constants

BODY = """FUNCTION f RETURN VARCHAR2 IS
BEGIN
  $IF DBMS_DB_VERSION.VER_LE_12_1 $THEN
    RETURN 'old';
  $ELSIF $$mode > 1 OR NOT (1 > 2) $THEN
    $IF $$mode IS NULL $THEN RETURN 'null mode'; $END
    RETURN 'new ' || $$PLSQL_LINE;
  $ELSE
    $ERROR 'never' $END
  $END
END;"""


def test_selected_code_stays_on_its_lines_and_the_rest_is_blank():
    out = preprocess(BODY, "f", "app", "FUNCTION", Compilation())
    assert out.count("\n") == BODY.count("\n")
    lines = out.splitlines()
    assert lines[3].strip() == ""  # RETURN 'old' left out
    assert lines[5].strip() == "RETURN 'null mode';"  # $$mode undefined: NULL
    assert " ".join(lines[6].split()) == "RETURN 'new ' || 7 ;"  # the inquiry's literal, padded in place
    assert "$" not in out


def test_the_target_release_and_flags_choose():
    assert "RETURN 'old';" in preprocess(BODY, "f", "app", "FUNCTION", Compilation(CompileTarget((12, 1))))
    mode = Compilation(CompileTarget((19, 0), parse_ccflags("mode:1")))
    lines = preprocess(BODY, "f", "app", "FUNCTION", mode).splitlines()
    assert lines[5].strip() == "" and "RETURN 'new '" in lines[6]  # $$mode is 1: not NULL


def test_a_selected_error_directive_refuses_the_unit():
    text = "BEGIN\n  $IF TRUE $THEN $ERROR 'no ' || $$PLSQL_UNIT || ' here' $END $END\n  NULL;\nEND;"
    with pytest.raises(ConditionalError, match=r"line 2 of the unit: \$ERROR no P here"):
        preprocess(text, "p", "app", "PROCEDURE", Compilation())


@pytest.mark.parametrize(
    "text, reason",
    [
        ("BEGIN $IF TRUE $THEN NULL; END;", r"\$END missing|without \$END"),
        ("BEGIN $END NULL; END;", r"\$END without \$IF"),
        ("BEGIN $IF unknown_pkg.flag $THEN NULL; $END END;", "not static"),
        ("BEGIN $IF 1 = 'one' $THEN NULL; $END END;", "not static"),  # Oracle converts nothing here
    ],
)
def test_malformed_or_unknown_conditions_are_reported(text, reason):
    with pytest.raises(ConditionalError, match=reason):
        preprocess(text, "p", "app", "PROCEDURE", Compilation())


def test_package_constants_come_from_the_compilation():
    spec = "PACKAGE cfg IS\n  debug CONSTANT BOOLEAN := TRUE;\n  level CONSTANT PLS_INTEGER := 3;\nEND;"
    constants = static_constants([("cfg", spec)])
    assert constants == ((("CFG", "DEBUG"), True), (("CFG", "LEVEL"), 3))
    text = "BEGIN\n  $IF cfg.debug AND cfg.level > 2 $THEN NULL; $END\nEND;"
    assert "NULL;" in preprocess(text, "p", "app", "PROCEDURE", Compilation(constants=constants))
    with pytest.raises(ConditionalError, match="not static"):  # another schema's constants are not seen
        preprocess(text, "p", "app", "PROCEDURE", Compilation())


def test_ccflags_syntax():
    assert parse_ccflags("debug:TRUE, level:2,x:NULL") == (("debug", True), ("level", 2), ("x", None))
    with pytest.raises(ValueError):
        parse_ccflags("debug")
