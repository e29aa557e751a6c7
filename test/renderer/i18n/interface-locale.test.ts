import { afterEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { currentLanguage, t } from '../../../renderer/i18n';
import { formatDate, formatMoney, formatPoints, intlLocale } from '../../../renderer/i18n/format';
import { applyInterfaceLocale, followInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { directionOf, resolveLanguage } from '../../../renderer/i18n/languages';
import { describeError } from '../../../renderer/lib/error-words';
import { describeExpiry } from '../../../renderer/lib/dates';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState } from '../support/fake-till';

const root = () => document.documentElement;

afterEach(() => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, root()));

describe('the interface language', () => {
  it('follows the first OS language the till ships, else English; a chosen one wins', () => {
    expect(resolveLanguage(null, ['ar-SA', 'en-GB'])).toBe('ar');
    expect(resolveLanguage(null, ['de-DE', 'ar-AE'])).toBe('ar');
    expect(resolveLanguage(null, ['de-DE', 'fr'])).toBe('en');
    expect(resolveLanguage(null, ['posix', '!!'])).toBe('en');
    expect(resolveLanguage('en', ['ar-SA'])).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('en')).toBe('ltr');
  });

  it('switches catalogues, digits and the document’s lang and dir without a restart', async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    const fake = installFakeTill();
    fake.respond('getState', async () => ({ ok: true, data: { ...tillState(), systemLanguages: ['ar-SA'] } }));
    let saved = tillState({ language: 'en' });
    fake.respond('updateSettings', async (patch) => {
      saved = { ...saved, settings: { ...saved.settings, ...(patch as object) } };
      return { ok: true, data: saved };
    });
    const settings = useSettingsStore();
    const stop = followInterfaceLocale(
      () => ({ language: settings.interfaceLanguage, arabicDigits: settings.arabicDigits }),
      root(),
    );
    try {
      await settings.load();
      expect(currentLanguage()).toBe('ar');
      expect(root().dir).toBe('rtl');
      expect(root().lang).toBe('ar');
      expect(t('connection.online')).toBe('متصل');
      expect(formatPoints(1250)).toBe('١٬٢٥٠');

      await settings.savePreferences({ arabicDigits: 'latn' });
      expect(formatPoints(1250)).toBe('1,250');

      await settings.savePreferences({ language: 'en' });
      expect(root().dir).toBe('ltr');
      expect(root().lang).toBe('en');
      expect(t('connection.online')).toBe('Connected');
    } finally {
      stop();
    }
  });
});

describe('numbers and dates in the interface locale', () => {
  const day = new Date(2026, 10, 21, 14, 5);

  it('writes English dates day-month-year and Arabic ones with the chosen digits', () => {
    expect(formatDate(day)).toBe('21 Nov 2026');
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
    expect(intlLocale()).toBe('ar-u-nu-arab');
    expect(formatDate(day)).toMatch(/^٢١ .+ ٢٠٢٦$/);
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'latn' }, null);
    expect(formatDate(day)).toMatch(/^21 .+ 2026$/);
    expect(formatDate(day)).not.toMatch(/[٠-٩]/);
  });

  it('formats points and money with the same digits', () => {
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
    expect(formatPoints(40)).toBe('٤٠');
    expect(formatMoney(12.5, 'SAR')).toMatch(/١٢٫٥٠/);
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'latn' }, null);
    expect(formatMoney(12.5, 'SAR')).toMatch(/12\.50/);
    expect(formatMoney(7, 'not a currency')).toBe('7');
  });

  it('words store and lib messages in Arabic, with Arabic plural forms and digits', () => {
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
    expect(describeError({ kind: 'rate_limited', retryAfterMs: 1000 }).advice).toBe('حاول مرة أخرى بعد ثانية واحدة.');
    expect(describeError({ kind: 'rate_limited', retryAfterMs: 2000 }).advice).toBe('حاول مرة أخرى بعد ثانيتين.');
    expect(describeError({ kind: 'rate_limited', retryAfterMs: 5000 }).advice).toBe('حاول مرة أخرى بعد ٥ ثوانٍ.');
    expect(describeError({ kind: 'rate_limited', retryAfterMs: 11000 }).advice).toBe('حاول مرة أخرى بعد ١١ ثانية.');
    expect(describeExpiry(null).text).toBe('بلا تاريخ انتهاء');
  });
});

describe('the journal CSV', () => {
  it('has its header row in the interface language', async () => {
    const { journalToCsv } = await import('../../../renderer/lib/journal-csv');
    expect(journalToCsv([]).split('\r\n')[0]).toBe(
      'time,code,customer,order reference,branch,outcome,service time,cashier,state,reward,points',
    );
    applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
    expect(journalToCsv([]).split('\r\n')[0]).toBe(
      'الوقت,الرمز,العميل,مرجع الطلب,الفرع,النتيجة,وقت الخدمة,الكاشير,الحالة,المكافأة,النقاط',
    );
  });
});
