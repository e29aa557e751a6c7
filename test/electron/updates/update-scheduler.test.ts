import { describe, expect, it } from 'vitest';
import { resolveUpdateConfig, type UpdateConfig } from '../../../electron/updates/update-config';
import { createUpdateScheduler, type UpdaterPort } from '../../../electron/updates/update-scheduler';
import { createActivityBoard } from '../../../electron/updates/till-activity';
import { createCapturedLog } from '../../support/captured-log';

/** A recording updater: offers what the test says, downloads and installs nothing real. */
function fakePort(offer: { version: string; stagingPercentage?: number } | null | Error) {
  const calls: string[] = [];
  const port: UpdaterPort & { calls: string[]; installedAtQuit: boolean } = {
    calls,
    installedAtQuit: false,
    configure(_config, installAtQuit) {
      port.installedAtQuit = installAtQuit;
    },
    async check() {
      calls.push('check');
      if (offer instanceof Error) throw offer;
      return offer;
    },
    async download() {
      calls.push('download');
    },
    install() {
      calls.push('install');
    },
  };
  return port;
}

function setUp(options: { offer: Parameters<typeof fakePort>[0]; config?: Partial<UpdateConfig>; startHour?: number }) {
  let now = new Date(2026, 10, 26, options.startHour ?? 14).getTime();
  let config: UpdateConfig = {
    ...resolveUpdateConfig(undefined, { feedUrl: 'https://updates.example.com/till' }),
    ...options.config,
  };
  const port = fakePort(options.offer);
  const board = createActivityBoard();
  const log = createCapturedLog();
  const scheduler = createUpdateScheduler({
    port,
    config: () => config,
    current: '1.4.0',
    tillId: 'SHOP12-TILL3',
    idle: (at) => board.idle(at),
    clock: () => now,
    log,
  });
  return {
    port,
    board,
    log,
    scheduler,
    advance: (ms: number) => (now += ms),
    setConfig: (more: Partial<UpdateConfig>) => (config = { ...config, ...more }),
    now: () => now,
  };
}

const IDLE = { customerOpen: false, inFlight: 0, outboxDurable: true };
const HOUR = 3_600_000;

describe('the update scheduler', () => {
  it('downloads a newer version in the day, and installs it only at night when the till is idle', async () => {
    const till = setUp({ offer: { version: '1.5.0' } });
    expect(await till.scheduler.tick()).toEqual({ state: 'ready', version: '1.5.0' });
    expect(till.port.calls).toEqual(['check', 'download']);
    expect(till.port.installedAtQuit).toBe(true);

    // The afternoon: idle or not, nothing installs.
    till.board.report(IDLE, till.now());
    await till.scheduler.tick();
    expect(till.port.calls).not.toContain('install');

    // 03:00, a customer open: it waits.
    till.advance(13 * HOUR);
    till.board.report({ ...IDLE, customerOpen: true }, till.now());
    expect(await till.scheduler.tick()).toEqual({ state: 'ready', version: '1.5.0' });
    // A redemption in flight: it waits.
    till.board.report({ ...IDLE, inFlight: 1 }, till.now());
    await till.scheduler.tick();
    // The outbox still writing: it waits.
    till.board.report({ ...IDLE, outboxDurable: false }, till.now());
    await till.scheduler.tick();
    expect(till.port.calls).not.toContain('install');

    till.board.report(IDLE, till.now());
    expect(await till.scheduler.tick()).toEqual({ state: 'installing', version: '1.5.0' });
    expect(till.port.calls.filter((call) => call === 'install')).toHaveLength(1);
  });

  it('does not download a downgrade, nor a version outside its stage, and says so once in the log', async () => {
    const older = setUp({ offer: { version: '1.3.0' } });
    expect(await older.scheduler.tick()).toMatchObject({ state: 'idle', note: 'downgrade' });
    expect(older.port.calls).toEqual(['check']);

    const staged = setUp({ offer: { version: '1.5.0', stagingPercentage: 0 } });
    expect(await staged.scheduler.tick()).toMatchObject({ state: 'idle', note: 'not_in_stage' });
    expect(staged.port.calls).toEqual(['check']);
    expect(staged.log.text()).toMatch(/offers 1\.5\.0; not taken \(not_in_stage\)/);
  });

  it('checks again only after checkEveryHours', async () => {
    const till = setUp({ offer: null, config: { checkEveryHours: 6 } });
    await till.scheduler.tick();
    till.advance(5 * HOUR);
    await till.scheduler.tick();
    expect(till.port.calls).toEqual(['check']);
    till.advance(HOUR);
    await till.scheduler.tick();
    expect(till.port.calls).toEqual(['check', 'check']);
  });

  it('is off when the policy says so: no check, no install at quit, even with a download ready', async () => {
    const off = setUp({ offer: { version: '1.5.0' }, config: { enabled: false } });
    expect(await off.scheduler.tick()).toEqual({ state: 'off' });
    expect(off.port.calls).toEqual([]);

    const turnedOff = setUp({ offer: { version: '1.5.0' }, startHour: 3 });
    await turnedOff.scheduler.tick();
    turnedOff.setConfig({ enabled: false });
    turnedOff.board.report(IDLE, turnedOff.now());
    expect(await turnedOff.scheduler.tick()).toEqual({ state: 'off' });
    expect(turnedOff.port.calls).not.toContain('install');
    expect(turnedOff.port.installedAtQuit).toBe(false);
  });

  it('drops a download the policy no longer wants: pinned elsewhere since, not installed at night or at quit', async () => {
    const till = setUp({ offer: { version: '1.6.0' }, startHour: 3 });
    expect(await till.scheduler.tick()).toEqual({ state: 'ready', version: '1.6.0' });
    expect(till.port.installedAtQuit).toBe(true);
    till.setConfig({ pinVersion: '1.5.0' });
    till.board.report(IDLE, till.now());
    await till.scheduler.tick();
    expect(till.port.calls).not.toContain('install');
    expect(till.port.installedAtQuit).toBe(false);
    expect(till.log.text()).toMatch(/1\.6\.0 is no longer wanted/);
  });

  it('lives through a feed that cannot be read, and tries again at the next check', async () => {
    const till = setUp({ offer: new Error('getaddrinfo ENOTFOUND updates.example.com') });
    expect(await till.scheduler.tick()).toMatchObject({ state: 'idle', note: 'check_failed' });
    expect(till.log.text()).toMatch(/could not be read \(.*ENOTFOUND/);
  });
});
