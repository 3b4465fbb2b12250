import { describe, expect, it } from 'vitest';
import { MENTION_LIMITS } from './limits.js';
import { mentionedUserIds, mentionToken, splitMentions, tooManyMentions } from './mentions.js';

describe('mentions in plain text', () => {
  it('finds each person once, in order, and ignores what is not a token', () => {
    const text = `${mentionToken('kim@lab.test')} please check, and ${mentionToken('lee@lab.test')}; @kim @[not an id] ${mentionToken('kim@lab.test')}`;
    expect(mentionedUserIds(text)).toEqual(['kim@lab.test', 'lee@lab.test']);
    expect(mentionedUserIds('no one here, mail kim@lab.test')).toEqual([]);
  });

  it('splits a text into runs and mentions that join back to it', () => {
    const text = `Hi ${mentionToken('kim@lab.test')}, see block 3`;
    const parts = splitMentions(text);
    expect(parts).toEqual([{ text: 'Hi ' }, { userId: 'kim@lab.test' }, { text: ', see block 3' }]);
    expect(parts.map((part) => ('text' in part ? part.text : mentionToken(part.userId))).join('')).toBe(text);
  });

  it('refuses more mentions than one text may notify', () => {
    const ids = Array.from({ length: MENTION_LIMITS.perText + 1 }, (_, n) => `p${n}@lab.test`);
    expect(tooManyMentions(ids.slice(1))).toBe(false);
    expect(tooManyMentions(ids)).toBe(true);
  });
});
