"""Budgeted MMR over lexical and code-graph relevance (PMCoder §III-C, λ = 0.7)."""

from __future__ import annotations

from migrator.agent.tasks.swe.memory import (
    LAMBDA,
    CodeGraph,
    MemoryNode,
    Policy,
    imported_modules,
    past_files,
    policy_for,
    select,
    words,
)


def _node(key, text, files=(), size=0):
    return MemoryNode(key, "observation", text + " x" * size, tuple(files), step=int(key.split(":")[1]))


def test_relevant_nodes_win_and_near_duplicates_give_way_to_diversity():
    nodes = [
        _node("step:1", "Money split shares remainder cents quantize ROUND_DOWN"),
        _node("step:2", "Money split shares remainder cents quantize ROUND_DOWN"),  # a duplicate
        _node("step:3", "split docstring says the shares add up to the amount"),
        _node("step:4", "README install instructions"),
    ]
    anchor = words("split shares remainder cents amount")
    chosen = [n.key for n, _ in select(nodes, anchor, (), CodeGraph(), Policy(10_000, 1.0, 0.0))]
    assert chosen == ["step:1", "step:3", "step:2"]  # the duplicate ranks behind the different node
    # With room for two, the duplicate gives way to diversity; the irrelevant node never comes in.
    two = sum(n.tokens for n in nodes[:2])
    assert [n.key for n, _ in select(nodes, anchor, (), CodeGraph(), Policy(two, 1.0, 0.0))] == ["step:1", "step:3"]


def test_the_token_budget_bounds_the_working_set():
    nodes = [_node(f"step:{i}", f"split remainder cents variant{i}", size=400) for i in range(1, 6)]
    anchor = words("split remainder cents")
    small = select(nodes, anchor, (), CodeGraph(), Policy(450, 1.0, 0.0))
    assert len(small) == 2 and sum(n.tokens for n, _ in small) <= 450
    assert len(select(nodes, anchor, (), CodeGraph(), Policy(10_000, 1.0, 0.0))) == 5


def test_graph_proximity_brings_in_a_node_that_shares_no_words():
    graph = CodeGraph()
    graph.add_imports("ledger/account.py", "from ledger.money import Money\n", {"ledger/money.py"}.__contains__)
    nodes = [_node("step:1", "zzz qqq", files=("ledger/money.py",)), _node("step:2", "zzz qqq", files=("docs/a.py",))]
    chosen = select(nodes, words("balance as_of"), ("ledger/account.py",), graph, policy_for("edit"))
    assert [n.key for n, _ in chosen] == ["step:1"]
    assert chosen[0][1] > 0.3  # graph-weighted in the edit phase: 0.7 * 1/(1+1)


def test_phase_policies_follow_the_paper():
    assert LAMBDA == 0.7
    assert [policy_for(p).budget for p in ("reproduce", "localize", "edit", "verify", "backtrack")] == [
        20000,
        16000,
        12000,
        16000,
        20000,
    ]
    assert policy_for(None).budget == 16000  # memory without the planner
    assert policy_for("edit").graph > policy_for("edit").lexical


def test_imports_are_read_by_ast_with_a_regex_fallback():
    assert imported_modules("import os\nfrom ledger.money import Money\nfrom . import x\n") == ["os", "ledger.money"]
    assert imported_modules("from ledger.money import (\n") == ["ledger.money"]


def test_past_episodes_carry_their_files():
    assert past_files("file:ledger/money.py file:ledger/account.py\nother") == ("ledger/money.py", "ledger/account.py")


def test_a_node_is_capped_at_4000_characters():
    assert len(MemoryNode("step:1", "observation", "x" * 9000).text) == 4000
