"""Task adapters of `migrator eval`: what the units are, their reference keys, a causal stream
order per seed, and one run of one system over a stream (judged by the task's own judge)."""

from __future__ import annotations

from migrator.eval.adapters.base import Adapter, Probe, RunSpec, UnitResult

__all__ = ["Adapter", "Probe", "RunSpec", "UnitResult", "open_adapter"]


def open_adapter(cfg, out) -> Adapter:
    """The adapter for the config's task (imported lazily: each pulls its own stack)."""
    if cfg.task == "plsql":
        from migrator.eval.adapters.plsql import PlsqlAdapter

        return PlsqlAdapter(cfg.data, out)
    if cfg.task == "text_to_sql":
        from migrator.eval.adapters.text_to_sql import TextToSqlAdapter

        return TextToSqlAdapter(cfg, out)
    from migrator.eval.adapters.swe import SweAdapter

    return SweAdapter(cfg, out)
