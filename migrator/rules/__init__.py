"""Deterministic Oracle → PostgreSQL rewrites, one module per construct family."""
