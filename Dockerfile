# syntax=docker/dockerfile:1
# The product in one image: API, websocket and the built client on PORT, data in the /data volume.
#   docker build -t tax-portal .
#   podman build --format docker -t tax-portal .   (OCI builders: HEALTHCHECK is kept only in the docker format)
#   docker run -p 3000:3000 -v tax-portal-data:/data tax-portal
# On the first start with an empty /data the log prints the E-Support account's temporary password once
# (`docker logs <container> | grep -A1 'E-Support account created'`). What this image runs is tested without a
# container engine by `npm run test:image` (scripts/test-image.js), which lays out the runtime stage below.

# Build stage: compile the server and the client (compilers, types and dev tools stay here).
FROM node:22-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/npm-ci.sh ./scripts/
RUN sh scripts/npm-ci.sh --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only: the build stage's tree without its development and optional packages (sqlite3
# and argon2 compiled once, there), then scripts/prune-runtime.sh drops what only the build needed (sources,
# objects, types, maps).
FROM build AS pruned
RUN npm prune --omit=dev --omit=optional --no-audit --no-fund

FROM node:22-bookworm AS deps
WORKDIR /app
COPY package.json ./
COPY scripts/prune-runtime.sh ./scripts/
COPY --from=pruned /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/client/dist ./client/dist
# Read-only code: set here, where the files are made, so the runtime stage copies them once with these modes (a
# chmod there would store a second copy of /app in a layer of its own).
RUN sh scripts/prune-runtime.sh /app && chmod -R a-w /app

# Runtime stage: no compiler, no npm cache. The code belongs to root and is read-only to the node user, who
# may write only to /data.
FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data LOG_LEVEL=info
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/dist ./dist
COPY --from=deps /app/client/dist ./client/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness for the container engine; orchestrators should probe /api/health/live and /api/health/ready.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations run on start, before the first request is served. The server's node options, as `npm start` gives them on
# Node 22 (scripts/lib/server-node-options.js): V8's young generation at its full 16 MiB, AsyncLocalStorage on
# AsyncContextFrame (docs/decisions/async-context.md).
CMD ["node", "--min-semi-space-size=16", "--experimental-async-context-frame", "dist/main.js"]
