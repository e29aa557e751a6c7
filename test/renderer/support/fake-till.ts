import {
  CHANNELS,
  createTillApi,
  type Card,
  type Channel,
  type Customer,
  type HealthReport,
  type Operation,
  type PagePushChannel,
  type PagePushes,
  type Reward,
  type TillApi,
  type TillOperations,
  type TillState,
} from '../../../common/contract';
import { openOfflineDb } from '../../../renderer/offline/db/open';
import { type OfflineDb } from '../../../renderer/offline/db/schema';
import { setOfflineServiceOverrides } from '../../../renderer/stores/offline';
import { dataKeyGrant } from '../offline/support/fixtures';

let databases = 0;

type Responder<K extends Operation> = (
  payload: TillOperations[K]['payload'],
) => TillOperations[K]['result'] | Promise<TillOperations[K]['result']>;

export interface FakeTill {
  api: TillApi;
  /** Every call the stores made, in order. */
  calls: Array<{ operation: Operation; payload: unknown }>;
  callsTo(operation: Operation): unknown[];
  respond<K extends Operation>(operation: K, responder: Responder<K>): void;
  /** The offline database the stores were given (a test may close it to make the cache fail). */
  db: OfflineDb;
  /** Pushes to the page as the main process does, on one of the page's push channels. */
  push<C extends PagePushChannel>(channel: C, payload: PagePushes[C]): void;
}

/**
 * A `window.till` built with the real `createTillApi` factory over a scripted invoke: the
 * stores see exactly the bridge they see in the app, and the test decides the answers.
 */
export function installFakeTill(): FakeTill {
  const responders = new Map<Operation, Responder<Operation>>();
  const calls: FakeTill['calls'] = [];
  const byChannel = new Map<Channel, Operation>(
    (Object.entries(CHANNELS) as Array<[Operation, Channel]>).map(([operation, channel]) => [channel, operation]),
  );
  const listeners = new Set<{ channel: PagePushChannel; listener: (payload: unknown) => void }>();
  const api = createTillApi(
    async (channel, payload) => {
      const operation = byChannel.get(channel);
      if (!operation) throw new Error(`unknown channel ${channel}`);
      calls.push({ operation, payload });
      const responder = responders.get(operation);
      if (!responder) throw new Error(`the test did not script ${operation}`);
      return responder(payload as never);
    },
    (channel, listener) => {
      const entry = { channel, listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  );
  Object.defineProperty(window, 'till', { value: api, configurable: true, writable: false });
  // Each test gets an empty offline cache and outbox of its own.
  const db = openOfflineDb(`store-test-${Date.now()}-${++databases}`);
  setOfflineServiceOverrides({ db, locks: null });
  // No shop ledger runs unless a test says otherwise: the bridge's answer when it is off.
  responders.set('shopCheck', () => ({ ok: true, data: { enabled: false, claimedBy: null, unreachable: [] } }));
  responders.set('shopClaim', () => ({ ok: true, data: { enabled: false, winner: null, won: true, unreachable: [] } }));
  responders.set('shopSettle', () => ({ ok: true, data: null }));
  responders.set('shopHolder', () => ({ ok: true, data: { holder: null } }));
  responders.set('showOnDisplay', () => ({ ok: true, data: { displays: 0 } }));
  responders.set('listScreens', () => ({ ok: true, data: [] }));
  // The main process's copy of the outbox: it keeps whatever it is given, and starts empty.
  const keep: Responder<'keepWork'> = ({ changes }) => ({ ok: true, data: { kept: changes.length } });
  responders.set('keepWork', keep as Responder<Operation>);
  responders.set('noteStorage', () => ({ ok: true, data: null }));
  responders.set('noteCache', () => ({ ok: true, data: null }));
  // The till's health as the main process reports it: a till just set up, nothing wrong.
  responders.set('tillHealth', () => ({ ok: true, data: healthyReport() }));
  responders.set('saveSupportFile', () => ({
    ok: true,
    data: { outcome: 'saved', downloadPath: null, fileName: 'loyalty-till-support-LT-0000-0000-2026-11-27.zip' },
  }));
  responders.set('workCopy', () => ({ ok: true, data: { items: [], journal: [], journalTotal: 0, since: null } }));
  responders.set('displayAddress', () => ({ ok: true, data: { address: null } }));
  // The till's data key, as the main process hands it over: the tests' fixed key, kept, the
  // same at every ask of this till.
  responders.set('dataKey', () => ({ ok: true, data: dataKeyGrant() }));
  return {
    api,
    db,
    calls,
    push(channel, payload) {
      for (const entry of listeners) if (entry.channel === channel) entry.listener(payload);
    },
    callsTo: (operation) => calls.filter((call) => call.operation === operation).map((call) => call.payload),
    respond(operation, responder) {
      responders.set(operation, responder as unknown as Responder<Operation>);
    },
  };
}

export function tillState(
  overrides: Partial<TillState['settings']> = {},
  mode: TillState['mode'] = 'service',
): TillState {
  return {
    settings: {
      baseUrl: 'http://127.0.0.1:4010',
      defaultCountry: 'SA',
      branchId: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
      tillName: 'Till 1',
      allowOfflineRedemption: false,
      programId: null,
      posCallbackUrl: null,
      theme: 'system',
      currency: null,
      language: null,
      arabicDigits: 'arab',
      cacheRefresh: { everyHours: 24, windowFromHour: 2, windowToHour: 5 },
      shopLedger: true,
      shopRedeemWhenSplit: true,
      shopPeers: [],
      shopLedgerPort: 47231,
      cashiers: [],
      customerDisplayId: null,
      displayIdleSeconds: 30,
      journalPersonalDays: 90,
      ...overrides,
    },
    key: { set: true, lastFour: '4821', protection: 'os' },
    dataKey: { state: 'ready', protection: 'os', kept: true },
    mode,
    systemLanguages: ['en-GB'],
    managed: { locked: [], problem: null, revision: 0 },
    pinSet: false,
    pinManaged: false,
  };
}

export function card(points = 180): Card {
  return {
    id: 'c0000000-0000-4000-8000-000000000001',
    serial_number: 'CC-00000001',
    status: 'active',
    program: { id: 'p0000000-0000-4000-8000-000000000001', name: 'Coffee Club', type: 'point' },
    visits: 3,
    points,
    spent: 120,
  };
}

/** Coffee Club, the programme of `card()`. */
export const COFFEE_CLUB_ID = 'p0000000-0000-4000-8000-000000000001';
export const BAKERY_ID = 'p0000000-0000-4000-8000-000000000002';

/** A second card of the same customer, in another programme. */
export function bakeryCard(points = 40): Card {
  return {
    id: 'c0000000-0000-4000-8000-000000000002',
    serial_number: 'BK-00000001',
    status: 'active',
    program: { id: BAKERY_ID, name: 'Bakery Points', type: 'point' },
    visits: 4,
    points,
    spent: 30,
  };
}

export function reward(overrides: Partial<Reward> = {}): Reward {
  return {
    code: 'RW-LAYLA001',
    status: 'available',
    name: 'Free coffee',
    description: null,
    type: 'product',
    allowed_products: { quantity: 1, products_list: [] },
    customer_id: 'a0000000-0000-4000-8000-000000000001',
    earned_at: '2026-11-01T10:00:00+00:00',
    expires_at: null,
    redeemed_at: null,
    ...overrides,
  };
}

export function customer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    name: 'Layla Haddad',
    phone: '+966 50 123 4567',
    email: null,
    birthday: null,
    status: 'active',
    cards: [card()],
    created_at: '2025-01-01T10:00:00+00:00',
    last_visit_at: null,
    ...overrides,
  };
}

/** A healthy till's report, as `tillHealth` answers for a till just set up (common/health-contract.ts). */
export function healthyReport(): HealthReport {
  const now = new Date().toISOString();
  return {
    healthCheck: 1,
    status: 'healthy',
    exitCode: 0,
    reasons: [],
    checkedAt: now,
    recordedAt: now,
    till: { name: 'Till 1', machine: 'SHOP1-TILL1', id: 'LT-7K3M-Q9XZ', version: '0.1.0', shell: 'browser' },
    service: { mode: 'service', baseUrl: 'https://loyalty.example.com', programId: null, branchId: null, keySet: true },
    connection: { state: 'online', since: now },
    outbox: { waiting: 0, failed: 0, conflicts: 0, oldestQueuedAt: null, oldestAgeHours: null, unreadableLines: 0 },
    cache: { lastCompleteRefreshAt: now, customers: 5000 },
    policy: { state: 'none', origin: null, problem: null },
    shopLedger: { enabled: false, tillsHeardThisShift: [], tillsKnown: 0 },
    storage: { persisted: true },
    updates: { enabled: false, channel: 'latest', lastCheckAt: null },
    thresholds: { waitingHours: 24, unacknowledgedHours: 0, refreshDays: 7, offlineHours: 24 },
  };
}
