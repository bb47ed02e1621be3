"""The main task: Oracle units → PostgreSQL units, judged on a real PostgreSQL against Oracle."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from harness.judge.categories import FAILED, Category
from harness.judge.incremental import IncrementalJudge, Judged
from harness.judge.verdict import Verdict
from knowledge_base.records import Experience, Provenance, untrusted_block
from migrator.agent.loop import Episode, Item
from migrator.agent.tasks.prompts import build_messages, extract_sql
from migrator.batch.static_check import check_sql
from migrator.source.lexer import WORD, code_tokens
from migrator.source.units import Unit, UnitKind

# psycopg exception class names (keyed by SQLSTATE) → failure types the classifier reports.
_DEPLOY_FAILURES = {
    "UndefinedTable": "undefined object",
    "UndefinedObject": "undefined object",
    "UndefinedColumn": "undefined column",
    "UndefinedFunction": "undefined function",
    "DatatypeMismatch": "type mismatch",
    "CannotCoerce": "type mismatch",
    "InvalidTextRepresentation": "type mismatch",
    "SyntaxError": "parse error",
    "InvalidFunctionDefinition": "parse error",
}
_MISMATCH_FAILURES = {
    "rows": "wrong rows",
    "error": "wrong error",
    "missing error": "wrong error",
    "unexpected error": "wrong error",
    "error message": "wrong error",
    "output": "missing/extra notice",
    "timeout": "timeout",
}
# Oracle constructs worth naming in a spec-first checklist (token sequences, upper case).
CONSTRUCTS = (
    "NVL",
    "NVL2",
    "DECODE",
    "SYSDATE",
    "ROWNUM",
    "CONNECT BY",
    "MERGE",
    "BULK COLLECT",
    "FORALL",
    "EXECUTE IMMEDIATE",
    "REF CURSOR",
    "SYS_REFCURSOR",
    "%ROWTYPE",
    "%TYPE",
    "PRAGMA",
    "DBMS_OUTPUT",
    "RAISE_APPLICATION_ERROR",
    "NO_DATA_FOUND",
    "TOO_MANY_ROWS",
    "CURSOR",
    "REVERSE",
    "ADD_MONTHS",
    "MONTHS_BETWEEN",
    "TRUNC",
    "INSTR",
    "SUBSTR",
    "LISTAGG",
    "NEXTVAL",
    "SQLERRM",
    "SQLCODE",
)


def detect_constructs(source: str) -> list[str]:
    words = [t.upper for t in code_tokens(source) if t.kind == WORD or t.text == "%"]
    joined = " " + " ".join(words).replace("% ", "%") + " "
    return [c for c in CONSTRUCTS if f" {c} " in joined or (c.startswith("%") and c in joined)]


def classify(candidate: str, verdict: Verdict, parsed: bool, held_out_disagreeing: int = 0) -> str:
    """Deterministic failure type from the verifier's output (never from a model). `verdict` is
    what the prompt may quote (the visible steps); held-out steps count only as a number."""
    if "MIGRATOR_UNCONVERTED" in candidate:
        return "not converted"
    if not parsed:
        return "parse error"
    if verdict.category == Category.REJECTED:
        if verdict.reason.startswith("references missing"):
            return "undefined reference"
        head = verdict.reason.split(":", 1)[0]
        return _DEPLOY_FAILURES.get(head, "deploy error")
    if verdict.first_mismatch:
        return _MISMATCH_FAILURES.get(verdict.first_mismatch[2].what, "wrong rows")
    if "setup failed" in verdict.reason or "candidate failed" in verdict.reason:
        return "deploy error"
    if held_out_disagreeing:
        return "held-out steps disagree"
    return "unknown"


@dataclass
class _Parsed:
    judged: Judged
    parsed: bool

    @property
    def verdict(self) -> Verdict:
        """What a prompt may quote: the visible steps' verdict (held-out steps never appear)."""
        return self.judged.visible

    # The loop reads these through the Judgement protocol: the category, tier and step count
    # that decide acceptance include the held-out steps; the reason (which reaches prompts and
    # the knowledge base) does not.
    @property
    def category(self) -> str:
        return self.judged.verdict.category

    @property
    def tier(self) -> str:
        return self.judged.verdict.tier

    @property
    def reason(self) -> str:
        hidden = self.judged.held_out_disagreeing
        if self.judged.visible.category == Category.CORRECT and hidden:
            return f"the visible steps agree; {hidden} held-out step(s) disagree (not shown)"
        return self.judged.visible.reason + (f"; {hidden} held-out step(s) disagree too (not shown)" if hidden else "")

    @property
    def steps_agreeing(self) -> int:
        return self.judged.verdict.steps_agreeing


class PlsqlTask:
    name = "plsql"

    def __init__(
        self,
        units: list[Unit],
        outputs: dict[str, str],
        deps: dict[str, list[str]],
        judge: IncrementalJudge,
        write: Callable[[str, str], None],
        paragraphs: list[str],
        run_id: str,
        groups: dict[str, str] | None = None,
        references: dict[str, str] | None = None,
    ):
        """`groups` overrides a unit's group for causal eligibility (an evaluation groups units
        that share a reference, so none ever sees memory scored against its own reference);
        `references` names the reference target each unit is judged against (kept in provenance)."""
        self._units, self._outputs, self._deps = units, outputs, deps
        self._judge, self._write, self._paragraphs, self._run_id = judge, write, paragraphs, run_id
        self._groups, self._references = groups or {}, references or {}
        # unit -> (query text, failure type, constructs) of its first repair prompt: the panel the
        # memory monitor replays at each checkpoint
        self.probes: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        # Object names of units not finalized yet: references to them are not "missing" yet.
        self._pending = Counter(u.name for u in units)
        self._names = {u.id: u.name for u in units}

    def items(self) -> Iterator[Item]:
        for u in self._units:
            group = u.name if u.kind not in (UnitKind.PACKAGE_SPEC, UnitKind.PACKAGE_BODY) else f"package:{u.name}"
            extra = {"kind": u.kind.value, "reference": self._references.get(u.id)}
            yield Item(u.id, self._groups.get(u.id, f"{u.schema}:{group}"), self._outputs[u.id], u.text, extra)

    def relevance(self, item: Item) -> list[str]:
        """What a memory entry must be about to apply here: the unit's Oracle constructs."""
        return detect_constructs(item.source)

    def judge(self, item: Item, candidate: str) -> _Parsed:
        parsed = check_sql(candidate).ok if candidate.strip() else False
        pending = frozenset(name for name, count in self._pending.items() if count > 0)
        return _Parsed(self._judge.judge(item.id, candidate, parsed, pending), parsed)

    def needs_repair(self, judgement: _Parsed) -> bool:
        return judgement.category in FAILED

    def classify(self, item: Item, candidate: str, judgement: _Parsed) -> str:
        return classify(candidate, judgement.verdict, judgement.parsed, judgement.judged.held_out_disagreeing)

    def query_text(self, item: Item, judgement: _Parsed) -> str:
        return (
            f"{item.extra['kind']} {' '.join(detect_constructs(item.source))}\n{judgement.reason}\n{item.source[:1200]}"
        )

    def _feedback(self, judgement: _Parsed) -> str:
        v = judgement.verdict  # the visible steps only
        lines = [f"category: {judgement.category}", f"reason: {judgement.reason}"]
        if v.first_mismatch:
            scenario, step, m = v.first_mismatch
            lines.append(f"first mismatch in {scenario}/{step} ({m.what}): expected {m.expected}; got {m.actual}")
        return "\n".join(lines)

    def _signatures(self, item: Item) -> list[str]:
        out = []
        for dep in self._deps.get(item.id, []):
            text = self._outputs.get(dep, "")
            heads = [ln for ln in text.splitlines() if ln.lstrip().upper().startswith(("CREATE", "ALTER"))]
            out += heads[:6]
        return out

    def prompt(self, item: Item, candidate: str, judgement: _Parsed, failure_type: str, hits, strategy: str):
        if item.id not in self.probes:
            self.probes[item.id] = (self.query_text(item, judgement), failure_type, tuple(self.relevance(item)))
        memory = [untrusted_block(h) for h in (hits.positives + hits.negatives)] if hits else []
        return build_messages(
            unit_id=item.id,
            source=item.source,
            candidate=candidate,
            feedback=self._feedback(judgement),
            failure_type=failure_type,
            strategy=strategy,
            constructs=detect_constructs(item.source),
            dependencies=self._signatures(item),
            memory=memory,
            paragraphs=self._paragraphs,
        )

    def extract(self, answer: str) -> str | None:
        return extract_sql(answer)

    def commit(self, item: Item, final: str, judgement: _Parsed) -> None:
        self._outputs[item.id] = final
        self._write(item.id, final)
        self._judge.commit(item.id, final)
        self._pending[self._names[item.id]] -= 1

    def experience(self, item: Item, episode: Episode, position: int) -> Experience:
        positive = episode.final == Category.CORRECT and episode.initial != Category.CORRECT
        last = episode.attempts[-1]
        constructs = tuple(detect_constructs(item.source))
        failure_type = episode.attempts[0].failure_type
        return Experience(
            polarity="+" if positive else "-",
            failure_type=failure_type,
            constructs=constructs,
            strategy=last.strategy,
            applicability={
                "unit_kind": item.extra["kind"],
                "failure_type": failure_type,
                "constructs": " ".join(constructs),
            },
            context=f"{item.extra['kind']} {item.id}: {episode.initial} -> {episode.final}\n{episode.final_reason}\n"
            f"Oracle source:\n{item.source[:1500]}",
            output=episode.final_text,
            tier=episode.final_tier,  # the evidence behind the verdict, for either polarity
            provenance=Provenance(
                episode_id=f"{self._run_id}:{item.id}",
                stream_position=position,
                task_id=item.id,
                task_group=item.group,
                reference_target_id=item.extra.get("reference"),
                finalized=True,
            ),
        )
