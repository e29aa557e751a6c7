import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CHANNELS } from '../../../common/contract';
import { DISPLAY_CHANNELS, type CustomerPhoneEntry, type DisplayModel } from '../../../common/display-model';
import { createDisplayHub } from '../../../electron/display/display-hub';
import { isDisplayPage } from '../../../electron/display/display-page';
import { createCapturedLog } from '../../support/captured-log';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

// The display's page is on an origin of its own, `app://display`; the till's on `app://till`.
const DISPLAY = { url: 'app://display/display.html' };
const TILL = { url: 'app://till/index.html' };

const MODEL: DisplayModel = {
  view: {
    kind: 'customer',
    name: 'Sara A.',
    cards: [{ programme: 'Coffee Club', points: 180 }],
    rewards: [
      {
        name: 'Free coffee',
        description: null,
        products: { quantity: 1, choices: 2 },
        expiresOn: '2026-12-01',
        expiresThisWeek: true,
      },
    ],
  },
  programme: 'Coffee Club',
  asOf: null,
  language: 'ar',
  digits: 'arab',
  theme: 'dark',
  idleSeconds: 30,
  revision: 3,
};

describe('the customer display hub', () => {
  let now = 0;
  const handed: CustomerPhoneEntry[] = [];
  let listening = true;
  const log = createCapturedLog();
  const hub = createDisplayHub({
    log,
    now: () => now,
    toTill: (message) => listening && handed.push(message) > 0,
    isDisplaySender: (sender) => isDisplayPage(sender?.url, 'app://display'),
  });
  const enter = (digits: unknown, sender: { url: string } = DISPLAY) =>
    hub.handlers[DISPLAY_CHANNELS.enterPhone](sender, { digits });

  beforeEach(() => {
    handed.length = 0;
    listening = true;
    now += 10 * 60_000;
  });

  test('hands a typed phone to the till page, digits only, and logs none of it', async () => {
    expect(await enter('0501234567')).toEqual({ accepted: true });
    expect(handed).toEqual([{ digits: '0501234567', receivedAt: expect.any(String) }]);
    expect(log.text()).not.toContain('0501234567');
  });

  test('at most five entries a minute, then a wait that ends', async () => {
    for (let i = 0; i < 5; i++) expect(await enter(`05012345${60 + i}`)).toEqual({ accepted: true });
    now += 20_000;
    expect(await enter('0501234599')).toEqual({ accepted: false, reason: 'wait', waitSeconds: 40 });
    expect(handed).toHaveLength(5);
    now += 40_000;
    expect(await enter('0501234599')).toEqual({ accepted: true });
  });

  test('refuses what is not 4 to 15 digits, a page that is not the display, and says when no till listens', async () => {
    for (const bad of ['12', '0501234567x', '+966501234567', 'x'.repeat(16), 42, null])
      expect(await enter(bad)).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(await enter('0501234567', TILL)).toMatchObject({ accepted: false, reason: 'forbidden_sender' });
    expect(await enter('0501234567', { url: 'https://evil.example/display.html' })).toMatchObject({
      reason: 'forbidden_sender',
    });
    expect(await hub.handlers[DISPLAY_CHANNELS.currentModel](TILL, undefined)).toMatchObject({
      reason: 'forbidden_sender',
    });
    listening = false;
    expect(await enter('0501234567')).toMatchObject({ accepted: false, reason: 'no_till' });
    expect(handed).toEqual([]);
  });
});

describe('showOnDisplay at the bridge', () => {
  let fixture: CoreFixture;
  beforeEach(async () => {
    fixture = await createCoreFixture();
  });
  afterEach(() => fixture.dispose());

  test('pushes the model to every display attached, and keeps it for one that opens', async () => {
    const seen: DisplayModel[] = [];
    const release = fixture.core.display.attach((model) => seen.push(model));
    expect(await fixture.call('showOnDisplay', MODEL)).toEqual({ ok: true, data: { displays: 1 } });
    expect(seen).toEqual([MODEL]);
    expect(await fixture.core.display.handlers[DISPLAY_CHANNELS.currentModel](DISPLAY, undefined)).toEqual(MODEL);
    release();
    expect(await fixture.call('showOnDisplay', MODEL)).toEqual({ ok: true, data: { displays: 0 } });
  });

  test.each([
    ['a phone', { ...MODEL, view: { ...MODEL.view, phone: '+966501234567' } }],
    ['an email', { ...MODEL, email: 'sara@example.com' }],
    [
      'a reward code',
      { ...MODEL, view: { kind: 'check', verdict: 'available', reward: { ...rewardOf(), code: 'RW-ABC123' } } },
    ],
    ['a customer id', { ...MODEL, view: { ...MODEL.view, id: '9b7c8a1e-0000-4000-8000-000000000000' } }],
    [
      'an order reference',
      {
        ...MODEL,
        view: { kind: 'redeemed', reward: rewardOf(), points: null, queued: false, order_reference: 'POS-1' },
      },
    ],
    ['a birthday', { ...MODEL, view: { ...MODEL.view, birthday: '1990-04-12' } }],
    ['a control character', { ...MODEL, programme: 'Coffee\u202eClub' }],
  ])('refuses a model that carries %s, and pushes nothing of it', async (_what, model) => {
    const seen: unknown[] = [];
    fixture.core.display.attach((pushed) => seen.push(pushed));
    const result = await fixture.call('showOnDisplay', model);
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(seen).toEqual([]);
  });

  test('only the display page, on the display’s own origin, may call the display channels', async () => {
    expect(isDisplayPage('app://display/display.html', 'app://display')).toBe(true);
    expect(isDisplayPage('http://127.0.0.1:4001/display', 'http://127.0.0.1:4001')).toBe(true);
    // The display's page as the till's origin once served it is not the display any more.
    expect(isDisplayPage('app://till/display.html', 'app://display')).toBe(false);
    expect(isDisplayPage('http://127.0.0.1:4000/display', 'http://127.0.0.1:4001')).toBe(false);
    expect(isDisplayPage('app://display/index.html', 'app://display')).toBe(false);
    expect(isDisplayPage('app://evil/display.html', 'app://display')).toBe(false);
    expect(isDisplayPage(undefined, 'app://display')).toBe(false);
    // A core told of no display hears none.
    expect(isDisplayPage('app://display/display.html', undefined)).toBe(false);
  });

  test('the till’s channels refuse the display’s origin: its page never gets the data key or the state', async () => {
    for (const operation of ['dataKey', 'getState', 'searchCustomers'] as const) {
      const answer = await fixture.core.handlers[CHANNELS[operation]](DISPLAY, undefined);
      expect(answer, operation).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    }
    // And the display channels refuse the till's page.
    expect(await fixture.core.display.handlers[DISPLAY_CHANNELS.currentModel](TILL, undefined)).toMatchObject({
      reason: 'forbidden_sender',
    });
  });
});

function rewardOf() {
  return MODEL.view.kind === 'customer' ? MODEL.view.rewards[0]! : (undefined as never);
}
