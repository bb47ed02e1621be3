"""Execution and judgement: PostgreSQL/Oracle engines, scenarios, verdicts, fix gates. Knows nothing of LLMs."""
