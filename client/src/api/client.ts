import {
  API_BASE,
  authCalls,
  errorMessage,
  SUCCESS,
  type ApiResponse,
  type CallAnswer,
  type CallInput,
  type CallSpec,
  type Language,
} from '@eln/shared';
import { needsRefresh, type Session } from '../session/model';
import type { RefreshOutcome } from '../session/refresh';
import { ApiError, statusForHttp } from './errors';

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Whether a 401 ends the session (the session-ended modal). Default true; sign-out turns it off, since
   * a refused sign-out means the session is over anyway.
   */
  endSessionOn401?: boolean;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  /** The stored session, read afresh on every call. */
  getSession(): Session | null;
  /** Gets a fresh access token for the session the caller saw (single-flight); null means refused. */
  refresh(seen: Session): Promise<Session | null>;
  onSessionEnded(): void;
  language(): Language;
  now(): number;
}

interface Answer {
  httpStatus: number;
  envelope: ApiResponse | null;
}

function isEnvelope(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string';
}

export function createApiClient(deps: ApiClientDeps) {
  async function send(path: string, body: unknown, token: string | null, signal?: AbortSignal): Promise<Answer> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Accept-Language': deps.language(),
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await deps.fetch(`${API_BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}), signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(statusForHttp(0), errorMessage(statusForHttp(0), deps.language()), 0);
    }
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      parsed = null;
    }
    return { httpStatus: response.status, envelope: isEnvelope(parsed) ? parsed : null };
  }

  function toResult<T>(answer: Answer): T {
    const { envelope, httpStatus } = answer;
    if (envelope && envelope.status === SUCCESS && httpStatus < 400) return envelope.data as T;
    const status = envelope ? envelope.status : statusForHttp(httpStatus);
    const message = envelope?.message || errorMessage(status, deps.language());
    throw new ApiError(status, message, httpStatus, envelope?.data ?? null);
  }

  /** Refreshes when the tab has no token or it is about to expire; a network failure keeps the current token. */
  async function freshSession(session: Session): Promise<Session | null> {
    if (!needsRefresh(session, deps.now())) return session;
    try {
      return await deps.refresh(session);
    } catch {
      return session;
    }
  }

  /**
   * POSTs `body` to `/server` + `path` and resolves to the answer's data, or rejects with an ApiError.
   * A 401 while signed in first retries with a token this tab got meanwhile, or refreshes an expiring
   * token; only when that is refused does the session end.
   */
  async function callPath<T>(path: string, body: unknown = {}, options: CallOptions = {}): Promise<T> {
    const endSession = options.endSessionOn401 !== false;
    let session = deps.getSession();
    if (session) {
      session = await freshSession(session);
      if (!session) {
        if (endSession) deps.onSessionEnded();
        throw new ApiError(statusForHttp(401), errorMessage(statusForHttp(401), deps.language()), 401);
      }
    }
    let answer = await send(path, body, session?.accessToken ?? null, options.signal);

    if (answer.httpStatus === 401 && session) {
      const used: Session = session;
      let retryWith: Session | null = null;
      const current = deps.getSession();
      if (current && current.accessToken && current.accessToken !== used.accessToken && !needsRefresh(current, deps.now())) {
        retryWith = current;
      } else if (current && needsRefresh(current, deps.now())) {
        retryWith = await deps.refresh(current);
      }
      if (retryWith) answer = await send(path, body, retryWith.accessToken, options.signal);
      if (answer.httpStatus === 401 && endSession) deps.onSessionEnded();
    }
    return toResult<T>(answer);
  }

  /** Makes a call of the route table: its input and answer are typed by the table's entry. */
  function call<C extends CallSpec>(spec: C, body: CallInput<C>, options?: CallOptions): Promise<CallAnswer<C>>;
  /** A call by path alone, untyped: kept only until every feature calls through the route table. */
  function call<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  function call(target: CallSpec | string, body?: unknown, options?: CallOptions): Promise<unknown> {
    return callPath(typeof target === 'string' ? target : target.path, body, options);
  }

  /** The refresh call (the token is the browser's cookie) without the usual session handling: the raw outcome for the refresher. */
  async function postRefresh(): Promise<RefreshOutcome> {
    const refresh = authCalls.refresh;
    const answer = await send(refresh.path, { refreshIn: 'cookie' } satisfies CallInput<typeof refresh>, null);
    const { envelope, httpStatus } = answer;
    if (envelope && envelope.status === SUCCESS && httpStatus < 400) {
      return { kind: 'rotated', answer: envelope.data as CallAnswer<typeof refresh> };
    }
    const transient = httpStatus >= 500 || httpStatus === 0 || httpStatus === 408 || httpStatus === 429 || !envelope;
    if (transient) return toResult<never>(answer);
    return { kind: 'refused' };
  }

  return { call, postRefresh };
}
