"""The SWE run's manifest: everything that decides a result — model, arm, budgets, prompt version
and hash, every threshold of the planner, stuck detection and memory, the knowledge base's
embedder and configuration, the sandbox — so a figure can be traced to what produced it."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

from migrator.agent.tasks.swe import memory
from migrator.agent.tasks.swe.prompts import PROMPT_VERSION, template_hash

MANIFEST = "run_manifest.json"


def write_manifest(cfg, run_id: str, agent_cfg, report, kb, isolation: str, note: str) -> None:
    settings = cfg.settings
    manifest = {
        "run_id": run_id,
        "written_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "config": json.loads(cfg.model_dump_json()),
        "arm": settings.arm,
        "prompt_version": PROMPT_VERSION,
        "prompt_hash": template_hash(),
        "budget": {
            "max_steps": agent_cfg.attempts,
            "temperature": agent_cfg.temperature,
            "max_tokens": agent_cfg.max_tokens,
            "history_steps": settings.history_steps,
            "retrieval_k": list(agent_cfg.retrieval_k or ()),
        },
        "planner": dataclasses.asdict(settings.planning) if settings.planner else None,
        "stuck": dataclasses.asdict(settings.stuck) if settings.planner else None,
        "memory": _memory_settings() if settings.memory else None,
        "knowledge_base": str(kb.root) if kb is not None else None,
        "embedder": kb.embedder_name if kb is not None else None,
        "kb_thresholds": kb.config.model_dump(mode="json") if kb is not None else None,
        "sandbox": {"isolation": isolation, "note": note},
        "model_error": report.model_error,
        "instances": [
            {
                "instance_id": r.instance_id,
                "steps": r.steps,
                "calls": r.calls,
                "tokens": r.tokens,
                "seconds": r.seconds,
                "agent": r.agent,
                "judge": r.judge_status,
                "error": r.error,
            }
            for r in report.instances
        ],
    }
    (cfg.out / MANIFEST).write_text(json.dumps(manifest, indent=2, default=str), encoding="utf-8")


def _memory_settings() -> dict:
    return {
        "lambda": memory.LAMBDA,
        "node_cap_chars": memory.NODE_CAP,
        "beam_width": memory.BEAM_WIDTH,
        "max_items": memory.MAX_ITEMS,
        "min_relevance": memory.MIN_RELEVANCE,
        "default_policy": memory.DEFAULT_POLICY,
        "phase_policy": memory.PHASE_POLICY,
    }
