"""`migrator eval`: does memory make the agent better? The seed paper's protocol as one command.

Modules: config (the YAML an evaluation is described by), split (reference-grouped splits and the
leakage audit), baselines (M0-M3), stats (paired group bootstrap, exact McNemar with Holm,
interval verdicts, learning-curve bands), memory (a system's view of its store, checkpoints and
the monitor, the memory side of the audit), runner (every system over every stream order),
figures and report (PNG, eval.json, eval.md, eval.html), fixture (the templated PL/SQL schema
that checks the protocol itself); adapters/ holds one adapter per task (plsql, text_to_sql, swe).
"""
