"""The loop's optional hooks are protocols of their own (migrator.agent.loop): each task adapter and
memory has exactly the hooks it defines, so the loop asks with isinstance what it used to read with
getattr."""

from __future__ import annotations

from knowledge_base.store import KnowledgeBase
from migrator.agent.loop import Acting, Clocked, Contraindicating, Reflecting, Relevant
from migrator.agent.tasks.plsql import PlsqlTask
from migrator.agent.tasks.swe.task import SweTask
from migrator.agent.tasks.text_to_sql.task import TextToSqlTask
from migrator.eval.memory import SystemMemory

HOOKS = (Acting, Reflecting, Relevant)


def test_each_task_has_the_hooks_it_defines():
    assert [h for h in HOOKS if issubclass(PlsqlTask, h)] == [Relevant]
    assert [h for h in HOOKS if issubclass(SweTask, h)] == [Acting]
    assert [h for h in HOOKS if issubclass(TextToSqlTask, h)] == [Reflecting]


def test_memories_have_the_clock_and_contraindications():
    for memory in (KnowledgeBase, SystemMemory):
        assert issubclass(memory, Clocked) and issubclass(memory, Contraindicating)


def test_a_task_with_half_the_reflection_hook_has_none():
    class HalfReflecting:
        def reflection_messages(self, item, candidate, judgement, failure_type):
            return []

    assert not isinstance(HalfReflecting(), Reflecting)
    assert not isinstance(None, Clocked)
