"""The action language: every tool's form, and clear messages for answers that are not actions."""

from __future__ import annotations

from migrator.agent.tasks.swe.actions import BadAction, Edit, Patch, Read, Reproduce, Search, normalized, parse_action


def test_actions_are_parsed():
    assert parse_action("Look.\nACTION: read pkg/a.py 10-20") == Read(
        path="pkg/a.py", start=10, end=20, thought="Look."
    )
    assert parse_action('ACTION: search "def f" pkg') == Search(text="def f", path="pkg")
    assert parse_action("ACTION: reproduce\n```python\nassert 0\n```\n") == Reproduce(script="assert 0\n")
    assert parse_action("ACTION: reproduce").script is None
    edit = parse_action("ACTION: edit a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n")
    assert isinstance(edit, Edit) and edit.replacements[0].search == "x = 1\n"
    assert isinstance(parse_action("ACTION: patch\n```diff\n--- a/x\n+++ b/x\n```"), Patch)
    assert parse_action("ACTION: submit tests/t.py").targets == ("tests/t.py",)


def test_answers_that_are_not_actions_say_why():
    for answer, words in (
        ("I think it is fixed.", "no `ACTION:` line"),
        ("ACTION: dance", "unknown tool"),
        ("ACTION: read", "give a path"),
        ("ACTION: read a.py ten", "line range"),
        ("ACTION: edit a.py\nno blocks", "no SEARCH/REPLACE block"),
        ("ACTION: patch\nno fence", "```diff block"),
        ('ACTION: search "unclosed', "cannot read the arguments"),
    ):
        parsed = parse_action(answer)
        assert isinstance(parsed, BadAction) and words in parsed.message, (answer, parsed)


def test_normalized_actions_ignore_line_ranges_and_spelling_of_paths():
    assert normalized(parse_action("ACTION: read ./pkg/a.py 1-5")) == normalized(parse_action("ACTION: read pkg/a.py"))
    assert normalized(parse_action("ACTION: test a")) != normalized(parse_action("ACTION: test b"))
