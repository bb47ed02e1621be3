"""Oracle → PostgreSQL migration agent: read, split, convert, verify."""
