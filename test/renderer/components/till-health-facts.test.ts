import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../common/contract';
import TillHealthFacts from '../../../renderer/components/settings/TillHealthFacts.vue';
import { i18n } from '../../../renderer/i18n';
import { setFormattingLocale } from '../../../renderer/i18n/format';
import { healthyReport, installFakeTill, type FakeTill } from '../support/fake-till';

// The till's health in Settings' "About this till" (renderer/components/settings/TillHealthFacts.vue):
// the report `--health` prints, each reason worded from its code and threshold in the
// interface's language, and "Save a support file" asking the main process, which saves it.
describe('the till’s health in About this till', () => {
  let till: FakeTill;
  let pinia: ReturnType<typeof createPinia>;

  /** A till a manager must look at: an item waiting past the policy's 12 hours, a refused policy. */
  const attention = (): HealthReport => ({
    ...healthyReport(),
    status: 'attention',
    exitCode: 1,
    reasons: [
      { code: 'waiting_too_long', detail: '1 item waiting to be sent; the oldest for 13 hours (the limit is 12).' },
      { code: 'policy_refused', detail: "The organisation's policy (p) was not applied: it is not valid JSON." },
    ],
    outbox: {
      waiting: 1,
      failed: 0,
      conflicts: 0,
      oldestQueuedAt: '2026-11-27T09:30:00.000Z',
      oldestAgeHours: 13,
      unreadableLines: 0,
    },
    policy: { state: 'refused', origin: 'p', problem: 'x' },
    thresholds: { waitingHours: 12, unacknowledgedHours: 0, refreshDays: 7, offlineHours: 24 },
  });

  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    till = installFakeTill();
    till.respond('tillHealth', () => ({ ok: true, data: attention() }));
  });
  afterEach(() => {
    i18n.global.locale.value = 'en';
    setFormattingLocale({ language: 'en', arabicDigits: 'arab' });
  });

  async function shown() {
    const view = mount(TillHealthFacts, { global: { plugins: [i18n, pinia] } });
    await flushPromises();
    return view;
  }

  it('says it needs attention, and why, by the thresholds in force', async () => {
    const view = await shown();
    expect(view.find('[data-testid="about-health"]').attributes('data-status')).toBe('attention');
    expect(view.findAll('[data-testid="about-health-reasons"] li').map((item) => item.text())).toEqual([
      'An item has waited to be sent for 12 hours or more.',
      'The organisation’s policy was not applied: the top of Settings says why.',
    ]);
    expect(view.find('[data-fact="outbox"] dd').text()).toMatch(/^Waiting 1, failed 0, in conflict 0\. The oldest/);
    expect(view.find('[data-fact="id"] dd').text()).toBe('LT-7K3M-Q9XZ');
    expect(view.find('[data-fact="policy"] dd').text()).toBe('Not applied');
  });

  it('in Arabic, with its plural and its digits', async () => {
    i18n.global.locale.value = 'ar';
    setFormattingLocale({ language: 'ar', arabicDigits: 'arab' });
    const view = await shown();
    expect(view.find('[data-testid="about-health-reasons"] li').text()).toBe('ينتظر عنصر الإرسال منذ ١٢ ساعة أو أكثر.');
    expect(view.find('.about-health__status').text()).toBe('يحتاج إلى متابعة:');
  });

  it('a till not set up, or on the demo, is told why in either language', async () => {
    const told = (code: 'not_set_up' | 'demo_mode'): HealthReport => ({
      ...healthyReport(),
      status: 'attention',
      exitCode: 1,
      reasons: [{ code, detail: 'x' }],
    });
    const reasonShown = async () =>
      (await shown()).findAll('[data-testid="about-health-reasons"] li').map((item) => item.text());
    till.respond('tillHealth', () => ({ ok: true, data: told('not_set_up') }));
    expect(await reasonShown()).toEqual([
      'This till is not set up with a loyalty service yet: its address and API key are set in Settings.',
    ]);
    till.respond('tillHealth', () => ({ ok: true, data: told('demo_mode') }));
    expect(await reasonShown()).toEqual([
      'This till runs the demo’s practice service: nothing it does reaches a real loyalty service.',
    ]);
    i18n.global.locale.value = 'ar';
    expect(await reasonShown()).toEqual([
      'يعمل هذا الجهاز على خدمة التجربة: لا يصل شيء مما يجري عليه إلى خدمة ولاء حقيقية.',
    ]);
    till.respond('tillHealth', () => ({ ok: true, data: told('not_set_up') }));
    expect(await reasonShown()).toEqual([
      'لم يُعدّ هذا الجهاز على خدمة ولاء بعد: يُضبط عنوانها ومفتاح الواجهة البرمجية (API) في الإعدادات.',
    ]);
  });

  it('saves the support file through the main process, and says where', async () => {
    const view = await shown();
    await view.find('[data-testid="save-support-file"]').trigger('click');
    await flushPromises();
    expect(till.callsTo('saveSupportFile')).toEqual([{ userAgent: expect.any(String) }]);
    expect(view.find('[data-testid="support-file-outcome"]').text()).toBe(
      'Saved as loyalty-till-support-LT-0000-0000-2026-11-27.zip. Send it to the help desk.',
    );
  });
});
