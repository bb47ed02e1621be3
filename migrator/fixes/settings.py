"""The active, versioned settings a reviewer changes only through fix cycles.

One YAML file (`--settings PATH`): which rules are switched off, the active prompt paragraphs for
the LLM translator, and harness settings. Every promoted fix cycle rewrites it with a higher
`version` and records which cycle did it, so a run's report can name the settings it used.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from harness.exceptions import validation_reasons
from migrator.convert.registry import check_rule_ids
from migrator.errors import MigratorError


class SettingsError(MigratorError):
    """The settings file cannot be used: unreadable, not YAML, or not valid settings."""


class PromptParagraph(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    text: str
    added_by: str  # fix cycle id that promoted it


class HarnessSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    step_timeout_ms: int = Field(default=5000, ge=100, le=600_000)
    # where scenarios run: "local", or "ray" / "ray:ADDRESS" (a Ray cluster; harness.cluster), and
    # the PostgreSQL servers its nodes use (one DSN per node; none: an embedded server per node)
    executor: str = Field(default="local", pattern=r"^(local|ray(:.+)?)$")
    cluster_dsns: list[str] = []


class ActiveSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = 0
    disabled_rules: list[str] = []
    prompt_paragraphs: list[PromptParagraph] = []
    harness: HarnessSettings = HarnessSettings()
    history: list[str] = []  # "v3: FIX-002 promote (rule expr.nvl enabled)" ...

    @field_validator("disabled_rules")
    @classmethod
    def _known_rules(cls, ids: list[str]) -> list[str]:
        check_rule_ids(ids)
        return ids


def load_settings(path: Path | None) -> ActiveSettings:
    if path is None or not path.exists():
        return ActiveSettings()
    import yaml  # only when there is a settings file to read

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise SettingsError(f"settings {path}: cannot read: {exc}") from None
    try:
        return ActiveSettings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(f"settings {path}: {validation_reasons(exc)}") from None


def save_settings(path: Path, settings: ActiveSettings) -> None:
    import yaml

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(yaml.safe_dump(settings.model_dump(), sort_keys=False, allow_unicode=True), encoding="utf-8")
    tmp.replace(path)
