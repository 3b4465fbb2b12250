import { describe, expect, it } from 'vitest';
import { API_BASE, allCalls, api } from '../index.js';
import { openApiDocument } from './openApi.js';

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
    expect(create.security).toEqual([{ bearer: [] }]);
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

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});
