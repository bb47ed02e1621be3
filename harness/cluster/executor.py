"""Executors: where a run's scenarios execute.

`local` (the default) runs them on the engine's own server (`harness.judge.runner.iter_runs`).
`ray[:ADDRESS]` runs them on a Ray cluster (`ray_executor`): Ray is an optional extra
(`pip install 'migrator[cluster]'`), imported only when asked for. The executor rides on the
engine (`ClusterEngine`), so synthesis, recording, verification, regressions and fix cycles — every
path that calls `iter_runs(engine, …)` — use it unchanged, and the template each path deploys on the
driver's engine is what the cluster runs against.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from harness.exceptions import HarnessError


class ExecutorUnavailable(HarnessError):
    """The executor cannot be used (Ray missing, the cluster unreachable, every node lost)."""


class Executor(Protocol):
    name: str

    def open(self) -> None: ...
    def close(self) -> None: ...
    def iter_runs(
        self,
        engine: Any,
        template: str,
        scenarios: Iterable[Any],
        *,
        step_timeout_ms: int,
        parallel: int,
        probe: Callable[[str], str | None] | None,
        shared: Callable[[Any], bool] | None,
        prelude: str | None = None,
    ) -> Iterator[Any]: ...


def executor_from_spec(spec: str | None, **options: Any) -> Executor | None:
    """None for the local executor (`local`, empty); a `RayExecutor` for `ray` / `ray:ADDRESS`.
    An address that cannot be reached is refused here, before any work."""
    if spec in (None, "", "local"):
        return None
    kind, _, address = spec.partition(":")
    if kind != "ray":
        raise ExecutorUnavailable(f"--executor {spec}: use 'local' or 'ray[:ADDRESS]'")
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ExecutorUnavailable(
            "--executor ray needs Ray: pip install 'migrator[cluster]' (or pip install 'ray[default]')"
        ) from None
    if address and address != "auto":
        check_reachable(address)
    from harness.cluster.ray_executor import RayExecutor

    return RayExecutor(address or None, **options)


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """`host:port` or `ray://host:port` must accept a TCP connection within `timeout_s`."""
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ExecutorUnavailable(f"Ray address {address!r}: expected HOST:PORT or ray://HOST:PORT")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        raise ExecutorUnavailable(f"Ray cluster at {address} is unreachable: {exc}") from None


class ClusterEngine:
    """An engine whose scenarios run on `executor`; everything else is the wrapped engine's."""

    def __init__(self, inner: Any, executor: Executor):
        self.inner, self.executor = inner, executor

    @property
    def name(self) -> str:
        return f"{self.inner.name}+{self.executor.name}"

    @property
    def sandbox(self):
        return self.inner.sandbox

    def admin_dsn(self) -> str:
        return self.inner.admin_dsn()

    def dsn(self, database: str) -> str:
        return self.inner.dsn(database)

    def __getattr__(self, item: str):  # anything else an engine offers (e.g. a shared server's notes)
        return getattr(self.inner, item)

    def __enter__(self) -> ClusterEngine:
        self.inner.__enter__()
        try:
            self.executor.open()
        except BaseException:
            self.inner.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.executor.close()
        finally:
            self.inner.__exit__(*exc)
