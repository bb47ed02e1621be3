# PostgreSQL 15 with the plpgsql_check extension (Debian package), so that the harness can resolve
# inner references of PL/pgSQL bodies statically.
FROM postgres:15-bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15-plpgsql-check \
 && rm -rf /var/lib/apt/lists/*
