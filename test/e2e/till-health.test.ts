/**
 * "About this till" in Settings (F9), for the manager on the phone with the help desk: the
 * facts `--health` prints, in the interface's language (English, then Arabic, right to left),
 * and "Save a support file", which downloads one .zip archive with none of the customer's data the page holds in its cache and its outbox in any of its
 * files. Screenshots 83 and 84.
 */
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { openCustomer, openOutbox, outboxCount, redeemOffline } from './cashier';
import { startHarness, type Harness } from './harness';

const { layla } = DEMO_FIXTURES;
const CODE = layla.rewards.availableProduct;

describe('About this till: the till’s health for the help desk', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  const fact = (key: string) => h.page.locator(`[data-testid="about-facts"] [data-fact="${key}"] dd`).textContent();

  it('the page caches a customer, then queues her reward while the service is down', async () => {
    await openCustomer(h.page, layla.phone, layla.name);
    await h.stopSandbox();
    expect(await redeemOffline(h.page, CODE, layla.phone, 'POS-HEALTH-1')).toEqual({
      queued: expect.stringMatching(/^Queued: /),
    });
    await openOutbox(h.page);
    await expect.poll(() => outboxCount(h.page, 'pending')).toBe(1);
  });

  it('says the facts in Settings: the till, its id, the service unreachable, the item waiting', async () => {
    const { page } = h;
    await page.keyboard.press('F9');
    const health = page.getByTestId('about-health');
    await expect.poll(() => health.getAttribute('data-status')).toBe('healthy');
    expect(await health.locator('.about-health__status').textContent()).toBe('Healthy: nothing needs attention.');
    expect(await fact('till')).toContain('Till');
    expect(await fact('id')).toMatch(/LT-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    expect(await fact('service')).toContain(h.sandbox.url);
    expect(await fact('connection')).toMatch(/^\s*Unreachable since \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    expect(await fact('outbox')).toMatch(/Waiting 1, failed 0, in conflict 0\. The oldest was queued /);
    expect(await fact('policy')).toContain('None');
    expect(await fact('updates')).toContain('This till does not update itself.');
    await health.scrollIntoViewIfNeeded();
    await h.screenshot('83-settings-till-health');
  });

  it('saves a support file, one archive with nothing of the customer in any of its files', async () => {
    const { page } = h;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('save-support-file').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^loyalty-till-support-LT-[0-9A-Z]{4}-[0-9A-Z]{4}-[\d-]{10}\.zip$/);
    // (Its headers, application/zip and the name: test/electron/browser-shell/page-server.test.ts.)
    const files = Object.entries(unzipSync(new Uint8Array(await readFile(await download.path())))).map(
      ([name, data]) => [name, strFromU8(data)] as const,
    );
    const entries = Object.fromEntries(files);
    // Every part (this harness's till keeps no log file: the logs' files are test/electron/health/support-file.test.ts's).
    expect(Object.keys(entries).sort()).toEqual(
      [
        'README.txt',
        'health.json',
        'settings.json',
        'policy.json',
        'connections.json',
        'work.json',
        'shop-tills.json',
        'display.json',
        'versions.json',
      ].sort(),
    );
    expect(entries['README.txt']).toContain("The log files' entries of the last 7 days: none were found.");
    const health = JSON.parse(entries['health.json']!) as { outbox: { waiting: number } };
    expect(health.outbox.waiting).toBe(1);
    expect((JSON.parse(entries['versions.json']!) as { browser: string }).browser).toContain('Chrome');
    for (const [name, text] of files)
      for (const value of [layla.name, layla.phone, layla.phone.slice(1), '0501234567', CODE, 'POS-HEALTH-1', layla.id])
        expect(text, `${name}: ${value}`).not.toContain(value);
    await expect
      .poll(() => page.getByTestId('support-file-outcome').textContent())
      .toMatch(/Saved as loyalty-till-support-.+\.zip\. Send it to the help desk\./);
  });

  it('says the same in Arabic, right to left', async () => {
    const { page } = h;
    await h.call('updateSettings', { language: 'ar' });
    await page.reload();
    await page.keyboard.press('F9');
    const health = page.getByTestId('about-health');
    await expect
      .poll(() => health.locator('.about-health__status').textContent())
      .toBe('سليم: لا شيء يحتاج إلى متابعة.');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await fact('outbox')).toContain('بانتظار الإرسال ١');
    expect(await page.getByTestId('save-support-file').textContent()).toContain('حفظ ملف الدعم');
    await health.scrollIntoViewIfNeeded();
    await h.screenshot('84-settings-till-health-arabic');
    await h.call('updateSettings', { language: null });
  });
});
