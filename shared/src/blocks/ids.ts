/** A block ID: a letter, random text and a time stamp, e.g. "bk3x9q2mflz0a1b2c". */
export function newBlockUid(now: number = Date.now(), random: () => number = Math.random): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const letter = letters[Math.floor(random() * letters.length)] ?? 'b';
  let text = '';
  for (let i = 0; i < 8; i += 1) text += Math.floor(random() * 36).toString(36);
  return `${letter}${text}${now.toString(36)}`;
}

export const BLOCK_UID_PATTERN = /^[a-z][a-z0-9]{8}[a-z0-9]{6,}$/;
