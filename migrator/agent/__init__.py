"""Step 4: the repair agent: the task-agnostic episode loop (`loop`), its run over a schema (`run`),
task adapters (`tasks/`) and LLM backends (`models/`)."""
