import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls, API_BASE, jsonSchemaOf, OPENAPI_DOCUMENT_PATH, PRODUCT, type OpenApiDocument } from '@eln/shared';
import { definedRoutes } from '../http/route.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/*
 * The OpenAPI document the running server answers, against the routes that server registered: every call
 * it answers is in the document, with the request schema it validates bodies with and the answer schema
 * of its route-table entry, and the document names nothing it does not answer.
 */

let server: TestServer;
let document: OpenApiDocument;
let etag: string;
const DOCUMENT_URL = `${API_BASE}${OPENAPI_DOCUMENT_PATH}`;

beforeAll(async () => {
  server = await startTestServer({ config: { publicUrl: 'https://eln.example' } });
  const response = await server.app.inject({ method: 'GET', url: DOCUMENT_URL });
  expect(response.statusCode).toBe(200);
  document = response.json();
  etag = String(response.headers.etag);
});
afterAll(async () => {
  await server?.stop();
});

type Json = Record<string, unknown>;

/**
 * A schema of the document as zod writes it: the parts moved to `components.schemas` under the call's
 * prefix back under its own `$defs`, so it compares with `z.toJSONSchema` of the server's schema.
 */
function asZodWrites(schema: unknown, prefix: string): Json {
  const components = document.components.schemas as Record<string, unknown>;
  const local = `#/components/schemas/${prefix}.`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith(local) ? `#/$defs/${value.slice(local.length)}` : rewrite(value),
      ]),
    );
  };
  const defs = Object.entries(components)
    .filter(([name]) => name.startsWith(prefix + '.'))
    .map(([name, def]) => [name.slice(prefix.length + 1), rewrite(def)]);
  return { ...(rewrite(schema) as Json), ...(defs.length ? { $defs: Object.fromEntries(defs) } : {}) };
}

/** The server's schema as JSON Schema: zod's, with records over an enum's keys named as properties. */
const zodWrites = (schema: z.ZodType, io: 'input' | 'output'): Json => jsonSchemaOf(schema, io);

describe('GET /server/v1/openapi.json', () => {
  it('answers anyone the document, with the server, its version and both kinds of token; cached by its content', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(PRODUCT.version);
    expect(document.servers).toEqual([{ url: 'https://eln.example', description: 'This notebook' }]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['personalAccessToken', 'session']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await server.app.inject({ method: 'GET', url: DOCUMENT_URL, headers: { 'if-none-match': etag } });
    expect([again.statusCode, again.body, again.headers.etag, again.headers['cache-control']]).toEqual([304, '', etag, 'public, no-cache']);
    const other = await server.app.inject({ method: 'GET', url: DOCUMENT_URL, headers: { 'if-none-match': '"something-else"' } });
    expect([other.statusCode, other.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(other.json()).toEqual(document);
  });

  it('holds every call the server answers, with the request schema it validates and the answer of its entry, and nothing else', () => {
    const served = server.apiRoutes.filter((route) => route.method === 'POST').map((route) => route.url);
    expect(served.length).toBeGreaterThan(100);
    expect(Object.keys(document.paths).sort()).toEqual([...served].sort());
    const entries = new Map(allCalls().map((spec) => [`${API_BASE}${spec.path}`, spec]));
    const routes = definedRoutes(server.app);
    expect(routes.map((route) => `${API_BASE}${route.path}`).sort()).toEqual([...served].sort());
    for (const route of routes) {
      const url = `${API_BASE}${route.path}`;
      const operation = document.paths[url]!.post;
      const prefix = operation.operationId;
      const multipart = operation.requestBody.content['multipart/form-data'];
      const documented = (multipart ?? operation.requestBody.content['application/json'])!.schema as Json & { properties: Json };
      const expected = zodWrites(route.body, 'input');
      if (multipart) {
        // An upload's form: its text fields as the server reads them, and the file.
        const { file, ...fields } = documented.properties;
        expect(file, url).toEqual({ type: 'string', format: 'binary' });
        expect(asZodWrites({ ...documented, properties: fields }, `${prefix}.input`), url).toEqual(expected);
      } else expect(asZodWrites(documented, `${prefix}.input`), url).toEqual(expected);

      const spec = entries.get(url)!;
      const success = operation.responses['200']!.content;
      if ((spec.answerBody ?? 'envelope') === 'envelope') {
        const data = (success['application/json']!.schema as { properties: { data: unknown } }).properties.data;
        expect(asZodWrites(data, `${prefix}.output`), url).toEqual(zodWrites(spec.answer, 'output'));
      }
      expect(operation.security, url).toEqual(route.access === 'public' ? [] : [{ session: [] }, { personalAccessToken: [] }]);
    }
  });
});
