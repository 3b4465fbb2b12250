import { AUDIT_ACTIONS, PAGING, type api, type AuditAction, type CallInput } from '@eln/shared';
import { isIsoDate, MAX_PAGE } from '../../lib/listParams';

/**
 * The audit trail's filters and page, kept in the URL so that a filtered view can be bookmarked, shared
 * and revisited with back/forward: `actor`, `action`, `tt` target type, `ti` target ID, `sd`/`ed` the date
 * range and `p` the page (the list conventions of contract section 2). Anything malformed in a
 * hand-edited URL falls back to "no filter", so the screen always opens.
 */
export interface AuditQuery {
  actor: string;
  action: AuditAction | '';
  targetType: string;
  targetId: string;
  startDate: string;
  endDate: string;
  page: number;
}

export type AuditFilter = Omit<AuditQuery, 'page'>;

export const AUDIT_PARAM = {
  actor: 'actor',
  action: 'action',
  targetType: 'tt',
  targetId: 'ti',
  startDate: 'sd',
  endDate: 'ed',
  page: 'p',
} as const;

/** The search type and word of every list's URL (t, w), read here as the actor or target filter. */
const LIST_TYPE = 't';
const LIST_WORD = 'w';

/** Longest values the API accepts (shared `auditListRequest`). */
export const AUDIT_LIMITS = { actor: 254, targetType: 30, targetId: 100 } as const;

/** Records per page. */
/** Ten records a page, as every list (spec §9). */
export const AUDIT_PAGE_SIZE = PAGING.defaultPageSize;

export const EMPTY_AUDIT_QUERY: AuditQuery = {
  actor: '',
  action: '',
  targetType: '',
  targetId: '',
  startDate: '',
  endDate: '',
  page: PAGING.startPage,
};

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

const TARGET_TYPE = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function text(params: URLSearchParams, name: string, max: number): string {
  return (params.get(name) ?? '').trim().slice(0, max);
}

function date(params: URLSearchParams, name: string): string {
  const value = (params.get(name) ?? '').trim();
  return isIsoDate(value) ? value : '';
}

function page(params: URLSearchParams): number {
  const value = (params.get(AUDIT_PARAM.page) ?? '').trim();
  if (!/^\d+$/.test(value)) return PAGING.startPage;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) return PAGING.startPage;
  return Math.min(n, MAX_PAGE);
}

/** Reads the audit trail's state from its URL. Dates in the wrong order are swapped (the server refuses them). */
export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  const action = text(params, AUDIT_PARAM.action, 60);
  const targetType = text(params, AUDIT_PARAM.targetType, AUDIT_LIMITS.targetType);
  let startDate = date(params, AUDIT_PARAM.startDate);
  let endDate = date(params, AUDIT_PARAM.endDate);
  if (startDate && endDate && startDate > endDate) [startDate, endDate] = [endDate, startDate];
  // The lists' own search words (t, w) work here too: `t=actor|targetId&w=…` (actor when t is absent).
  const word = text(params, LIST_WORD, AUDIT_LIMITS.actor);
  const wordType = params.get(LIST_TYPE) === 'targetId' ? 'targetId' : 'actor';
  return {
    actor: text(params, AUDIT_PARAM.actor, AUDIT_LIMITS.actor) || (wordType === 'actor' ? word : ''),
    action: isAuditAction(action) ? action : '',
    targetType: TARGET_TYPE.test(targetType) ? targetType : '',
    targetId:
      text(params, AUDIT_PARAM.targetId, AUDIT_LIMITS.targetId) || (wordType === 'targetId' ? word.slice(0, AUDIT_LIMITS.targetId) : ''),
    startDate,
    endDate,
    page: page(params),
  };
}

/** Writes the state as URL parameters, leaving out what is empty (no filter, page 1: no parameters at all). */
export function auditSearchParams(query: AuditQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string) => {
    const trimmed = value.trim();
    if (trimmed) params.set(name, trimmed);
  };
  set(AUDIT_PARAM.actor, query.actor);
  set(AUDIT_PARAM.action, query.action);
  set(AUDIT_PARAM.targetType, query.targetType);
  set(AUDIT_PARAM.targetId, query.targetId);
  set(AUDIT_PARAM.startDate, query.startDate);
  set(AUDIT_PARAM.endDate, query.endDate);
  if (query.page > PAGING.startPage) params.set(AUDIT_PARAM.page, String(query.page));
  return params;
}

/** The URL search (with '?', or '' when there is nothing) of a state. */
export function auditSearch(query: AuditQuery): string {
  const search = auditSearchParams(query).toString();
  return search ? `?${search}` : '';
}

/** A new search: the form's values, trimmed, back on the first page. */
export function newAuditSearch(filter: AuditFilter): AuditQuery {
  return {
    actor: filter.actor.trim(),
    action: filter.action,
    targetType: filter.targetType.trim(),
    targetId: filter.targetId.trim(),
    startDate: filter.startDate,
    endDate: filter.endDate,
    page: PAGING.startPage,
  };
}

/** Whether any filter is set (to tell "no matches" from "no records yet"). */
export function isAuditFiltered(filter: AuditFilter): boolean {
  return Boolean(
    filter.actor.trim() || filter.action || filter.targetType.trim() || filter.targetId.trim() || filter.startDate || filter.endDate,
  );
}

export type AuditExportBody = CallInput<typeof api.audit.exportCsv>;
export type AuditListBody = CallInput<typeof api.audit.list>;

/** The export call's body (`auditExportRequest`): the filters, without empty members. */
export function toAuditExportBody(filter: AuditFilter): AuditExportBody {
  const body: AuditExportBody = {};
  const actor = filter.actor.trim();
  const targetType = filter.targetType.trim();
  const targetId = filter.targetId.trim();
  if (actor) body.actor = actor;
  if (filter.action) body.action = filter.action;
  if (targetType) body.targetType = targetType;
  if (targetId) body.targetId = targetId;
  if (filter.startDate) body.startDate = filter.startDate;
  if (filter.endDate) body.endDate = filter.endDate;
  return body;
}

/** The list call's body (`auditListRequest`). */
export function toAuditListBody(query: AuditQuery, pageSize: number = AUDIT_PAGE_SIZE): AuditListBody {
  return { ...toAuditExportBody(query), page: query.page, pageSize };
}

/** The filter part of a state. */
export function filterOf(query: AuditQuery): AuditFilter {
  const { page: _page, ...filter } = query;
  return filter;
}
