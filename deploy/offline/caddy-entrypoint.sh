#!/bin/sh
# Debian's Caddy (2.6.2) predates the reverse proxy's `request_buffers <size>` (Caddy 2.6.4), which
# deploy/Caddyfile uses so that a request with a body can be retried on the other replica. Its older
# spelling, `buffer_requests` (no size), does the same: the Caddyfile named after --config is read
# through that translation. Everything else runs as given.
set -eu
next_is_config=false
for arg do
  shift
  if [ "$next_is_config" = true ]; then
    sed 's/^\([[:space:]]*\)request_buffers[[:space:]].*$/\1buffer_requests/' "$arg" > /tmp/Caddyfile
    arg=/tmp/Caddyfile
    next_is_config=false
  elif [ "$arg" = --config ]; then
    next_is_config=true
  fi
  set -- "$@" "$arg"
done
exec "$@"
