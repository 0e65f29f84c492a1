# Clipshift: web server + job worker in one image (split them with RUN_WEB / RUN_WORKER).
# The server runs as a bundle (server/dist, no tsx) over production dependencies only, with
# Debian's ffmpeg; see docs/decisions/0018-production-build.md.
#
#   docker build -t clipshift .
#   docker build --build-arg WHISPER_GPU=cuda -t clipshift:cuda .   # keep a GPU build of whisper.cpp
#
# WHISPER_GPU=cuda|vulkan keeps that build of the whisper.cpp binding (dropped by default: 189 MB
# and 54 MB that a CPU-only machine never loads); it also needs the CUDA runtime or a Vulkan driver
# in the final image, e.g. with NODE_IMAGE set to a CUDA base that has Node installed.
ARG NODE_IMAGE=node:24-bookworm-slim

# Everything (dev tools included) to build the client and bundle the server.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY client/package.json client/
# `npm install`, not `npm ci`: the lock file lists optional platform packages of a dev tool
# (unrs-resolver) that were never published, which `npm ci` takes for a stale lock. The versions
# installed are still the locked ones.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies of the server alone (not the client's: it is static files by now).
FROM ${NODE_IMAGE} AS deps
ARG WHISPER_GPU=
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY client/package.json client/
COPY scripts/prune-production.mjs scripts/
# No install scripts run: none of the packages kept needs one (the npm ffmpeg's chmod and the
# embedded PostgreSQL go with the pruning).
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund --workspace server \
  && node scripts/prune-production.mjs /app ${WHISPER_GPU:+--whisper-gpu=$WHISPER_GPU} \
  && rm -rf scripts

FROM ${NODE_IMAGE}
# Debian's ffmpeg (libass with HarfBuzz shaping, unlike the 2018 static build from npm). util-linux
# (essential in bookworm) provides setpriv, which ties ffmpeg to the Node process that started it.
# whisper.cpp's prebuilt binding needs the OpenMP runtime.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg libgomp1 \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data FFMPEG_PATH=/usr/bin/ffmpeg FFPROBE_PATH=/usr/bin/ffprobe
WORKDIR /app
# Owned by root and read-only to the app's user: only /data is written.
COPY --from=deps /app /app
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/server/assets server/assets
COPY --from=build /app/migrations migrations
COPY --from=build /app/client/dist client/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server/dist/main.js"]
