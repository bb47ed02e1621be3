"""Judges of the other tasks: Text-to-SQL (read-only queries, denotation) and SWE (process sandbox, pytest runs)."""
