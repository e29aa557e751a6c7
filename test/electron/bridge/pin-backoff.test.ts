import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPin } from '../../../electron/storage/manager-pin';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const PIN = '739164';
const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

/** A till with a PIN, after six wrong tries, each heard once its wait had passed. */
async function afterSixWrongTries() {
  let now = 7_000_000;
  const till = await createCoreFixture({ pinNow: () => now });
  fixtures.push(till);
  expect(await till.call('setManagerPin', { pin: PIN })).toMatchObject({ ok: true });
  await till.call('endManagerApproval');
  let wait = 0;
  for (let wrong = 0; wrong < 6; wrong++) {
    now += wait * 1000;
    const answer = await till.call('verifyManagerPin', { pin: `00000${wrong}` });
    expect(answer).toMatchObject({ ok: true, data: { accepted: false } });
    wait = answer.ok ? answer.data.waitSeconds : 0;
  }
  expect(wait).toBe(32);
  return { till, file: join(till.userDataDir, 'manager-pin.json'), pass: (ms: number) => (now += ms) };
}

const REFUSED_UNHEARD = { ok: true, data: { accepted: false, waitSeconds: expect.any(Number) } };

describe('the manager PIN’s back-off across restarts', () => {
  it('six wrong PINs, a new core on the same folder: the right PIN during the wait is refused', async () => {
    const { till, file, pass } = await afterSixWrongTries();
    await till.restart();
    const during = await till.call('verifyManagerPin', { pin: PIN });
    expect(during).toMatchObject(REFUSED_UNHEARD);
    expect(during.ok && during.data.waitSeconds).toBeGreaterThan(0);
    // Kept with the PIN file, private to the till's account.
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Restarting again and again does not shorten it either.
    for (let restart = 0; restart < 3; restart++) {
      await till.restart();
      expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject(REFUSED_UNHEARD);
    }
    pass(32_000);
    expect(await till.call('verifyManagerPin', { pin: PIN })).toEqual({
      ok: true,
      data: { accepted: true, waitSeconds: 0 },
    });
  });

  it('the next wrong PIN after a restart waits longer still: the count is kept too', async () => {
    const { till, pass } = await afterSixWrongTries();
    await till.restart();
    pass(32_000);
    expect(await till.call('verifyManagerPin', { pin: '123123' })).toEqual({
      ok: true,
      data: { accepted: false, waitSeconds: 64 },
    });
  });

  it('a counter edited down or removed by hand never lowers the wait', async () => {
    const { till, file } = await afterSixWrongTries();
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(saved.managerPinHash).toEqual(expect.stringMatching(/^\$scrypt\$/));
    // While the till runs, the file is not what it goes by.
    await writeFile(file, JSON.stringify({ managerPinHash: saved.managerPinHash }));
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject(REFUSED_UNHEARD);
    // After a restart, a lowered count does not undo the wait the file gives.
    const tries = saved.tries as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...saved, tries: { ...tries, wrongInARow: 0 } }));
    await till.restart();
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject(REFUSED_UNHEARD);
  });

  it('a wait the file puts beyond the longest one is cut to it: a wrong clock never locks the till', async () => {
    const { till, file, pass } = await afterSixWrongTries();
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...saved, tries: { wrongInARow: 6, heardAgainAt: 9e15 } }));
    await till.restart();
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject(REFUSED_UNHEARD);
    pass(5 * 60_000);
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject({ data: { accepted: true } });
  });

  it('with the PIN from the policy, the back-off is kept in the till’s own file, without a hash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'till-policy-pin-'));
    const policyFile = join(dir, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ schemaVersion: 1, managerPinHash: await hashPin(PIN) }));
    let now = 3_000_000;
    const till = await createCoreFixture({ policyFile, pinNow: () => now });
    fixtures.push(till);
    try {
      expect(await till.call('verifyManagerPin', { pin: '000000' })).toMatchObject({ data: { waitSeconds: 1 } });
      now += 1000;
      expect(await till.call('verifyManagerPin', { pin: '000001' })).toMatchObject({ data: { waitSeconds: 2 } });
      const kept = JSON.parse(await readFile(join(till.userDataDir, 'manager-pin.json'), 'utf8')) as object;
      expect(kept).toEqual({ tries: { wrongInARow: 2, heardAgainAt: now + 2000 } });
      await till.restart();
      expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject(REFUSED_UNHEARD);
      now += 2000;
      expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject({ data: { accepted: true } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
