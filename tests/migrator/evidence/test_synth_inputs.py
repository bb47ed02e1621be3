"""Input derivation of scenario synthesis, without a database: what values and steps are built
from signatures, bodies and data."""

from __future__ import annotations

from decimal import Decimal

from migrator.evidence.candidates import _fresh_value, view_candidates
from migrator.evidence.steps import call_step
from migrator.evidence.targets import ParamInfo, Target, _body_facts, _ordered_query
from migrator.evidence.values import candidates, literal
from tests.migrator.evidence.synth_judging import data_view

_data = data_view


def test_messages_and_format_models_are_not_compared_literals():
    literals, *_ = _body_facts(
        "BEGIN IF p_status = 'CLOSED' THEN RAISE_APPLICATION_ERROR(-20001, 'Account ' || p_id || ' closed'); END IF;"
        " v := TO_CHAR(p_amount, 'FM999G990D00'); END;"
    )
    assert "CLOSED" in literals
    assert "Account " not in literals and " closed" not in literals and "FM999G990D00" not in literals


def test_a_parameter_is_matched_to_the_unique_column_its_name_ends_with():
    data = _data({"warehouses": [{"warehouse_id": 1, "code": "WH01"}, {"warehouse_id": 2, "code": "WH02"}]},
                 keys={"warehouses": ["warehouse_id"]}, uniques={"warehouses": [["code"]]})  # fmt: skip
    param = ParamInfo("p_from_code", "IN", "VARCHAR2", "text", None, False)
    target = Target("procedure", ("u",), "transfer", "s", "transfer", [param])
    assert data.column_for(param) == ("warehouses", "code")
    assert candidates(param, target, data)[0].oracle == "'WH01'"


def test_a_collection_parameter_gets_lists_of_its_element_type():
    param = ParamInfo("p_list", "IN", "t_str_array", "other", None, False, ("text", "app", "t_str_array"))
    target = Target("function", ("u",), "join_str", "app", "join_str", [param], literals=[","])
    values = candidates(param, target, _data({}))
    assert values[0].oracle.startswith("t_str_array(") and values[0].pg.startswith("ARRAY[")
    assert values[0].pg.endswith("::app.t_str_array")
    assert any(v.pg == "'{}'::app.t_str_array" and v.oracle == "t_str_array()" for v in values)
    assert values[-1].is_null


def test_binary_values_are_written_as_hex_on_both_sides():
    v = literal(b"%PDF\n", "other")
    assert v.oracle == "HEXTORAW('255044460A')" and v.pg == "'\\x255044460A'::bytea"


def test_a_fresh_unique_text_keeps_the_length_of_the_existing_ones():
    rows = [{"customer_no": "C0000001"}, {"customer_no": "C0000002"}]
    fresh = _fresh_value(rows, "customer_no", "text").oracle.strip("'")
    assert len(fresh) == 8 and fresh not in ("C0000001", "C0000002")


def test_a_ref_cursor_function_is_fetched_row_by_row():
    target = Target("function", ("u",), "dept_emps", "s", "dept_emps", [], returns="SYS_REFCURSOR",
                    return_family="cursor")  # fmt: skip
    step = call_step("c", target, {}, [], named=True)
    assert "DBMS_SQL.TO_CURSOR_NUMBER" in step.oracle and "FETCH c INTO r" in step.postgres
    assert "row(s)" in step.oracle and "row(s)" in step.postgres


def test_a_view_is_ordered_only_by_its_own_top_level_order_by():
    assert _ordered_query("CREATE VIEW v AS SELECT a FROM t ORDER BY a")
    assert not _ordered_query("CREATE VIEW v AS SELECT a, ROW_NUMBER() OVER (ORDER BY a) rn FROM t")


def test_a_view_is_also_read_with_one_parents_details_detached():
    data = _data({"departments": [{"department_id": 10}], "employees": [{"employee_id": 1, "department_id": 10}]},
                 keys={"departments": ["department_id"], "employees": ["employee_id"]},
                 foreign={"employees": [(["department_id"], "departments", ["department_id"])]})  # fmt: skip
    target = Target("view", ("u",), "v_summary", "s", "v_summary", reads={"departments", "employees"})
    cands = view_candidates(target, data)
    assert len(cands) == 2 and cands[1].keep
    assert cands[1].setup[0].postgres == "UPDATE employees SET department_id = NULL WHERE department_id = 10"
    assert literal(Decimal("10"), "number").oracle == "10"


def test_a_function_reading_a_random_source_is_compared_by_whether_it_answers():
    from migrator.evidence.steps import nondeterministic

    p = ParamInfo("p_low", "IN", "NUMBER", "number", None, False)
    pick = Target("function", ("u",), "rnd.pick", "rnd", "pick", [p], returns="NUMBER", return_family="number")
    pick.deep_words = {"dbms_random", "dbms_random.value", "trunc"}
    plain = Target("function", ("u",), "twice", "app", "twice", [p], returns="NUMBER", return_family="number")
    plain.deep_words = {"p_low"}
    assert nondeterministic(pick) and not nondeterministic(plain)
    values = {"p_low": literal(1, "number")}
    step = call_step("call_1", pick, values, [], named=True)
    assert step.oracle == "SELECT CASE WHEN rnd.pick(p_low => 1) IS NULL THEN 'null' ELSE 'value' END FROM dual"
    assert "CASE WHEN" in step.postgres and "rnd.pick(p_low => 1)" in step.postgres
    assert call_step("call_1", plain, values, [], named=True).oracle == "SELECT twice(p_low => 1) FROM dual"
