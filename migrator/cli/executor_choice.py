"""`--executor` and `--cluster-dsn` (or the settings file's harness.executor / cluster_dsns) → the
executor every command that runs scenarios hands to its engine. Checked before any work: Ray
missing or a cluster address that does not answer is a usage error (exit 2)."""

from __future__ import annotations

from typing import Any


def chosen_executor(args, settings=None) -> Any:
    """None (local) or an executor object (not opened yet: the engine opens it)."""
    from harness.cluster.executor import executor_from_spec
    from harness.engines.postgres import check_dsn

    harness = getattr(settings, "harness", None)
    spec = getattr(args, "executor", None) or (harness.executor if harness is not None else None) or "local"
    pool = list(getattr(args, "cluster_dsn", None) or (harness.cluster_dsns if harness is not None else []))
    for dsn in pool:
        check_dsn(dsn)
    if spec == "local":
        if pool:
            from migrator.errors import MigratorError

            raise MigratorError("--cluster-dsn needs --executor ray[:ADDRESS]")
        return None
    return executor_from_spec(spec, dsn_pool=tuple(pool))
