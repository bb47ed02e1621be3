"""Inputs derived from the conditions that guard a branch (issue 33, coverage), without a
database: the columns a parameter is compared with, the texts a column is compared with (through
the variable that holds it), and the rows and calls built from them."""

from __future__ import annotations

from decimal import Decimal

from migrator.evidence.candidates import _in_state, _row_relative, _state_moves
from migrator.evidence.targets import ParamInfo, Target, compared_columns, state_literals
from migrator.evidence.values import candidates, literal
from tests.migrator.evidence.synth_judging import data_view

BODY = """
    v_state parts.state%TYPE;
    v_kind  VARCHAR2(10);
BEGIN
    IF p_qty IS NULL THEN
        RAISE_APPLICATION_ERROR(-20001, 'Quantity required');
    END IF;
    SELECT p.kind, on_hand INTO v_kind, v_left FROM parts p WHERE p.part_id = p_ref;
    SELECT state INTO v_state FROM parts WHERE part_id = p_ref;
    CASE v_state WHEN 'RETIRED' THEN NULL; WHEN 'ON_HOLD' THEN NULL; ELSE NULL; END CASE;
    IF v_kind NOT IN ('BOLT', 'NUT') OR 'X' = v_kind THEN NULL; END IF;
    IF :OLD.grade <> 'G9' THEN NULL; END IF;
    IF p_qty > v_left THEN NULL; END IF;
END;"""


def test_the_texts_a_column_is_compared_with_through_the_variable_that_holds_it():
    states = state_literals(BODY)
    assert states["state"] == ["RETIRED", "ON_HOLD"]  # declared parts.state%TYPE; a simple CASE
    assert states["kind"] == ["BOLT", "NUT", "X"]  # selected INTO from p.kind; NOT IN, either side
    assert states["grade"] == ["G9"]  # a trigger's :OLD.grade


def test_the_columns_a_parameter_is_compared_with():
    found = compared_columns(BODY, ["p_ref", "p_qty"])
    assert found["p_ref"] == ["part_id"]  # `p.part_id = p_ref` and `part_id = p_ref`
    assert found["p_qty"] == ["v_left"]  # a variable: resolved to its column by the target


def _parts():
    rows = [{"part_id": 100, "label": "bolt", "state": "ACTIVE"}, {"part_id": 101, "label": "nut", "state": "ACTIVE"}]
    return data_view({"parts": rows}, keys={"parts": ["part_id"]}, uniques={"parts": [["label"]]}), rows


def test_a_parameter_named_for_nothing_takes_the_keys_of_the_column_it_is_compared_with():
    data, _ = _parts()
    param = ParamInfo("p_first", "IN", "NUMBER", "number", None, False, compared_with=("v_x", "part_id"))
    target = Target("function", ("u",), "f", "s", "f", [param], deep_words={"parts"})
    assert data.column_for(param, target.deep_words) == ("parts", "part_id")
    assert candidates(param, target, data)[0].oracle == "100"
    # a name that does say its column still wins
    named = ParamInfo("p_label", "IN", "VARCHAR2", "text", None, False, compared_with=("part_id",))
    assert data.column_for(named, target.deep_words) == ("parts", "label")


def test_a_row_in_a_state_no_row_holds_is_inserted_and_the_call_made_on_it():
    data, _ = _parts()
    param = ParamInfo("p_part_id", "IN", "NUMBER", "number", None, False)
    target = Target("procedure", ("u",), "take", "s", "take", [param], deep_words={"parts"},
                    states={"state": ["RETIRED", "ACTIVE", "ON_HOLD"]})  # fmt: skip
    families = {"part_id": "number", "label": "text", "state": "text"}
    made = _in_state(target, data, [param], {"p_part_id": literal(100, "number")}, lambda t: families)
    # ACTIVE is held already; the new key lies 1000 past the largest
    assert [v["p_part_id"].oracle for v, _ in made] == ["1101", "1101"]
    inserts = [s.postgres for _, s in made]
    assert "'RETIRED'" in inserts[0] and "'ON_HOLD'" in inserts[1] and "1101" in inserts[0]
    assert "'bolt'" not in inserts[0]  # the unique label is fresh


def test_a_trigger_gets_a_row_in_a_state_no_row_holds_updated_out_of_it():
    data, rows = _parts()
    target = Target("trigger", ("u",), "parts", "s", "parts", states={"state": ["RETIRED"]})
    families = {"part_id": "number", "label": "text", "state": "text"}
    moves = _state_moves(rows, ["part_id"], families, target, data, ["state"])
    assert len(moves) == 1
    ins, row, where = moves[0]
    assert "'RETIRED'" in ins.postgres and row["state"].oracle == "'ACTIVE'" and where["part_id"].oracle == "1101"
    # an UPDATE OF another column cannot move the state
    assert _state_moves(rows, ["part_id"], families, target, data, ["label"]) == []


def test_a_parameter_compared_with_the_selected_rows_value_gets_that_value_and_its_neighbours():
    rows = [{"crew_id": 1, "unit_id": 10, "wage": 4200}, {"crew_id": 2, "unit_id": 20, "wage": 5100}]
    data = data_view({"crew": rows}, keys={"crew": ["crew_id"]})
    member = ParamInfo("p_member", "IN", "NUMBER", "number", None, False, compared_with=("crew_id",))
    amount = ParamInfo("p_amount", "IN", "NUMBER", "number", None, False, compared_with=("wage",))
    unit = ParamInfo("p_unit", "IN", "NUMBER", "number", None, False, compared_with=("unit_id",))
    target = Target("function", ("u",), "f", "s", "f", [member, amount, unit], deep_words={"crew"},
                    literals=[Decimal("1.1"), Decimal(-20001)])  # fmt: skip
    base = {"p_member": literal(2, "number"), "p_amount": literal(1, "number"), "p_unit": literal(1, "number")}
    calls = _row_relative(target, data, [member, amount, unit], base)
    amounts = [c["p_amount"].oracle for c in calls if c["p_amount"].oracle != "1"]
    # crew 2's own wage, 1 % either side, and the cap 1.1 times it with its neighbours
    assert amounts[:6] == ["5100", "5151", "5049", "5610", "5666.1", "5553.9"]
    # a transfer into the unit the member is in already
    assert any(c["p_unit"].oracle == "20" and c["p_member"].oracle == "2" for c in calls)


def test_the_typical_call_is_no_move_into_the_row_s_own_value():
    """A transfer of employee 1 into unit 10, where employee 1 works already, stops at the "same
    unit" check: the typical call takes another unit the data holds, and that call is derived."""
    from migrator.evidence.candidates import routine_options

    rows = [{"crew_id": 1, "unit_id": 10}, {"crew_id": 2, "unit_id": 20}]
    data = data_view({"crew": rows, "units": [{"unit_id": 10}, {"unit_id": 20}]},
                     keys={"crew": ["crew_id"], "units": ["unit_id"]})  # fmt: skip
    member = ParamInfo("p_crew_id", "IN", "NUMBER", "number", ("crew", "crew_id"), False)
    unit = ParamInfo(
        "p_unit_id",
        "IN",
        "NUMBER",
        "number",
        ("units", "unit_id"),
        False,
        compared_with=("unit_id",),
        held_with=("unit_id",),
    )
    target = Target("procedure", ("u",), "move", "s", "move", [member, unit], deep_words={"crew", "units"})
    options = routine_options(target, data)
    assert options["p_crew_id"][0].oracle == "1" and options["p_unit_id"][0].oracle == "20"
    base = {n: v[0] for n, v in options.items()}
    assert {"p_crew_id": "1", "p_unit_id": "10"} in [{n: v.oracle for n, v in c.items()}
                                                     for c in _row_relative(target, data, [member, unit], base)]  # fmt: skip


def test_a_state_the_check_allows_and_the_body_names_not_gets_a_row_too():
    """`CASE v_status WHEN 'CLOSED' ... WHEN 'OPEN' ... ELSE <close it>`: the ELSE arm needs a run
    in a third state, CALCULATED, which only the column's CHECK constraint names."""
    rows = [{"run_id": 1, "run_status": "CLOSED"}, {"run_id": 2, "run_status": "OPEN"}]
    data = data_view({"runs": rows}, keys={"runs": ["run_id"]})
    data.checks[("runs", "run_status")] = ["OPEN", "CALCULATED", "CLOSED"]
    param = ParamInfo("p_run_id", "IN", "NUMBER", "number", ("runs", "run_id"), False)
    target = Target("procedure", ("u",), "close_run", "s", "close_run", [param], deep_words={"runs"},
                    states={"run_status": ["CLOSED", "OPEN"]})  # fmt: skip
    families = {"run_id": "number", "run_status": "text"}
    made = _in_state(target, data, [param], {"p_run_id": literal(1, "number")}, lambda t: families)
    assert len(made) == 1 and "'CALCULATED'" in made[0][1].postgres


def test_a_parameter_matched_in_sql_keeps_the_row_s_value_in_the_typical_call():
    """`UPDATE staff SET dept_id = p_to WHERE staff_id = p_staff AND dept_id = p_from`: p_from
    matches the row (the move succeeds); it is no check the typical call should stay apart from."""
    from migrator.evidence.candidates import routine_options

    rows = [{"crew_id": 1, "unit_id": 10}, {"crew_id": 2, "unit_id": 20}]
    data = data_view({"crew": rows, "units": [{"unit_id": 10}, {"unit_id": 20}]},
                     keys={"crew": ["crew_id"], "units": ["unit_id"]})  # fmt: skip
    member = ParamInfo("p_crew_id", "IN", "NUMBER", "number", ("crew", "crew_id"), False)
    unit = ParamInfo("p_unit_id", "IN", "NUMBER", "number", ("units", "unit_id"), False, compared_with=("unit_id",))
    target = Target("procedure", ("u",), "move", "s", "move", [member, unit], deep_words={"crew", "units"})
    assert routine_options(target, data)["p_unit_id"][0].oracle == "10"
