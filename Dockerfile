# syntax=docker/dockerfile:1
# Sextant in a container: built once here, started as `node dist/main.js` (not `npm start`, which
# builds again at every start and does not pass SIGTERM on to the server).

FROM node:22-bookworm-slim AS build
WORKDIR /app
# Compilers only in case a native module (better-sqlite3, DuckDB) has no prebuilt binary for the platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
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
# The data folder belongs to the unprivileged `node` user the server runs as.
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
