import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ADMIN_LEVEL, API_BASE, ERR, parseInput, type ErrorCode } from '@eln/shared';
import { AppError, isAppError } from './errors.js';
import { languageOf, success } from './envelope.js';
import { refuseUnstorableText } from './storableText.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Services } from '../services.js';

/** Who may call a route: anyone, any signed-in user, or administrators (level 10) only. */
export type Access = 'public' | 'user' | 'admin';

export interface CallContext<Body, A extends Access> {
  body: Body;
  user: A extends 'public' ? AuthUser | null : AuthUser;
  request: FastifyRequest;
  reply: FastifyReply;
  clientAddress: string;
}

export interface RouteDefinition<S extends z.ZodType, A extends Access, R> {
  path: `/v1/${string}`;
  access: A;
  body: S;
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
  path: `/v1/${string}`;
  access: Access;
  body: z.ZodType;
}

const definedRoutesOf = new WeakMap<FastifyInstance, DefinedRoute[]>();

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
  const routes = definedRoutesOf.get(app) ?? [];
  routes.push({ path: definition.path, access: definition.access, body: definition.body });
  definedRoutesOf.set(app, routes);
  app.post(`${API_BASE}${definition.path}`, { bodyLimit: definition.bodyLimit }, async (request, reply) => {
    const user = await authenticate(services, request, definition.access);
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

/** The caller of a request, checked for the given access; throws 1002 or 1003 refusals. */
export async function authenticate(services: Services, request: FastifyRequest, access: Access): Promise<AuthUser | null> {
  const header = request.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : null;
  if (access === 'public') return token ? services.tokens.authenticateOrNull(token) : null;
  if (!token) throw new AppError(ERR.sessionEnded);
  const user = await services.tokens.authenticate(token);
  if (access === 'admin' && user.level !== ADMIN_LEVEL) throw new AppError(ERR.forbidden);
  return user;
}
