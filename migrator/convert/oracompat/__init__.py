"""The `oracompat` support library: SQL functions converted code calls (`support.sql` for the SQL
rules, `runtime.sql` for PL/SQL), deployed once before every unit, with the extensions it needs."""
