"""The SWE judge against the shipped instances, with SWE-bench's semantics: gold patches resolve
every instance, empty patches none, and the partly-right set gives the hand-computed figure
(a patch that does not apply, a broken PASS_TO_PASS test, a hang, tests edited by the candidate)."""

from __future__ import annotations

import json

from migrator.agent.tasks.swe.fixture_repos import generate, gold_agent_script
from migrator.agent.tasks.swe.instances import load_instances, load_predictions
from migrator.agent.tasks.swe.judge import judge_patch
from migrator.agent.tasks.swe.scoring import score_predictions
from tests.swe_fixtures import SWE_FIXTURES

PREDICTIONS = SWE_FIXTURES / "predictions"


def _score(name, instances, ctx):
    predictions, errors = load_predictions(PREDICTIONS / f"{name}.jsonl")
    assert not errors
    return score_predictions(list(instances.values()), predictions, ctx)


def test_shipped_files_are_what_the_fixtures_generate(tmp_path):
    """instances.jsonl and the prediction files are generated from fixtures/swe (and the commit
    hashes they name are the same on every machine)."""
    gen = generate(SWE_FIXTURES, tmp_path / "repos", tmp_path / "scratch")
    assert len(gen.instances) >= 10 and len({i.repo for i in gen.instances}) >= 3
    shipped = (SWE_FIXTURES / "instances.jsonl").read_text().splitlines()
    assert [i.model_dump_json() for i in gen.instances] == shipped
    for name, preds in (("gold", gen.gold), ("empty", gen.empty), ("partial", gen.partial)):
        assert [p.model_dump_json() for p in preds] == (PREDICTIONS / f"{name}.jsonl").read_text().splitlines()
    assert gold_agent_script(gen) == (SWE_FIXTURES / "models" / "gold-agent.yaml").read_text()


def test_gold_patches_resolve_every_instance(swe_instances, swe_judge_ctx):
    report = _score("gold", swe_instances, swe_judge_ctx)
    assert (report.resolved, report.total) == (len(swe_instances), len(swe_instances))


def test_empty_patches_resolve_nothing(swe_instances, swe_judge_ctx):
    report = _score("empty", swe_instances, swe_judge_ctx)
    assert report.resolved == 0
    assert {r.status for r in report.per_instance.values()} == {"empty patch"}


def test_on_the_base_commit_every_fail_to_pass_test_fails_and_every_pass_to_pass_passes(swe_instances, swe_judge_ctx):
    for inst in swe_instances.values():
        result = judge_patch(inst, "", swe_judge_ctx, run_empty=True)
        assert not result.resolved, inst.instance_id
        assert all(s not in ("passed", "xfail") for s in result.fail_to_pass.values()), result
        assert set(result.pass_to_pass.values()) == {"passed"}, result


def test_partly_right_patches_give_the_hand_computed_figure(swe_instances, swe_judge_ctx):
    expected = json.loads((PREDICTIONS / "partial.expected.json").read_text())
    report = _score("partial", swe_instances, swe_judge_ctx)
    # Hand-computed: textkit-1 and ledger-2 are different correct fixes, ledger-4 is the gold patch.
    assert (report.resolved, report.total) == (3, 11) == (expected["resolved"], expected["total"])
    per = report.per_instance
    assert sorted(i for i, r in per.items() if r.resolved) == expected["resolved_ids"]
    assert per["swefix__ledger-1"].status == "patch does not apply"
    assert "ledger/parse.py" in per["swefix__ledger-1"].reason
    assert per["swefix__textkit-2"].fail_to_pass == {t: "passed" for t in per["swefix__textkit-2"].fail_to_pass}
    assert per["swefix__textkit-2"].pass_to_pass["tests/test_case.py::test_snake_to_camel"] == "failed"
    assert per["swefix__miniconf-1"].pass_to_pass["tests/test_merge.py::test_nested_merge"] == "failed"
    assert per["swefix__textkit-3"].fail_to_pass == {
        "tests/test_wrap.py::test_long_word": "passed",
        "tests/test_wrap.py::test_long_word_between": "timeout",
    }
    assert set(per["swefix__miniconf-3"].fail_to_pass.values()) == {"failed"}  # its test edits were reset
    assert set(per["swefix__miniconf-4"].fail_to_pass.values()) == {"missing"}  # the module does not compile
    assert per["swefix__miniconf-2"].status == "empty patch"


def test_bad_input_is_reported_per_line_and_per_instance(tmp_path, swe_instances, swe_judge_ctx):
    inst = swe_instances["swefix__ledger-2"]
    lines = [
        "not json",
        json.dumps({"instance_id": "x"}),
        inst.model_dump_json(),
        inst.model_copy(update={"instance_id": "ghost-1", "repo": "nobody/ghost"}).model_dump_json(),
        inst.model_copy(
            update={"instance_id": "django-ish", "FAIL_TO_PASS": ("test_x (app.tests.T)",)}
        ).model_dump_json(),
        inst.model_copy(update={"instance_id": "no-commit", "base_commit": "0" * 40}).model_dump_json(),
    ]
    path = tmp_path / "instances.jsonl"
    path.write_text("\n".join(lines) + "\n")
    instances, errors = load_instances(path)
    assert [e.line for e in errors] == [1, 2]
    assert "not JSON" in errors[0].message and "not an instance" in errors[1].message
    by_id = {i.instance_id: judge_patch(i, inst.patch, swe_judge_ctx) for i in instances}
    assert by_id[inst.instance_id].resolved
    assert by_id["ghost-1"].status == "error" and "no clone of nobody/ghost" in by_id["ghost-1"].reason
    assert by_id["django-ish"].status == "error" and "not pytest node ids" in by_id["django-ish"].reason
    assert by_id["no-commit"].status == "error" and "is not in" in by_id["no-commit"].reason


def test_hugging_face_style_test_lists_are_read(tmp_path, swe_instances):
    data = json.loads(swe_instances["swefix__ledger-2"].model_dump_json())
    data["FAIL_TO_PASS"] = json.dumps(data["FAIL_TO_PASS"])
    path = tmp_path / "hf.json"
    path.write_text(json.dumps([data]))
    instances, errors = load_instances(path)
    assert not errors and instances[0].FAIL_TO_PASS == swe_instances["swefix__ledger-2"].FAIL_TO_PASS
