"""The loop's adapter for Text-to-SQL: items are questions, the judge is execution, the classifier
reads only observable feedback, and each finished episode leaves at most one memory entry.

The task keeps each question's local history (every candidate it judged, in order) because the
repair prompt shows it; the loop itself stays task-agnostic.
"""

from __future__ import annotations

from collections.abc import Iterator

from harness.judge.categories import FAILED, Category
from knowledge_base.records import Experience, Provenance, untrusted_block
from migrator.agent.loop import Episode, Item
from migrator.agent.tasks.prompts import extract_sql
from migrator.agent.tasks.text_to_sql import prompts as p
from migrator.agent.tasks.text_to_sql.classify import classify
from migrator.agent.tasks.text_to_sql.data import Entry
from migrator.agent.tasks.text_to_sql.judge import ExecutionJudge, Outcome
from migrator.agent.tasks.text_to_sql.schema_text import SchemaText
from migrator.agent.tasks.text_to_sql.systems import System

SQL_WORDS = (
    "JOIN",
    "LEFT JOIN",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "LIMIT",
    "DISTINCT",
    "NOT IN",
    "EXISTS",
    "IS NULL",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "COUNT",
    "AVG",
    "SUM",
    "MAX",
    "MIN",
    "LIKE",
    "CASE",
)


def sql_constructs(*sqls: str) -> tuple[str, ...]:
    text = " " + " ".join(" ".join(s.upper().split()) for s in sqls) + " "
    return tuple(w for w in SQL_WORDS if f" {w} " in text or f" {w}(" in text)


class TextToSqlTask:
    name = "text_to_sql"

    def __init__(
        self,
        stream: list[Entry],
        initial: dict[str, str],
        judge: ExecutionJudge,
        schema: SchemaText,
        system: System,
        run_id: str,
    ):
        self._stream, self._initial, self._judge, self._schema = stream, initial, judge, schema
        self.system, self._run_id = system, run_id
        self._current: str | None = None
        self._history: list[p.Step] = []
        self._outcomes: list[Outcome] = []
        self._reflections: list[str] = []

    def items(self) -> Iterator[Item]:
        for entry in self._stream:
            yield self.item(entry)

    def item(self, entry: Entry) -> Item:
        return Item(entry.uid, entry.group, self._initial.get(entry.uid, ""), entry.question, {"entry": entry})

    def context(self, entry: Entry) -> p.Context:
        return p.Context(
            self._judge.dataset.databases.dialect,
            entry.db_id,
            entry.question,
            self._schema(entry.db_id),
            entry.evidence,
        )

    # -- judging -----------------------------------------------------------------------------
    def judge(self, item: Item, candidate: str) -> Outcome:
        if item.id != self._current:  # a new episode: its local history starts here
            self._current, self._history, self._outcomes, self._reflections = item.id, [], [], []
        outcome = self._judge.judge(item.extra["entry"], candidate)
        self._history.append(p.Step(candidate, outcome.observed, outcome.error))
        self._outcomes.append(outcome)
        return outcome

    def needs_repair(self, judgement: Outcome) -> bool:
        return judgement.category in FAILED

    def first_query(self, item: Item) -> tuple[str, str] | None:
        """(query text, failure type) the current question's first repair asked memory with, or None
        when its first answer needed no repair (an evaluation's monitor replays these)."""
        if item.id != self._current or not self._outcomes or not self.needs_repair(self._outcomes[0]):
            return None
        first = self._outcomes[0]
        return f"{item.source}\n{self._history[0].sql}\n{first.reason}\n{classify(first)}", classify(first)

    def classify(self, item: Item, candidate: str, judgement: Outcome) -> str:
        return classify(judgement)

    def query_text(self, item: Item, judgement: Outcome) -> str:
        # MERIT: the question, the current SQL, the failure context and the failure type.
        sql = self._history[-1].sql if self._history else item.candidate
        return f"{item.source}\n{sql}\n{judgement.reason}\n{classify(judgement)}"

    # -- prompting ---------------------------------------------------------------------------
    def prompt(self, item: Item, candidate: str, judgement: Outcome, failure_type: str, hits, strategy: str):
        memory = None
        if self.system.memory:
            pos = [untrusted_block(h) for h in hits.positives] if hits else []
            neg = [untrusted_block(h) for h in hits.negatives] if hits else []
            memory = (pos, neg)
        current = p.Step(candidate, judgement.observed, judgement.error)
        return p.repair_messages(
            self.context(item.extra["entry"]),
            current,
            failure_type,
            list(self._history),
            list(self._reflections),
            memory,
        )

    def reflection_messages(self, item: Item, candidate: str, judgement: Outcome, failure_type: str):
        if not self.system.reflect:
            return None
        return p.reflection_messages(self.context(item.extra["entry"]), list(self._history), failure_type)

    def reflected(self, item: Item, text: str) -> None:
        self._reflections.append(" ".join(text.split())[:600])

    def extract(self, answer: str) -> str | None:
        return extract_sql(answer)

    def commit(self, item: Item, final: str, judgement: Outcome) -> None:
        """Nothing to write back: the run records each finished episode itself."""

    # -- memory ------------------------------------------------------------------------------
    def experience(self, item: Item, episode: Episode, position: int) -> Experience | None:
        """One entry per finished episode: + the verified failed->correct transition, - the final
        failed direction (MERIT §3.2); for Reflexion-style, the last reflection instead of SQL."""
        entry: Entry = item.extra["entry"]
        positive = episode.final == Category.CORRECT
        last = len(self._history) - 1
        before, after = self._history[max(last - 1, 0)], self._history[last]
        failure_type = classify(self._outcomes[max(last - 1, 0)])
        context = (
            f"question: {entry.question}\ndatabase: {entry.db_id}\nfailed query: {before.sql}\n"
            f"observed: {before.status}{': ' + before.error if before.error else ''}"
        )
        if self.system.reflect:
            if not self._reflections:
                return None
            output, strategy = self._reflections[-1], "reflection"
        else:
            output = after.sql
            strategy = "verified repair" if positive else f"failed direction ({after.status})"
        return Experience(
            polarity="+" if positive else "-",
            failure_type=failure_type,
            constructs=sql_constructs(before.sql, after.sql),
            strategy=strategy,
            context=context,
            output=output,
            tier=episode.final_tier,
            provenance=Provenance(
                episode_id=f"{self._run_id}:{item.id}",
                stream_position=position,
                task_id=item.id,
                task_group=item.group,
                reference_target_id=item.extra.get("reference"),
                finalized=True,
            ),
        )
