/**
 * The words built outside the templates (the journal CSV, reconciliation, what a reward
 * gives, strings with a phone or a name in them) follow the interface language and digits,
 * and keep phones and codes left to right inside Arabic sentences.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Reward } from '../../../common/contract';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { isolate, ltr } from '../../../renderer/i18n/isolate';
import { rewardGrants } from '../../../renderer/lib/reward-words';
import type { JournalEntry } from '../../../renderer/offline/db/schema';
import { journalToCsv } from '../../../renderer/lib/journal-csv';
import { conflictWords, likelyOursWords } from '../../../renderer/lib/reconciliation-words';

const LRI = '\u2066';
const FSI = '\u2068';
const PDI = '\u2069';
const ARABIC_INDIC = /[٠-٩]/;

const arabic = (arabicDigits: 'arab' | 'latn' = 'arab') => applyInterfaceLocale({ language: 'ar', arabicDigits }, null);
afterEach(() => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null));

const entry: JournalEntry = {
  seq: 1,
  uid: '00000000-0000-4000-8000-00000000e001',
  outboxUid: '00000000-0000-4000-8000-00000000a004',
  outboxSeq: 4,
  kind: 'redeem',
  doneAt: '2026-03-01T09:00:00.000Z',
  outcome: 'redeemed_answer_lost',
  code: 'RW-LAYLA001',
  customerId: 'c-1',
  customerName: 'ليلى حداد',
  phoneE164: '+966501234567',
  orderReference: 'POS-1',
  branchId: null,
  queuedAt: '2026-03-01T08:00:00.000Z',
  firstAttemptAt: '2026-03-01T08:30:00.000Z',
  note: null,
  attemptAt: '2026-03-01T08:30:21.000Z',
};

const reward = (quantity: number, products: string[]) =>
  ({ allowed_products: { quantity, products_list: products } }) as unknown as Reward;

describe('words outside the templates, in Arabic', () => {
  it('writes the journal CSV’s header and outcome in Arabic, the data as it is', () => {
    arabic();
    const [header, row] = journalToCsv([entry]).split('\r\n');
    expect(header).toBe('الوقت,الرمز,العميل,مرجع الطلب,الفرع,النتيجة,وقت الخدمة,الكاشير,الحالة,المكافأة,النقاط');
    expect(row).toContain('RW-LAYLA001');
    expect(row).toContain('ليلى حداد');
    expect(row).toContain('استُبدلت، على الأرجح من هذا الجهاز (ضاعت الإجابة): ');
    expect(row).not.toMatch(/most likely/);
  });

  it('says "most likely this till’s" and a conflict in Arabic, with times in the chosen digits', () => {
    arabic('arab');
    const words = likelyOursWords(entry.attemptAt);
    expect(words).toMatch(/^استُبدلت أثناء محاولة هذا الجهاز/);
    expect(words).toMatch(ARABIC_INDIC);
    arabic('latn');
    expect(likelyOursWords(entry.attemptAt)).toMatch(/\d{2}:\d{2}:21/);
    const conflict = conflictWords({
      verdict: 'outside_attempts',
      redeemedAt: '2026-03-01T10:00:00.000Z',
      attemptsAt: ['2026-03-01T08:30:21.000Z', '2026-03-01T08:31:05.000Z'],
    } as never);
    expect(conflict.title).toBe('استُخدمت المكافأة من قبل، على الأرجح في مكان آخر.');
    expect(conflict.advice).toContain('كانت محاولتا هذا الجهاز');
    expect(conflict.advice).toContain('، ');
  });

  it('says what a reward gives with Arabic plural forms', () => {
    arabic();
    expect(rewardGrants(reward(1, []))).toBe('منتج واحد، من أي منتج');
    expect(rewardGrants(reward(2, ['a', 'b']))).toBe('منتجان، بالاختيار من منتجين');
    expect(rewardGrants(reward(3, ['a', 'b', 'c']))).toBe('٣ منتجات، بالاختيار من ٣ منتجات');
  });

  it('isolates phones and codes left to right, and names in their own direction, inside Arabic sentences', () => {
    arabic();
    expect(ltr('+966 50 123 4567')).toBe(`${LRI}+966 50 123 4567${PDI}`);
    expect(isolate('Omar Al-Farsi')).toBe(`${FSI}Omar Al-Farsi${PDI}`);
  });

  it('leaves English strings as written, isolating only right-to-left text in them', () => {
    expect(ltr('+966 50 123 4567')).toBe('+966 50 123 4567');
    expect(isolate('Omar Al-Farsi')).toBe('Omar Al-Farsi');
    expect(isolate('عمر Al-Farsi')).toBe(`${FSI}عمر Al-Farsi${PDI}`);
    expect(rewardGrants(reward(2, ['a', 'b']))).toBe('2 items, choice of 2 products');
  });
});
