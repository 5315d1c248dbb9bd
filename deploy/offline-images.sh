#!/usr/bin/env bash
# Base images for building and running Sextant where no container registry is reachable: made from
# Debian's packages with debootstrap and imported with `docker import`, so the only network needed is
# a Debian mirror (or a local copy of one). Images (tag: the Debian suite):
#   sextant-offline/node-build  Node.js, npm and a compiler (for native modules): the image's build stage
#   sextant-offline/node        Node.js alone: the image's run stage
#   sextant-offline/postgres    PostgreSQL, with an entrypoint that reads POSTGRES_USER/_PASSWORD/_DB/_INITDB_ARGS
#   sextant-offline/redis       Redis, reachable from the other containers
#   sextant-offline/caddy       Caddy, the proxy in front of the replicas
# An image that already exists with the same recipe (a hash of what goes into it) is kept, so a
# second run takes seconds. Use with compose: see deploy/compose.offline.yaml and docs/production.md.
#
#   deploy/offline-images.sh [--suite trixie] [--mirror http://deb.debian.org/debian] [--force]
#
# Needs: root (debootstrap and chroot), docker, debootstrap.
set -euo pipefail

suite=trixie
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
force=false
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --mirror) mirror=$2; shift 2 ;;
    --force) force=true; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "offline-images: unknown argument $1" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
work=${SEXTANT_OFFLINE_WORK:-/var/tmp/sextant-offline-images}
mkdir -p "$work"

# An image's recipe: what goes into it (suite, packages, image settings, its own files from deploy/offline).
recipe_of() {
  local f
  { printf '%s\n' "$RECIPE_VERSION" "$suite" "$@"; for f in "$here/offline/$1-setup.sh" "$here/offline/$1-entrypoint.sh"; do [ ! -f "$f" ] || cat "$f"; done; } \
    | sha256sum | cut -c1-16
}
# Bump when build() changes what it makes of the same inputs.
RECIPE_VERSION=1
have_image() {
  [ "$force" = false ] && [ "$(docker image inspect -f '{{index .Config.Labels "sextant.recipe"}}' "$1:$suite" 2>/dev/null)" = "$2" ]
}

# One minimal Debian tree, made once per suite and mirror and copied for each image.
base_tree() {
  local tree
  tree=$work/base-$suite-$(printf '%s' "$mirror" | sha256sum | cut -c1-8)
  if [ ! -f "$tree/.complete" ]; then
    rm -rf "$tree"
    echo "offline-images: debootstrap $suite from $mirror" >&2
    debootstrap --variant=minbase --include=ca-certificates "$suite" "$tree" "$mirror" > "$work/debootstrap.log" 2>&1 \
      || { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
    # Images never start services at install time, and keep no documentation.
    printf '#!/bin/sh\nexit 101\n' > "$tree/usr/sbin/policy-rc.d"; chmod +x "$tree/usr/sbin/policy-rc.d"
    cat > "$tree/etc/dpkg/dpkg.cfg.d/01-slim" <<'CFG'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
CFG
    touch "$tree/.complete"
  fi
  echo "$tree"
}

# build NAME "packages" [docker import --change ...]: a copy of the base tree with the packages and
# the image's own files from deploy/offline/NAME.*, imported as sextant-offline/NAME:SUITE.
build() {
  local name=$1 packages=$2; shift 2
  local image=sextant-offline/$name recipe
  recipe=$(recipe_of "$name" "$packages" "$@")
  if have_image "$image" "$recipe"; then echo "offline-images: $image:$suite is current" >&2; return; fi
  local base tree
  base=$(base_tree)
  tree=$work/$name
  # A run stopped with the tree's /proc mounted left it so: never remove the tree through the mount.
  umount "$tree/proc" 2>/dev/null || true
  rm -rf "$tree"; cp -a "$base" "$tree"
  cp /etc/resolv.conf "$tree/etc/resolv.conf"
  mount -t proc proc "$tree/proc"
  # Unmounted on every way out: a failed install or setup exits the script, which a RETURN trap missed.
  trap 'umount "'"$tree"'/proc" 2>/dev/null || true' EXIT
  echo "offline-images: installing into $image: $packages" >&2
  chroot "$tree" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages && apt-get clean" > "$work/$name.log" 2>&1 \
    || { tail -n 30 "$work/$name.log" >&2; exit 1; }
  if [ -f "$here/offline/$name-setup.sh" ]; then chroot "$tree" /bin/sh -s < "$here/offline/$name-setup.sh" >> "$work/$name.log" 2>&1 || { tail -n 30 "$work/$name.log" >&2; exit 1; }; fi
  umount "$tree/proc"
  trap - EXIT
  if [ -f "$here/offline/$name-entrypoint.sh" ]; then install -m 0755 "$here/offline/$name-entrypoint.sh" "$tree/usr/local/bin/docker-entrypoint.sh"; fi
  # Documents of the packages debootstrap installed before the tree's dpkg settings left them out.
  find "$tree/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  rm -rf "$tree"/usr/share/doc/* "$tree"/usr/share/man/* "$tree"/usr/share/info/* \
    "$tree"/var/lib/apt/lists/* "$tree"/var/cache/apt/*.bin "$tree"/var/log/* "$tree"/tmp/* "$tree/etc/resolv.conf"
  rm -f "$tree/.complete" "$tree/usr/sbin/policy-rc.d"
  tar -C "$tree" --numeric-owner -c . | docker import --change "LABEL sextant.recipe=$recipe" "$@" - "$image:$suite" > /dev/null
  rm -rf "$tree"
  echo "offline-images: built $image:$suite ($(docker image inspect -f '{{.Size}}' "$image:$suite" | awk '{printf "%d MB", $1/1e6}'))" >&2
}

path='ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
build node-build "nodejs npm python3 make g++ git" --change "$path" --change 'CMD ["node"]'
build node "nodejs" --change "$path" --change 'CMD ["node"]'
build postgres "postgresql postgresql-client" --change "$path" \
  --change 'ENV PGDATA=/var/lib/postgresql/data' --change 'EXPOSE 5432' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["postgres"]'
build redis "redis-server" --change "$path" --change 'EXPOSE 6379' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["redis-server"]'
build caddy "caddy" --change "$path" --change 'ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data' --change 'EXPOSE 8080' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]'
echo "offline-images: done (sextant-offline/*:$suite)" >&2
