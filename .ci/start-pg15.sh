#!/usr/bin/env bash
# Start Debian's PostgreSQL 15 (with plpgsql_check) on loopback: the reference-resolution tests and
# the sandbox's "superuser DSN" server. Configured like a real server: the superuser `postgres`
# connects without a password, every other role must authenticate (scram-sha-256), so the tool's
# execution role can open its dblink loopback sessions (PostgreSQL requires a checked password for
# a non-superuser there). Prints the superuser DSN on stdout. Needs root (installs packages, runs
# the server as user postgres).
set -euo pipefail
# A free loopback port unless one is given (a leftover server must not break the run).
PORT="${PG15_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
if ! dpkg -s postgresql-15-plpgsql-check >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-15-plpgsql-check) >&2
fi
BIN=/usr/lib/postgresql/15/bin
DATA="$(mktemp -d /tmp/pg15-ci.XXXXXX)"
chown postgres:postgres "$DATA"
runuser -u postgres -- "$BIN/initdb" -D "$DATA" -A trust -U postgres --encoding=UTF8 >/dev/null
cat > "$DATA/pg_hba.conf" <<'HBA'
local all postgres trust
host  all postgres 127.0.0.1/32 trust
local all all scram-sha-256
host  all all 127.0.0.1/32 scram-sha-256
HBA
runuser -u postgres -- "$BIN/pg_ctl" -D "$DATA" -l "$DATA/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DATA" start >/dev/null
echo "postgresql://postgres@127.0.0.1:$PORT/postgres"
