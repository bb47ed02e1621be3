"""Where scenarios run: on this machine (the default) or on a Ray cluster.

- `executor`: the `Executor` protocol, the local executor, `executor_from_spec("local" | "ray[:ADDRESS]")`
  and `ClusterEngine` (an engine that carries its executor, so every path that runs scenarios —
  synthesis, recording, verification, regressions, fix cycles — uses it without new parameters);
- `template_image`: a deployed template as bytes (pg_dump without owners or grants, plus its
  database settings) and its restore into another server's sandbox;
- `shards`: scenarios grouped by the units they judge and balanced by expected cost;
- `ray_executor`: one actor per Ray node, each with its own PostgreSQL and sandbox.
"""
