import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EVENTS } from './notifications.js';
import { notificationSentence, type NotificationParts, type NotificationWords } from './notificationText.js';
import { readServerSentEvents } from './api/serverSentEvents.js';
import { SHARED_MESSAGES } from './i18n/index.js';
import { LANGUAGES } from './language.js';

const wordsIn = (language: (typeof LANGUAGES)[number]): NotificationWords => ({
  ...SHARED_MESSAGES[language].notification,
  meaning: SHARED_MESSAGES[language].signature.meaning,
});

/** Every part filled, so that any placeholder an event's sentence names has a value. */
const FULL: Omit<NotificationParts, 'event'> = {
  actorName: 'Kim Minji',
  note: { labNoteNo: 7, labNoteNumber: 'LN-2026-000007', title: 'Buffer prep' },
  project: { projectNo: 3, title: 'Enzymes' },
  template: { templateNo: 2, title: 'Titration' },
  meaning: 'reviewer',
  reason: 'Wrong version',
  declined: false,
  version: '1.2',
  file: 'Enzymes-2026-12-07.pdf',
  count: 3,
};

describe('a notification’s sentence', () => {
  it('names what each event says in every language, leaving no placeholder unfilled', () => {
    for (const language of LANGUAGES) {
      for (const event of NOTIFICATION_EVENTS) {
        const sentence = notificationSentence({ ...FULL, event }, wordsIn(language));
        expect(sentence, `${language} ${event}`).not.toMatch(/\{\{|\}\}/);
        expect(sentence.length, `${language} ${event}`).toBeGreaterThan(5);
      }
    }
    expect(notificationSentence({ ...FULL, event: 'signatureRequested' }, wordsIn('en'))).toBe(
      'Kim Minji asked you to sign note Buffer prep (LN-2026-000007) as Reviewer',
    );
    expect(notificationSentence({ ...FULL, event: 'usersDeactivated' }, wordsIn('ko'))).toBe('디렉터리 동기화로 3명이 비활성화되었습니다');
  });

  it('says a decline as one, without a reason when none was given, and the system when nobody acted', () => {
    const declined = { ...FULL, event: 'signatureRemoved' as const, declined: true, reason: '' };
    expect(notificationSentence(declined, wordsIn('en'))).toBe(
      'Kim Minji declined to sign your note Buffer prep (LN-2026-000007) as Reviewer: no reason given',
    );
    expect(notificationSentence({ ...FULL, event: 'signatureRemoved' }, wordsIn('en'))).toBe(
      'Kim Minji removed the Reviewer signature on your note Buffer prep (LN-2026-000007): Wrong version',
    );
    expect(notificationSentence({ ...FULL, event: 'exportFailed', actorName: null }, wordsIn('ja'))).toBe(
      'エクスポート Enzymes-2026-12-07.pdf に失敗しました',
    );
  });
});

describe('server-sent events', () => {
  it('are read whole as they complete, comments and unknown fields passed over, the rest kept for the next chunk', () => {
    const first = readServerSentEvents(': keep-alive\n\nevent: state\ndata: {"a":1}\n\nevent: sta');
    expect(first.events).toEqual([{ event: 'state', data: '{"a":1}' }]);
    expect(first.rest).toBe('event: sta');
    const second = readServerSentEvents(`${first.rest}te\r\nid: 4\r\ndata: x\r\ndata: y\r\n\r\ndata:plain\n\n`);
    expect(second).toEqual({
      events: [
        { event: 'state', data: 'x\ny' },
        { event: 'message', data: 'plain' },
      ],
      rest: '',
    });
  });
});
