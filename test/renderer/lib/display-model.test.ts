import { describe, expect, it } from 'vitest';
import { displayView, firstNameAndInitial, type TillScene } from '../../../renderer/lib/display-model';
import { bakeryCard, card, COFFEE_CLUB_ID, customer, reward } from '../support/fake-till';

const NOW = new Date('2026-11-27T10:00:00Z');
const LAYLA = customer({
  email: 'layla@example.com',
  birthday: '1990-04-12',
  cards: [bakeryCard(40), card(180)],
  rewards: [
    reward({ expires_at: '2026-11-30T10:00:00Z', allowed_products: { quantity: 2, products_list: ['p-1', 'p-2'] } }),
    reward({ code: 'RW-LAYLA002', name: 'Cake', expires_at: '2027-01-18T10:00:00Z' }),
  ],
});

function scene(overrides: Partial<TillScene> = {}, rewardPart: Partial<TillScene['reward']> = {}): TillScene {
  return {
    screen: 'find',
    blanked: false,
    lookingUp: false,
    notFound: false,
    customer: null,
    tillProgramId: COFFEE_CLUB_ID,
    reward: {
      checked: null,
      offlineVerdict: null,
      redemption: null,
      queued: false,
      refused: null,
      customer: null,
      ...rewardPart,
    },
    now: NOW,
    ...overrides,
  };
}

/** Nothing the customer could be found by, in any view. */
function expectSanitised(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of [
    '50 123 4567',
    '501234567',
    'layla@example.com',
    '1990-04-12',
    'Haddad',
    LAYLA.id,
    'CC-0',
    'BK-0',
    'p-1',
  ])
    expect(text).not.toContain(secret);
  expect(text).not.toMatch(/RW-/);
}

describe('the customer display’s model', () => {
  it('says a first name and an initial, never the whole name', () => {
    expect(firstNameAndInitial('Layla Haddad')).toBe('Layla H.');
    expect(firstNameAndInitial('  Omar  bin   Saeed Al-Farsi ')).toBe('Omar A.');
    expect(firstNameAndInitial('Cher')).toBe('Cher');
    expect(firstNameAndInitial('ليلى حداد')).toBe('ليلى ح.');
    expect(firstNameAndInitial('Łukasz Żółkiewski')).toBe('Łukasz Ż.');
  });

  it('a customer: points by programme, this till’s first, rewards with what they give and their expiry', () => {
    const view = displayView(scene({ screen: 'customer', customer: LAYLA }));
    expect(view).toEqual({
      kind: 'customer',
      name: 'Layla H.',
      cards: [
        { programme: 'Coffee Club', points: 180 },
        { programme: 'Bakery Points', points: 40 },
      ],
      rewards: [
        {
          name: 'Free coffee',
          description: null,
          products: { quantity: 2, choices: 2 },
          expiresOn: '2026-11-30',
          expiresThisWeek: true,
        },
        {
          name: 'Cake',
          description: null,
          products: { quantity: 1, choices: 0 },
          expiresOn: '2027-01-18',
          expiresThisWeek: false,
        },
      ],
    });
    expectSanitised(view);
  });

  it('a check: the verdict from the service, or from the cache while offline', () => {
    const checked = reward();
    const online = displayView(scene({ screen: 'reward' }, { checked, customer: LAYLA }));
    expect(online).toMatchObject({ kind: 'check', verdict: 'available', reward: { name: 'Free coffee' } });
    expectSanitised(online);
    expect(displayView(scene({ screen: 'reward' }, { checked: reward({ status: 'redeemed' }) }))).toMatchObject({
      verdict: 'used',
    });
    expect(displayView(scene({ screen: 'reward' }, { checked, offlineVerdict: 'available' }))).toMatchObject({
      verdict: 'available-offline',
    });
    expect(displayView(scene({ screen: 'reward' }, { checked, offlineVerdict: 'pending' }))).toMatchObject({
      verdict: 'used',
    });
    expect(displayView(scene({ screen: 'reward' }, { checked, offlineVerdict: 'expired' }))).toMatchObject({
      verdict: 'expired',
    });
  });

  it('a redemption: the points before and after from the card the service returned', () => {
    const breakfast = reward({ type: 'points', price: 50, name: 'Breakfast' });
    const view = displayView(
      scene({ screen: 'reward' }, { checked: breakfast, redemption: { reward: breakfast, card: card(130) } }),
    );
    expect(view).toMatchObject({ kind: 'redeemed', points: { before: 180, after: 130, cost: 50 }, queued: false });
    expectSanitised(view);
  });

  it('queued offline: the points from this till’s card; refused: the reward was used', () => {
    const breakfast = reward({ type: 'points', price: 50, name: 'Breakfast' });
    expect(
      displayView(scene({ screen: 'reward' }, { checked: breakfast, queued: true, customer: LAYLA })),
    ).toMatchObject({
      kind: 'redeemed',
      points: { before: 180, after: 130, cost: 50 },
      queued: true,
    });
    expect(displayView(scene({ screen: 'reward' }, { checked: breakfast, refused: 'used' }))).toMatchObject({
      kind: 'refused',
      reward: { name: 'Breakfast' },
    });
    // Refused for another reason (offline redemption off, the shop split): not "already used".
    expect(displayView(scene({ screen: 'reward' }, { checked: breakfast, refused: 'other' }))).toMatchObject({
      kind: 'check',
      verdict: 'unavailable',
    });
  });

  it('blank over everything; not found only on Register after the customer typed; idle otherwise', () => {
    expect(displayView(scene({ screen: 'customer', customer: LAYLA, blanked: true }))).toEqual({ kind: 'blank' });
    expect(displayView(scene({ lookingUp: true }))).toEqual({ kind: 'looking-up' });
    expect(displayView(scene({ screen: 'register', notFound: true }))).toEqual({ kind: 'not-found' });
    expect(displayView(scene({ screen: 'register' }))).toEqual({ kind: 'idle' });
    expect(displayView(scene({ screen: 'settings', customer: LAYLA }))).toEqual({ kind: 'idle' });
    expect(displayView(scene({ screen: 'outbox', customer: LAYLA }))).toEqual({ kind: 'idle' });
  });
});
