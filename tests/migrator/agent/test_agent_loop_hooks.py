"""The loop's two optional, task-agnostic hooks on a toy task: `follow="latest"` repairs from the
newest candidate, and a task's reflection call is made before each repair and counted."""

from __future__ import annotations

from dataclasses import dataclass

from migrator.agent.loop import AgentConfig, Item, ModelState, run_episode
from migrator.agent.models import Message, ScriptedModel, ScriptRule


@dataclass
class Verdict:
    category: str
    tier: str = "G0"
    reason: str = ""
    steps_agreeing: int = 0


class Toy:
    """A candidate is right when it says 'good'; 'meh' is wrong, anything else does not run."""

    name = "toy"

    def __init__(self, reflect: bool):
        self.reflect, self.seen, self.reflections = reflect, [], []

    def judge(self, item, candidate):
        return Verdict({"good": "correct", "meh": "wrong"}.get(candidate, "rejected"))

    def needs_repair(self, j):
        return j.category != "correct"

    def classify(self, item, candidate, j):
        return j.category

    def query_text(self, item, j):
        return item.source

    def prompt(self, item, candidate, j, failure_type, hits, strategy):
        self.seen.append(candidate)
        return [Message("user", f"fix {candidate}")]

    def extract(self, answer):
        return answer

    def commit(self, item, final, j):
        pass

    def experience(self, item, episode, position):
        return None

    def reflection_messages(self, item, candidate, j, failure_type):
        return [Message("user", f"reflect on {candidate}")] if self.reflect else None

    def reflected(self, item, text):
        self.reflections.append(text)


def _model():
    return ScriptedModel([ScriptRule("reflect", "a lesson"), ScriptRule("fix", ["broken", "again", "good"])])


def test_follow_best_and_latest():
    item = Item("i", "g", "meh", "q")
    best, latest = Toy(False), Toy(False)
    run_episode(best, ModelState(_model()), None, item, 0, AgentConfig(attempts=3))
    run_episode(latest, ModelState(_model()), None, item, 0, AgentConfig(attempts=3, follow="latest"))
    assert best.seen == ["meh", "meh", "meh"]  # the broken answers never replace the wrong-but-running one
    assert latest.seen == ["meh", "broken", "again"]


def test_reflection_call_is_made_and_counted():
    task, model = Toy(True), _model()
    episode = run_episode(task, ModelState(model), None, Item("i", "g", "meh", "q"), 0, AgentConfig(attempts=3))
    assert episode.final == "correct" and task.reflections == ["a lesson"] * 3
    assert [a.calls for a in episode.attempts] == [2, 2, 2] and len(model.calls) == 6
    assert episode.tokens == sum(len(m.content.split()) for call in model.calls for m in call) + sum(
        len(a.split()) for a in ["a lesson"] * 3 + ["broken", "again", "good"]
    )
