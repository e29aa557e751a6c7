/**
 * The counter answers with reasons and the data they need, never words; the view layer
 * words them in the interface language of the moment. A refused attempt's journal note is
 * the refusal's reason: rows of older versions kept the words, and both read the same.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { TillApi } from '../../../common/contract';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import {
  NOT_CACHED_CUSTOMER,
  claimedElsewhereWords,
  redeemRefusalWords,
  wordedLookupError,
} from '../../../renderer/lib/counter-words';
import type { RedeemRefusal } from '../../../renderer/vocabulary/rewards';
import { createOfflineServices } from '../../../renderer/offline';
import { NOT_CACHED_CUSTOMER as CORE_NOT_CACHED } from '../../../renderer/offline/counter-operations';
import type { JournalEntry } from '../../../renderer/offline/db/schema';
import { journalToCsv } from '../../../renderer/lib/journal-csv';
import { dropDb, freshDb } from '../offline/support/fixtures';

const ISOLATED = /[\u2066-\u2068][^\u2069]*\u2069/g;
const latinWords = (text: string): string[] => text.replace(ISOLATED, '').match(/[A-Za-z]+/g) ?? [];
const arabic = () => applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);

const HELD = { till: 'Till 2', at: '2026-11-26T09:15:00.000Z' };
const REFUSALS: RedeemRefusal[] = [
  { reason: 'claimed_elsewhere', claimedBy: HELD },
  { reason: 'shop_split', unreachableTills: ['Till 3', 'Till 4'] },
  { reason: 'already_queued' },
  { reason: 'offline_redemption_disabled' },
  { reason: 'not_available', check: { verdict: 'expired' } },
  { reason: 'invalid_input' },
];

describe('the counter’s refusals, in words', () => {
  afterEach(() => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null));

  test('each reason is worded in English and in Arabic, the tills it names isolated there', () => {
    expect(redeemRefusalWords(REFUSALS[0]!)).toMatch(
      /^Already redeemed at Till 2 at 26 Nov 2026, .+ \(waiting to be sent\)\. Do not apply this reward\.$/,
    );
    expect(redeemRefusalWords(REFUSALS[1]!)).toMatch(/^Till 3, Till 4 can’t be reached/);
    expect(redeemRefusalWords(REFUSALS[4]!)).toBe('Expired, according to the cached rewards.');
    const english = REFUSALS.map(redeemRefusalWords);
    expect(new Set(english).size).toBe(REFUSALS.length);
    arabic();
    for (const refusal of REFUSALS) {
      const words = redeemRefusalWords(refusal);
      expect(words).not.toBe(english[REFUSALS.indexOf(refusal)]);
      expect(latinWords(words)).toEqual([]);
    }
    // The tills' names keep their own direction inside the Arabic sentence.
    expect(redeemRefusalWords(REFUSALS[1]!)).toContain('\u2068Till 3\u2069');
  });

  test('a customer neither the service nor the cache could give: a code from the core, words from here', async () => {
    expect(NOT_CACHED_CUSTOMER).toBe(CORE_NOT_CACHED);
    const db = freshDb();
    const services = createOfflineServices({ api: {} as TillApi, settings: () => SETTINGS, db, locks: null });
    try {
      const lookup = await services.getCustomer('local-nobody');
      expect(lookup).toMatchObject({ ok: false, error: { kind: 'offline', code: NOT_CACHED_CUSTOMER } });
      if (lookup.ok) return;
      expect(wordedLookupError(lookup.error).message).toBe(
        'The service cannot be reached and this customer is not in the cache.',
      );
      arabic();
      expect(wordedLookupError(lookup.error).message).toBe(
        'تعذّر الوصول إلى الخدمة، وهذا العميل غير موجود في النسخة المحفوظة.',
      );
      const theirs = { kind: 'offline' as const, message: 'The loyalty service cannot be reached.' };
      expect(wordedLookupError(theirs)).toBe(theirs);
    } finally {
      services.close();
      await dropDb(db);
    }
  });

  test('a refused attempt is worded in the journal CSV from its reason, and an older row as it was kept', () => {
    const entry = (note: JournalEntry['note']): JournalEntry => ({
      uid: '00000000-0000-4000-8000-00000000e001',
      outboxUid: null,
      outboxSeq: null,
      kind: 'redeem',
      doneAt: '2026-11-26T09:20:00.000Z',
      outcome: 'refused_elsewhere',
      code: 'RW-LAYLA001',
      customerId: 'c-layla',
      customerName: 'Layla',
      phoneE164: '+966501234567',
      orderReference: null,
      branchId: null,
      queuedAt: '2026-11-26T09:20:00.000Z',
      firstAttemptAt: null,
      note,
      heldBy: HELD,
    });
    const olderWords = 'Already redeemed at Till 2 at 26 Nov 2026, 09:15 (waiting to be sent).';
    expect(journalToCsv([entry(olderWords)])).toContain(olderWords);
    const newer = journalToCsv([entry({ code: 'claimed_elsewhere', till: HELD.till, at: HELD.at })]);
    expect(newer).not.toContain('claimed_elsewhere');
    expect(newer).toContain(claimedElsewhereWords(HELD));
  });
});

const SETTINGS = { defaultCountry: 'SA', branchId: null, allowOfflineRedemption: true };
