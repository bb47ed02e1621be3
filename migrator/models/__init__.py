"""LLM backends behind one protocol; pick one with `load_model("bedrock:...", cache_dir=...)`."""

from migrator.models.base import (
    Completion, ContextWindowExceeded, Message, Model, ModelAccessDenied, ModelError, ModelNotFound,
    ModelSetupError, ModelThrottled, ModelUnavailable, ModelValidationError,
)
from migrator.models.bedrock import BedrockModel
from migrator.models.cache import CachedModel, request_hash, request_payload
from migrator.models.openai_compat import OpenAICompatModel, Timeouts
from migrator.models.registry import load_model
from migrator.models.replay import RecordingModel, ReplayMiss, ReplayModel
from migrator.models.retry import RetryPolicy
from migrator.models.scripted import ScriptedModel, ScriptRule, load_script

__all__ = [
    "BedrockModel", "CachedModel", "Completion", "ContextWindowExceeded", "Message", "Model",
    "ModelAccessDenied", "ModelError", "ModelNotFound", "ModelSetupError", "ModelThrottled", "ModelUnavailable",
    "ModelValidationError", "OpenAICompatModel", "RecordingModel", "ReplayMiss", "ReplayModel",
    "RetryPolicy", "ScriptRule", "ScriptedModel", "Timeouts", "load_model", "load_script",
    "request_hash", "request_payload",
]
