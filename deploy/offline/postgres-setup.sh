# The server's own programs (initdb, pg_ctl, postgres, pg_isready) on PATH, as in the official image;
# no cluster from the package's install: the entrypoint makes one in $PGDATA on first start.
set -e
for f in /usr/lib/postgresql/*/bin/*; do ln -sf "$f" /usr/local/bin/; done
rm -rf /var/lib/postgresql/*/main /etc/postgresql/*/main
mkdir -p /var/lib/postgresql/data /run/postgresql
chown -R postgres:postgres /var/lib/postgresql /run/postgresql
