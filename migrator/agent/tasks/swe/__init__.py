"""SWE tasks (PMCoder, seed `001_*`): SWE-bench-format instances judged by their own tests, and a
phase-planned, memory-assisted repair agent on `migrator.agent`'s loop."""
