#!/bin/sh
# As the official redis image: the server runs as the redis user and, having no password, with
# protected mode off, so the other containers on the compose network can reach it (nothing publishes
# its port outside that network).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  if [ "$(id -u)" = 0 ]; then exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no "$@"; fi
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
