import { describe, expect, it } from 'vitest';
import {
  auditSearch,
  auditSearchParams,
  EMPTY_AUDIT_QUERY,
  filterOf,
  isAuditFiltered,
  newAuditSearch,
  parseAuditQuery,
  toAuditExportBody,
  toAuditListBody,
  type AuditQuery,
} from './auditQuery';

const parse = (search: string) => parseAuditQuery(new URLSearchParams(search));

describe('audit filters in the URL', () => {
  it('reads every filter and the page', () => {
    expect(parse('actor=kim&action=user.signIn&tt=project&ti=12&sd=2026-01-01&ed=2026-01-31&p=3')).toEqual({
      actor: 'kim',
      action: 'user.signIn',
      targetType: 'project',
      targetId: '12',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      page: 3,
    });
  });

  it('reads the lists’ own search word (t, w) as the actor, or the target ID with t=targetId', () => {
    expect(parseAuditQuery(new URLSearchParams('w=kim@lab.example'))).toMatchObject({ actor: 'kim@lab.example', targetId: '' });
    expect(parseAuditQuery(new URLSearchParams('t=actor&w=Kim&p=2'))).toMatchObject({ actor: 'Kim', page: 2 });
    expect(parseAuditQuery(new URLSearchParams('t=targetId&w=42'))).toMatchObject({ actor: '', targetId: '42' });
    // The audit trail's own parameter wins over the word.
    expect(parseAuditQuery(new URLSearchParams('actor=Lee&w=Kim'))).toMatchObject({ actor: 'Lee' });
  });

  it('opens with no filter at all, on page 1', () => {
    expect(parse('')).toEqual(EMPTY_AUDIT_QUERY);
  });

  it('drops what a hand-edited URL got wrong instead of failing', () => {
    expect(parse('action=user.hack&tt=<script>&sd=2026-02-30&ed=yesterday&p=-4')).toEqual(EMPTY_AUDIT_QUERY);
    expect(parse('p=abc').page).toBe(1);
    expect(parse('p=0').page).toBe(1);
    expect(parse('p=99999999999999999999').page).toBe(1);
    expect(parse('p=2000000').page).toBe(1_000_000);
  });

  it('trims and caps text to what the API accepts', () => {
    const query = parse(`actor=${encodeURIComponent('  lee  ')}&ti=${'9'.repeat(150)}`);
    expect(query.actor).toBe('lee');
    expect(query.targetId).toHaveLength(100);
  });

  it('swaps a date range given in the wrong order', () => {
    const query = parse('sd=2026-03-10&ed=2026-03-01');
    expect([query.startDate, query.endDate]).toEqual(['2026-03-01', '2026-03-10']);
  });

  it('writes only what is set, and no page 1', () => {
    expect(auditSearchParams(EMPTY_AUDIT_QUERY).toString()).toBe('');
    expect(auditSearch(EMPTY_AUDIT_QUERY)).toBe('');
    const query: AuditQuery = { ...EMPTY_AUDIT_QUERY, action: 'project.finished', targetId: ' 7 ', page: 2 };
    expect(auditSearchParams(query).toString()).toBe('action=project.finished&ti=7&p=2');
    expect(auditSearch({ ...query, page: 1 })).toBe('?action=project.finished&ti=7');
  });

  it('round-trips: what is written reads back the same', () => {
    const query: AuditQuery = {
      actor: 'a@b.c',
      action: 'note.saved',
      targetType: 'note',
      targetId: '3',
      startDate: '2026-05-01',
      endDate: '2026-05-02',
      page: 4,
    };
    expect(parseAuditQuery(auditSearchParams(query))).toEqual(query);
  });

  it('a new search starts again at page 1, with the words trimmed', () => {
    const next = newAuditSearch({ ...filterOf({ ...EMPTY_AUDIT_QUERY, page: 9 }), actor: '  park ', targetType: ' user ' });
    expect(next).toEqual({ ...EMPTY_AUDIT_QUERY, actor: 'park', targetType: 'user', page: 1 });
  });

  it('knows when anything is filtered', () => {
    expect(isAuditFiltered(filterOf(EMPTY_AUDIT_QUERY))).toBe(false);
    expect(isAuditFiltered({ ...filterOf(EMPTY_AUDIT_QUERY), actor: '   ' })).toBe(false);
    expect(isAuditFiltered({ ...filterOf(EMPTY_AUDIT_QUERY), endDate: '2026-01-01' })).toBe(true);
  });

  it('sends the filters without empty members', () => {
    expect(toAuditListBody(EMPTY_AUDIT_QUERY)).toEqual({ page: 1, pageSize: 10 });
    const query: AuditQuery = { ...EMPTY_AUDIT_QUERY, actor: ' kim ', action: 'user.signIn', startDate: '2026-01-01', page: 2 };
    expect(toAuditListBody(query, 50)).toEqual({ actor: 'kim', action: 'user.signIn', startDate: '2026-01-01', page: 2, pageSize: 50 });
    expect(toAuditExportBody(filterOf(query))).toEqual({ actor: 'kim', action: 'user.signIn', startDate: '2026-01-01' });
  });
});
