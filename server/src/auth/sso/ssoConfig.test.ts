import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { loadSsoConfig } from './ssoConfig.js';

const okta = { OIDC_ISSUER: 'https://lab.okta.com/oauth2/default', OIDC_CLIENT_ID: '0oa1notebook' };

describe('single sign-on settings', () => {
  it('are off without an issuer', () => {
    expect(loadSsoConfig({}, 'http://localhost:8080')).toBeNull();
    expect(loadConfig({}).sso).toBeNull();
  });

  it('default to a public client asking openid email profile, matched on email, returning to PUBLIC_URL', () => {
    expect(loadConfig({ ...okta, PUBLIC_URL: 'https://eln.lab.example/' }).sso).toEqual({
      issuer: okta.OIDC_ISSUER,
      clientId: okta.OIDC_CLIENT_ID,
      clientSecret: null,
      scopes: 'openid email profile',
      userClaim: 'email',
      redirectUrl: 'https://eln.lab.example/login/okta/auth/callback',
      postSignOutUrl: 'https://eln.lab.example/signin',
      createUsers: false,
      newUserDepartment: null,
      providerTimeoutMs: 15_000,
      allowInsecureRequests: false,
    });
  });

  it('read every variable', () => {
    const sso = loadSsoConfig(
      {
        ...okta,
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_SCOPES: 'openid email',
        OIDC_USER_CLAIM: 'preferred_username',
        OIDC_REDIRECT_URL: 'https://eln.example/login/okta/auth/callback',
        OIDC_CREATE_USERS: 'true',
        OIDC_NEW_USER_DEPARTMENT: 'NEW',
      },
      'http://localhost:8080',
    );
    expect(sso).toMatchObject({
      clientSecret: 's3cret',
      scopes: 'openid email',
      userClaim: 'preferred_username',
      redirectUrl: 'https://eln.example/login/okta/auth/callback',
      createUsers: true,
      newUserDepartment: 'NEW',
    });
  });

  it('refuse half a configuration, plain http, scopes without openid and a flag that is not one', () => {
    expect(() => loadSsoConfig({ OIDC_ISSUER: okta.OIDC_ISSUER }, '')).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadSsoConfig({ OIDC_CLIENT_ID: 'x' }, '')).toThrow(/OIDC_ISSUER/);
    expect(() => loadSsoConfig({ ...okta, OIDC_ISSUER: 'http://lab.okta.com' }, '')).toThrow(/https/);
    expect(() => loadSsoConfig({ ...okta, OIDC_ISSUER: 'lab.okta.com' }, '')).toThrow(/not a URL/);
    expect(() => loadSsoConfig({ ...okta, OIDC_SCOPES: 'email profile' }, '')).toThrow(/openid/);
    expect(() => loadSsoConfig({ ...okta, OIDC_CREATE_USERS: 'maybe' }, '')).toThrow();
  });
});
