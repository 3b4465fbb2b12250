import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERR } from '@eln/shared';
import { sendError } from './envelope.js';
import { isApiPath } from './errorHandler.js';

/**
 * Serves the built client and answers every other GET with index.html, so the client's router decides
 * (unknown paths land on /notFound there). API paths that match no call answer 9005 in the envelope.
 */
export async function serveClient(app: FastifyInstance, dist: string | null): Promise<void> {
  const hasClient = dist !== null && existsSync(path.join(dist, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      setHeaders(res, filePath) {
        const hashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathOnly = request.url.split('?')[0] ?? '/';
    if (isApiPath(pathOnly) || request.method !== 'GET' || !hasClient) return sendError(request, reply, ERR.unknownCall);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

export const DEFAULT_CLIENT_DIST = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../client/dist');
