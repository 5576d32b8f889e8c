# One image for both processes: `node dist/src/api/server.js` (API) or `node dist/src/worker.js` (worker).
# Node 22 LTS: Node 20 reached its end of life on 2026-04-30.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
COPY scripts/build-console.mjs ./scripts/
# Only what runs is compiled (tsconfig.build.json: src/); tests, benchmarks and scripts stay out of the image.
# The console's modules, style and libraries are built into dist/console/, which is all the API serves of it.
RUN npx tsc -p tsconfig.build.json \
 && node scripts/build-console.mjs \
 && node -e "require('@temporalio/worker').bundleWorkflowCode({workflowsPath: require.resolve('./dist/src/workflows')}).then(({code}) => require('fs').writeFileSync('dist/workflow-bundle.js', code))" \
 && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY demo ./demo
# Not root: the image's own unprivileged user.
USER node
EXPOSE 3000
CMD ["node", "dist/src/api/server.js"]
