"""Reference resolution, what a PL/pgSQL body really references: plpgsql_check, or pglast + PREPARE."""
