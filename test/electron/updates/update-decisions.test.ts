import { describe, expect, it } from 'vitest';
import { resolveUpdateConfig, type UpdateConfig } from '../../../electron/updates/update-config';
import {
  checkDue,
  inInstallWindow,
  judgeInstall,
  judgeOffer,
  stagingBucket,
} from '../../../electron/updates/update-decisions';
import { compareVersions } from '../../../electron/updates/versions';
import { createActivityBoard, ACTIVITY_STALE_MS } from '../../../electron/updates/till-activity';

const FEED = 'https://updates.example.com/till';
const config = (overrides: Partial<UpdateConfig> = {}): UpdateConfig => ({
  ...resolveUpdateConfig(undefined, { feedUrl: FEED }),
  ...overrides,
});
/** A local time on 26 November 2026. */
const at = (hour: number, minute = 0) => new Date(2026, 10, 26, hour, minute);

describe('versions', () => {
  it('orders as semver does, and reads nothing else as a version', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('2.0.0-beta.2', '2.0.0-beta.10')).toBe(-1);
    expect(compareVersions('2.0.0-beta.10', '2.0.0')).toBe(-1);
    expect(compareVersions('2.0.0-alpha', '2.0.0-1')).toBe(1);
    expect(compareVersions('1.4.2+build.7', '1.4.2')).toBe(0);
    expect(compareVersions('latest', '1.0.0')).toBeNull();
    expect(compareVersions('1.0', '1.0.0')).toBeNull();
  });
});

describe('taking what the feed offers', () => {
  const offer = (offered: string, more: Partial<Parameters<typeof judgeOffer>[0]> = {}) =>
    judgeOffer({ config: config(), current: '1.4.0', offered, tillId: 'SHOP12-TILL3', ...more });

  it('takes a newer version', () => {
    expect(offer('1.4.1')).toEqual({ take: true });
  });

  it('never a downgrade, nor the same version, nor a garbled one', () => {
    expect(offer('1.3.9')).toEqual({ take: false, reason: 'downgrade' });
    expect(offer('1.4.0-rc.1')).toEqual({ take: false, reason: 'downgrade' });
    expect(offer('1.4.0')).toEqual({ take: false, reason: 'same' });
    expect(offer('next')).toEqual({ take: false, reason: 'bad_version' });
  });

  it('takes nothing when the policy turns updates off, or no feed is known', () => {
    expect(offer('9.0.0', { config: config({ enabled: false }) })).toEqual({ take: false, reason: 'disabled' });
    expect(resolveUpdateConfig({ enabled: false }, { feedUrl: FEED }).enabled).toBe(false);
    expect(resolveUpdateConfig(undefined, { feedUrl: null }).enabled).toBe(false);
    expect(resolveUpdateConfig({ feedUrl: FEED }, { feedUrl: null })).toMatchObject({ enabled: true, feedUrl: FEED });
  });

  it('takes only the pinned version when one is pinned, and never below the one installed', () => {
    const pinned = config({ pinVersion: '1.5.0' });
    expect(offer('1.6.0', { config: pinned })).toEqual({ take: false, reason: 'not_pinned' });
    expect(offer('1.5.0', { config: pinned })).toEqual({ take: true });
    expect(offer('1.3.0', { config: config({ pinVersion: '1.3.0' }) })).toEqual({ take: false, reason: 'downgrade' });
  });

  it('honours the staging percentage with a bucket that is stable per till and spread over a fleet', () => {
    expect(stagingBucket('SHOP12-TILL3')).toBe(stagingBucket('SHOP12-TILL3'));
    const fleet = Array.from({ length: 1000 }, (_, i) => `SHOP${i}-TILL1`);
    const inTenPercent = fleet.filter(
      (tillId) =>
        judgeOffer({ config: config(), current: '1.4.0', offered: '1.5.0', stagingPercentage: 10, tillId }).take,
    );
    expect(inTenPercent.length).toBeGreaterThan(60);
    expect(inTenPercent.length).toBeLessThan(140);
    // Raising the percentage only adds tills: none that had it loses it.
    const inHalf = new Set(
      fleet.filter(
        (tillId) =>
          judgeOffer({ config: config(), current: '1.4.0', offered: '1.5.0', stagingPercentage: 50, tillId }).take,
      ),
    );
    expect(inTenPercent.every((tillId) => inHalf.has(tillId))).toBe(true);
    expect(offer('1.5.0', { stagingPercentage: 0 })).toEqual({ take: false, reason: 'not_in_stage' });
    expect(offer('1.5.0', { stagingPercentage: 100 })).toEqual({ take: true });
    // A pinned version is the organisation's choice for every till: staging does not hold it back.
    expect(offer('1.5.0', { stagingPercentage: 0, config: config({ pinVersion: '1.5.0' }) })).toEqual({ take: true });
  });
});

describe('when to look at the feed', () => {
  it('at once, then every checkEveryHours, never when off', () => {
    const every6 = config({ checkEveryHours: 6 });
    const t0 = at(9).getTime();
    expect(checkDue({ config: every6, now: t0, lastCheckAt: null })).toBe(true);
    expect(checkDue({ config: every6, now: t0 + 5.9 * 3_600_000, lastCheckAt: t0 })).toBe(false);
    expect(checkDue({ config: every6, now: t0 + 6 * 3_600_000, lastCheckAt: t0 })).toBe(true);
    // A clock set back does not stop checks for days.
    expect(checkDue({ config: every6, now: t0 - 3_600_000, lastCheckAt: t0 })).toBe(true);
    expect(checkDue({ config: config({ enabled: false }), now: t0, lastCheckAt: null })).toBe(false);
  });
});

describe('whether to install now', () => {
  const install = (now: Date, idle: boolean, more: Partial<Parameters<typeof judgeInstall>[0]> = {}) =>
    judgeInstall({ config: config(), now, idle, current: '1.4.0', downloaded: '1.5.0', ...more });

  it('installs in the night window while the till is idle', () => {
    expect(install(at(3, 30), true)).toEqual({ install: true });
  });

  it('never during a transaction, even at night', () => {
    expect(install(at(3, 30), false)).toEqual({ install: false, reason: 'busy' });
  });

  it('never in the day, however idle: that waits for the next quit', () => {
    expect(install(at(14), true)).toEqual({ install: false, reason: 'outside_window' });
    expect(install(at(5), true)).toEqual({ install: false, reason: 'outside_window' });
  });

  it('never a downgrade, nothing without a download, nothing when off', () => {
    expect(install(at(3), true, { downloaded: '1.3.0' })).toEqual({ install: false, reason: 'downgrade' });
    expect(install(at(3), true, { downloaded: null })).toEqual({ install: false, reason: 'nothing_downloaded' });
    expect(install(at(3), true, { config: config({ enabled: false }) })).toEqual({
      install: false,
      reason: 'disabled',
    });
  });

  it('not a download the policy has since pinned away from', () => {
    expect(install(at(3), true, { config: config({ pinVersion: '1.4.5' }) })).toEqual({
      install: false,
      reason: 'not_pinned',
    });
    expect(install(at(3), true, { config: config({ pinVersion: '1.5.0' }) })).toEqual({ install: true });
  });

  it('reads a window that runs past midnight', () => {
    const late = { fromHour: 22, toHour: 2 };
    expect(inInstallWindow(at(23), late)).toBe(true);
    expect(inInstallWindow(at(1, 59), late)).toBe(true);
    expect(inInstallWindow(at(2), late)).toBe(false);
    expect(inInstallWindow(at(12), late)).toBe(false);
  });
});

describe('the till’s activity', () => {
  const t0 = at(3).getTime();
  const idle = { customerOpen: false, inFlight: 0, outboxDurable: true };

  it('is idle only on a fresh report of no customer, nothing in flight and a durable outbox', () => {
    const board = createActivityBoard();
    expect(board.idle(t0)).toBe(false);
    board.report(idle, t0);
    expect(board.idle(t0 + 1000)).toBe(true);
    board.report({ ...idle, customerOpen: true }, t0);
    expect(board.idle(t0)).toBe(false);
    board.report({ ...idle, inFlight: 1 }, t0);
    expect(board.idle(t0)).toBe(false);
    board.report({ ...idle, outboxDurable: false }, t0);
    expect(board.idle(t0)).toBe(false);
  });

  it('counts a page that stopped reporting as busy', () => {
    const board = createActivityBoard();
    board.report(idle, t0);
    expect(board.idle(t0 + ACTIVITY_STALE_MS + 1)).toBe(false);
  });
});
