#!/bin/sh
# The parts of the official postgres image's entrypoint that compose relies on: a first start creates
# the cluster in $PGDATA with POSTGRES_USER (superuser, password POSTGRES_PASSWORD), POSTGRES_DB and
# POSTGRES_INITDB_ARGS, and other hosts may connect with that password; every start runs the server
# as the postgres user.
set -eu
if [ "${1:-}" != postgres ]; then exec "$@"; fi
: "${PGDATA:=/var/lib/postgresql/data}"
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown -R postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of arguments, as in the official image
  initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 ${POSTGRES_INITDB_ARGS:-}
  rm -f "$pwfile"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    # The set-up server listens only on a private socket, so a health check sees no server until the real one starts.
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/tmp" -w start
    psql -v ON_ERROR_STOP=1 --host=/tmp --username="$user" --dbname=postgres -c "CREATE DATABASE \"$db\""
    pg_ctl -D "$PGDATA" -m fast -w stop
  fi
fi
shift
exec postgres -D "$PGDATA" -c listen_addresses="*" "$@"
