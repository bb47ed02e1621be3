"""The agent's tools in a real worktree: confined to it, validated edits, diffs without caches."""

from __future__ import annotations

import os

import pytest

from migrator.agent.tasks.swe.actions import parse_action
from migrator.agent.tasks.swe.environments import ensure_env
from migrator.agent.tasks.swe.repos import find_clone, worktree
from migrator.agent.tasks.swe.tools import PathRefused, ToolLimits, Workspace


@pytest.fixture
def ws(tmp_path, swe_repos, swe_instances, swe_env_options, swe_isolation):
    inst = swe_instances["swefix__ledger-4"]
    clone = find_clone(swe_repos, inst)
    env = ensure_env(inst, clone, swe_env_options)
    with worktree(clone, inst.base_commit, tmp_path, "tools") as tree:
        yield Workspace(
            tree,
            inst.base_commit,
            env,
            tmp_path / "scratch",
            tmp_path / "private",
            ToolLimits(5, isolation=swe_isolation),
        )


def _do(ws, answer):
    action = parse_action(answer)
    return getattr(ws, action.tool)(action)


def test_paths_outside_the_worktree_are_refused(ws, tmp_path):
    (tmp_path / "secret.txt").write_text("s")
    os.symlink(tmp_path / "secret.txt", ws.tree / "link.txt")
    for path in ("../secret.txt", "/etc/passwd", ".git", "link.txt"):
        with pytest.raises(PathRefused):
            ws.resolve(path)
    obs = _do(ws, "ACTION: patch\n```diff\n--- a/../evil.py\n+++ b/../evil.py\n@@ -0,0 +1 @@\n+x = 1\n```")
    assert not obs.ok and "outside the repository" in obs.text


def test_read_search_list(ws):
    obs = _do(ws, "ACTION: read ledger/money.py 1-3")
    assert obs.ok and obs.files == ("ledger/money.py",) and "lines 1-3 of" in obs.text and "more lines" in obs.text
    obs = _do(ws, 'ACTION: search "def split"')
    assert obs.ok and "ledger/money.py:" in obs.text
    assert "ledger/money.py" in _do(ws, "ACTION: list ledger").text


def test_edits_are_validated_before_they_land(ws):
    path = ws.tree / "ledger" / "money.py"
    before = path.read_text()
    block = "ACTION: edit ledger/money.py\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n"
    obs = _do(ws, block.format("no such text", "x"))
    assert not obs.ok and "not found" in obs.text
    obs = _do(ws, block.format("self.currency)", "self.currency)"))
    assert not obs.ok and "found 3 times" in obs.text
    obs = _do(ws, block.format("    def __neg__(self) -> Money:", "    def __neg__(self) -> Money"))
    assert not obs.ok and "would not compile" in obs.text
    assert path.read_text() == before
    obs = _do(ws, block.format('CENT = Decimal("0.01")', 'CENT = Decimal("0.01")  # one cent'))
    assert obs.ok and obs.edited and "# one cent" in path.read_text()


def test_a_patch_that_breaks_compilation_is_rolled_back(ws):
    bad = '--- a/ledger/money.py\n+++ b/ledger/money.py\n@@ -1,1 +1,1 @@\n-"""Money: a Decimal amount rounded to cents, with a currency."""\n+def (\n'
    obs = _do(ws, f"ACTION: patch\n```diff\n{bad}```")
    assert not obs.ok and "nothing changed" in obs.text
    assert ws.changed_files() == []


def test_new_files_revert_and_the_patch_leaves_caches_out(ws):
    new = "--- /dev/null\n+++ b/ledger/util.py\n@@ -0,0 +1 @@\n+HALF = 0.5\n"
    assert _do(ws, f"ACTION: patch\n```diff\n{new}```").ok
    (ws.tree / "ledger" / "__pycache__").mkdir()
    (ws.tree / "ledger" / "__pycache__" / "money.cpython-311.pyc").write_bytes(b"\0")
    patch = ws.patch_text()
    assert "ledger/util.py" in patch and "__pycache__" not in patch
    assert ws.changed_files() == ["ledger/util.py"]
    assert _do(ws, "ACTION: revert").ok
    assert ws.changed_files() == [] and ws.patch_text() == ""


def test_tests_run_in_the_sandbox(ws):
    obs, run = ws.run_tests(("tests/test_money.py",))
    assert obs.ok and run.status("tests/test_money.py") == "passed"
