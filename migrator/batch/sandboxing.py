"""How the batch job meets the harness's sandbox: engines with the extensions converted code
needs, and what the sandbox could not provide, reported once per run and on each unit it affects."""

from __future__ import annotations

from typing import Any

from harness.engines.postgres import PostgresEngine, engine_from_spec
from migrator.batch.output import required_extensions
from migrator.batch.report import SandboxSummary

# What in a unit's output needs an extension, and the construct it serves (for the unit's note).
_USES = {"dblink": ("dblink", "PRAGMA AUTONOMOUS_TRANSACTION (a dblink loopback session)")}


def open_engine(spec: str | None, executor: Any = None) -> PostgresEngine:
    """The engine for `spec`; its admin installs the support library's extensions into every
    fresh scratch database, so converted code never needs the rights to do it. With `executor`
    (`ray[:ADDRESS]`), its scenarios run on that cluster (harness.cluster); an unreachable cluster
    is refused here, before any work."""
    engine = engine_from_spec(spec, required_extensions())
    if executor in (None, "", "local"):
        return engine
    from harness.cluster.executor import ClusterEngine, executor_from_spec

    # a spec string, or an executor object a library caller (a test, a benchmark) made itself
    chosen = executor_from_spec(executor, extensions=required_extensions()) if isinstance(executor, str) else executor
    return engine if chosen is None else ClusterEngine(engine, chosen)  # type: ignore[return-value]


def sandbox_summary(engine: PostgresEngine) -> SandboxSummary:
    role = engine.sandbox.role
    return SandboxSummary(
        execution_role=role.name if role else "",
        dedicated=bool(role and role.dedicated),
        notes=list(engine.sandbox.notes),
    )


def affected_note(output: str, notes: list[str]) -> str | None:
    """The note for a unit whose output needs something the sandbox reported as missing."""
    for ext, (marker, construct) in _USES.items():
        missing = [n for n in notes if ext in n]
        if missing and marker in output:
            return f"{construct} cannot run here: {missing[0]}"
    return None
