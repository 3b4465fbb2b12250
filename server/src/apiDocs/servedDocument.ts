import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_BASE, OPENAPI_DOCUMENT_PATH, openApiDocument, PRODUCT } from '@eln/shared';
import type { ServerConfig } from '../config.js';

/**
 * The API reference as OpenAPI 3.1 (`GET /server/v1/openapi.json`, public): generated from the route
 * table once at start, its server the notebook's PUBLIC_URL. Cached by its content: the ETag is the
 * SHA-256 of the body, and a request naming it is answered 304 without the body.
 */
export function registerOpenApiDocument(app: FastifyInstance, config: Pick<ServerConfig, 'publicUrl'>): void {
  const body = JSON.stringify(openApiDocument(PRODUCT.version, { serverUrl: config.publicUrl }));
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  app.get(`${API_BASE}${OPENAPI_DOCUMENT_PATH}`, async (request, reply) => {
    reply.header('etag', etag).header('cache-control', 'public, no-cache');
    const asked = request.headers['if-none-match'];
    if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
