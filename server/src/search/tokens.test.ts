import { describe, expect, it } from 'vitest';
import { normalise, tokensOf, vectorLiteral } from './tokens.js';

const words = (text: string) => tokensOf(normalise(text)).map((t) => t.word);

describe('search words', () => {
  it('splits Hangul, Kana and Han runs into overlapping pairs', () => {
    expect(words('묽은염산을')).toEqual(['묽은', '은염', '염산', '산을']);
    expect(words('緩衝液を')).toEqual(['緩衝', '衝液', '液を']);
    expect(words('염')).toEqual(['염']);
  });

  it('splits codes, units and chemical names into Latin words and numbers', () => {
    expect(words('Lot 24-117')).toEqual(['lot', '24', '117']);
    expect(words('10mM and 10 mM')).toEqual(['10', 'mm', 'and', '10', 'mm']);
    expect(words('2-Propanol')).toEqual(['2', 'propanol']);
    expect(words('ＮａＣｌ pH가')).toEqual(['nacl', 'ph', '가']);
  });

  it('marks where each word is in the text', () => {
    const text = normalise('pH 염산');
    expect(tokensOf(text).map((t) => text.slice(t.start, t.end))).toEqual(['ph', '염산']);
  });

  it('writes a vector literal with weights and positions', () => {
    expect(
      vectorLiteral([
        { text: "Title o'k", weight: 'A' },
        { text: 'ok', weight: 'D' },
      ]),
    ).toBe("'title':1A 'o':2A 'k':3A 'ok':14D");
  });
});
