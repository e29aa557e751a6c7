import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { DEFAULT_DB_NAME } from '../../renderer/offline/db/schema';
import { checkCode, confirmRedeem, openCustomer, openOutbox, outboxCount } from './cashier';
import { startHarness, type Harness } from './harness';
import { axeViolations, horizontalOverflow, SCREENS_DIR, shoot, THEMES, useTheme } from './screen-checks';

const { layla, omar } = DEMO_FIXTURES;
const PIN = '739164';
const ROSTER = [
  { name: 'Sara Ali', number: '12' },
  { name: 'Omar K', number: null },
];

/** The POS's side: records every outcome it is sent. */
async function startPos(): Promise<{ url: string; bodies: unknown[]; close(): Promise<void> }> {
  const bodies: unknown[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(body));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/outcome`,
    bodies,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/**
 * The owner's view: two cashiers on one till (one named by a POS link, one chosen on the
 * till) attributed in the journal, its CSV, the report and the POS callback; the manager
 * PIN where it is asked, refused with a growing wait, never kept where it could be read;
 * the end-of-shift report looked at in both themes at 1024x768 and 800x600, axe clean,
 * and made into a PDF in English and in Arabic.
 */
describe('who redeemed, the manager PIN and the end-of-shift report', () => {
  let h: Harness;
  let pos: Awaited<ReturnType<typeof startPos>>;
  let pointsPrice = 0;

  beforeAll(async () => {
    pos = await startPos();
    h = await startHarness({ callbackRetryDelaysMs: [200, 500] });
    await h.configureService();
    const set = await h.call('updateSettings', { posCallbackUrl: pos.url, cashiers: ROSTER });
    if (!set.ok) throw new Error(set.error.message);
    const points = await h.call('checkReward', { reward_code: layla.rewards.availablePoints, phone: layla.phone });
    if (!points.ok) throw new Error(points.error.message);
    pointsPrice = points.data.price ?? 0;
    await h.openApp();
  });
  afterAll(async () => {
    await h?.page.setViewportSize({ width: 1366, height: 768 });
    await h?.close();
    await pos?.close();
  });

  const screen = () => h.page.locator('main').getAttribute('data-screen');
  const cashierShown = () => h.page.getByTestId('cashier-select').inputValue();

  async function downloadCsv(button: string): Promise<string[][]> {
    const [download] = await Promise.all([h.page.waitForEvent('download'), h.page.getByTestId(button).click()]);
    const text = await readFile((await download.path())!, 'utf8');
    return parseCsv(text, { relaxQuotes: true }) as string[][];
  }

  it('two cashiers redeem on one till, one named by a link and one chosen; each is attributed', async () => {
    // Sara, named by the POS by her number.
    const link = `loyalty-till://reward?code=${layla.rewards.availableProduct}&phone=${layla.phone}&order=ORD-A1&cashier=12`;
    expect(h.deliverLink(link)).toMatchObject({ accepted: true });
    await expect.poll(screen).toBe('reward');
    await expect.poll(cashierShown).toBe('Sara Ali (12)');
    // The header changed: the link's line says for whom.
    await expect.poll(() => h.page.getByTestId('link-opened').textContent()).toContain('for cashier');
    expect(await h.page.getByTestId('link-opened').textContent()).toContain('Sara Ali (12)');
    await expect.poll(() => h.page.locator('[data-testid="reward-state"]').first().textContent()).toBe('Available');
    await h.page.keyboard.press('Enter');
    await h.page.getByTestId('redeemed').waitFor();
    await expect.poll(() => pos.bodies.length).toBe(1);
    expect(pos.bodies[0]).toMatchObject({ order_reference: 'ORD-A1', cashier: 'Sara Ali (12)', outcome: 'redeemed' });

    // Omar takes over the till: chosen in the header, no password.
    await h.page.getByTestId('cashier-select').selectOption('Omar K');
    await checkCode(h.page, omar.reward, omar.phone);
    await confirmRedeem(h.page, 'ORD-B2');
    await h.page.getByTestId('redeemed').waitFor();
    await checkCode(h.page, layla.rewards.availablePoints, layla.phone);
    await confirmRedeem(h.page, 'ORD-B3');
    await h.page.getByTestId('redeemed').waitFor();
    await h.screenshot('70-cashier-chosen');
    // A redemption Omar started by hand is not a link's: the POS hears nothing of it.
    await h.settled();
    expect(pos.bodies).toHaveLength(1);
    expect(h.sandbox.redemptions().map((r) => r.order_reference)).toEqual(
      expect.arrayContaining(['ORD-A1', 'ORD-B2', 'ORD-B3']),
    );

    // The journal's CSV names each.
    await h.page.keyboard.press('F8');
    const rows = await downloadCsv('export-journal');
    const header = rows[0]!;
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    const byOrder = (order: string) => rows.find((row) => cell(row, 'order reference') === order)!;
    expect(cell(byOrder('ORD-A1'), 'cashier')).toBe('Sara Ali (12)');
    expect(cell(byOrder('ORD-B2'), 'cashier')).toBe('Omar K');
    expect(cell(byOrder('ORD-B3'), 'cashier')).toBe('Omar K');
    expect(cell(byOrder('ORD-B3'), 'points')).toBe(String(pointsPrice));
    expect(cell(byOrder('ORD-A1'), 'state')).toBe('done');

    // The report attributes each, with the points deducted.
    await h.page.keyboard.press('F7');
    await h.page.getByTestId('report-by-cashier').waitFor();
    const line = (cashier: string) =>
      h.page.locator(`[data-testid="report-by-cashier"] tr[data-cashier="${cashier}"] td`).allTextContents();
    // Done, waiting, in conflict, failed, refused (another till); points; registrations; corrections.
    await expect.poll(() => line('Sara Ali (12)')).toEqual(['1', '0', '0', '0', '0', '0', '0', '0']);
    await expect.poll(() => line('Omar K')).toEqual(['2', '0', '0', '0', '0', String(pointsPrice), '0', '0']);
    expect(await h.page.getByTestId('report-total-done').textContent()).toBe('3');
    expect(await h.page.getByTestId('report-points').textContent()).toBe(String(pointsPrice));
    const reportCsv = await downloadCsv('report-csv');
    expect(reportCsv.filter((row) => row.includes('Omar K'))).toHaveLength(2);
  });

  it('lists what is still open in the report and the CSV, each with its state, before anyone acknowledges it', async () => {
    // A customer with a reward waiting, opened online so the reward is cached.
    const list = await h.call('searchCustomers', { page: 1, per_page: 100 });
    if (!list.ok) throw new Error(list.error.message);
    let picked: { code: string; phone: string; name: string } | null = null;
    for (const candidate of list.data) {
      if ([layla.id, omar.id].includes(candidate.id as never)) continue;
      const full = await h.call('getCustomer', { id: candidate.id });
      const reward = full.ok ? full.data.rewards?.find((r) => r.status === 'available') : undefined;
      if (reward) {
        picked = { code: reward.code, phone: candidate.phone, name: candidate.name };
        break;
      }
    }
    if (!picked) throw new Error('No customer of the sandbox has a reward waiting.');
    await openCustomer(h.page, picked.phone, picked.name);

    // Offline, Omar queues it; meanwhile another till redeems it: a conflict once replayed.
    await h.stopSandbox();
    await h.otherTillRedeems({ code: picked.code, phone: picked.phone, orderReference: 'OTHER-TILL-9' });
    h.passTime(1100);
    await checkCode(h.page, picked.code, picked.phone);
    await expect
      .poll(() => h.page.getByTestId('offline-check').textContent())
      .toContain('checked against the cache of');
    await h.page.locator('#order-reference').fill('ORD-C4');
    await h.page.getByTestId('redeem-confirm').click();
    await expect
      .poll(() => h.page.getByTestId('queued').textContent())
      .toMatch(new RegExp(`^Queued: .+${picked.code} for `));
    await h.restartSandbox();
    await openOutbox(h.page);
    await h.page.getByTestId('retry-now').click();
    await expect.poll(() => outboxCount(h.page, 'conflict')).toBe(1);

    // Not acknowledged: the report and the CSV both have it, in conflict, with Omar's name.
    await h.page.keyboard.press('F7');
    const open = h.page.locator('[data-testid="report-open"] li[data-state="conflict"]');
    await expect.poll(() => open.count()).toBe(1);
    expect(await open.textContent()).toContain(picked.code);
    expect(await open.textContent()).toContain('Omar K');
    expect(await h.page.getByTestId('report-total-conflict').textContent()).toBe('1');
    await h.screenshot('72-shift-report-conflict');
    for (const button of ['report-csv'] as const) {
      const rows = await downloadCsv(button);
      const header = rows[0]!;
      const row = rows.find((r) => r[header.indexOf('order reference')] === 'ORD-C4')!;
      expect(row[header.indexOf('state')]).toBe('in conflict');
      expect(row[header.indexOf('cashier')]).toBe('Omar K');
      expect(row[header.indexOf('outcome')]).toMatch(/^redemption: The reward was already used/);
    }
    await h.page.keyboard.press('F8');
    const journal = await downloadCsv('export-journal');
    expect(journal.some((r) => r.includes('ORD-C4') && r.includes('in conflict'))).toBe(true);
  });

  it('the manager PIN: set once, asked before Settings, a wrong one refused with growing waits, the right one taken', async () => {
    await h.page.keyboard.press('F9');
    await expect.poll(screen).toBe('settings');
    await h.page.getByTestId('new-manager-pin').fill(PIN);
    await h.page.getByTestId('new-manager-pin-again').fill(PIN);
    await h.page.getByTestId('save-manager-pin').click();
    await expect.poll(() => h.page.getByTestId('manager-pin-state').textContent()).toContain('A manager PIN is set');
    await h.page.keyboard.press('Escape');
    await expect.poll(screen).not.toBe('settings');

    await h.page.keyboard.press('F9');
    await h.page.getByTestId('manager-pin-dialog').waitFor();
    expect(await screen()).not.toBe('settings');
    await h.screenshot('71-manager-pin');
    await h.page.getByTestId('manager-pin-input').fill('000000');
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.getByTestId('manager-pin-error').textContent()).toMatch(/Try again in 1 second/);
    // During the wait a PIN can be typed but not sent: Enter is answered, and the field emptied.
    const submitHeld = () => h.page.getByTestId('manager-pin-submit').getAttribute('aria-disabled');
    await h.page.getByTestId('manager-pin-input').fill('111111');
    expect(await submitHeld()).toBe('true');
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.getByTestId('manager-pin-error').textContent()).toMatch(/^\s*Not sent: wait/);
    expect(await h.page.getByTestId('manager-pin-input').inputValue()).toBe('');
    await h.page.getByTestId('manager-pin-input').fill('111111');
    await expect.poll(submitHeld, { timeout: 3000 }).toBe('false');
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.getByTestId('manager-pin-error').textContent()).toMatch(/Try again in 2 seconds/);
    await h.page.getByTestId('manager-pin-input').fill(PIN);
    await expect.poll(submitHeld, { timeout: 4000 }).toBe('false');
    await h.page.keyboard.press('Enter');
    await expect.poll(screen).toBe('settings');
    expect(await h.page.getByTestId('manager-pin-dialog').isVisible()).toBe(false);

    // A cashier added to Settings' list is offered in the header at once.
    await h.page.getByTestId('cashier-name').fill('Nour');
    await h.page.getByTestId('cashier-number').fill('B-7');
    await h.page.getByTestId('cashier-add').click();
    await expect
      .poll(() => h.page.locator('[data-testid="cashier-select"] option').allTextContents())
      .toEqual(['Not chosen', '12 · Sara Ali', 'Omar K', 'B-7 · Nour']);
    // Refused entries stay typed, with the reason beside them.
    await h.page.getByTestId('cashier-name').fill('Sam');
    await h.page.getByTestId('cashier-number').fill('12 34');
    await h.page.getByTestId('cashier-number').press('Enter');
    await expect.poll(() => h.page.locator('#cashier-error').textContent()).toContain('letters, digits or dashes');
    expect(await h.page.getByTestId('cashier-name').inputValue()).toBe('Sam');
    await h.page.getByTestId('manager-pin-settings').scrollIntoViewIfNeeded();
    await h.screenshot('73-settings-cashiers-and-pin');

    // Turning offline redemption off, within the approval: saved.
    await h.page.locator('#allow-offline-redemption').uncheck();
    await h.page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await h.call('getState')).ok && (await h.call('getState')))
      .toMatchObject({
        data: { settings: { allowOfflineRedemption: false } },
      });
    await h.page.keyboard.press('Escape');
    // Leaving Settings ends the approval: the main process refuses the key's removal now.
    await h.settled();
    expect(await h.call('clearApiKey')).toMatchObject({ ok: false, error: { code: 'manager_pin_required' } });

    // Exporting the journal and acknowledging ask too; cancelled, nothing is exported.
    await h.page.keyboard.press('F8');
    await h.page.getByTestId('export-journal').click();
    await h.page.getByTestId('manager-pin-dialog').waitFor();
    await h.page.keyboard.press('Escape');
    expect(await h.page.getByTestId('manager-pin-dialog').isVisible()).toBe(false);
    expect(await screen()).toBe('outbox');
    // With the PIN, the file comes from the main process: served once by the shell, under its secret.
    await h.page.getByTestId('export-journal').click();
    await h.page.getByTestId('manager-pin-dialog').waitFor();
    await h.page.getByTestId('manager-pin-input').fill(PIN);
    const [download] = await Promise.all([h.page.waitForEvent('download'), h.page.keyboard.press('Enter')]);
    expect(download.url()).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/__till\/download\/[A-Za-z0-9_-]{22}$/,
    );
    expect(download.suggestedFilename()).toMatch(/^loyalty-till-journal-\d{4}-\d{2}-\d{2}\.csv$/);
    expect((await readFile((await download.path())!, 'utf8')).split('\r\n')[0]).toMatch(/^time,code,customer/);
    // The manager leaves: what follows is the cashier's again.
    expect(await h.call('endManagerApproval')).toMatchObject({ ok: true });
  });

  it('the PIN is nowhere to be read: not in IndexedDB, the page’s storage, the log, a bridge answer, an error or a file', async () => {
    const stores = await h.page.evaluate(async (name) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const dump: string[] = [];
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        dump.push(
          JSON.stringify(rows, (_key, value) => (ArrayBuffer.isView(value) ? Array.from(value as Uint8Array) : value)),
        );
      }
      db.close();
      return {
        dump: dump.join('\n'),
        local: JSON.stringify({ ...localStorage }),
        session: JSON.stringify({ ...sessionStorage }),
      };
    }, DEFAULT_DB_NAME);
    expect(stores.dump.length).toBeGreaterThan(100);
    for (const where of [stores.dump, stores.local, stores.session, h.log.text()]) expect(where).not.toContain(PIN);
    const answers = await h.page.evaluate(async (pin) => {
      const till = (window as unknown as { till: Record<string, (p?: unknown) => Promise<unknown>> }).till;
      return JSON.stringify([
        await till.getState!(),
        await till.verifyManagerPin!({ pin: `${pin}9` }),
        await till.setManagerPin!({ pin: `${pin}x` }),
        await till.clearApiKey!(),
      ]);
    }, PIN);
    expect(answers).toMatch(/manager_pin_required/);
    expect(answers).not.toContain(PIN);
    const files = await readdir(h.userDataDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile()))
      expect(await readFile(join(file.parentPath, file.name), 'latin1')).not.toContain(PIN);
    expect(h.log.text()).not.toContain(PIN);
  });

  it('the report in both themes at 1024x768 and 800x600, axe clean, and as a PDF in English and Arabic', async () => {
    const findings: string[] = [];
    await h.page.keyboard.press('F7');
    await h.page.getByTestId('report-by-cashier').waitFor();
    for (const language of ['en', 'ar'] as const) {
      if (language === 'ar') {
        // The language applies at once, as Settings' picker does it.
        await h.page.evaluate(async () => {
          const till = (window as unknown as { till: { updateSettings(p: unknown): Promise<unknown> } }).till;
          await till.updateSettings({ language: 'ar' });
        });
        await h.page.reload();
        await h.page.locator('main.screen > *').first().waitFor();
        await h.page.keyboard.press('F7');
        await h.page.getByTestId('report-by-cashier').waitFor();
        await expect.poll(() => h.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        await expect.poll(() => h.page.locator('#report-title').textContent()).toBe('تقرير نهاية الوردية');
      }
      for (const theme of THEMES) {
        await useTheme(h.page, theme);
        for (const size of [
          { width: 1024, height: 768 },
          { width: 800, height: 600 },
        ]) {
          await h.page.setViewportSize(size);
          await h.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          await shoot(h.page, `shift-report-${language}`, theme, size);
          for (const v of await axeViolations(h.page))
            findings.push(`${language} ${theme} ${size.width}: axe ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
          const overflow = await horizontalOverflow(h.page);
          if (overflow > 0) findings.push(`${language} ${theme} ${size.width}: scrolls sideways by ${overflow} px`);
        }
      }
      await useTheme(h.page, 'light');
      await h.page.setViewportSize({ width: 1366, height: 768 });
      // "Save as PDF" in the browser shell opens the print dialog; Chromium's page.pdf() prints the same view.
      const pdf = await h.page.pdf({ format: 'A4', printBackground: true });
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(5000);
      await mkdir(SCREENS_DIR, { recursive: true });
      await writeFile(join(SCREENS_DIR, `shift-report-${language}.pdf`), pdf);
      // The printed page is the report alone: no header, no shortcut bar.
      await h.page.emulateMedia({ media: 'print' });
      expect(await h.page.locator('.app-header').isVisible()).toBe(false);
      expect(await h.page.locator('.shortcut-bar').isVisible()).toBe(false);
      await h.page.screenshot({ path: join(SCREENS_DIR, `shift-report-${language}-print.png`), fullPage: true });
      // Printed from the dark theme, the page is still light: dark paper wastes toner.
      await useTheme(h.page, 'dark');
      const paper = await h.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      await h.page.screenshot({ path: join(SCREENS_DIR, `shift-report-${language}-print-dark.png`), fullPage: true });
      const [red, green, blue] = paper.match(/\d+/g)!.map(Number);
      expect(Math.min(red!, green!, blue!)).toBeGreaterThan(200);
      await useTheme(h.page, 'light');
      await h.page.emulateMedia({ media: 'screen' });
    }
    expect(findings).toEqual([]);
  });
});
