import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, companyCodeForHost } from '@eln/shared';
import { startTestServer, type TestServer } from '../testing/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    config: { company: { code: 'MAIN', name: 'Main Labs', otherCode: 'PARTNER', mainHosts: ['eln.example.test'] } },
  });
});
afterAll(async () => {
  await server?.stop();
});

describe(api.system.info.path, () => {
  it('answers, without signing in, the main hosts and both company codes the client picks from by its host', async () => {
    const answer = await server.call(api.system.info, {});
    expect(answer.body.status).toBe('0000');
    const info = answer.body.data;
    expect(info).toEqual({
      mainHosts: server.config.company.mainHosts,
      mainCompanyCode: server.config.company.code,
      otherCompanyCode: server.config.company.otherCode,
    });
    expect(info.mainHosts).toEqual(['eln.example.test']);
    expect(companyCodeForHost('localhost:8080', info)).toBe(server.config.company.code);
    expect(companyCodeForHost('ELN.example.test:443', info)).toBe(server.config.company.code);
    expect(companyCodeForHost('partner.example.test', info)).toBe('PARTNER');
  });
});

describe('operations', () => {
  it('keeps /metrics off unless the operator turns it on (ELN_METRICS=1); /healthz is always there', async () => {
    expect(server.config.metrics).toBe(false);
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const healthz = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(healthz.statusCode).toBe(200);
    expect(healthz.json()).toMatchObject({ status: 'ok', documents: 0, connections: 0 });
  });
});
