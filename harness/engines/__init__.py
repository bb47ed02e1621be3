"""PostgreSQL and Oracle engines, the reaper of killed embedded servers, and the least-privilege sandbox inside PostgreSQL (execution role, scratch databases)."""
