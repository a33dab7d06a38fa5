# syntax=docker/dockerfile:1
# One image for every service: `npm start`'s entry point by default, or one service with
#   docker run … eventide node command-service/src/main.ts   (query-service, projector, collab-service alike)
# Node 24 runs the TypeScript sources as they are (type stripping); there is nothing to compile.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Dependencies: production ones only. The `node` package (how `npm start` gets Node 24 on a
# machine whose system Node is older) is dropped: the image has its own Node 24.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/testing/package.json packages/testing/
COPY packages/kernel/package.json packages/kernel/
COPY packages/stores/package.json packages/stores/
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY packages/platform/package.json packages/platform/
COPY packages/runtime/package.json packages/runtime/
COPY packages/sdk/package.json packages/sdk/
COPY command-service/package.json command-service/
COPY query-service/package.json query-service/
COPY projector/package.json projector/
COPY collab-service/package.json collab-service/
COPY web/package.json web/
COPY infra/package.json infra/
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node node_modules/.bin/node

# The test image: every dependency, for the contract suites against the real engines (compose profile "contracts").
FROM ${NODE_IMAGE} AS test
RUN apt-get update \
  && apt-get install -y --no-install-recommends kcat curl \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && rm -rf node_modules/node node_modules/.bin/node
CMD ["npx", "vitest", "run"]

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: passes SIGTERM and SIGINT on to node (which drains and exits: docs/operations.md)
# and reaps what node's children leave behind (esbuild's service process).
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --chown=root:root . .
RUN rm -rf node_modules/.cache && mkdir -p /data && chown node:node /data
# The start bundle (infra/src/start/bundle.ts), built from the files as copied: the image's starts
# load it, not the 800 modules it is made of. Not --strict: an image whose bundle could not be
# built (it says why) still runs, from the sources.
RUN node infra/src/start/build-cli.ts
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "--min-semi-space-size=8", "infra/src/start/launch.ts", "infra/src/main.ts"]
