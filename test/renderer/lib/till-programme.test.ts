import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import CardDetails from '../../../renderer/components/CardDetails.vue';
import CardPoints from '../../../renderer/components/CardPoints.vue';
import { i18n } from '../../../renderer/i18n';
import { cardsForTill, programmesOnCards } from '../../../renderer/lib/till-programme';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useSettingsStore } from '../../../renderer/stores/settings';
import {
  BAKERY_ID,
  COFFEE_CLUB_ID,
  bakeryCard,
  card,
  customer,
  installFakeTill,
  tillState,
} from '../support/fake-till';

// Layla holds a Bakery Points card (listed first here) and a Coffee Club card.
const laylasCards = () => [bakeryCard(40), card(180)];

describe("which card's points a till shows", () => {
  it("puts this till's programme first and shows only its points as the headline", () => {
    const view = cardsForTill(laylasCards(), COFFEE_CLUB_ID);
    expect(view.headline.map((c) => [c.program.name, c.points])).toEqual([['Coffee Club', 180]]);
    expect(view.ordered.map((c) => c.program.id)).toEqual([COFFEE_CLUB_ID, BAKERY_ID]);
    expect(view.highlightedProgramId).toBe(COFFEE_CLUB_ID);
    expect(view.noCardInTillProgramme).toBe(false);
  });

  it('says so when the customer has no card in the till’s programme, and keeps their other cards', () => {
    const view = cardsForTill([bakeryCard()], COFFEE_CLUB_ID);
    expect(view.headline).toEqual([]);
    expect(view.noCardInTillProgramme).toBe(true);
    expect(view.highlightedProgramId).toBeNull();
    expect(view.ordered.map((c) => c.program.id)).toEqual([BAKERY_ID]);
  });

  it('without a programme chosen, shows every card and claims none as the till’s', () => {
    const several = cardsForTill(laylasCards(), null);
    expect(several.headline.map((c) => c.program.id)).toEqual([BAKERY_ID, COFFEE_CLUB_ID]);
    expect(several.highlightedProgramId).toBeNull();
    const one = cardsForTill([card(180)], null);
    expect(one.headline.map((c) => c.points)).toEqual([180]);
  });

  it('lists the programmes on customers’ cards once each, by name', () => {
    const listed = programmesOnCards([customer({ cards: laylasCards() }), customer({ cards: [card(5)] })]);
    expect(listed.map((p) => p.name)).toEqual(['Bakery Points', 'Coffee Club']);
  });
});

describe('the points in a result row', () => {
  // Mounted as main.ts mounts the app: with the catalogues.
  const global = { plugins: [i18n] };

  it("with the till's programme chosen: its points only, highlighted", () => {
    const row = mount(CardPoints, { props: { cards: laylasCards(), programId: COFFEE_CLUB_ID }, global });
    const items = row.findAll('.card-points__item');
    expect(items.map((item) => item.text())).toEqual(['180 pts Coffee Club']);
    expect(items[0]?.classes()).toContain('card-points__item--till');
    expect(row.text()).not.toContain('Bakery');
  });

  it('without one: each card labelled with its programme, none highlighted', () => {
    const row = mount(CardPoints, { props: { cards: laylasCards(), programId: null }, global });
    expect(row.findAll('.card-points__item').map((item) => item.text())).toEqual([
      '40 pts Bakery Points',
      '180 pts Coffee Club',
    ]);
    expect(row.find('.card-points__item--till').exists()).toBe(false);
  });

  it('a customer without a card in the till’s programme is said to have none', () => {
    const row = mount(CardPoints, { props: { cards: [bakeryCard()], programId: COFFEE_CLUB_ID }, global });
    expect(row.find('[data-testid="no-till-card"]').text()).toContain('No card in this till’s programme');
    expect(row.findAll('.card-points__item')).toHaveLength(0);
  });
});

describe('a card on the customer screen', () => {
  it('names its programme and its kind with a space between them', () => {
    setActivePinia(createPinia());
    const details = mount(CardDetails, { props: { card: card(180) }, global: { plugins: [i18n] } });
    expect(details.find('.card-details__programme').text()).toBe('Coffee Club (points card)');
  });
});

describe('programmes the till has seen, for the Settings choice', () => {
  beforeEach(async () => {
    setActivePinia(createPinia());
    const till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    await useSettingsStore().load();
    till.respond('searchCustomers', () => ({
      ok: true,
      data: [customer({ cards: laylasCards() })],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
  });

  it('are read from the cached customers’ cards', async () => {
    const offline = useOfflineStore();
    expect(await offline.programmesSeen()).toEqual([]);
    const customers = useCustomersStore();
    customers.query = 'Haddad';
    await customers.search(); // written through to the cache
    const seen = await offline.programmesSeen();
    expect(seen.map((p) => p.id).sort()).toEqual([COFFEE_CLUB_ID, BAKERY_ID].sort());
  });
});
