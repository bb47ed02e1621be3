"""`kb import`: one writer at a time (an OS lock on the store directory), idempotent by content hash,
and a corrupt export line reported at its own file line, never as a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from kb_testing import exp

from knowledge_base import HashingEmbedder, KnowledgeBase, Rule
from knowledge_base.checkpoints import export_records
from knowledge_base.imports import ImportFileError, import_records
from knowledge_base.lock import StoreBusy

ROOT = Path(__file__).resolve().parents[2]
APPROVAL = {"approved_by": "ana", "approved_at": "2026-12-01T10:00:00Z", "reference": "FIX-001"}


@pytest.fixture
def export(tmp_path) -> Path:
    """An export of 40 experiences, a rule over two of them, and a deprecated entry."""
    with KnowledgeBase(tmp_path / "src", embedder=HashingEmbedder()) as kb:
        ids = [
            kb.add_experience(exp(f"entry {i} about NVL and cursor loops").model_copy(update={"tier": "G3"}))
            for i in range(40)
        ]
        kb.propose_rule(
            Rule(construct_id="nvl", idiom="coalesce", paragraph="p", supporting=(ids[0], ids[1])), APPROVAL
        )
        kb.deprecate(ids[2], "test")
        export_records(kb, tmp_path / "x.jsonl")
    return tmp_path / "x.jsonl"


def _count(path: Path) -> int:
    with KnowledgeBase(path, read_only=True) as kb:
        return len(kb)


def test_importing_the_same_file_twice_adds_nothing_the_second_time(export, tmp_path):
    with KnowledgeBase(tmp_path / "dst", embedder=HashingEmbedder()) as kb:
        first = import_records(kb, export)
        second = import_records(kb, export)
        assert (first.new, first.present) == (41, 0)
        assert (second.new, second.present) == (0, 41)
        assert second.mapping == first.mapping  # old ids resolve to the entries already there
        rule = next(kb.get(i).record for i in first.mapping.values() if kb.get(i).record.kind == "rule")
        assert rule.supporting == (first.mapping[1], first.mapping[2])
        assert len(kb) == 41


def test_a_retry_after_a_failure_adds_only_what_is_missing(export, tmp_path):
    with KnowledgeBase(tmp_path / "dst", embedder=HashingEmbedder()) as kb:

        def fail():  # the experiences commit, then the process fails before the rule
            raise OSError("disk full")

        kb._after_commit = fail
        with pytest.raises(OSError):
            import_records(kb, export)
    with KnowledgeBase(tmp_path / "dst") as kb:
        assert len(kb) == 40
        again = import_records(kb, export)
        assert (again.new, again.present) == (1, 40) and len(kb) == 41
        assert kb.get(again.mapping[3]).status == "deprecated"  # the interrupted run never got there
        assert import_records(kb, export).new == 0


def test_a_rule_whose_evidence_is_already_present_is_linked_to_it(export, tmp_path):
    lines = export.read_text().splitlines()
    rule_line = next(line for line in lines if json.loads(line)["record"]["kind"] == "rule")
    plain = tmp_path / "plain.jsonl"
    plain.write_text("\n".join(line for line in lines if line != rule_line) + "\n")
    with KnowledgeBase(tmp_path / "dst", embedder=HashingEmbedder()) as kb:
        assert import_records(kb, plain).new == 40
        result = import_records(kb, export)
        assert (result.new, result.present) == (1, 40)
        rule = kb.get(result.mapping[json.loads(rule_line)["id"]]).record
        assert rule.supporting == (result.mapping[1], result.mapping[2])


def _cli_import(file: Path, kb: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "migrator.cli.main",
            "kb",
            "import",
            str(file),
            "--kb",
            str(kb),
            "--embedder",
            "hashing",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_imports_at_the_same_time_are_serialized(export, tmp_path):
    procs = [_cli_import(export, tmp_path / "dst") for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
    assert all("Traceback" not in err for _, err in outs)
    summaries = [out.split(": ", 1)[1].split(" (")[0] for out, _ in outs]
    assert sorted(summaries) == ["0 new, 41 already present", "41 new, 0 already present"]
    assert _count(tmp_path / "dst") == 41


def test_a_second_writer_waits_for_the_first_and_gives_up_clearly(tmp_path):
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()):
        outcome = []
        # another open file description, as another process would have: flock excludes it too
        t = threading.Thread(target=lambda: outcome.append(_try_open(tmp_path / "kb")))
        t.start()
        t.join()
        assert isinstance(outcome[0], StoreBusy) and str(tmp_path / "kb") in str(outcome[0])
        with KnowledgeBase(tmp_path / "kb", read_only=True) as reader:  # readers never wait
            assert len(reader) == 0
    with KnowledgeBase(tmp_path / "kb", lock_timeout=0.2) as again:  # released on close
        assert len(again) == 0


def _try_open(path: Path):
    try:
        KnowledgeBase(path, lock_timeout=0.3).close()
    except StoreBusy as exc:
        return exc
    return None


# -- corrupt lines ------------------------------------------------------------------------------
def _bad_file(tmp_path, export: Path, *bad: tuple[int, str]) -> Path:
    lines = export.read_text().splitlines()
    for at, text in bad:
        lines.insert(at - 1, text)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_corrupt_line_is_reported_at_its_file_line_and_nothing_is_written(export, tmp_path):
    bad = _bad_file(
        tmp_path,
        export,
        (3, '{"id": 900, "status": "active", "record": {'),
        (7, "[1, 2, 3]"),
        (9, '"just a string"'),
        (11, '{"id": 901, "status": "active", "record": {"kind": "nope"}}'),
    )
    with KnowledgeBase(tmp_path / "dst", embedder=HashingEmbedder()) as kb:
        with pytest.raises(ImportFileError) as info:
            import_records(kb, bad)
        assert len(kb) == 0
    problems = info.value.problems
    assert [p.split(": ")[0] for p in problems] == [f"{bad}:{n}" for n in (3, 7, 9, 11)]
    assert "not valid JSON" in problems[0] and "line 1 column" not in problems[0]
    assert "a JSON array, not an object" in problems[1] and "a JSON string, not an object" in problems[2]
    assert "record" in problems[3] and "nope" in problems[3]


def test_the_cli_reports_corrupt_lines_without_a_traceback(export, tmp_path):
    bad = _bad_file(tmp_path, export, (2, "[1, 2]"), (5, "{oops"))
    proc = _cli_import(bad, tmp_path / "dst")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert f"{bad}:2: a JSON array, not an object" in err and f"{bad}:5: not valid JSON" in err
    assert "nothing imported" in err


def test_a_store_from_before_content_hashes_gets_them_on_open(export, tmp_path):
    import sqlite3

    with KnowledgeBase(tmp_path / "old", embedder=HashingEmbedder()) as kb:
        import_records(kb, export)
    db = sqlite3.connect(tmp_path / "old" / "kb.sqlite")
    db.execute("DROP INDEX entries_content_hash")
    db.execute("ALTER TABLE entries DROP COLUMN content_hash")
    db.commit()
    db.close()
    with KnowledgeBase(tmp_path / "old") as kb:
        again = import_records(kb, export)
        assert (again.new, again.present) == (0, 41)
