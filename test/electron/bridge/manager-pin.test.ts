import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const PIN = '739164';
const KEY = 'sk_live_manager_pin_test_0001';
const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

async function tillWithPin() {
  let now = 5_000_000;
  const till = await createCoreFixture({ pinNow: () => now });
  fixtures.push(till);
  const answers: unknown[] = [];
  const call = async (...args: Parameters<CoreFixture['call']>) => {
    const answer = await till.call(...args);
    answers.push(answer);
    return answer;
  };
  expect(await call('updateSettings', { baseUrl: 'https://loyalty.example.com' })).toMatchObject({ ok: true });
  expect(await call('setApiKey', { apiKey: KEY })).toMatchObject({ ok: true });
  return { till, call, answers, pass: (ms: number) => (now += ms) };
}

const REQUIRED = { ok: false, error: { kind: 'unauthorized', code: 'manager_pin_required' } };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.filter((entry) => entry.isFile()).map((entry) => readFile(join(entry.parentPath, entry.name), 'latin1')),
  );
}

describe('the manager PIN behind the bridge', () => {
  it('is set once; the page learns only that it is set', async () => {
    const { call } = await tillWithPin();
    expect(await call('getState')).toMatchObject({ ok: true, data: { pinSet: false } });
    const set = await call('setManagerPin', { pin: PIN });
    expect(set).toMatchObject({ ok: true, data: { pinSet: true } });
    expect(JSON.stringify(set)).not.toContain(PIN);
    expect(JSON.stringify(set)).not.toMatch(/scrypt/);
  });

  it('without the PIN: the key is neither removed nor replaced, offline redemption not switched, the PIN not changed', async () => {
    const { call } = await tillWithPin();
    await call('setManagerPin', { pin: PIN });
    expect(await call('endManagerApproval')).toMatchObject({ ok: true });
    expect(await call('clearApiKey')).toMatchObject(REQUIRED);
    expect(await call('setApiKey', { apiKey: 'sk_live_someone_else_0002' })).toMatchObject(REQUIRED);
    expect(await call('updateSettings', { allowOfflineRedemption: false })).toMatchObject(REQUIRED);
    expect(await call('setManagerPin', { pin: '1111' })).toMatchObject(REQUIRED);
    expect(await call('setManagerPin', { pin: null })).toMatchObject(REQUIRED);
    expect(await call('startDemo')).toMatchObject(REQUIRED);
    // Nothing changed; settings that are not risky still save.
    expect(await call('getState')).toMatchObject({
      ok: true,
      data: {
        key: { set: true, lastFour: '0001' },
        settings: { allowOfflineRedemption: true },
        pinSet: true,
        mode: 'service',
      },
    });
    expect(await call('updateSettings', { tillName: 'Till 2', allowOfflineRedemption: true })).toMatchObject({
      ok: true,
    });
  });

  it('a wrong PIN is refused with growing waits; the right one approves what it guards', async () => {
    const { call, pass } = await tillWithPin();
    await call('setManagerPin', { pin: PIN });
    await call('endManagerApproval');
    expect(await call('verifyManagerPin', { pin: '000000' })).toEqual({
      ok: true,
      data: { accepted: false, waitSeconds: 1 },
    });
    // During the wait even the right PIN is not heard.
    expect(await call('verifyManagerPin', { pin: PIN })).toEqual({
      ok: true,
      data: { accepted: false, waitSeconds: 1 },
    });
    pass(1000);
    expect(await call('verifyManagerPin', { pin: '111111' })).toMatchObject({
      data: { accepted: false, waitSeconds: 2 },
    });
    pass(2000);
    expect(await call('verifyManagerPin', { pin: '222222' })).toMatchObject({
      data: { accepted: false, waitSeconds: 4 },
    });
    pass(4000);
    expect(await call('verifyManagerPin', { pin: PIN })).toEqual({
      ok: true,
      data: { accepted: true, waitSeconds: 0 },
    });
    expect(await call('updateSettings', { allowOfflineRedemption: false })).toMatchObject({ ok: true });
    expect(await call('clearApiKey')).toMatchObject({ ok: true, data: { key: { set: false } } });
    // The approval lasts minutes, not the shift.
    pass(10 * 60_000);
    expect(await call('updateSettings', { allowOfflineRedemption: true })).toMatchObject(REQUIRED);
  });

  it('a PIN of the wrong shape is refused beside its field, in words that do not repeat it', async () => {
    const { call } = await tillWithPin();
    const refused = await call('setManagerPin', { pin: '12ab' });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'validation', fields: { pin: expect.stringMatching(/4 to 12 digits/) } },
    });
    expect(JSON.stringify(refused)).not.toContain('12ab');
    expect(await call('verifyManagerPin', { pin: 42 })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });

  it('never appears in the log, a bridge answer, an error message or a file of the till', async () => {
    const { till, call, answers, pass } = await tillWithPin();
    await call('setManagerPin', { pin: PIN });
    await call('endManagerApproval');
    await call('verifyManagerPin', { pin: '123456' });
    await call('clearApiKey');
    pass(1000);
    await call('verifyManagerPin', { pin: PIN });
    await call('setManagerPin', { pin: '8642' });
    await call('setManagerPin', { pin: `${PIN}x` });
    expect(till.log.text()).toMatch(/wrong manager PIN/);
    for (const secret of [PIN, '8642', '123456']) {
      expect(till.log.text()).not.toContain(secret);
      for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(secret);
      for (const file of await filesUnder(till.userDataDir)) expect(file).not.toContain(secret);
    }
    await till.restart();
    expect(await till.call('getState')).toMatchObject({ data: { pinSet: true } });
    expect(await till.call('verifyManagerPin', { pin: '8642' })).toMatchObject({ data: { accepted: true } });
  });
});
