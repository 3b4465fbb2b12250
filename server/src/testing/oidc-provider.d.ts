/**
 * The part of oidc-provider (a devDependency that ships no types) the test provider uses
 * (testing/oidcProvider.ts): enough to configure one and drive its interactions, nothing more.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContextWithOidc {
    host: string;
    body: unknown;
    type: string;
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<AccountClaims> | AccountClaims;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
    grant_types?: string[];
    response_types?: string[];
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    findAccount?: (ctx: KoaContextWithOidc, sub: string) => Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    jwks?: { keys: object[] };
    cookies?: { keys?: string[] };
    pkce?: { required?: (ctx: KoaContextWithOidc, client: unknown) => boolean };
    features?: Record<string, { enabled: boolean; [option: string]: unknown }>;
    interactions?: { url?: (ctx: KoaContextWithOidc, interaction: { uid: string }) => string };
    loadExistingGrant?: (ctx: KoaContextWithOidc) => Promise<Grant | undefined>;
    renderError?: (ctx: KoaContextWithOidc, out: Record<string, string>, error: Error) => Promise<void> | void;
    ttl?: Record<string, number>;
  }

  export interface InteractionDetails {
    uid: string;
    /** 'login', 'consent' or another prompt. */
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId?: string };
    grantId?: string;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    jti: string;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    Grant: typeof Grant;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
