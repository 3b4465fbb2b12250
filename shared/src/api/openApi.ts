import { z } from 'zod';
import { API_BASE } from '../envelope.js';
import { ERROR_CATALOGUE, SUCCESS, type ErrorCode } from '../errors.js';
import type { CallSpec } from './call.js';
import { api } from './routeTable.js';

/*
 * The API reference as an OpenAPI 3.1 document, generated from the route table: each call's path, its
 * authentication, its request and answer schemas (JSON Schema 2020-12, which OpenAPI 3.1 uses as is) and
 * the refusals it may answer, grouped by their HTTP status. Nothing here is written by hand per call.
 */

type JsonSchema = Record<string, unknown>;
interface Media {
  schema: JsonSchema;
}
interface Response {
  description: string;
  content: Record<string, Media>;
}
export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  'x-kind': CallSpec['kind'];
  security: Array<Record<string, string[]>>;
  requestBody: { required: boolean; content: Record<string, Media> };
  responses: Record<string, Response>;
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
};

/** The envelope every answer comes in, with the call's `data`. */
const envelopeOf = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['status', 'message', 'data'],
  properties: { status: { type: 'string', pattern: '^[0-9]{4}$' }, message: { type: 'string' }, data },
});

/** The refusals a call may answer, by HTTP status: each status lists its codes and their English messages. */
function refusalsOf(spec: CallSpec): Record<string, Response> {
  const always: ErrorCode[] =
    spec.auth === 'public' ? ['9001', '9999'] : spec.auth === 'user' ? ['9001', '1002', '9999'] : ['9001', '1002', '1003', '9999'];
  const codes = [...new Set<ErrorCode>([...always, ...spec.errors, ...(spec.failure ? [spec.failure] : [])])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const http = ERROR_CATALOGUE[code].http;
    byStatus.set(http, [...(byStatus.get(http) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([http, list]) => [
      String(http),
      {
        description: list.map((code) => `${code}: ${ERROR_CATALOGUE[code].en}`).join('\n'),
        content: { 'application/json': { schema: envelopeOf({}) } },
      },
    ]),
  );
}

function operationOf(group: string, name: string, spec: CallSpec): { post: OpenApiOperation } {
  const requestType = spec.body === 'multipart' ? 'multipart/form-data' : 'application/json';
  const requestSchema = toSchema(spec.request, 'input');
  const answer: Response =
    spec.answerBody === 'file'
      ? { description: 'The file itself.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
      : spec.answerBody === 'stream'
        ? {
            description: 'Server-sent events; the data of each is this schema (JSON).',
            content: { 'text/event-stream': { schema: toSchema(spec.answer, 'output') } },
          }
        : {
            description: `Success (${SUCCESS}).`,
            content: { 'application/json': { schema: envelopeOf(toSchema(spec.answer, 'output')) } },
          };
  return {
    post: {
      operationId: `${group}.${name}`,
      tags: [group],
      summary: spec.summary,
      'x-kind': spec.kind,
      security: spec.auth === 'public' ? [] : [{ bearer: [] }],
      ...(spec.auth === 'admin' ? { description: 'Administrators only.' } : {}),
      requestBody: {
        required: true,
        content: {
          [requestType]: {
            schema:
              spec.body === 'multipart'
                ? { ...requestSchema, properties: { ...(requestSchema.properties as object), file: { type: 'string', format: 'binary' } } }
                : requestSchema,
          },
        },
      },
      responses: { '200': answer, ...refusalsOf(spec) },
    },
  };
}

/** The OpenAPI 3.1 document of every call of the route table. */
export function openApiDocument(version: string) {
  const paths: Record<string, ReturnType<typeof operationOf>> = {};
  for (const [group, calls] of Object.entries(api)) {
    for (const [name, spec] of Object.entries(calls as Record<string, CallSpec>))
      paths[`${API_BASE}${spec.path}`] = operationOf(group, name, spec);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'ELN API', version },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    tags: Object.keys(api).map((name) => ({ name })),
    paths,
  };
}
