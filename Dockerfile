# syntax=docker/dockerfile:1
# Atende's image: one image for every role, chosen by the command (docs/deploy.md):
#   docker run ... atende --services=api          (listens on PORT, 8080)
#   docker run ... atende --services=worker,channels
# deploy/compose.yaml runs the production topology with it.

# The Node.js LTS the project runs on; one line to change.
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

# Everything installed and built: the web app (apps/web/dist) and the server's bundle
# (apps/server/dist, which finds the migrations and the web app relative to itself).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What the bundle loads at run time: the server's npm dependencies only (workspace
# packages are bundled in).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --omit=dev --workspace @atende/server --include-workspace-root=false --no-audit --no-fund \
  && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/atende
WORKDIR /app
COPY --from=dependencies /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
# The image's unprivileged `node` user owns the data, nothing else.
RUN mkdir -p /var/lib/atende && chown node:node /var/lib/atende
USER node
VOLUME /var/lib/atende
EXPOSE 8080
# /health: 200 while the database answers and DATA_DIR has room, else 503 (docs/operations.md).
# A `--services=worker,channels` container listens on no port: compose turns this off for it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains and exits within 10 s (compose's stop_grace_period leaves it 15).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "--enable-source-maps", "apps/server/dist/main.js"]
CMD ["--services=api,worker,channels"]
