"""The evaluation config (`migrator eval run CONFIG.yaml`): data, model, budget, systems, orders.

Paths in the file are relative to the file. A system is a name from `SYSTEMS` or a mapping that
names an ablation of the memory agent, e.g. `{name: agent-memory-untyped, memory: true, typed:
false}`. Everything the run used is written into `eval.json` beside the results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from harness.exceptions import validation_reasons
from migrator.errors import MigratorError

BASELINES = ("M0", "M1", "M2", "M3")
BASELINE_TEXT = {
    "M0": "empty output",
    "M1": "source unchanged",
    "M2": "accepted output of the most similar training unit (TF-IDF cosine on the source)",
    "M3": "accepted output of a random training unit",
}


class EvalConfigError(MigratorError):
    """The evaluation config cannot be used."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SystemSpec(_Frozen):
    """One row of the comparison. kind: baseline (M0-M3), initial (rules-only / the shared initial
    prediction), agent (the repair loop, with or without memory, and its ablations)."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
    kind: Literal["baseline", "initial", "agent"] = "agent"
    memory: bool = False
    typed: bool = True  # failure-type conditioning of retrieval
    negatives: bool = True  # write and retrieve failed directions
    k_positive: int | None = Field(None, ge=0)
    k_negative: int | None = Field(None, ge=0)
    mmr_lambda: float | None = Field(0.7, ge=0, le=1)  # None: MMR off (an ablation)
    # what fills the repair prompt's memory section: "fixed" (the store's typed retrieval), "bandit"
    # (the LinUCB retrieval controller) or one of its arms, "arm:none|failure|structure|skill|mix"
    retrieval: str = Field("fixed", pattern=r"^(fixed|bandit|arm:(none|failure|structure|skill|mix))$")

    @model_validator(mode="after")
    def _controller_needs_memory(self) -> SystemSpec:
        if self.retrieval != "fixed" and not self.memory:
            raise ValueError(f"system {self.name}: retrieval {self.retrieval} needs memory: true")
        return self

    @property
    def model_free(self) -> bool:
        return self.kind in ("baseline", "initial")


SYSTEMS = {
    **{m: SystemSpec(name=m, kind="baseline") for m in BASELINES},
    "rules-only": SystemSpec(name="rules-only", kind="initial"),
    "initial": SystemSpec(name="initial", kind="initial"),
    "agent-no-memory": SystemSpec(name="agent-no-memory", kind="agent", memory=False),
    "agent-memory": SystemSpec(name="agent-memory", kind="agent", memory=True),
    "agent-bandit": SystemSpec(name="agent-bandit", kind="agent", memory=True, retrieval="bandit"),
    **{
        f"agent-arm-{arm}": SystemSpec(name=f"agent-arm-{arm}", kind="agent", memory=True, retrieval=f"arm:{arm}")
        for arm in ("none", "failure", "structure", "skill", "mix")
    },
}
DEFAULT_SYSTEMS = ("M0", "M1", "M2", "M3", "rules-only", "agent-no-memory", "agent-memory")


class SplitSpec(_Frozen):
    test_share: float = Field(0.4, gt=0, lt=1)
    seed: int = 1
    grouped: bool = True  # False only to show what the leakage audit catches
    group_by: tuple[Literal["reference", "expected_output"], ...] = ("reference", "expected_output")


class StatsSpec(_Frozen):
    resamples: int = Field(10_000, ge=100)
    seed: int = 1
    sei: float = Field(2.0, ge=0, description="smallest effect of interest, in points")
    confidence: float = Field(0.95, gt=0.5, lt=1)


class PlsqlData(_Frozen):
    schema_dir: Path = Field(alias="schema")
    scenarios: Path
    transcript: Path
    reference: Path | None = None  # YAML map unit id -> trusted PostgreSQL text
    disabled_rules: tuple[str, ...] = ()
    engine: str = "embedded"  # embedded, testcontainers, or a DSN

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class TextToSqlData(_Frozen):
    data: Path
    split: str = "dev"
    limit: int | None = Field(None, ge=1)
    max_tokens: int = Field(1024, ge=1)


class SweData(_Frozen):
    instances: Path
    repos: Path
    max_steps: int = Field(40, ge=1)
    per_test_timeout_s: float = Field(60.0, gt=0)
    isolation: str = "namespaces"
    env_cache: Path | None = None  # default: OUT/envs (one virtualenv per repository, built once)
    offline: bool = False  # build the environments without downloads (seed distributions copied in)
    seed: tuple[str, ...] = ()  # distributions copied from this interpreter into each environment
    repro_dir: Path | None = None  # offline reproduction scripts (<dir>/<id>.py)


class EvalConfig(_Frozen):
    task: Literal["plsql", "text_to_sql", "swe"]
    title: str = ""
    data: PlsqlData | TextToSqlData | SweData
    model: str = Field(min_length=1)
    attempts: int = Field(3, ge=1, description="repair budget K per unit")
    embedder: str | None = None  # for the memory stores: hashing | minilm | bge-m3:<dir>; None: auto
    systems: tuple[SystemSpec, ...] = tuple(SYSTEMS[s] for s in DEFAULT_SYSTEMS)
    orders: tuple[int, ...] = (0, 1, 2)
    repeats: int = Field(1, ge=1)
    split: SplitSpec = SplitSpec()
    statistics: StatsSpec = StatsSpec()
    checkpoints: int = Field(4, ge=1, description="memory snapshots over each stream (monitor figures)")
    contrasts: tuple[tuple[str, str], ...] = ()  # extra (a, b) pairs beyond the default ones

    @field_validator("systems", mode="before")
    @classmethod
    def _systems(cls, value):
        out = []
        for item in value or ():
            if isinstance(item, str):
                if item not in SYSTEMS:
                    raise ValueError(f"unknown system {item!r} (known: {', '.join(SYSTEMS)}; or a mapping)")
                out.append(SYSTEMS[item])
            else:
                out.append(item)
        return out

    @model_validator(mode="after")
    def _check(self) -> EvalConfig:
        names = [s.name for s in self.systems]
        if len(set(names)) != len(names):
            raise ValueError("system names must be unique")
        if not self.orders:
            raise ValueError("at least one stream order")
        for a, b in self.contrasts:
            if a not in names or b not in names:
                raise ValueError(f"contrast {a} - {b}: both must be systems of this config")
        expected = {"plsql": PlsqlData, "text_to_sql": TextToSqlData, "swe": SweData}[self.task]
        if not isinstance(self.data, expected):
            raise ValueError(f"task {self.task} needs data fields of {expected.__name__}")
        return self


def _resolve(value, base: Path):
    return value if value is None or Path(value).is_absolute() else (base / value)


def _resolve_model(spec: str, base: Path) -> str:
    """scripted:<file> and replay:<file> name files relative to the config when they exist there."""
    scheme, sep, rest = spec.partition(":")
    if sep and scheme in ("scripted", "replay") and rest and not Path(rest).is_absolute():
        if (base / rest).exists():
            return f"{scheme}:{base / rest}"
    return spec


def load_config(path: Path) -> EvalConfig:
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise EvalConfigError(f"{path}: cannot read: {exc}") from None
    if not isinstance(raw, dict):
        raise EvalConfigError(f"{path}: expected a mapping")
    base = Path(path).resolve().parent
    data = dict(raw.get("data") or {})
    for key in (
        "schema",
        "scenarios",
        "transcript",
        "reference",
        "data",
        "instances",
        "repos",
        "env_cache",
        "repro_dir",
    ):
        if data.get(key) is not None:
            data[key] = _resolve(data[key], base)
    kinds: dict[str, type[PlsqlData | TextToSqlData | SweData]] = {
        "plsql": PlsqlData,
        "text_to_sql": TextToSqlData,
        "swe": SweData,
    }
    model = kinds.get(str(raw.get("task")))
    try:
        parsed = model.model_validate(data) if model else data
        cfg = EvalConfig.model_validate(
            {**raw, "data": parsed, "model": _resolve_model(str(raw.get("model", "")), base)}
        )
    except ValidationError as exc:
        raise EvalConfigError(f"{path}: {validation_reasons(exc)}") from None
    return cfg
