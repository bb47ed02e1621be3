"""What a Text-to-SQL run writes: its manifest, one record per finished question, and the files
they live in (crash-safe appends; a line cut short by a crash is ignored and its question redone)."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from harness.judge.categories import Category
from migrator.agent.loop import Episode
from migrator.agent.tasks.text_to_sql.data import BadEntry, Entry


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AttemptRecord(_Frozen):
    number: int
    strategy: str
    failure_type: str
    retrieved: list[int]
    input_tokens: int
    output_tokens: int
    latency_s: float
    cached: bool
    outcome: str
    calls: int = 1
    shown_positive: list[int] = []  # verified entries in the prompt (the loop's Attempt)
    arm: str = ""  # the retrieval controller's choice, when one chose (migrator.agent.retrieval)
    context_key: str = ""
    reward: float | None = None
    credit: float | None = None


class EpisodeRecord(_Frozen):
    uid: str
    index: int
    db_id: str
    difficulty: str
    position: int
    initial: str  # the judged category of the shared initial prediction
    final: str
    final_reason: str
    final_sql: str
    attempts: list[AttemptRecord]
    calls: int
    tokens: int
    seconds: float
    model_error: str | None = None
    experience_id: int | None = None

    @classmethod
    def of(cls, episode: Episode, entry: Entry, position: int) -> EpisodeRecord:
        attempts = [AttemptRecord(**asdict(a)) for a in episode.attempts]
        return cls(
            uid=entry.uid,
            index=entry.index,
            db_id=entry.db_id,
            difficulty=entry.difficulty,
            position=position,
            initial=episode.initial,
            final=episode.final,
            final_reason=episode.final_reason,
            final_sql=episode.final_text,
            attempts=attempts,
            calls=sum(a.calls for a in attempts),
            tokens=episode.tokens,
            seconds=round(episode.seconds, 4),
            model_error=episode.model_error,
            experience_id=episode.experience_id,
        )


class Totals(_Frozen):
    answered: int  # questions finished so far
    judged: int  # of those, the ones whose reference could be run
    correct: int
    initially_correct: int
    repaired: int
    repair_calls: int
    repair_tokens: int
    mean_steps: float  # repair attempts per initial failure


class Manifest(_Frozen):
    run_id: str
    started_at: str
    written_at: str
    status: str  # running | finished
    request: dict
    budget: dict  # attempts (K), temperature, max_tokens per call
    system: dict
    prompt_version: str
    prompt_hash: str
    data_fingerprint: str
    dialect: str
    rule: str
    questions: int
    bad_entries: list[BadEntry]
    initial_tokens: int
    initial_errors: int
    model_error: str | None = None
    embedder: str | None = None
    totals: Totals | None = None

    @classmethod
    def start(cls, **fields) -> Manifest:
        request = fields.pop("request").model_dump(mode="json")
        return cls(started_at=_now(), written_at=_now(), status="running", request=request, **fields)

    def incompatible(self, new: Manifest) -> str | None:
        """Why a run in this directory cannot be continued by `new` (None when it can)."""
        keys = ("model", "system", "order", "split", "attempts", "max_tokens", "limit", "pg_dsn")
        for key in keys:
            if self.request.get(key) != new.request.get(key):
                return f"{key} {self.request.get(key)!r}, asked {new.request.get(key)!r}"
        for key in ("prompt_hash", "data_fingerprint"):
            if getattr(self, key) != getattr(new, key):
                return f"{key} changed"
        return None

    def finish(self, episodes: list[EpisodeRecord], model_error: str | None, embedder: str | None = None) -> Manifest:
        judged = [e for e in episodes if e.final != Category.UNVERIFIED]
        failures = [e for e in judged if e.initial != Category.CORRECT]
        totals = Totals(
            answered=len(episodes),
            judged=len(judged),
            correct=sum(e.final == Category.CORRECT for e in judged),
            initially_correct=sum(e.initial == Category.CORRECT for e in judged),
            repaired=sum(e.final == Category.CORRECT for e in failures),
            repair_calls=sum(e.calls for e in episodes),
            repair_tokens=sum(e.tokens for e in episodes),
            mean_steps=round(sum(len(e.attempts) for e in failures) / len(failures), 4) if failures else 0.0,
        )
        done = len(episodes) >= self.questions
        return self.model_copy(
            update={
                "totals": totals,
                "status": "finished" if done else "running",
                "written_at": _now(),
                "model_error": model_error or self.model_error,
                "embedder": embedder or self.embedder,
            }
        )


@dataclass
class RunFiles:
    out: Path
    system: str
    order: int
    kb_root: Path | None = None

    @property
    def name(self) -> str:
        return f"{self.system}-order{self.order}"

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / "runs" / self.name

    @property
    def model_cache(self) -> Path:
        return Path(self.out) / "model-cache"

    @property
    def kb_path(self) -> Path:
        return Path(self.kb_root) / self.name if self.kb_root else self.run_dir / "kb"

    def load_manifest(self, missing_ok: bool = False) -> Manifest | None:
        path = self.run_dir / "manifest.json"
        if missing_ok and not path.is_file():
            return None
        return Manifest.model_validate_json(path.read_text(encoding="utf-8"))

    def save_manifest(self, manifest: Manifest) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.run_dir / "manifest.json.tmp"
        tmp.write_text(json.dumps(manifest.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        tmp.replace(self.run_dir / "manifest.json")

    def episodes(self) -> list[EpisodeRecord]:
        path = self.run_dir / "episodes.jsonl"
        out: list[EpisodeRecord] = []
        seen: set[str] = set()
        if not path.is_file():
            return out
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = EpisodeRecord.model_validate_json(line)
            except ValidationError:
                continue  # cut short by a crash: that question is redone
            if record.uid not in seen:
                seen.add(record.uid)
                out.append(record)
        return out

    def finished(self) -> set[str]:
        return {e.uid for e in self.episodes()}

    def append_episode(self, record: EpisodeRecord) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        path = self.run_dir / "episodes.jsonl"
        # A crash can leave a line without its newline: start on a fresh line, never glued to it.
        cut = path.is_file() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
        with path.open("a", encoding="utf-8") as fh:
            fh.write(("\n" if cut else "") + record.model_dump_json() + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def open_kb(self, system, embedder: str | None, unfinished: list[str]):
        """The system's memory (None without one); entries of episodes not recorded are retired."""
        if not system.memory:
            return None
        from knowledge_base.embedders import make_embedder
        from knowledge_base.store import KnowledgeBase

        kb = KnowledgeBase(self.kb_path, embedder=make_embedder(embedder) if embedder else None)
        for uid in unfinished:
            for entry_id in kb.ids_of_task(uid):
                kb.deprecate(entry_id, "its episode was cut short by a crash and is redone")
        return kb
