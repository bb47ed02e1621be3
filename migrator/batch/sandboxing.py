"""How the batch job meets the harness's sandbox: engines with the extensions converted code
needs, and what the sandbox could not provide, reported once per run and on each unit it affects."""

from __future__ import annotations

from harness.engines.postgres import PostgresEngine, engine_from_spec
from migrator.batch.output import required_extensions
from migrator.batch.report import SandboxSummary

# What in a unit's output needs an extension, and the construct it serves (for the unit's note).
_USES = {"dblink": ("dblink", "PRAGMA AUTONOMOUS_TRANSACTION (a dblink loopback session)")}


def open_engine(spec: str | None) -> PostgresEngine:
    """The engine for `spec`; its admin installs the support library's extensions into every
    fresh scratch database, so converted code never needs the rights to do it."""
    return engine_from_spec(spec, required_extensions())


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
