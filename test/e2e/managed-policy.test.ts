import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TillApi } from '../../common/contract';
import { SERVICE_KEY, startHarness, type Harness } from './harness';

/**
 * A till whose organisation manages it: Settings shows what the policy locks as set by the
 * organisation and keeps it out of reach; the page cannot change it by calling the bridge
 * itself; a broken policy applies nothing, and Settings says why.
 */
const BRANCH = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';

describe('Settings under the organisation’s policy', () => {
  let h: Harness;
  let dir: string;
  let policyFile: string;

  async function writePolicy(value: unknown): Promise<void> {
    await writeFile(`${policyFile}.new`, typeof value === 'string' ? value : JSON.stringify(value));
    await rename(`${policyFile}.new`, policyFile);
    await h.core.reloadPolicy();
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-e2e-policy-'));
    policyFile = join(dir, 'policy.json');
    h = await startHarness({ policyFile, computerName: 'SHOP12-TILL3' });
    await writePolicy({
      schemaVersion: 1,
      settings: {
        baseUrl: h.sandbox.url,
        branchId: BRANCH,
        tillName: 'Till {computerName}',
        allowOfflineRedemption: false,
        theme: 'light',
      },
    });
    const key = await h.call('setApiKey', { apiKey: SERVICE_KEY });
    if (!key.ok) throw new Error(key.error.message);
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('marks each locked setting as set by the organisation, and offers no way to change it', async () => {
    const { page } = h;
    await page.keyboard.press('F9');
    await page.locator('#base-url').waitFor();
    await expect.poll(() => page.getByTestId('policy-managed').isVisible()).toBe(true);
    expect(await page.getByTestId('managed-mark').count()).toBe(5);
    expect(await page.locator('#base-url').inputValue()).toBe(h.sandbox.url);
    expect(await page.locator('#till-name').inputValue()).toBe('Till SHOP12-TILL3');
    expect(await page.locator('#base-url').getAttribute('readonly')).not.toBeNull();
    expect(await page.locator('#branch-id').getAttribute('readonly')).not.toBeNull();
    // Read-only and looking it: out of the Tab order, no box, no "optional" tag or how-to hint.
    for (const id of ['base-url', 'branch-id']) {
      expect(await page.locator(`#${id}`).getAttribute('tabindex'), id).toBe('-1');
      expect(await page.locator(`.field--locked:has(#${id})`).count(), id).toBe(1);
      expect(await page.locator(`#${id}-hint`).count(), id).toBe(0);
    }
    expect(await page.locator('label[for="branch-id"] .field__tag').count()).toBe(0);
    expect(await page.locator('#base-url').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgba(0, 0, 0, 0)',
    );
    expect(await page.locator('#theme').isDisabled()).toBe(true);
    expect(await page.locator('#allow-offline-redemption').isDisabled()).toBe(true);
    // What the policy leaves alone stays the till's to choose.
    expect(await page.locator('#country').isDisabled()).toBe(false);
    await h.screenshot('80-settings-managed');
  });

  it('saves the rest of the form with the locked values in it', async () => {
    const { page } = h;
    await page.locator('#country').selectOption('AE');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Settings saved.' }).count()).toBe(1);
    const state = await h.call('getState');
    expect(state.ok && state.data.settings).toMatchObject({ defaultCountry: 'AE', baseUrl: h.sandbox.url });
  });

  it('refuses the page changing a locked setting through the bridge directly', async () => {
    const answer = await h.page.evaluate(() =>
      (window as unknown as { till: TillApi }).till.updateSettings({ baseUrl: 'https://attacker.example.com' }),
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { baseUrl: expect.stringMatching(/organisation/) } },
    });
    const state = await h.call('getState');
    expect(state.ok && state.data.settings.baseUrl).toBe(h.sandbox.url);
  });

  it('says the same in Arabic, right to left', async () => {
    const { page } = h;
    await h.call('updateSettings', { language: 'ar' });
    await page.reload();
    await page.keyboard.press('F9');
    await expect.poll(() => page.getByTestId('managed-mark').first().textContent()).toBe('تضبطه مؤسستك');
    expect(await page.getByTestId('policy-managed').textContent()).toMatch(/تضبط مؤسستك بعض إعدادات/);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await h.screenshot('82-settings-managed-arabic');
    await h.call('updateSettings', { language: null });
  });

  it('applies nothing of a broken policy, says why in Settings, and the till works on its own settings', async () => {
    const { page } = h;
    await writePolicy({ schemaVersion: 1, settings: { baseUrl: h.sandbox.url, branchId: 'branch 7' } });
    await page.reload();
    await page.keyboard.press('F9');
    await expect
      .poll(() => page.getByTestId('policy-problem').textContent())
      .toMatch(/was not applied: some of its values are not accepted: settings\.branchId/);
    expect(await page.getByTestId('managed-mark').count()).toBe(0);
    expect(await page.locator('#base-url').getAttribute('readonly')).toBeNull();
    expect(await page.locator('#theme').isDisabled()).toBe(false);
    await h.screenshot('81-settings-policy-refused');
  });
});
