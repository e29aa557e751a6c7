import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_KEY_FILE } from '../../electron/storage/data-key';
import { WORK_COPY_FILE } from '../../electron/work-copy/work-copy';
import { DEFAULT_DB_NAME } from '../../renderer/offline/db/schema';
import { DEMO_FIXTURES } from '../../sandbox';
import { checkCode, openCustomer } from './cashier';
import { startHarness, type Harness } from './harness';

/**
 * "Forget this till's data" through the real page (docs/privacy.md#forgetting-a-till): in
 * Settings' "About this till", a question that says what is deleted, the manager PIN asked
 * again though Settings was opened with it a minute before, a second question naming the
 * redemption still waiting and what is lost with it; then the data key destroyed (a new one
 * made), the main process's copy deleted, the page's database deleted, and the till blank,
 * saying why. The redemption lost is never sent, even once the service is back. Then a switch
 * to another service from Settings, with a redemption waiting: the same question, and the
 * same forgetting, said as a switch.
 */
const { layla } = DEMO_FIXTURES;
const PIN = '739164';
const ORDER = 'ORD-FORGET-1';

/** How many records each store of the till's database holds; null when the database does not exist. */
function countStores(page: Page): Promise<Record<string, number> | null> {
  return page.evaluate(async (name) => {
    const known = await indexedDB.databases();
    if (!known.some((db) => db.name === name)) return null;
    return new Promise<Record<string, number>>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const names = [...db.objectStoreNames];
        const counts: Record<string, number> = {};
        const tx = db.transaction(names, 'readonly');
        for (const store of names) {
          const count = tx.objectStore(store).count();
          count.onsuccess = () => (counts[store] = count.result);
        }
        tx.oncomplete = () => {
          db.close();
          resolve(counts);
        };
      };
    });
  }, DEFAULT_DB_NAME);
}

async function givePin(page: Page): Promise<void> {
  await page.getByTestId('manager-pin-dialog').waitFor();
  await page.getByTestId('manager-pin-input').fill(PIN);
  await page.getByTestId('manager-pin-submit').click();
  await expect.poll(() => page.getByTestId('manager-pin-dialog').isVisible()).toBe(false);
}

describe('Forget this till’s data', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    const offline = await h.call('updateSettings', { allowOfflineRedemption: true });
    if (!offline.ok) throw new Error(offline.error.message);
    const pin = await h.call('setManagerPin', { pin: PIN });
    if (!pin.ok) throw new Error(pin.error.message);
    await h.call('endManagerApproval');
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('with a redemption waiting: asked twice and the PIN again, then the key, the copy and the database are gone, and the till says why', async () => {
    const { page } = h;
    // A till at work: Layla cached, then the service out of reach and her reward queued.
    await openCustomer(page, layla.phone, layla.name);
    await h.settled();
    await h.stopSandbox();
    await checkCode(page, layla.rewards.availableProduct, layla.phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill(ORDER);
    await page.getByTestId('redeem-confirm').click();
    await expect.poll(() => page.getByTestId('queued').textContent()).toMatch(/^Queued: /);
    await expect.poll(() => page.getByTestId('header-outbox-pending').textContent()).toBe('1 waiting');
    const before = await countStores(page);
    expect(before?.outbox).toBe(1);
    expect(before?.customerBlocks).toBeGreaterThan(0);
    expect(h.core.workCopy.items()).toHaveLength(1);
    const oldSealedKey = await readFile(join(h.userDataDir, DATA_KEY_FILE));
    const oldGrant = await h.call('dataKey');
    if (!oldGrant.ok) throw new Error('no data key');

    // Settings, opened with the PIN; "About this till" at its foot.
    await page.keyboard.press('F9');
    await givePin(page);
    const button = page.getByTestId('forget-till-button');
    await button.scrollIntoViewIfNeeded();
    await h.screenshot('90-forget-about-till');

    // The first question: what is deleted, what stays. Cancel is where focus starts.
    await button.click();
    await page.getByTestId('forget-confirm').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('forget-confirm-cancel');
    const question = await page.getByTestId('forget-confirm').textContent();
    expect(question).toContain('Forget this till’s data?');
    expect(question).toContain('cannot be brought back');
    expect(question).toContain('The settings, the service key and the manager PIN stay.');
    await h.screenshot('91-forget-confirm');
    // Esc is the dialog's Cancel, and does not leave Settings.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('forget-confirm').isVisible()).toBe(false);
    expect(await button.isVisible()).toBe(true);
    await button.click();
    await page.getByTestId('forget-confirm-confirm').click();

    // The PIN again, though the one that opened Settings is still within its minutes.
    await page.getByTestId('manager-pin-dialog').waitFor();
    expect(await page.getByTestId('manager-pin-dialog').textContent()).toContain(
      'Forgetting this till’s data cannot be undone',
    );
    await h.screenshot('92-forget-pin');
    await givePin(page);

    // The second question names what waits and what is lost with it.
    await page.getByTestId('forget-waiting').waitFor();
    const loss = await page.getByTestId('forget-waiting').textContent();
    expect(loss).toContain('1 item still waits to be sent');
    expect(loss).toContain(
      'Forgetting this till’s data deletes it: 1 redemption, queued while the loyalty service could not be reached.',
    );
    expect(loss).toContain('It will never reach the loyalty service');
    expect(await page.getByTestId('forget-waiting-confirm').textContent()).toContain('Lose 1 item and forget');
    await h.screenshot('93-forget-waiting');
    // Nothing is gone yet.
    expect(h.core.workCopy.items()).toHaveLength(1);
    expect((await readFile(join(h.userDataDir, DATA_KEY_FILE))).equals(oldSealedKey)).toBe(true);

    const callsBefore = h.bridgeCalls.length;
    await page.getByTestId('forget-waiting-confirm').click();
    // The page starts again, blank, and says why.
    await page.getByTestId('data-notice').waitFor({ timeout: 15_000 });
    const notice = await page.getByTestId('data-notice').textContent();
    expect(notice).toMatch(/This till’s data was forgotten at .+ by the manager; the offline cache fills again\./);
    expect(await page.getByTestId('data-notice').getAttribute('data-reason')).toBe('forgotten');
    await expect.poll(() => page.getByTestId('header-outbox-pending').count()).toBe(0);
    await h.screenshot('94-forget-notice');

    // The data key destroyed and a new one made; the main process's copy deleted.
    expect((await readFile(join(h.userDataDir, DATA_KEY_FILE))).equals(oldSealedKey)).toBe(false);
    const newGrant = await h.call('dataKey');
    expect(newGrant).toMatchObject({ ok: true, data: { state: 'ready' } });
    expect(newGrant.ok && newGrant.data.key).not.toBe(oldGrant.data.key);
    expect(h.core.workCopy.items()).toEqual([]);
    expect(h.core.workCopy.read().journalTotal).toBe(0);
    const names = await readdir(h.userDataDir);
    if (names.includes(WORK_COPY_FILE)) {
      const text = await readFile(join(h.userDataDir, WORK_COPY_FILE), 'utf8');
      expect(text).not.toContain(layla.rewards.availableProduct);
    }
    expect(h.log.text()).toMatch(/1 item\(s\) waiting in the outbox were lost, as the manager confirmed/);

    // The page's database: deleted, and opened again empty by the till starting blank.
    const after = await countStores(page);
    for (const [store, count] of Object.entries(after ?? {})) {
      if (store !== 'meta') expect(count, store).toBe(0);
    }

    // The notice is read once; the service comes back, and the lost redemption is never sent.
    await page.getByTestId('data-notice-seen').click();
    await expect.poll(() => page.getByTestId('data-notice').count()).toBe(0);
    await h.restartSandbox();
    await page.reload();
    await page.locator('main.screen > *').first().waitFor();
    expect(await page.getByTestId('data-notice').count()).toBe(0);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await h.settled();
    expect(h.allRedemptions().filter((one) => one.code === layla.rewards.availableProduct)).toEqual([]);
    const sentSince = h.bridgeCalls.slice(callsBefore).filter((call) => call.channel === 'till:rewards:redeem');
    expect(sentSince).toEqual([]);
  });

  it('switching to another service with a redemption waiting: asked what is lost, then forgotten the same way', async () => {
    const { page } = h;
    await openCustomer(page, layla.phone, layla.name);
    await h.settled();
    await h.stopSandbox();
    await checkCode(page, layla.rewards.availableProduct, layla.phone);
    await expect.poll(() => page.getByTestId('offline-check').textContent()).toContain('checked against the cache of');
    await page.locator('#order-reference').fill('ORD-SWITCH-1');
    await page.getByTestId('redeem-confirm').click();
    await expect.poll(() => page.getByTestId('queued').textContent()).toMatch(/^Queued: /);
    expect(h.core.workCopy.items()).toHaveLength(1);
    const oldGrant = await h.call('dataKey');
    if (!oldGrant.ok) throw new Error('no data key');

    // Settings: another service's address, saved.
    await page.keyboard.press('F9');
    await givePin(page);
    await page.locator('#base-url').fill('http://127.0.0.1:9');
    await page.locator('button[form="settings-form"]').click();

    // Refused while the redemption waits: the question names it and what is lost.
    await page.getByTestId('switch-waiting').waitFor();
    const loss = await page.getByTestId('switch-waiting').textContent();
    expect(loss).toContain('1 item still waits to be sent');
    expect(loss).toContain(
      'Switching to another service deletes it: 1 redemption, queued while the loyalty service could not be reached.',
    );
    expect(h.core.workCopy.items()).toHaveLength(1);
    let state = await h.call('getState');
    expect(state.ok && state.data.settings.baseUrl).not.toBe('http://127.0.0.1:9');

    // Confirmed: saved, the old service's data forgotten, the page blank and saying why.
    await page.getByTestId('switch-waiting-confirm').click();
    await page.getByTestId('data-notice').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('data-notice').getAttribute('data-reason')).toBe('switched');
    expect(await page.getByTestId('data-notice').textContent()).toMatch(
      /switched to another service or programme at .+; the offline cache fills again\./,
    );
    state = await h.call('getState');
    expect(state.ok && state.data.settings.baseUrl).toBe('http://127.0.0.1:9');
    expect(state.ok && state.data.forgotten?.why).toBe('switch');
    expect(h.core.workCopy.items()).toEqual([]);
    const newGrant = await h.call('dataKey');
    expect(newGrant.ok && newGrant.data.key).not.toBe(oldGrant.data.key);
    const after = await countStores(page);
    for (const [store, count] of Object.entries(after ?? {})) {
      if (store !== 'meta') expect(count, store).toBe(0);
    }
  });
});
