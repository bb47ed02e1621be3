"""Oracle SQL → PostgreSQL on sqlglot's tree: one module per construct family (`convert` is the
entry point and its rewrite table)."""
