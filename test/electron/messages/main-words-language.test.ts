import { afterEach, describe, expect, test } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { resolveLanguage } from '../../../renderer/i18n/languages';
import type { LinkMessage } from '../../../common/contract';

/**
 * What the main process says to the cashier comes in the interface language: the one
 * chosen in Settings, else the OS's, resolved as the renderer resolves it. English stays
 * word for word what it always was.
 */
const fixtures: CoreFixture[] = [];
async function till(systemLanguages: string[] = []): Promise<CoreFixture> {
  // A GET to an unreachable service is still retried; the waits between tries are skipped.
  const fixture = await createCoreFixture({ systemLanguages, retrySleep: async () => undefined });
  fixtures.push(fixture);
  return fixture;
}
async function speaking(language: 'en' | 'ar' | null, systemLanguages: string[] = []): Promise<CoreFixture> {
  const fixture = await till(systemLanguages);
  const chosen = await fixture.call('updateSettings', { language });
  if (!chosen.ok) throw new Error(JSON.stringify(chosen.error));
  return fixture;
}

afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

const ARABIC = /[\u0600-\u06ff]/;

describe('a settings patch is answered in the interface language', () => {
  test('English: the words as they always were', async () => {
    const fixture = await speaking('en', ['ar-SA']);
    const result = await fixture.call('updateSettings', { baseUrl: 'ftp://loyalty.example.com', tillName: '' });
    expect(!result.ok && result.error).toMatchObject({
      kind: 'validation',
      message: 'Please check: baseUrl, tillName.',
      fields: {
        baseUrl: 'The service URL must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).',
        tillName: 'Give the till a name.',
      },
    });
  });

  test('Arabic: every field error and the summary', async () => {
    const fixture = await speaking('ar');
    const result = await fixture.call('updateSettings', {
      baseUrl: 'not a url',
      posCallbackUrl: 'https://user:pw@pos.example.com/',
      defaultCountry: 'XX',
      currency: 'ZZZ',
      tillName: '',
      branchId: 'nope',
      cacheRefresh: { everyHours: 500, windowFromHour: 2, windowToHour: 5 },
    });
    if (result.ok) throw new Error('accepted');
    const fields = result.error.fields ?? {};
    expect(Object.keys(fields).sort()).toEqual([
      'baseUrl',
      'branchId',
      'cacheRefresh.everyHours',
      'currency',
      'defaultCountry',
      'posCallbackUrl',
      'tillName',
    ]);
    expect(fields.baseUrl).toBe('أدخل عنوان URL الكامل للخدمة، مثل \u2066https://loyalty.example.com\u2069.');
    expect(fields.tillName).toBe('أعطِ نقطة البيع اسمًا.');
    for (const [field, message] of Object.entries(fields)) expect(message, field).toMatch(ARABIC);
    expect(result.error.message).toMatch(/^يُرجى مراجعة: /);
  });

  test('following the OS: an Arabic system gets Arabic, a German one English (as the renderer picks)', async () => {
    for (const [system, expected] of [
      [['ar-SA', 'en-US'], 'ar'],
      [['de-DE'], 'en'],
    ] as const) {
      const fixture = await speaking(null, [...system]);
      expect(resolveLanguage(null, system)).toBe(expected);
      const result = await fixture.call('updateSettings', { baseUrl: 'http://loyalty.example.com' });
      const message = (!result.ok && result.error.fields?.baseUrl) || '';
      if (expected === 'ar') expect(message).toMatch(ARABIC);
      else
        expect(message).toBe(
          'The service URL must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).',
        );
    }
  });

  test("numbers follow the till's Arabic digits", async () => {
    const fixture = await speaking('ar');
    const long = 'x'.repeat(61);
    const arab = await fixture.call('updateSettings', { tillName: long });
    expect(!arab.ok && arab.error.fields?.tillName).toContain('٦٠');
    await fixture.call('updateSettings', { arabicDigits: 'latn' });
    const latn = await fixture.call('updateSettings', { tillName: long });
    expect(!latn.ok && latn.error.fields?.tillName).toContain('60');
    expect(!latn.ok && latn.error.fields?.tillName).not.toMatch(/[\u0660-\u0669]/);
  });

  test('the choice of language lists the languages in both', async () => {
    const en = await speaking('en');
    const inEnglish = await en.call('updateSettings', { language: 'xx' });
    expect(!inEnglish.ok && inEnglish.error.fields?.language).toBe("Choose one of the till's languages: en, ar.");
    const ar = await speaking('ar');
    const inArabic = await ar.call('updateSettings', { language: 'xx' });
    expect(!inArabic.ok && inArabic.error.fields?.language).toMatch(/^اختر إحدى لغات نقطة البيع: .*en, ar/);
  });
});

describe('a bridge payload is refused in the interface language', () => {
  const bad = { name: '\u202eevil', phone: '12', email: 'nope' };

  test('English', async () => {
    const fixture = await speaking('en');
    const result = await fixture.call('registerCustomer', bad);
    expect(!result.ok && result.error).toMatchObject({
      kind: 'validation',
      message: 'Please check: name, phone, email.',
      fields: {
        name: 'This contains invisible control characters (such as NUL, ESC or a text-direction override). Retype it.',
        phone: 'The phone number is too short.',
        email: 'Enter a valid email address.',
      },
    });
  });

  test("Arabic, with zod's own words in Arabic too", async () => {
    const fixture = await speaking('ar');
    const result = await fixture.call('registerCustomer', bad);
    if (result.ok) throw new Error('accepted');
    expect(result.error.fields).toEqual({
      name: expect.stringMatching(/^يحتوي هذا النص على محارف تحكم/),
      phone: 'رقم الهاتف قصير جدًا.',
      email: 'أدخل عنوان بريد إلكتروني صالحًا.',
    });
    expect(result.error.message).toMatch(/^يُرجى مراجعة: /);

    const stray = await fixture.call('checkReward', { reward_code: 'RW-A1', phone: '+966500000001', redeem: true });
    expect(!stray.ok && stray.error.fields?.redeem).toBe('هذا الحقل غير مقبول هنا.');
    // A check without a message of its own: zod's Arabic locale.
    const page = await fixture.call('customerPage', { page: 2_000_000, per_page: 10 });
    expect(!page.ok && page.error.fields?.page).toMatch(ARABIC);
  });

  test("the bridge's own refusals: no service set up", async () => {
    const en = await speaking('en');
    const inEnglish = await en.call('searchCustomers', { search: 'Layla' });
    expect(!inEnglish.ok && inEnglish.error).toMatchObject({
      code: 'not_configured',
      message: 'No loyalty service is set up yet: enter the service URL and API key in Settings, or try the demo.',
    });
    const ar = await speaking('ar');
    const inArabic = await ar.call('searchCustomers', { search: 'Layla' });
    expect(!inArabic.ok && inArabic.error.code).toBe('not_configured');
    expect(!inArabic.ok && inArabic.error.message).toMatch(/^لم يُضبط نظام ولاء بعد/);
  });

  test("the till's own words about an unreachable service; a service's words are not touched", async () => {
    for (const language of ['en', 'ar'] as const) {
      const fixture = await speaking(language);
      await fixture.call('updateSettings', { baseUrl: 'http://127.0.0.1:9' });
      await fixture.call('setApiKey', { apiKey: 'sk_test_abcdefgh' });
      const result = await fixture.call('getCustomer', { id: '7c0e5d1a-2b3c-4d5e-8f90-0123456789ab' });
      expect(!result.ok && result.error.kind).toBe('offline');
      const message = (!result.ok && result.error.message) || '';
      if (language === 'en') expect(message).toBe('The loyalty service cannot be reached. Check the connection.');
      else expect(message).toBe('يتعذّر الوصول إلى نظام الولاء. تحقّق من الاتصال.');
    }
  });
});

describe('a refused link is told in the interface language', () => {
  async function refusal(fixture: CoreFixture, link: string): Promise<string> {
    const receipt = fixture.core.links.receive(link, 'second-instance');
    expect(receipt.accepted).toBe(false);
    const taken = await fixture.call('takeLinkMessages');
    const refused = taken.ok ? taken.data.find((m: LinkMessage) => m.kind === 'refused') : undefined;
    if (!refused || refused.kind !== 'refused') throw new Error('no refusal');
    return refused.reason;
  }

  test('English', async () => {
    const fixture = await speaking('en');
    expect(await refusal(fixture, 'loyalty-till://redeem?code=RW-A1')).toBe(
      'A link was refused: Unknown route "redeem": the routes are customer, reward, register, find.',
    );
    expect(await refusal(fixture, 'loyalty-till://reward?code=XX-1')).toBe(
      'A link was refused: code: A reward code looks like RW- followed by letters and digits.',
    );
  });

  test('Arabic, while the log stays English', async () => {
    const fixture = await speaking('ar');
    const route = await refusal(fixture, 'loyalty-till://redeem?code=RW-A1');
    expect(route).toMatch(/^رُفض رابط: /);
    expect(route).toContain('مسار غير معروف');
    expect(route).toContain('\u2068redeem\u2069');
    const field = await refusal(fixture, 'loyalty-till://reward?code=XX-1');
    expect(field).toMatch(/^رُفض رابط: /);
    expect(field).toContain('يبدأ رمز المكافأة بـ');
    expect(fixture.log.lines.filter((line) => /Refused a link/.test(line)).every((line) => !ARABIC.test(line))).toBe(
      true,
    );
    expect(fixture.log.lines.some((line) => /Unknown route "redeem"/.test(line))).toBe(true);
  });
});
