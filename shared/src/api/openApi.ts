import { z } from 'zod';
import { API_BASE } from '../envelope.js';
import { ERROR_CATALOGUE, SUCCESS, type ErrorCode } from '../errors.js';
import type { CallSpec } from './call.js';
import { api } from './routeTable.js';
import { OPENAPI_EXAMPLES } from './openApiExamples.js';

/*
 * The API reference as an OpenAPI 3.1 document, generated from the route table: each call's path, its
 * authentication, its request and answer schemas (JSON Schema 2020-12, which OpenAPI 3.1 uses as is) and
 * the refusals it may answer, grouped by their HTTP status. Nothing here is written by hand per call.
 */

type JsonSchema = Record<string, unknown>;
interface Media {
  schema: JsonSchema;
  example?: unknown;
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

/**
 * A zod schema as JSON Schema. zod puts recursive and shared parts under the schema's own `$defs`, which
 * `#/$defs/...` refers to from the root of the document it sits in: in the OpenAPI document they move to
 * `components.schemas` (into `defs`), named after the call (`notes.viewer.output.__schema0`).
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', prefix: string, defs: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...rest } = jsonSchemaOf(schema, io);
  const name = (ref: string) => `${prefix}.${io}.${ref}`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
          ? `#/components/schemas/${name(value.slice('#/$defs/'.length))}`
          : rewrite(value),
      ]),
    );
  };
  for (const [key, def] of Object.entries($defs ?? {})) defs[name(key)] = rewrite(def) as JsonSchema;
  return rewrite(rest) as JsonSchema;
}

/**
 * A record over an enum's keys (`z.record(z.enum(...), ...)`, and its partial form) as an object with those
 * keys as properties: zod writes `propertyNames`, which readers of the document and openapi-typescript
 * pass over (a generated client would type it as any string).
 */
function namedKeys(node: JsonSchema): JsonSchema | null {
  const { propertyNames, additionalProperties, ...rest } = node as {
    propertyNames?: { enum?: unknown };
    additionalProperties?: unknown;
  } & JsonSchema;
  if (!Array.isArray(propertyNames?.enum) || typeof additionalProperties !== 'object' || additionalProperties === null) return null;
  const keys = propertyNames.enum as string[];
  return { ...rest, properties: Object.fromEntries(keys.map((key) => [key, additionalProperties])), additionalProperties: false };
}

/** A zod schema as JSON Schema, as the document describes it (without the dialect; records over an enum's keys named). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema & { $defs?: Record<string, JsonSchema> } {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  const name = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(name);
    if (typeof node !== 'object' || node === null) return node;
    const named = namedKeys(node as JsonSchema);
    return Object.fromEntries(Object.entries(named ?? node).map(([key, value]) => [key, name(value)]));
  };
  return name(rest) as JsonSchema;
}

/** The envelope every answer comes in, with the call's `data`. */
const envelopeOf = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['status', 'message', 'data'],
  properties: { status: { type: 'string', pattern: '^[0-9]{4}$' }, message: { type: 'string' }, data },
});

/** A refusal's envelope: one of the codes, its message in the caller's language, and `data` (9001: the fields and why). */
const refusalOf = (codes: readonly ErrorCode[]): JsonSchema => {
  const envelope = envelopeOf({});
  return { ...envelope, properties: { ...(envelope.properties as object), status: { type: 'string', enum: codes } } };
};

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
        content: { 'application/json': { schema: refusalOf(list) } },
      },
    ]),
  );
}

function operationOf(group: string, name: string, spec: CallSpec, defs: Record<string, JsonSchema>): { post: OpenApiOperation } {
  const requestType = spec.body === 'multipart' ? 'multipart/form-data' : 'application/json';
  const toSchemaOf = (schema: z.ZodType, io: 'input' | 'output') => toSchema(schema, io, `${group}.${name}`, defs);
  const requestSchema = toSchemaOf(spec.request, 'input');
  const example = OPENAPI_EXAMPLES[`${group}.${name}`];
  const answer: Response =
    spec.answerBody === 'file'
      ? { description: 'The file itself.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
      : spec.answerBody === 'stream'
        ? {
            description: 'Server-sent events; the data of each is this schema (JSON).',
            content: { 'text/event-stream': { schema: toSchemaOf(spec.answer, 'output') } },
          }
        : {
            description: `Success (${SUCCESS}).`,
            content: {
              'application/json': {
                schema: envelopeOf(toSchemaOf(spec.answer, 'output')),
                ...(example && 'answer' in example ? { example: { status: SUCCESS, message: 'OK', data: example.answer } } : {}),
              },
            },
          };
  return {
    post: {
      operationId: `${group}.${name}`,
      tags: [group],
      summary: spec.summary,
      'x-kind': spec.kind,
      security: spec.auth === 'public' ? [] : [{ [SESSION]: [] }, { [PERSONAL_TOKEN]: [] }],
      ...(spec.auth === 'admin' ? { description: 'Administrators only.' } : {}),
      requestBody: {
        required: true,
        content: {
          [requestType]: {
            schema:
              spec.body === 'multipart'
                ? { ...requestSchema, properties: { ...(requestSchema.properties as object), file: { type: 'string', format: 'binary' } } }
                : requestSchema,
            ...(example ? { example: example.request } : {}),
          },
        },
      },
      responses: { '200': answer, ...refusalsOf(spec) },
    },
  };
}

/** Where the server answers this document (GET, public, under API_BASE). */
export const OPENAPI_DOCUMENT_PATH = '/v1/openapi.json';

const SESSION = 'session';
const PERSONAL_TOKEN = 'personalAccessToken';

/** Where the document is served, and what its `servers` names. */
export interface OpenApiOptions {
  /** The notebook's public address (PUBLIC_URL); paths in the document start with /server/v1. */
  serverUrl?: string;
}

const INTRODUCTION = `The lab notebook's API, for instruments, LIMS and scripts. Every call is \`POST\` with a JSON body
(uploads: a multipart form) and answers the envelope \`{ status, message, data }\`; \`status\` \`${SUCCESS}\` is success,
any other is one of the error codes below, with its message in the language of \`Accept-Language\` (ko, en, ja).

Authenticate with \`Authorization: Bearer <token>\`: a personal access token (\`eln_pat_…\`, made on My account,
acting with its user's current permissions) or a session's 15-minute access token from \`/server/v1/user/signIn\`.
A call acts with exactly the caller's permissions; what it may refuse is listed under each call.`;

/** Every code of the catalogue with its HTTP status and English message, as a Markdown table. */
function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, entry]) => `| ${code} | ${entry.http} | ${entry.en.replaceAll('|', '\\|')} |`);
  return ['| code | HTTP | message |', '|---|---|---|', ...rows].join('\n');
}

/** The OpenAPI 3.1 document of every call of the route table. */
export function openApiDocument(version: string, options: OpenApiOptions = {}) {
  const paths: Record<string, ReturnType<typeof operationOf>> = {};
  const defs: Record<string, JsonSchema> = {};
  for (const [group, calls] of Object.entries(api)) {
    for (const [name, spec] of Object.entries(calls as Record<string, CallSpec>))
      paths[`${API_BASE}${spec.path}`] = operationOf(group, name, spec, defs);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ELN API',
      version,
      description: `${INTRODUCTION}\n\n## Error codes\n\n${errorCodeTable()}`,
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'This notebook' }],
    components: {
      securitySchemes: {
        [PERSONAL_TOKEN]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'eln_pat_<secret>',
          description:
            "A personal access token made on My account: eln_pat_ followed by its secret; acts with its user's permissions within its scopes.",
        },
        [SESSION]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A session access token (15 minutes) from /server/v1/user/signIn, renewed with /server/v1/user/refresh.',
        },
      },
      schemas: {
        ErrorCode: {
          type: 'string',
          enum: Object.keys(ERROR_CATALOGUE),
          description: 'Every refusal code; the error code table in the introduction gives each one its HTTP status and message.',
        },
        ...defs,
      },
    },
    tags: Object.keys(api).map((name) => ({ name })),
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
