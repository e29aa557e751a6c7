import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPin, openManagerPinStore, pinMatches } from '../../../electron/storage/manager-pin';
import { APPROVAL_MS, MAX_WAIT_MS, createPinGuard } from '../../../electron/storage/pin-guard';
import { createCapturedLog } from '../../support/captured-log';

// Cheap enough for tests; the app's default cost is checked once below.
const COST = { N: 2 ** 10, r: 8, p: 1 };
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function guardWithClock() {
  const dir = await mkdtemp(join(tmpdir(), 'till-pin-'));
  dirs.push(dir);
  const file = join(dir, 'manager-pin.json');
  let now = 1_000_000;
  const store = await openManagerPinStore({ file, log: createCapturedLog() });
  const guard = createPinGuard({ store, now: () => now, cost: COST });
  return { guard, file, dir, pass: (ms: number) => (now += ms) };
}

describe('the manager PIN at rest', () => {
  it('is a salted scrypt hash: two hashes of one PIN differ, each matches only that PIN', async () => {
    const a = await hashPin('4821', COST);
    const b = await hashPin('4821', COST);
    // The PHC string format, the one an organisation's policy gives too.
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('4821');
    expect(await pinMatches('4821', a)).toBe(true);
    expect(await pinMatches('4822', a)).toBe(false);
    expect(await pinMatches('4821', 'scrypt$1$1$1$xx$yy')).toBe(false);
    expect(await pinMatches('4821', 'plain:4821')).toBe(false);
  });

  it('uses a slow cost by default (2^15), which Node accepts', async () => {
    const slow = await hashPin('4821');
    expect(slow).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    expect(await pinMatches('4821', slow)).toBe(true);
  });

  it('is kept as managerPinHash in a file of its own, mode 0600, and survives a restart', async () => {
    const { guard, file } = await guardWithClock();
    await guard.set('482193');
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ managerPinHash: expect.stringMatching(/^\$scrypt\$ln=/) });
    expect(text).not.toContain('482193');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const reopened = createPinGuard({
      store: await openManagerPinStore({ file, log: createCapturedLog() }),
      cost: COST,
    });
    expect(reopened.isSet()).toBe(true);
    expect((await reopened.verify('482193')).accepted).toBe(true);
  });
});

describe('the PIN check', () => {
  it('refuses wrong PINs with waits that double (1, 2, 4, 8 s), unheard during the wait, then takes the right one', async () => {
    const { guard, pass } = await guardWithClock();
    await guard.set('4821');
    guard.endApproval();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const verdict = await guard.verify('0000');
      expect(verdict).toMatchObject({ accepted: false, reason: 'wrong' });
      waits.push(verdict.waitSeconds);
      // Even the right PIN is not heard during the wait, and does not lengthen it.
      expect(await guard.verify('4821')).toEqual({ accepted: false, waitSeconds: verdict.waitSeconds, reason: 'wait' });
      pass(verdict.waitSeconds * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    expect(guard.approved()).toBe(false);
    expect(await guard.verify('4821')).toEqual({ accepted: true, waitSeconds: 0 });
    expect(guard.approved()).toBe(true);
    // The back-off starts again from one second after a right PIN.
    expect((await guard.verify('1111')).waitSeconds).toBe(1);
  });

  it('caps the wait at five minutes', async () => {
    const { guard, pass } = await guardWithClock();
    await guard.set('4821');
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (await guard.verify('9999')).waitSeconds;
      pass(last * 1000);
    }
    expect(last).toBe(MAX_WAIT_MS / 1000);
  });

  it('takes tries sent together one at a time: only the first is heard', async () => {
    const { guard } = await guardWithClock();
    await guard.set('4821');
    const verdicts = await Promise.all(['0001', '0002', '0003', '4821'].map((pin) => guard.verify(pin)));
    expect(verdicts.map((v) => (v.accepted ? 'ok' : v.reason))).toEqual(['wrong', 'wait', 'wait', 'wait']);
  });

  it('approves for a few minutes, until ended; without a PIN set everything is approved', async () => {
    const { guard, pass } = await guardWithClock();
    expect(guard.approved()).toBe(true);
    expect(await guard.verify('4821')).toMatchObject({ accepted: false, reason: 'not_set' });
    await guard.set('4821');
    expect(guard.approved()).toBe(true);
    pass(APPROVAL_MS);
    expect(guard.approved()).toBe(false);
    await guard.verify('4821');
    expect(guard.approved()).toBe(true);
    guard.endApproval();
    expect(guard.approved()).toBe(false);
  });

  it('a PIN of the wrong shape is a wrong PIN', async () => {
    const { guard } = await guardWithClock();
    await guard.set('4821');
    expect(await guard.verify('48 21')).toMatchObject({ accepted: false, reason: 'wrong' });
  });
});
