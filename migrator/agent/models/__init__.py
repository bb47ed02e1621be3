"""LLM backends behind one protocol; pick one with `load_model("bedrock:...", cache_dir=...)`."""

from migrator.agent.models.base import (
    Completion,
    ContextWindowExceeded,
    Message,
    Model,
    ModelAccessDenied,
    ModelError,
    ModelNotFound,
    ModelSetupError,
    ModelSpecError,
    ModelThrottled,
    ModelUnavailable,
    ModelValidationError,
)
from migrator.agent.models.bedrock import BedrockModel
from migrator.agent.models.cache import CachedModel
from migrator.agent.models.openai_compat import OpenAICompatModel, Timeouts
from migrator.agent.models.registry import load_model
from migrator.agent.models.replay import RecordingModel, ReplayMiss, ReplayModel
from migrator.agent.models.retry import RetryPolicy
from migrator.agent.models.scripted import ScriptedModel, ScriptRule, load_script
from migrator.agent.models.stored import StoredModel, request_hash, request_payload

__all__ = [
    "BedrockModel",
    "CachedModel",
    "Completion",
    "ContextWindowExceeded",
    "Message",
    "Model",
    "ModelAccessDenied",
    "ModelError",
    "ModelNotFound",
    "ModelSetupError",
    "ModelSpecError",
    "ModelThrottled",
    "ModelUnavailable",
    "ModelValidationError",
    "OpenAICompatModel",
    "RecordingModel",
    "ReplayMiss",
    "ReplayModel",
    "RetryPolicy",
    "ScriptRule",
    "ScriptedModel",
    "StoredModel",
    "Timeouts",
    "load_model",
    "load_script",
    "request_hash",
    "request_payload",
]
