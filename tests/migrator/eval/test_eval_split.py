"""Reference-grouped splits, the leakage audit and the model-free baselines (data only, no server)."""

from __future__ import annotations

import pytest

from migrator.eval.baselines import baseline_outputs, tfidf
from migrator.eval.split import EvalUnit, components, make_split, memory_leaks, target_leaks, text_key


def unit(uid: str, *keys: str, source: str = "", reference: str | None = None) -> EvalUnit:
    return EvalUnit(uid, source or uid, tuple(keys), reference)


UNITS = [
    unit("a", "reference:1", "expected_output:x"),
    unit("b", "reference:2", "expected_output:x"),  # shares an expected output with a
    unit("c", "reference:2", "expected_output:y"),  # shares a reference with b: a, b, c are one
    unit("d", "reference:3", "expected_output:z"),
    *[unit(f"u{i}", f"reference:u{i}", f"expected_output:u{i}") for i in range(20)],
]


def test_components_join_units_through_any_shared_key():
    comp = components(UNITS, ("reference", "expected_output"))
    assert comp["a"] == comp["b"] == comp["c"] != comp["d"]
    only_refs = components(UNITS, ("reference",))
    assert only_refs["b"] == only_refs["c"] != only_refs["a"]


@pytest.mark.parametrize("seed", range(6))
def test_a_grouped_split_never_straddles_and_the_audit_reads_zero(seed):
    split = make_split(UNITS, 0.4, seed, True, ("reference", "expected_output"))
    sides = {uid: "train" if uid in split.train else "test" for uid in split.train + split.test}
    assert sides["a"] == sides["b"] == sides["c"]
    assert sorted(split.train + split.test) == sorted(u.id for u in UNITS)
    assert 0.3 < len(split.test) / len(UNITS) < 0.5  # the shares follow the target
    assert target_leaks(UNITS, split) == []


def test_an_ungrouped_split_leaks_and_the_audit_counts_it():
    leaky = [make_split(UNITS, 0.4, seed, False, ("reference", "expected_output")) for seed in range(10)]
    counts = [len(target_leaks(UNITS, s)) for s in leaky]
    assert max(counts) > 0  # some seed puts a, b, c on both sides
    split = leaky[counts.index(max(counts))]
    for uid in target_leaks(UNITS, split):
        assert uid in split.test and uid in {"a", "b", "c"}


def test_memory_leaks_by_reference_and_by_text():
    split = make_split(UNITS, 0.4, 1, True, ("reference", "expected_output"))
    held, trained = split.test[0], split.train[0]
    by_id = {u.id: u for u in UNITS}
    assert memory_leaks([(trained, None, "own output")], UNITS, split) == []
    # a training unit's entry whose output text IS a held-out reference target
    same_text = [u for u in UNITS if u.id == held][0]
    text = "SELECT  1 FROM x"
    units = [*UNITS[:-1], EvalUnit(same_text.id, same_text.source, (*same_text.keys, text_key(text)))]
    assert memory_leaks([(trained, None, "select 1   from X")], units, split) == [text_key(text)]
    assert memory_leaks([(held, by_id[held].keys[0], "x")], UNITS, split) == []  # a held-out unit's own entry


def test_baselines_copy_the_nearest_training_target_and_a_seeded_random_one():
    units = [
        unit("t1", "r:1", source="SELECT nvl(qty, 0) FROM parts", reference="coalesce one"),
        unit("t2", "r:2", source="DBMS_OUTPUT.PUT_LINE('x')", reference="raise notice two"),
        unit("h1", "r:3", source="SELECT nvl(price, 1) FROM parts"),
    ]
    out = baseline_outputs(units, ["t1", "t2"], ["h1"], seed=1)
    assert out["M0"]["h1"] == "" and out["M1"]["h1"] == units[2].source
    assert out["M2"]["h1"] == "coalesce one"
    assert out["M3"]["h1"] in {"coalesce one", "raise notice two"}
    assert baseline_outputs(units, ["t1", "t2"], ["h1"], seed=1)["M3"] == out["M3"]
    rows = tfidf(["a b", "a c", ""])
    assert rows[0] @ rows[1] == pytest.approx(rows[1] @ rows[0]) and rows[2].sum() == 0


def test_without_a_trusted_target_the_copy_pool_is_the_accepted_outputs():
    units = [
        unit("t1", "r:1", source="SELECT nvl(qty, 0) FROM parts"),
        unit("t2", "r:2", source="DBMS_OUTPUT.PUT_LINE('x')"),
        unit("h1", "r:3", source="SELECT nvl(price, 1) FROM parts"),
    ]
    # t1's initial output was judged correct (accepted), t2's was not: only t1 can be copied
    out = baseline_outputs(units, ["t1", "t2"], ["h1"], seed=1, accepted={"t1": "coalesce(qty, 0)"})
    assert out["M2"]["h1"] == out["M3"]["h1"] == "coalesce(qty, 0)"
    assert baseline_outputs(units, ["t1", "t2"], ["h1"], seed=1)["M2"]["h1"] == ""  # nothing accepted: nothing copied
