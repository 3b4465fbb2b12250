import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { API_BASE, ERROR_CATALOGUE, allCalls, api, type CallSpec } from '../index.js';
import { openApiDocument } from './openApi.js';
import { OPENAPI_EXAMPLES } from './openApiExamples.js';

describe('the OpenAPI document generated from the route table', () => {
  const document = openApiDocument('test');

  it('has one POST operation for every call of the table, and nothing else', () => {
    expect(Object.keys(document.paths).sort()).toEqual(
      allCalls()
        .map((spec) => `${API_BASE}${spec.path}`)
        .sort(),
    );
    for (const operation of Object.values(document.paths)) expect(operation.post.summary.length).toBeGreaterThan(10);
  });

  it("describes a call's request, answer, authentication and refusals from its entry", () => {
    const create = document.paths[`${API_BASE}${api.projects.create.path}`]!.post;
    // A session's access token or a personal access token, either one.
    expect(create.security).toEqual([{ session: [] }, { personalAccessToken: [] }]);
    const request = create.requestBody.content['application/json']!.schema as unknown as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(request.required).toEqual(expect.arrayContaining(['title', 'signatureList']));
    const answer = create.responses['200']!.content['application/json']!.schema as unknown as {
      properties: { data: { properties: object } };
    };
    expect(Object.keys(answer.properties.data.properties)).toEqual(['projectNo']);
    // 2001 (a duplicate title) is a 409; 1003 a 403.
    expect(create.responses['409']?.description).toContain('2001');
    expect(create.responses['403']?.description).toContain('1003');
    const signIn = document.paths[`${API_BASE}${api.auth.signIn.path}`]!.post;
    expect(signIn.security).toEqual([]);
  });

  it('describes uploads as multipart forms with their file, and downloads as files', () => {
    const upload = document.paths[`${API_BASE}${api.files.upload.path}`]!.post;
    expect(upload.requestBody.content['multipart/form-data']?.schema).toMatchObject({ properties: { file: { format: 'binary' } } });
    const download = document.paths[`${API_BASE}${api.exports.download.path}`]!.post;
    expect(download.responses['200']!.content).toHaveProperty('application/octet-stream');
  });

  it('is a valid OpenAPI 3.1 document (checked by an OpenAPI validator)', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('names its server, both kinds of token, and every error code with its status and message', () => {
    expect(openApiDocument('1', { serverUrl: 'https://eln.example' }).servers).toEqual([
      { url: 'https://eln.example', description: 'This notebook' },
    ]);
    expect(document.components.securitySchemes.personalAccessToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'eln_pat_<secret>',
    });
    expect(document.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) expect(document.info.description).toContain(`| ${code} | ${entry.http} |`);
    expect(document.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CATALOGUE));
    // A refusal's status is one of the codes of its HTTP class.
    const append = document.paths[`${API_BASE}${api.notes.appendBlock.path}`]!.post;
    expect(append.responses['422']!.content['application/json']!.schema).toMatchObject({
      properties: { status: { enum: expect.arrayContaining(['2050', '2051', '2012']) } },
    });
  });

  it("shows examples of the main calls, each valid for its call's request and answer schemas", () => {
    const specs = new Map(
      Object.entries(api).flatMap(([group, calls]) =>
        Object.entries(calls as Record<string, CallSpec>).map(([name, spec]) => [`${group}.${name}`, spec]),
      ),
    );
    expect(Object.keys(OPENAPI_EXAMPLES)).toEqual(
      expect.arrayContaining(['notes.appendBlock', 'files.upload', 'noteHistory.detail', 'auth.signIn']),
    );
    for (const [key, example] of Object.entries(OPENAPI_EXAMPLES)) {
      const spec = specs.get(key);
      expect(spec, key).toBeDefined();
      expect(spec!.request.safeParse(example.request).error, key).toBeUndefined();
      if ('answer' in example) expect(spec!.answer.safeParse(example.answer).error, key).toBeUndefined();
      const operation = document.paths[`${API_BASE}${spec!.path}`]!.post;
      const media = Object.values(operation.requestBody.content)[0]!;
      expect(media.example, key).toEqual(example.request);
      if ('answer' in example)
        expect(operation.responses['200']!.content['application/json']!.example).toMatchObject({ status: '0000', data: example.answer });
    }
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});
