import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  allCalls,
  API_BASE,
  ERR,
  parseInput,
  type CallAnswer,
  type CallGroup,
  type CallRequest,
  type CallKind,
  type CallSpec,
  type ErrorCode,
} from '@eln/shared';
import { AppError, isAppError } from './errors.js';
import { languageOf, success } from './envelope.js';
import { refuseUnstorableText } from './storableText.js';
import type { Actor, AuthUser } from '../auth/authUser.js';
import { isAdministrator } from '../users/policy.js';
import { authenticateAccessToken, isPersonalAccessToken } from '../tokens/authenticate.js';
import type { Services } from '../services.js';

/** Who may call a route: anyone, any signed-in user, or administrators (level 10) only. */
export type Access = CallSpec['auth'];

export interface CallContext<Body, A extends Access> {
  body: Body;
  user: A extends 'public' ? AuthUser | null : AuthUser;
  request: FastifyRequest;
  reply: FastifyReply;
  clientAddress: string;
}

export interface RouteDefinition<S extends z.ZodType, A extends Access, R> {
  path: CallSpec['path'];
  access: A;
  body: S;
  /** A query or a command: what a personal access token's scopes are checked against (default: command). */
  kind?: CallKind;
  /** Refuses personal access tokens (the call needs the person signed in; see CallSpec.sessionOnly). */
  sessionOnly?: true;
  /** Overrides the server's JSON body limit for calls that legitimately carry more (block lists). */
  bodyLimit?: number;
  /** The handler sends the answer itself (a file, not the envelope); refusals still come as the envelope. */
  answersItself?: boolean;
  /**
   * What an unexpected failure of the call answers instead of 9999: the product's own code for it
   * (3003 "projects could not be loaded", 1012 "signing out failed", ...). Refusals keep their codes.
   */
  failure?: ErrorCode;
  handler: (ctx: CallContext<z.output<S>, A>) => Promise<R>;
}

/** What defineRoute knows of a call: enough for tests to exercise every call (the fuzz suite). */
export interface DefinedRoute {
  path: CallSpec['path'];
  access: Access;
  body: z.ZodType;
}

const definedRoutesOf = new WeakMap<FastifyInstance, DefinedRoute[]>();

function recordRoute(app: FastifyInstance, route: DefinedRoute): void {
  const routes = definedRoutesOf.get(app) ?? [];
  if (routes.some((known) => known.path === route.path)) throw new Error(`${route.path} has two routes`);
  routes.push(route);
  definedRoutesOf.set(app, routes);
}

/** Every call declared with defineRoute on this server, in the order declared. */
export function definedRoutes(app: FastifyInstance): readonly DefinedRoute[] {
  return definedRoutesOf.get(app) ?? [];
}

/**
 * Declares one API call: POST under /server, the caller authenticated and authorised before the body
 * is checked (text that cannot be stored, anywhere in it) and validated with its shared zod schema, the
 * handler's result wrapped in the success envelope.
 */
export function defineRoute<S extends z.ZodType, A extends Access, R>(
  app: FastifyInstance,
  services: Services,
  definition: RouteDefinition<S, A, R>,
): void {
  recordRoute(app, { path: definition.path, access: definition.access, body: definition.body });
  app.post(`${API_BASE}${definition.path}`, { bodyLimit: definition.bodyLimit }, async (request, reply) => {
    const user = await authenticate(services, request, {
      auth: definition.access,
      kind: definition.kind ?? 'command',
      sessionOnly: definition.sessionOnly,
    });
    const body = validatedBody(request, definition.body);
    const data = await definition
      .handler({
        body,
        user: user as CallContext<z.output<S>, A>['user'],
        request,
        reply,
        clientAddress: request.ip,
      })
      .catch((error: unknown) => {
        if (!definition.failure || isAppError(error)) throw error;
        request.log.error({ err: error, path: definition.path }, 'call failed');
        throw new AppError(definition.failure, { cause: error });
      });
    if (definition.answersItself) return reply;
    return success(request, data ?? null);
  });
}

/**
 * The request's body as its schema validates it (refusals thrown as 2xxx), the raw parse let go: the
 * handler gets the validated copy. Held by the request, a 160 kB block list (every temp save sends one)
 * was copied by each young-generation collection that met it: twice the survivors per scavenge in the
 * temp save bench, and longer pauses landing on the slowest saves (docs/decisions.md, "The raw body let
 * go once validated"). A function of its own, so that no local of the async route holds the raw parse
 * while the handler awaits (a suspended function keeps its locals until it is optimised).
 */
function validatedBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  const input = request.body ?? {};
  refuseUnstorableText(input, languageOf(request));
  const body = parseInput(schema, input);
  request.body = undefined;
  return body;
}

/**
 * The caller of a request, checked for the given call; throws 1002 or 1003 refusals. The one place a
 * bearer token is read: a session's access token (a JWT), or a personal access token (`eln_pat_...`),
 * which is also checked against the call's kind and `sessionOnly` (tokens/authenticate.ts: 51xx refusals).
 * Public calls ignore a personal access token: they answer anyone alike.
 */
export async function authenticate(
  services: Services,
  request: FastifyRequest,
  call: Pick<CallSpec, 'auth' | 'kind' | 'sessionOnly'>,
): Promise<AuthUser | null> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : null;
  const personal = token !== null && isPersonalAccessToken(token);
  if (call.auth === 'public') return token && !personal ? services.tokens.authenticateOrNull(token) : null;
  if (!token) throw new AppError(ERR.sessionEnded);
  const user = personal ? await authenticateAccessToken(services, token, call, request.ip) : await services.tokens.authenticate(token);
  if (call.auth === 'admin' && !isAdministrator(user)) throw new AppError(ERR.forbidden);
  return user;
}

/** What the handler of a route-table entry gets: the validated body, the caller, and the request itself. */
export type CallHandlerContext<C extends CallSpec> = CallContext<CallRequest<C>, C['auth']> & {
  /** The caller as the actor of a command (signed-in calls only). */
  actor: C['auth'] extends 'public' ? Actor | null : Actor;
};

export type CallHandler<C extends CallSpec> = (
  ctx: CallHandlerContext<C>,
) => Promise<C['answerBody'] extends 'file' ? unknown : CallAnswer<C>>;

/** One handler for every call of a group: the compiler refuses a group with a call left unbound. */
export type CallHandlers<G extends CallGroup> = { [K in keyof G]: CallHandler<G[K]> };

/** A route-table entry and the handler that answers it: what a feature's routes module hands the server. */
export interface BoundCall {
  spec: CallSpec;
  handler: CallHandler<CallSpec>;
}

/** Binds every call of a route-table group to its handler (a query, or a command through its policy). */
export function bindCalls<G extends CallGroup>(group: G, handlers: CallHandlers<G>): BoundCall[] {
  return Object.keys(group).map((name) => ({ spec: group[name] as CallSpec, handler: handlers[name] as CallHandler<CallSpec> }));
}

/**
 * Registers bound calls: POST under /server at the entry's path, the caller authenticated for the entry's
 * `auth`, the body validated with its request schema, the handler's result wrapped in the envelope. With
 * `checkAnswers` (the tests' servers), every answer is also checked against the entry's answer schema, so
 * that the route table documents what the server really answers.
 */
export function registerCalls(app: FastifyInstance, services: Services, calls: readonly BoundCall[]): void {
  for (const { spec, handler } of calls) {
    if (spec.body === 'multipart')
      throw new Error(`${spec.path} takes a multipart body: its feature registers it with registerMultipartCall`);
    defineRoute(app, services, {
      path: spec.path,
      access: spec.auth,
      kind: spec.kind,
      sessionOnly: spec.sessionOnly,
      body: spec.request,
      bodyLimit: spec.bodyLimit,
      failure: spec.failure,
      answersItself: spec.answerBody === 'file' || spec.answerBody === 'stream',
      handler: async (ctx) => {
        const actor = ctx.user ? { user: ctx.user, clientAddress: ctx.clientAddress } : null;
        const answer = await handler({ ...ctx, actor } as CallHandlerContext<CallSpec>);
        if (services.config.checkAnswers && (spec.answerBody ?? 'envelope') === 'envelope') checkAnswer(spec, answer);
        return answer;
      },
    });
  }
}

/** Refuses (as an unexpected failure) an answer that its route-table entry does not describe. */
function checkAnswer(spec: CallSpec, answer: unknown): void {
  const sent: unknown = answer === undefined ? null : JSON.parse(JSON.stringify(answer));
  const result = spec.answer.safeParse(sent);
  if (!result.success) {
    throw new Error(`the answer of ${spec.path} does not match its route-table schema: ${z.prettifyError(result.error)}`);
  }
}

/**
 * Registers a call whose body is a multipart form (an upload): the feature reads the stream itself, after
 * authenticating the caller with `authenticate`; the answer goes into the envelope. A refused upload's
 * unread body is not read to its end: the connection closes after the answer.
 */
export function registerMultipartCall<C extends CallSpec>(
  app: FastifyInstance,
  services: Services,
  spec: C,
  receive: (request: FastifyRequest) => Promise<CallAnswer<C>>,
): void {
  if (spec.body !== 'multipart') throw new Error(`${spec.path} is not a multipart call`);
  recordRoute(app, { path: spec.path, access: spec.auth, body: spec.request });
  app.post(`${API_BASE}${spec.path}`, async (request, reply) => {
    try {
      const answer = await receive(request);
      if (services.config.checkAnswers) checkAnswer(spec, answer);
      return success(request, answer ?? null);
    } catch (error) {
      reply.header('connection', 'close');
      throw error;
    }
  });
}

/** Refuses to start a server on which a call of the route table has no route. */
export function assertRouteTableBound(app: FastifyInstance): void {
  const registered = new Set(definedRoutes(app).map((route) => route.path));
  const unbound = allCalls().filter((spec) => !registered.has(spec.path));
  if (unbound.length) throw new Error(`calls of the route table without a route: ${unbound.map((spec) => spec.path).join(', ')}`);
}
