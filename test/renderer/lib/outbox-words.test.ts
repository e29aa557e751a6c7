/**
 * The outbox keeps codes (renderer/offline/db/schema.ts `OutboxNote`, the refusals of
 * outbox/redemption-queue.ts); lib/outbox-words.ts words them in the interface language of
 * the moment they are shown. Rows of earlier versions hold English words: they still read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { exportedJournalCsv } from '../../../renderer/lib/journal-csv';
import {
  entryNoteWords,
  itemNoteWords,
  noteWords,
  queueFieldWords,
  queueRefusalWords,
  replayPauseWords,
} from '../../../renderer/lib/outbox-words';
import type { JournalEntry, OutboxNote } from '../../../renderer/offline/db/schema';

const arabic = () => applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
afterEach(() => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null));

const FSI = '\u2068';
const PDI = '\u2069';

const entry = (outcome: JournalEntry['outcome'], note: JournalEntry['note'], more: Partial<JournalEntry> = {}) =>
  ({
    uid: '00000000-0000-4000-8000-00000000e003',
    outboxUid: '00000000-0000-4000-8000-00000000a003',
    outboxSeq: 3,
    kind: 'redeem',
    doneAt: '2026-11-26T10:00:00.000Z',
    outcome,
    code: 'RW-LAYLA001',
    customerId: 'c-1',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
    orderReference: null,
    branchId: null,
    queuedAt: '2026-11-26T09:00:00.000Z',
    firstAttemptAt: null,
    note,
    ...more,
  }) satisfies JournalEntry;

describe('a note kept as a code', () => {
  it('is worded in the language of the moment it is shown', () => {
    const note: OutboxNote = { code: 'confirmed_unread' };
    expect(noteWords(note)).toBe('Confirmed by the loyalty service; its answer could not be read in full.');
    arabic();
    expect(noteWords(note)).toBe('أكّدت خدمة الولاء الاستبدال، لكن تعذّرت قراءة ردها كاملًا.');
  });

  it('names the till that claimed a reward, isolated, in both languages', () => {
    const note: OutboxNote = { code: 'claimed_elsewhere', till: 'Till 2', at: '2026-11-26T09:15:00.000Z' };
    expect(noteWords(note)).toMatch(/^Already redeemed at \u2068?Till 2\u2069? at /);
    arabic();
    expect(noteWords(note)).toContain(`${FSI}Till 2${PDI}`);
    expect(noteWords(note)).not.toMatch(/Already/);
  });

  it('words a conflict from what reconciliation found', () => {
    const note: OutboxNote = {
      code: 'conflict',
      attribution: { verdict: 'no_unanswered_attempt', redeemedAt: '2026-11-26T09:00:00.000Z', attemptsAt: [] },
      status: 'redeemed',
    };
    expect(noteWords(note)).toMatch(/not by this till/);
  });

  it('passes the service’s own refusal on as said, and leaves it out where the error says it already', () => {
    const said = 'The phone is not valid for this reward.';
    const note: OutboxNote = { code: 'refused', said };
    expect(noteWords(note)).toBe(said);
    expect(itemNoteWords({ note, lastError: { message: said } })).toBeNull();
    expect(itemNoteWords({ note, lastError: null })).toBe(said);
  });
});

describe('a note an earlier version stored as words', () => {
  it('reads as it was stored', () => {
    expect(noteWords('Die Karte war gesperrt.')).toBe('Die Karte war gesperrt.');
    expect(itemNoteWords({ note: 'Refused.', lastError: { message: 'Refused.' } })).toBeNull();
    expect(entryNoteWords(entry('failure_acknowledged', 'Refused by the service.'))).toBe('Refused by the service.');
  });

  it('an old "confirmed" for a redemption decided by its time now says "most likely this till’s"', () => {
    const old = entry('redeemed_answer_lost', 'Confirmed: redeemed by this till.', {
      attemptAt: '2026-11-26T09:30:21.000Z',
    });
    expect(entryNoteWords(old)).toMatch(/most likely/i);
    expect(entryNoteWords(entry('redeemed_answer_lost', null))).toMatch(/most likely/i);
  });

  it('a refused attempt is worded again from the till that held the reward', () => {
    const old = entry('refused_elsewhere', 'Already redeemed at Till 2 at 26 Nov 2026, 09:15 (waiting to be sent).', {
      heldBy: { till: 'Till 2', at: '2026-11-26T09:15:00.000Z' },
    });
    arabic();
    expect(entryNoteWords(old)).toContain(`${FSI}Till 2${PDI}`);
    expect(entryNoteWords(old)).not.toMatch(/Already/);
  });

  it('goes into the CSV beside the entries that keep codes', () => {
    const csv = exportedJournalCsv({
      entries: [
        entry('failure_acknowledged', 'An old refusal, in words.'),
        entry('redeemed', { code: 'confirmed_unread' }),
      ],
      open: [],
    });
    expect(csv).toContain('An old refusal, in words.');
    expect(csv).toContain('its answer could not be read in full');
  });
});

describe('a refused queueing', () => {
  it('words the reason and each field, in both languages', () => {
    expect(queueRefusalWords({ reason: 'offline_redemption_disabled' }).message).toMatch(/turned off in the settings/);
    const tooLong = {
      reason: 'invalid_input',
      fields: { order_reference: { problem: 'too_long', max: 191 } },
    } as const;
    expect(queueRefusalWords(tooLong)).toEqual({
      message: 'The order reference is too long.',
      fields: { order_reference: 'At most 191 characters.' },
    });
    expect(queueFieldWords({ name: { problem: 'missing' }, birthday: { problem: 'not_a_date' } })).toEqual({
      name: 'Enter the customer’s name.',
      birthday: 'Use the date picker (YYYY-MM-DD).',
    });
    arabic();
    expect(queueRefusalWords(tooLong)).toEqual({
      message: 'مرجع الطلب طويل جدًا.',
      fields: { order_reference: 'الحد الأقصى ١٩١ حرفًا.' },
    });
  });
});

describe('a paused queue', () => {
  it('is worded from its reason, whatever words an older version stored', () => {
    const stored = { reason: 'unauthorized', since: '2026-11-22T10:00:00.000Z', message: 'Old words.' };
    expect(replayPauseWords(stored)).toMatch(/^The service rejected the API key/);
    expect(replayPauseWords({ reason: 'a-later-reason', message: 'Its own words.' })).toBe('Its own words.');
  });
});
