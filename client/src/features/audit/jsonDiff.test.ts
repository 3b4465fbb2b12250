import { describe, expect, it } from 'vitest';
import { compareValues, diffPaths, jsonEqual, jsonLines, lineText, pathLabel } from './jsonDiff';

describe('before/after comparison', () => {
  it('compares JSON values deeply, ignoring member order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });

  it('names added, removed and changed members, at the deepest object member', () => {
    const changes = diffPaths(
      { status: 'ING', title: 'A', auth: { project: 'Y', schema: 'N' }, gone: 1, tags: ['x'] },
      { status: 'C', title: 'A', auth: { project: 'N', schema: 'N' }, added: true, tags: ['x', 'y'] },
    );
    expect(Object.fromEntries(changes)).toEqual({
      '/status': 'changed',
      '/auth/project': 'changed',
      '/gone': 'removed',
      '/added': 'added',
      '/tags': 'changed',
    });
  });

  it('treats arrays and differing types as whole values', () => {
    expect(Object.fromEntries(diffPaths([1, 2], [1, 3]))).toEqual({ '': 'changed' });
    expect(Object.fromEntries(diffPaths({ a: { b: 1 } }, { a: [1] }))).toEqual({ '/a': 'changed' });
    expect(diffPaths({ a: 1 }, { a: 1 }).size).toBe(0);
  });

  it('escapes member names in paths and labels them for people', () => {
    const changes = diffPaths({ 'a/b': 1, 'c~d': 1 }, { 'a/b': 2, 'c~d': 2 });
    expect([...changes.keys()]).toEqual(['/a~1b', '/c~0d']);
    expect([...changes.keys()].map(pathLabel)).toEqual(['a/b', 'c~d']);
    expect(pathLabel('/auth/project')).toBe('auth.project');
    expect(pathLabel('')).toBe('(value)');
  });

  it('writes the lines exactly as JSON.stringify(value, null, 2) does', () => {
    const value = { status: 'C', notes: 3, nested: { list: [1, 'two', null, true], empty: {}, none: [] }, 'quo"te': 'x' };
    const text = jsonLines(value, new Map(), 'after').map(lineText).join('\n');
    expect(text).toBe(JSON.stringify(value, null, 2));
    expect(jsonLines('plain', new Map(), 'before').map(lineText)).toEqual(['"plain"']);
  });

  it('marks removed and changed lines on the before side, added and changed on the after side', () => {
    const before = { status: 'ING', gone: { x: 1 }, same: 1 };
    const after = { status: 'C', added: [1, 2], same: 1 };
    const result = compareValues(before, after);
    const marks = (lines: ReturnType<typeof jsonLines>) => lines.map((line) => [lineText(line).trim(), line.change]);
    expect(marks(result.before)).toEqual([
      ['{', null],
      ['"status": "ING",', 'changed'],
      ['"gone": {', 'removed'],
      ['"x": 1', 'removed'],
      ['},', 'removed'],
      ['"same": 1', null],
      ['}', null],
    ]);
    expect(marks(result.after)).toEqual([
      ['{', null],
      ['"status": "C",', 'changed'],
      ['"added": [', 'added'],
      ['1,', 'added'],
      ['2', 'added'],
      ['],', 'added'],
      ['"same": 1', null],
      ['}', null],
    ]);
    expect(result.before[1]?.kind).toBe('string');
  });

  it('marks nothing when one side has no value (a create or a delete)', () => {
    const created = compareValues(null, { title: 'New' });
    expect(created).toMatchObject({ hasBefore: false, hasAfter: true, before: [] });
    expect(created.changes.size).toBe(0);
    expect(created.after.every((line) => line.change === null)).toBe(true);
    expect(compareValues(undefined, undefined)).toMatchObject({ hasBefore: false, hasAfter: false, before: [], after: [] });
  });

  it('marks a changed scalar at the root', () => {
    const result = compareValues(1, 2);
    expect(result.before.map((line) => line.change)).toEqual(['changed']);
    expect(result.after.map((line) => line.change)).toEqual(['changed']);
  });
});
