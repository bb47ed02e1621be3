"""Model specs → models. One string picks the backend, so CLI flags and run manifests stay plain.

    bedrock:<modelId>[?region=<r>&profile=<p>]
    openai:<base_url>#<model>              e.g. openai:http://gpu-host:8000/v1#Qwen/Qwen2.5-Coder-32B
    replay:<file.jsonl>
    scripted  |  scripted:<file.yaml>

With a cache_dir every backend is wrapped in the on-disk response cache; with record_to every
call the run makes is also appended to a replay file.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from urllib.parse import parse_qs

from migrator.agent.models.base import Model, ModelSetupError, ModelSpecError, missing_extra
from migrator.agent.models.bedrock import BedrockModel
from migrator.agent.models.cache import CachedModel
from migrator.agent.models.openai_compat import OpenAICompatModel
from migrator.agent.models.replay import RecordingModel, ReplayModel
from migrator.agent.models.retry import RetryPolicy
from migrator.agent.models.scripted import ScriptedModel, load_script

SCHEMES = ("bedrock", "openai", "replay", "scripted")
# the package a network backend imports at its first call (the `llm` extra)
_EXTRA_PACKAGES = {"bedrock": "boto3", "openai": "httpx"}
_BEDROCK_OPTIONS = {"region", "profile"}


def load_model(
    spec: str,
    *,
    cache_dir: Path | None,
    record_to: Path | None = None,
    retry: RetryPolicy | None = None,
) -> Model:
    """The model a spec names; a spec that names none raises ModelSpecError (loading makes no call)."""
    try:
        model = _backend(spec.strip(), retry)
    except ValueError as exc:  # a backend's own check of its arguments (an empty model id, a URL)
        raise ModelSpecError(f"model spec {spec!r}: {exc}") from None
    if cache_dir is not None:
        model = CachedModel(model, Path(cache_dir))
    if record_to is not None:
        # Outside the cache, so the recording holds every answer the run saw, hits included.
        model = RecordingModel(model, Path(record_to))
    return model


def missing_backend_package(spec: str) -> ModelSetupError | None:
    """The error a spec's backend would raise at its first call for want of its package, found
    without calling it (a run learns it before any work, not after converting and judging)."""
    scheme = spec.strip().partition(":")[0]
    package = _EXTRA_PACKAGES.get(scheme)
    if package is None or importlib.util.find_spec(package) is not None:
        return None
    return missing_extra(package, scheme, spec)


def _backend(spec: str, retry: RetryPolicy | None) -> Model:
    scheme, sep, rest = spec.partition(":")
    if scheme == "scripted":
        return load_script(Path(rest), name=spec) if rest else ScriptedModel(name=spec)
    if not sep or not rest:
        raise ModelSpecError(f"model spec {spec!r}: expected one of {', '.join(s + ':...' for s in SCHEMES)}")
    if scheme == "bedrock":
        return _bedrock(spec, rest, retry)
    if scheme == "openai":
        base_url, _, model = rest.partition("#")
        if not model:
            raise ModelSpecError(f"model spec {spec!r}: expected openai:<base_url>#<model>")
        return OpenAICompatModel(base_url, model, name=spec, retry=retry)
    if scheme == "replay":
        return ReplayModel(Path(rest), name=spec)
    raise ModelSpecError(f"model spec {spec!r}: unknown backend {scheme!r} (known: {', '.join(SCHEMES)})")


def _bedrock(spec: str, rest: str, retry: RetryPolicy | None) -> BedrockModel:
    model_id, _, query = rest.partition("?")
    options = {k: v[-1] for k, v in parse_qs(query, strict_parsing=bool(query)).items()}
    unknown = set(options) - _BEDROCK_OPTIONS
    if unknown:
        known = sorted(_BEDROCK_OPTIONS)
        raise ModelSpecError(f"model spec {spec!r}: unknown option(s) {sorted(unknown)} (known: {known})")
    return BedrockModel(model_id, name=spec, region=options.get("region"), profile=options.get("profile"), retry=retry)
