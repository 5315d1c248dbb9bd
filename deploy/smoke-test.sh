#!/usr/bin/env bash
# The compose stack as production runs it, built and run with no container registry: Docker from
# Debian when missing, the base images from Debian's packages (deploy/offline-images.sh, kept between
# runs), the project's image, then both replicas behind Caddy on PostgreSQL and Redis. Checks: both
# replicas ready, a sign-in and a question answered through Caddy, one replica stopped (draining on
# SIGTERM, status 0) and the other still answering, a second `up` reusing the database without seeding it again, and the image's size.
# `down -v` at the end, whatever happened. A failure names its step and keeps the daemon's and the
# containers' logs in $SEXTANT_SMOKE_LOGS (default /tmp/sextant-smoke-logs).
#
#   deploy/smoke-test.sh             (as root; run by .ci/run under CI=true)
#   deploy/smoke-test.sh --prepare   only Docker and the base images, then stop (.ci/run makes them
#                                    while its `npm ci` waits on the network)
set -uo pipefail
prepare_only=false
[ "${1:-}" = --prepare ] && prepare_only=true
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
logs=${SEXTANT_SMOKE_LOGS:-/tmp/sextant-smoke-logs}
port=${SEXTANT_SMOKE_PORT:-18080}
image_limit_mb=${SEXTANT_IMAGE_LIMIT_MB:-400}
base="http://127.0.0.1:$port"
rm -rf "$logs"; mkdir -p "$logs"
step=start
started=$(date +%s)

say() { echo "compose smoke: $*"; }
compose() { docker-compose --project-name sextant-smoke --env-file "$logs/smoke.env" -f compose.yaml -f deploy/compose.offline.yaml "$@"; }
keep_logs() {
  [ -f "$logs/smoke.env" ] && compose logs --no-color --timestamps > "$logs/containers.log" 2>&1
  [ -f /var/log/dockerd-smoke.log ] && cp /var/log/dockerd-smoke.log "$logs/dockerd.log"
}
fail() { say "FAILED at step '$step': $*"; keep_logs; say "logs kept in $logs"; exit 1; }
finish() {
  local status=$?
  if [ -f "$logs/smoke.env" ] && docker info > /dev/null 2>&1; then
    [ "$status" -eq 0 ] || keep_logs
    compose down -v --remove-orphans > "$logs/down.log" 2>&1
  fi
  exit "$status"
}
trap finish EXIT
# until SECONDS COMMAND...: the command, again every half second until it succeeds or time is up.
until_ok() { local deadline=$(( $(date +%s) + $1 )); shift; until "$@" > /dev/null 2>&1; do [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 0.5; done; }

step="install docker"
if ! command -v dockerd > /dev/null || ! command -v docker-compose > /dev/null || ! command -v debootstrap > /dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq docker.io docker-compose debootstrap; } > "$logs/apt.log" 2>&1 || fail "apt-get install docker.io docker-compose debootstrap (see apt.log)"
fi
step="start the docker daemon"
if ! docker info > /dev/null 2>&1; then
  (dockerd > /var/log/dockerd-smoke.log 2>&1 &)
  until_ok 60 docker info || fail "dockerd did not answer within 60 s"
fi

step="base images from Debian packages"
deploy/offline-images.sh 2>&1 | tee "$logs/offline-images.log" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "deploy/offline-images.sh (see offline-images.log)"

if [ "$prepare_only" = true ]; then say "Docker and the base images ready in $(( $(date +%s) - started )) s"; exit 0; fi

step="build the image"
say "building the image"
# A machine behind a TLS-intercepting proxy names the proxy's authority in the system's local CAs: the
# build stage trusts them the documented way (deploy/build-ca/, never in the image that runs).
for ca in /usr/local/share/ca-certificates/*.crt; do [ ! -f "$ca" ] || cp "$ca" "deploy/build-ca/host-$(basename "$ca")"; done
# The better-sqlite3 binary .ci/run's `npm ci` compiled and kept, offered to the image's `npm ci`
# (deploy/build-prebuilds/README): the image's Node.js has the host's ABI (both Node.js 20), and one that
# does not load is compiled as before. Compiling SQLite again took minutes of the suite's cores.
for kept in "${XDG_CACHE_HOME:-$HOME/.cache}"/sextant-ci/prebuilds/better-sqlite3-*.tar.gz; do [ ! -f "$kept" ] || cp "$kept" deploy/build-prebuilds/; done
docker build --build-arg BASE_IMAGE=sextant-offline/node:trixie --build-arg BUILD_IMAGE=sextant-offline/node-build:trixie \
  -t sextant:latest . > "$logs/build.log" 2>&1 || { tail -n 40 "$logs/build.log"; fail "docker build (see build.log)"; }
size_mb=$(docker image inspect -f '{{.Size}}' sextant:latest | awk '{printf "%d", $1/1e6}')
say "image sextant:latest is $size_mb MB"
[ "$size_mb" -le "$image_limit_mb" ] || fail "the image is $size_mb MB, over $image_limit_mb MB"

step="first up"
secret() { head -c 32 /dev/urandom | base64 | tr -d '/+=' ; }
cat > "$logs/smoke.env" <<ENV
POSTGRES_PASSWORD=$(secret)
SEXTANT_JWT_SECRET=$(secret)$(secret)
SEXTANT_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
SEXTANT_COOKIE_KEYS=$(secret)
SEXTANT_BASE_URL=$base
SEXTANT_HTTP_PORT=$port
SEXTANT_SEED_DEMO=true
ENV
compose down -v --remove-orphans > /dev/null 2>&1
compose up -d --no-build > "$logs/up.log" 2>&1 || fail "compose up (see up.log)"
ready() { curl -fsS "$base/api/ready" > /dev/null; }
replica_ready() { compose exec -T "$1" node -e "fetch('http://127.0.0.1:8080/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; }
until_ok 240 ready || fail "$base/api/ready not ok within 240 s"
for r in sextant-a sextant-b; do until_ok 120 replica_ready "$r" || fail "$r not ready"; done
say "both replicas ready behind Caddy"

step="sign in and ask through Caddy"
sign_in() {
  curl -fsS "$base/api/auth/token" -H 'content-type: application/json' \
    -d '{"username":"analyst@demo.sextant.local","password":"demo-analyst-password"}' \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).access_token))'
}
# ask CHAT_ID: the answer's event stream through Caddy ends with a completed event.
ask() {
  curl -fsSN --max-time 120 "$base/api/agentic/stream" -H "authorization: Bearer $token" -H 'content-type: application/json' \
    -d "{\"chat_id\":\"$1\",\"message\":\"total revenue by country in 2024\"}" > "$logs/answer-$1.sse" \
    && grep -q '^event: completed' "$logs/answer-$1.sse"
}
token=$(sign_in) && [ -n "$token" ] || fail "sign-in as the demo analyst"
ask smoke-first || fail "a question through Caddy (see answer-smoke-first.sse)"
say "signed in and answered through Caddy"

step="one replica stopped"
compose stop sextant-a > /dev/null 2>&1 || fail "compose stop sextant-a"
# SIGTERM drains and the server ends by itself (status 0), before compose's grace period would kill it.
code=$(docker inspect -f '{{.State.ExitCode}}' "$(compose ps -q sextant-a)") || fail "inspect sextant-a"
[ "$code" = 0 ] || fail "sextant-a ended with status $code on SIGTERM"
ask smoke-one-replica || fail "a question with sextant-a stopped (see answer-smoke-one-replica.sse)"
for i in 1 2 3 4 5 6; do curl -fsS "$base/api/health" > /dev/null || fail "health request $i with sextant-a stopped"; done
say "sextant-b answers alone"

step="second up reuses the database"
compose down > "$logs/down-keep.log" 2>&1 || fail "compose down (volumes kept)"
compose up -d --no-build > "$logs/up-again.log" 2>&1 || fail "second compose up (see up-again.log)"
until_ok 240 ready || fail "$base/api/ready not ok within 240 s after the second up"
token=$(sign_in) && [ -n "$token" ] || fail "sign-in after the second up"
curl -fsS "$base/api/chat_history" -H "authorization: Bearer $token" | grep -q smoke-first || fail "the first run's chat is gone after the second up"
if compose logs --no-color | grep -q 'seeded the demo'; then fail "the second up seeded the demo again"; fi
say "the second up kept the data and did not seed again"

step=done
say "passed in $(( $(date +%s) - started )) s"
