import { z } from 'zod';
import type { ErrorCode } from '../errors.js';

/*
 * One entry of the route table: everything client, server and the API document need to know of a call,
 * written once. The server registers its routes from these entries (server/src/http/route.ts), the client
 * calls through them (client/src/api), and tests address calls by them; no `/v1/...` path is written
 * anywhere else.
 */

/** Who may make a call: anyone, any signed-in user, or administrators (level 10) only. */
export type CallAuth = 'public' | 'user' | 'admin';

/** A query reads and never changes state; a command changes state (and appends its audit record). */
export type CallKind = 'query' | 'command';

export interface CallSpec<Request extends z.ZodType = z.ZodType, Answer extends z.ZodType = z.ZodType, Auth extends CallAuth = CallAuth> {
  readonly path: `/v1/${string}`;
  readonly auth: Auth;
  readonly kind: CallKind;
  /** One line for the API reference. */
  readonly summary: string;
  /** The body (JSON), as the server validates it; for multipart calls, the form's text fields. */
  readonly request: Request;
  /** What `data` holds in a successful answer (`null` for calls that answer nothing, or a file). */
  readonly answer: Answer;
  /**
   * The product's refusals this call may answer, besides those every call may: validation (9001), an
   * ended session (1002, signed-in calls), no permission (1003, administrators' calls) and unexpected
   * failure (9999).
   */
  readonly errors: readonly ErrorCode[];
  /**
   * What an unexpected failure of the call answers instead of 9999: the product's own code for it
   * (3003 "projects could not be loaded", ...). Refusals keep their codes.
   */
  readonly failure?: ErrorCode;
  /** `multipart`: the body is a form with one file (field `file`) and the request's fields. Default JSON. */
  readonly body?: 'json' | 'multipart';
  /**
   * `file`: a successful answer is the file itself, not the envelope (refusals still come as the envelope).
   * `stream`: a successful answer is a stream of server-sent events (text/event-stream), each event's data
   * the `answer` schema; it stays open until the server ends it or the caller goes.
   */
  readonly answerBody?: 'envelope' | 'file' | 'stream';
  /** Overrides the server's JSON body limit for calls that legitimately carry more (block lists). */
  readonly bodyLimit?: number;
  /**
   * The person themself, signed in with their password, must make this call: a personal access token is
   * refused (5109). Calls that take or set a password (signing, approving, removing a signature, setting
   * someone's password), that end a session or keep one open, and those that manage tokens.
   */
  readonly sessionOnly?: true;
}

/** Declares one call of the route table; the literal types of its fields are kept for inference. */
export function defineCall<Request extends z.ZodType, Answer extends z.ZodType, Auth extends CallAuth>(
  spec: CallSpec<Request, Answer, Auth>,
): CallSpec<Request, Answer, Auth> {
  return spec;
}

/** A group of calls of one feature, by name. */
export type CallGroup = Readonly<Record<string, CallSpec>>;

/** What a caller sends: the request schema's input (defaults may be left out). */
export type CallInput<C extends CallSpec> = z.input<C['request']>;
/** The request as the server has validated it (defaults filled in). */
export type CallRequest<C extends CallSpec> = z.output<C['request']>;
/** What a successful call answers in `data`. */
export type CallAnswer<C extends CallSpec> = z.output<C['answer']>;

/** The answer of calls that answer nothing (`data: null`). */
export const noAnswer = z.null();

/** The answer of calls whose success is a file rather than the envelope. */
export const fileAnswer = z.null().describe('the file itself (not the JSON envelope)');
