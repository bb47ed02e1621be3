"""Statement and branch coverage of deployed PL/pgSQL routines, measured by running probes in a copy."""
