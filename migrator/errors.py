"""The one base for user errors in the migrator: what the command line reports as bad usage.

A user error is about what the user gave us — arguments, a source folder, an output folder,
settings, a rule id, a model spec, a knowledge base — and its message says what is wrong and
where. `migrator.cli.main` prints it without a traceback and exits 2; it treats
`harness.exceptions.HarnessError` (servers, scenario/transcript/baseline/fix-cycle files, fix-cycle
gates) alike, since `harness` may not import this module. Any other exception that reaches the
command line is a bug: it is printed with its traceback and a request to report it, exit 3 — so
an internal ValueError is never mistaken for the user's fault.
"""

from __future__ import annotations


class MigratorError(Exception):
    """A problem with the migrator's input or environment; the message says what and where."""
