"""Judge a predicted query by execution, as the benchmarks' evaluators do.

The gold query runs once per question (cached); the prediction runs on the same read-only
connection; the results are compared with the benchmark's denotation rule (harness.tasks.denotation).
What leaves this module is only what the user of the database could observe about the
*prediction*: its status, the DBMS's error, the shape of its result, and right/wrong. Never the
gold SQL, its rows or their number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.judge.categories import Category
from harness.tasks.denotation import denotation_equal
from harness.tasks.readonly_sql import QueryResult
from migrator.agent.tasks.text_to_sql.data import Dataset, Entry

# Evidence tiers of the knowledge base, read for Text-to-SQL: G3 agrees with the benchmark's gold
# result; G2 ran on the real database (names resolved) but disagrees; G0 did not run.
_TIER = {Category.CORRECT: "G3", Category.WRONG: "G2", Category.REJECTED: "G0", Category.UNVERIFIED: "G0"}


@dataclass(frozen=True)
class Outcome:
    status: str  # correct | wrong | error | timeout | row cap | no sql | gold error
    error: str = ""  # the DBMS's message for the prediction
    code: str = ""
    rows: int = 0  # rows the prediction returned
    columns: int = 0

    @property
    def category(self) -> Category:
        if self.status == "correct":
            return Category.CORRECT
        if self.status == "wrong":
            return Category.WRONG
        return Category.UNVERIFIED if self.status == "gold error" else Category.REJECTED

    @property
    def tier(self) -> str:
        return _TIER[self.category]

    @property
    def steps_agreeing(self) -> int:
        return int(self.status == "correct")

    @property
    def observed(self) -> str:
        """The status as the model is told it."""
        if self.status == "wrong":
            return f"ran, returned {self.rows} row(s); judged wrong"
        return self.status

    @property
    def reason(self) -> str:
        if self.status in ("correct", "wrong"):
            verdict = (
                "matches the expected answer" if self.status == "correct" else "does not match the expected answer"
            )
            return f"executed: {self.rows} row(s) x {self.columns} column(s); the result {verdict}"
        if self.status == "no sql":
            return "no SQL query was given"
        if self.status == "gold error":
            return f"the reference query cannot be judged here: {self.error}"
        return f"{self.status}: {self.error}"


@dataclass
class ExecutionJudge:
    dataset: Dataset
    rule: str = ""  # "spider" | "bird"; default: the dataset's own
    _gold: dict[str, QueryResult] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rule = self.rule or self.dataset.flavor

    def gold(self, entry: Entry) -> QueryResult:
        if entry.uid not in self._gold:
            self._gold[entry.uid] = self.dataset.databases.get(entry.db_id).run(entry.gold)
        return self._gold[entry.uid]

    def judge(self, entry: Entry, sql: str | None) -> Outcome:
        gold = self.gold(entry)
        if not gold.ok:
            return Outcome("gold error", error=f"{gold.status}: {gold.error}")
        if sql is None or not sql.strip():
            return Outcome("no sql")
        got = self.dataset.databases.get(entry.db_id).run(sql)
        if not got.ok:
            return Outcome(got.status, error=got.error, code=got.code)
        same = denotation_equal(self.rule, gold.rows, got.rows, entry.gold)
        return Outcome("correct" if same else "wrong", rows=len(got.rows), columns=got.columns)
