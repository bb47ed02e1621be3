"""The words a reviewer needs to read a run: categories, tiers and kinds of evidence.

Said once here (and in harness.judge.verdict's docstring, which decides them), shown on every summary.
"""

from __future__ import annotations

from harness.judge.categories import Category

CATEGORIES = (
    (Category.CORRECT, "Deployed on PostgreSQL, and every scenario step agrees with Oracle's outcome."),
    (Category.WRONG, "Deployed, but at least one scenario step contradicts Oracle (rows, output or error differ)."),
    (
        Category.UNVERIFIED,
        "PostgreSQL accepted it, but nothing compared it with Oracle: no scenario judges it, the "
        "transcript lacks the step's outcome, or its inner references are unresolved.",
    ),
    (Category.REJECTED, "PostgreSQL refused it (parse or deploy error), or a unit it depends on was refused."),
)

TIERS = (
    ("G0", "No correctness evidence: the output does not even parse."),
    ("G1", "PostgreSQL's own parser accepts it (checked statically)."),
    ("G2", "G1, and it deployed with its references resolved; scenarios may agree with an authored transcript."),
    ("G3", "G2, and it agrees with ground truth recorded on a live Oracle."),
)

EVIDENCE = (
    (
        "oracle",
        "Recorded: every expected outcome was captured by running the scenario on a real Oracle "
        "database (banner, version and time are kept). The only evidence that reaches G3.",
    ),
    (
        "authored",
        "Written by hand from documented Oracle semantics, never taken from a PostgreSQL run. It can "
        "show a unit wrong, but agreement stops at G2: a person, not Oracle, wrote the expectation.",
    ),
    (
        "reference",
        "Recorded on a trusted PostgreSQL port (`migrator record --reference`): agreement shows the "
        "migration behaves like that port, not like Oracle, and stops at G2.",
    ),
    (
        "inner references",
        "Static: the names inside PL/pgSQL bodies, which PostgreSQL itself only checks when the code "
        "runs, resolved by plpgsql_check where the server has it, else by pglast and the server's own "
        "PREPARE (the run's summary says which). It says the code can run, not that it behaves like Oracle.",
    ),
)

ROWS = (
    ("agent", "what this run delivered (the rules, plus the model's repairs when a model was used)"),
    ("rules only", "the deterministic rules alone, before any repair (shown when a model was used)"),
    ("do-nothing", "the same scenarios with nothing deployed: what an empty output would score"),
)


def provenance_sentence(
    provenance: str | None, references_checked: bool, verified: bool = True, references_method: str | None = None
) -> str:
    """This run's evidence in one sentence: the transcript's provenance, and how inner references
    were resolved (`references_method`, as the CLI, report.md and the unit pages say it)."""
    if not verified:
        return (
            "This run was not verified (migrate without --verify): units were converted and parsed, "
            "nothing was run or compared with Oracle. `migrator verify OUT` judges it."
        )
    if provenance == "oracle":
        head = "Expected outcomes were recorded on a live Oracle, so agreeing units reach G3."
    elif provenance == "authored":
        head = "Expected outcomes were authored by hand (not recorded on Oracle), so no unit goes beyond G2."
    elif provenance == "reference":
        head = "Expected outcomes were recorded on a trusted PostgreSQL port, not on Oracle, so no unit goes beyond G2."
    else:
        head = "There was no Oracle transcript, so no unit could be compared with Oracle."
    if references_method:
        refs = f"Inner references were resolved by {references_method}."
    elif references_checked:  # a report written before the method was recorded
        refs = "Inner references were checked by plpgsql_check."
    else:
        refs = "Inner references were not resolved statically: only the scenarios exercised them."
    return f"{head} {refs}"
