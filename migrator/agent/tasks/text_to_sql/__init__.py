"""Text-to-SQL on the one episode loop (MERIT): Spider/BIRD data, execution judge, failure
classifier, repair prompts, the compared memory systems, and the run with its report.

Modules: data (loading, per-entry validation, building fixture databases), hardness (Spider's
difficulty levels), judge (execution and denotation match, via harness.tasks.readonly_sql/denotation),
score (prediction files), classify (failure types from observable feedback), schema_text, prompts,
task (the loop's adapter), systems (iterative, dynamic RAG, MERIT, Reflexion-style), initial (the
shared cached first predictions), records (manifest, episodes, files), run (one system over one
stream order, resumable), report (the comparison).

The execution judge sits in harness because it is generic and LLM-free (read-only execution and
result comparison); everything that knows about benchmarks, prompts or models is here.
"""
