"""Text-to-SQL on the one episode loop (MERIT): Spider/BIRD data, execution judge, failure
classifier, repair prompts, the compared memory systems, and the run with its report.

Modules: data (loading, validation, building fixture databases), judge (execution, denotation),
score (prediction files), classify (failure types), prompts, task (the loop's adapter), systems
(iterative, dynamic RAG, MERIT, Reflexion-style), initial (the shared cached first predictions),
run (a system over a stream order, resumable), report.
"""
