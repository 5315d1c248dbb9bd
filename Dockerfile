# Sextant in a container: built once here, started as `node dist/main.js` (not `npm start`, which
# builds again at every start and does not pass SIGTERM on to the server).
#
# The base images are arguments, so the image also builds where no container registry is reachable:
# deploy/offline-images.sh makes both from Debian's packages (docs/production.md), then
#   docker build --build-arg BASE_IMAGE=sextant-offline/node:trixie --build-arg BUILD_IMAGE=sextant-offline/node-build:trixie .
# Nothing here needs a registry beyond those two images (no `# syntax=` line: the builder's own
# Dockerfile frontend is enough, with or without BuildKit).
ARG BASE_IMAGE=node:22-bookworm-slim
ARG BUILD_IMAGE=${BASE_IMAGE}

FROM ${BUILD_IMAGE} AS build
WORKDIR /app
# Compilers only in case a native module (better-sqlite3, DuckDB) has no prebuilt binary for the
# platform; an offline build image has them already.
RUN if ! command -v g++ > /dev/null || ! command -v make > /dev/null || ! command -v python3 > /dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*; \
    fi
# Behind a TLS-intercepting proxy, npm must trust the proxy's certificate authority: put its certificate
# (PEM, named *.pem or *.crt) in deploy/build-ca/ before building. It is trusted by this build stage only
# (NODE_EXTRA_CA_CERTS for npm) and never copied into the image that runs.
COPY deploy/build-ca/ /tmp/build-ca/
# A native module compiled before for the same Node.js ABI and platform (deploy/build-prebuilds/README)
# spares compiling SQLite, minutes of CPU; without one, or when it does not load, npm ci compiles it.
COPY deploy/build-prebuilds/ /tmp/build-prebuilds/
COPY package.json package-lock.json ./
RUN for f in /tmp/build-ca/*.pem /tmp/build-ca/*.crt; do [ ! -f "$f" ] || cat "$f" >> /tmp/build-ca.pem; done; \
    if [ -s /tmp/build-ca.pem ]; then export NODE_EXTRA_CA_CERTS=/tmp/build-ca.pem; fi; \
    npm_config_better_sqlite3_local_prebuilds=/tmp/build-prebuilds npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && sh deploy/prune-runtime.sh node_modules

FROM ${BASE_IMAGE}
ENV NODE_ENV=production \
    SEXTANT_HOST=0.0.0.0 \
    SEXTANT_PORT=8080 \
    SEXTANT_DATA_DIR=/data \
    SEXTANT_SEED_DEMO=false
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/docs ./docs
COPY --from=build /app/fixtures ./fixtures
# Read at run time from the sources: the migrations, and the CLI bundled for `sextant` downloads.
COPY --from=build /app/src ./src
# The server runs as the unprivileged `node` user (uid 1000, as in the official Node.js images; an
# offline base image has it too), which owns the data folder.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness: the process answers and its database does. (Readiness for a balancer: /api/ready.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SEXTANT_PORT||8080)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains: running answers get SEXTANT_SHUTDOWN_GRACE_MS (default 10 s) to finish.
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
