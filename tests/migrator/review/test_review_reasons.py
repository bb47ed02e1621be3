"""One reason per unit that is not correct, shared by units with the same cause."""

from __future__ import annotations

from migrator.batch.report import MismatchEntry, UnconvertedItem, UnitEntry
from migrator.review.reasons import group_reasons, reason_of, shape


def unit(uid: str = "procedure:app.p", **fields) -> UnitEntry:
    base = dict(id=uid, kind="procedure", name="app.p", source="p.prc:1-9", status="converted", static_ok=True)
    return UnitEntry(**(base | fields))


def test_the_first_thing_that_went_wrong_is_the_reason():
    assert reason_of(unit(error="AttributeError: 'str' object has no attribute\nTraceback ...")).label == (
        "conversion failed: AttributeError"
    )
    utl = UnconvertedItem(
        construct_name="Oracle supplied package", message="utl_file.put_line has no PostgreSQL equivalent"
    )
    assert reason_of(unit(unconverted=[utl], static_ok=False)).label == "needs Oracle package UTL_FILE"
    redesign = UnconvertedItem(
        construct_name="needs an Oracle-supplied package with no PostgreSQL equivalent: UTL_HTTP",
        message="2 call site(s): line 4 UTL_HTTP.REQUEST, line 9 UTL_HTTP.REQUEST",
        line=4,
    )
    assert reason_of(unit(unconverted=[redesign])).label == redesign.construct_name
    nocycle = UnconvertedItem(construct_name="CONNECT BY NOCYCLE", message="cycle detection", line=3)
    assert reason_of(unit(unconverted=[nocycle])).label == "will not convert: CONNECT BY NOCYCLE"
    assert reason_of(unit(static_ok=False, static_error='syntax error at or near "("')).stage == "parse"
    assert reason_of(unit(deployed=False, blocked_by=["table:app.t"])).label == "a unit it depends on was rejected"
    refused = unit(
        deployed=False, deploy_error="UndefinedFunction: function nvl(numeric, integer) does not exist\nLINE 3"
    )
    assert reason_of(refused).label == "PostgreSQL refuses to deploy it: function nvl(…) does not exist"


def test_behaviour_and_evidence_reasons():
    def wrong(what, expected="(1)", actual="(2)"):
        m = MismatchEntry(scenario="s", step="x", what=what, expected=expected, actual=actual)
        return unit(deployed=True, category="wrong", first_mismatch=m)

    assert reason_of(wrong("rows")).label == "differs from Oracle: result rows"
    assert reason_of(wrong("output")).label == "differs from Oracle: DBMS_OUTPUT lines"
    assert reason_of(wrong("missing error", "ORA-01403: no data found", "no error")).label == (
        "differs from Oracle: does not raise ORA-01403"
    )
    raised = wrong("unexpected error", actual="SQLSTATE 42883: function nvl(bigint, bigint) does not exist")
    assert reason_of(raised).label == "differs from Oracle: raises SQLSTATE 42883: function nvl(…) does not exist"
    setup = unit(
        deployed=True, category="wrong", verdict='s: setup failed: SQLSTATE 42P01: relation "t" does not exist'
    )
    assert reason_of(setup).label.startswith("scenario setup fails")
    lonely = unit(deployed=True, category="unverified", verdict="no Oracle evidence (no scenario)")
    assert reason_of(lonely).label == "unverified: no scenario judges it" and reason_of(lonely).stage == "evidence"
    assert reason_of(unit(deployed=True, category="correct")) is None
    assert reason_of(unit()) is None  # converted, not verified: nothing known to be wrong


def test_groups_put_failures_before_missing_evidence_and_count_units():
    nvl = "SQLSTATE 42883: function nvl(numeric, integer) does not exist"
    units = [
        unit(f"function:app.f{i}", deployed=True, category="unverified", verdict="no Oracle evidence (no scenario)")
        for i in range(5)
    ]
    units += [
        unit(
            f"procedure:app.p{i}",
            deployed=True,
            category="wrong",
            first_mismatch=MismatchEntry(scenario="s", step="x", what="unexpected error", expected="", actual=nvl),
        )
        for i in range(3)
    ]
    groups = group_reasons(units)
    assert [len(g.units) for g in groups] == [3, 5]  # the failures lead, though fewer
    assert groups[0].categories == {"wrong": 3} and groups[0].units[0] == "procedure:app.p0"


def test_shape_keeps_names_and_drops_specifics():
    assert shape("InvalidTextRepresentation: invalid input syntax for type numeric: 'abc'") == (
        "invalid input syntax for type numeric: '…'"
    )
    assert shape('relation "audit_log" does not exist') == 'relation "audit_log" does not exist'
    assert shape(None) == "(no message)"


def test_a_new_per_unit_field_shows_without_a_rewrite():
    from migrator.batch.report import RunReport
    from migrator.review.index_view import coverage_rows, table_data
    from migrator.review.unit_view import extra_fields

    class Newer(UnitEntry):  # what scenario synthesis will add to report.json
        coverage_pct: float | None = None
        uncovered_lines: list[int] = []

    units = [
        Newer(**unit(f"function:app.f{i}").model_dump(), coverage_pct=50.0 + i, uncovered_lines=[3]) for i in range(3)
    ]
    assert extra_fields(units[0]) == [("coverage_pct", 50.0), ("uncovered_lines", [3])]
    assert coverage_rows(units) == [("coverage_pct", "mean 51.0, min 50, max 52 over 3 units")]
    report = RunReport.model_construct(units=units, agent=None)
    data = table_data(report)
    assert ["coverage_pct", "coverage pct"] in data["columns"]  # scalar fields become columns
    assert [dict(zip(data["fields"], r))["coverage_pct"] for r in data["rows"]] == [50.0, 51.0, 52.0]
