"""`migrator kb ...` through add_kb_parser / run_kb, on a real store."""

from __future__ import annotations

import argparse
import json

import pytest
from kb_testing import exp

from knowledge_base import HashingEmbedder, KnowledgeBase
from knowledge_base.cli import EXAMPLES, add_kb_parser, run_kb


def _run(argv, capsys):
    parser = argparse.ArgumentParser(prog="migrator")
    add_kb_parser(parser.add_subparsers(dest="command", required=True))
    code = run_kb(parser.parse_args(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def kb_dir(tmp_path):
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:
        kb.add_experience(exp("replace NVL with COALESCE", failure_type="syntax"))
        kb.add_experience(exp("tried NVL2 as a function", "-", failure_type="syntax"))
    return tmp_path / "kb"


def test_stats_search_show(kb_dir, capsys):
    code, out, _ = _run(["kb", "stats", "--kb", str(kb_dir)], capsys)
    assert code == 0 and "hashing-v1 (not semantic)" in out and "c >= 0.65" in out
    code, out, _ = _run(["kb", "search", "NVL COALESCE", "--kb", str(kb_dir), "--failure-type", "syntax"], capsys)
    assert code == 0 and "+ #1" in out and "- #2" in out and "not semantic" in out
    code, out, _ = _run(["kb", "search", "NVL", "--kb", str(kb_dir), "--json"], capsys)
    assert json.loads(out)["positives"][0]["id"] == 1
    code, out, _ = _run(["kb", "show", "1", "--kb", str(kb_dir)], capsys)
    assert code == 0 and json.loads(out)["entry"]["record"]["context"] == "replace NVL with COALESCE"
    code, _, err = _run(["kb", "show", "99", "--kb", str(kb_dir)], capsys)
    assert code == 1 and "no entry 99" in err


def test_snapshot_export_import(kb_dir, tmp_path, capsys):
    code, out, _ = _run(["kb", "snapshot", "ck-1", "--kb", str(kb_dir)], capsys)
    assert code == 0 and (kb_dir / "snapshots" / "ck-1" / "manifest.json").is_file()
    assert _run(["kb", "snapshot", "ck-1", "--kb", str(kb_dir)], capsys)[0] == 2
    assert _run(["kb", "export", str(tmp_path / "x.jsonl"), "--kb", str(kb_dir)], capsys)[0] == 0
    code, out, _ = _run(
        ["kb", "import", str(tmp_path / "x.jsonl"), "--kb", str(tmp_path / "new"), "--embedder", "hashing"], capsys
    )
    assert code == 0 and "2 new, 0 already present" in out
    snap = kb_dir / "snapshots" / "ck-1"
    code, out, _ = _run(["kb", "search", "NVL", "--kb", str(snap)], capsys)  # read-only view
    assert code == 0 and "+ #1" in out
    code, out, _ = _run(["kb", "stats", "--kb", str(kb_dir)], capsys)
    assert "checkpoint ck-1: 1 queries, verified 1" in out
    code, _, err = _run(["kb", "snapshot", "again", "--kb", str(snap)], capsys)
    assert code == 2 and "read-only" in err


def test_missing_kb_is_a_usage_error(tmp_path, capsys):
    code, _, err = _run(["kb", "stats", "--kb", str(tmp_path / "nope")], capsys)
    assert code == 2 and "no knowledge base" in err


def test_every_command_has_help_and_example(capsys):
    parser = argparse.ArgumentParser(prog="migrator")
    add_kb_parser(parser.add_subparsers(dest="command"))
    for name in EXAMPLES:
        with pytest.raises(SystemExit):
            parser.parse_args(["kb", name, "--help"])
        out = capsys.readouterr().out
        assert "example:" in out and EXAMPLES[name] in out and "--kb" in out


def test_looking_does_not_write_behind_a_live_writer(tmp_path, capsys):
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as writer:
        writer.add_experience(exp("first"))
        writer.flush()
        state = (tmp_path / "kb" / "index" / "state.json").read_bytes()
        writer.add_experience(exp("second, not yet flushed"))  # the index file is now stale
        for argv in (["kb", "stats"], ["kb", "search", "second"], ["kb", "show", "2"]):
            code, out, _ = _run(argv + ["--kb", str(tmp_path / "kb")], capsys)
            assert code == 0
        assert "second" in out  # seen through an in-memory repair
        assert (tmp_path / "kb" / "index" / "state.json").read_bytes() == state
        writer.add_experience(exp("third"))  # the writer carries on
    with KnowledgeBase(tmp_path / "kb") as reopened:
        assert reopened.last_repair["mode"] == "fresh" and len(reopened) == 3
