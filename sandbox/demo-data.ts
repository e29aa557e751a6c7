/**
 * Demo data: a few hundred realistic customers in several countries, with cards and rewards
 * of both types in every state, plus a generator of large sets for the benchmark.
 *
 * Deterministic for a given seed, so tests and screenshots are repeatable. Dates are
 * relative to `now`, so a fresh demo always has rewards that are available, redeemed and
 * expired.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  isoTimestamp,
  type CardRecord,
  type CustomerRecord,
  type ProgramRecord,
  type RewardRecord,
  type SandboxData,
} from './model';

const DAY = 86_400_000;

export const PROGRAMS: ProgramRecord[] = [
  {
    id: '6f1c2d9e-3b4a-4c5d-8e7f-1a2b3c4d5e01',
    slug: 'coffee-club',
    name: 'Coffee Club',
    type: 'point',
    serialPrefix: 'CC',
  },
  {
    id: '6f1c2d9e-3b4a-4c5d-8e7f-1a2b3c4d5e02',
    slug: 'bakery',
    name: 'Bakery Points',
    type: 'point',
    serialPrefix: 'BK',
  },
];

/** Products that product rewards grant. */
const PRODUCTS = {
  coffee: '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b01',
  latte: '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b02',
  croissant: '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b03',
  muffin: '0b6e4a52-7d1f-4c8a-9e3b-5f2d1c0a9b04',
};

const REWARD_KINDS = [
  {
    name: 'Free coffee',
    description: 'Any filter coffee or espresso, any size.',
    type: 'product',
    price: null,
    products: [PRODUCTS.coffee, PRODUCTS.latte],
    quantity: 1,
  },
  {
    name: 'Two muffins',
    description: 'Two muffins of the day.',
    type: 'product',
    price: null,
    products: [PRODUCTS.muffin],
    quantity: 2,
  },
  {
    name: 'Free croissant',
    description: null,
    type: 'product',
    price: null,
    products: [PRODUCTS.croissant],
    quantity: 1,
  },
  {
    name: 'Breakfast for points',
    description: 'A coffee and a croissant, paid with points.',
    type: 'points',
    price: 50,
    products: [PRODUCTS.coffee, PRODUCTS.croissant],
    quantity: 2,
  },
  {
    name: 'Lunch box',
    description: 'Sandwich, drink and a cookie.',
    type: 'points',
    price: 120,
    products: [PRODUCTS.croissant, PRODUCTS.latte],
    quantity: 3,
  },
] as const;

/** Well-known records that tests, the README and the screenshots rely on. */
export const DEMO_FIXTURES = {
  layla: {
    id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000001',
    name: 'Layla Haddad',
    phone: '+966501234567',
    phoneShown: '+966 50 123 4567',
    country: 'SA',
    rewards: {
      availableProduct: 'RW-LAYLA001',
      availablePoints: 'RW-LAYLA002',
      redeemed: 'RW-LAYLA003',
      expired: 'RW-LAYLA004',
    },
  },
  omar: {
    id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000002',
    name: 'Omar Al-Farsi',
    phone: '+971501234567',
    country: 'AE',
    reward: 'RW-OMAR0001',
  },
  soren: { id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000003', name: 'Søren Østergaard', phone: '+4520123456', country: 'DK' },
  lukasz: {
    id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000004',
    name: 'Łukasz Żółkiewski',
    phone: '+48501234567',
    country: 'PL',
  },
  isik: { id: '3d2f8b1a-6c4e-4f7a-9b2d-000000000005', name: 'Işık Yılmaz', phone: '+905321234567', country: 'TR' },
} as const;

interface CountryNames {
  first: string[];
  last: string[];
  /** The same names in Arabic script, index for index (some with tashkeel, as people write them). */
  arabicFirst?: string[];
  arabicLast?: string[];
  mobile: (digits: () => string) => string;
}

const NAMES: Record<string, CountryNames> = {
  SA: {
    first: [
      'Layla',
      'Omar',
      'Fatima',
      'Yousef',
      'Noura',
      'Ahmed',
      'Sara',
      'Khalid',
      'Reem',
      'Hassan',
      'Mariam',
      'Faisal',
      'Huda',
      'Tariq',
    ],
    last: [
      'Haddad',
      'Al-Zahrani',
      'Khalil',
      'Al-Qahtani',
      'Mansour',
      'Al-Harbi',
      'Al-Otaibi',
      'Nasser',
      'Saleh',
      'Aziz',
      'Rahman',
    ],
    arabicFirst: [
      'لَيلى',
      'عُمر',
      'فاطمة',
      'يوسف',
      'نورة',
      'أحمد',
      'سارة',
      'خالد',
      'ريم',
      'حسن',
      'مريم',
      'فيصل',
      'هدى',
      'طارق',
    ],
    arabicLast: [
      'الحداد',
      'الزهراني',
      'خليل',
      'القحطاني',
      'منصور',
      'الحربي',
      'العتيبي',
      'ناصر',
      'صالح',
      'عزيز',
      'رحمن',
    ],
    mobile: (digits) => `+966${['50', '53', '55', '56'][Number(digits()[0]) % 4]}${digits().slice(0, 7)}`,
  },
  AE: {
    first: ['Omar', 'Aisha', 'Hamdan', 'Maitha', 'Rashid', 'Latifa', 'Saeed', 'Shamma'],
    last: ['Al-Farsi', 'Al-Mazrouei', 'Al-Shamsi', 'Al-Nuaimi', 'Al-Ketbi', 'Al-Suwaidi'],
    arabicFirst: ['عمر', 'عائشة', 'حمدان', 'ميثاء', 'راشد', 'لطيفة', 'سعيد', 'شمّة'],
    arabicLast: ['الفارسي', 'المزروعي', 'الشامسي', 'النعيمي', 'الكتبي', 'السويدي'],
    mobile: (digits) => `+971${['50', '52', '55', '56'][Number(digits()[0]) % 4]}${digits().slice(0, 7)}`,
  },
  GB: {
    first: ['Oliver', 'Amelia', 'Harry', 'Isla', 'Jack', 'Ava', 'George', 'Emily', 'Noah', 'Grace'],
    last: ['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Thomas', 'Roberts', 'O\u2019Neill'],
    mobile: (digits) => `+447400${digits().slice(0, 6)}`,
  },
  DE: {
    first: ['Jürgen', 'Anja', 'Lukas', 'Sophie', 'Jörg', 'Lena', 'Maximilian', 'Hannah'],
    last: ['Müller', 'Schäfer', 'Weiß', 'Köhler', 'Groß', 'Becker', 'Hoffmann'],
    mobile: (digits) => `+49151${digits().slice(0, 8)}`,
  },
  NO: {
    first: ['Bjørn', 'Ingrid', 'Åse', 'Håkon', 'Solveig', 'Øystein'],
    last: ['Løvland', 'Sørensen', 'Dæhli', 'Bråten', 'Haugen', 'Kjær'],
    mobile: (digits) => `+474${digits().slice(0, 7)}`,
  },
  DK: {
    first: ['Søren', 'Mette', 'Jørgen', 'Freja', 'Mads', 'Ida'],
    last: ['Østergaard', 'Jørgensen', 'Nielsen', 'Ærø', 'Kragh', 'Mølgaard'],
    mobile: (digits) => `+452${digits().slice(0, 7)}`,
  },
  PL: {
    first: ['Łukasz', 'Zofia', 'Michał', 'Agnieszka', 'Paweł', 'Małgorzata'],
    last: ['Żółkiewski', 'Wróbel', 'Łęcki', 'Bałuk', 'Kowalczyk', 'Szczęsny'],
    mobile: (digits) => `+4850${digits().slice(0, 7)}`,
  },
  TR: {
    first: ['Işık', 'Ayşe', 'Emre', 'Gülşen', 'Ilgaz', 'Çağla', 'Oğuz'],
    last: ['Yılmaz', 'Çelik', 'Doğan', 'Aydın', 'Kılıç', 'Öztürk', 'Şahin'],
    mobile: (digits) => `+90532${digits().slice(0, 7)}`,
  },
  ES: {
    first: ['José', 'María', 'Andrés', 'Lucía', 'Íñigo', 'Begoña'],
    last: ['García', 'Núñez', 'Peña', 'Fernández', 'Ibáñez', 'Muñoz'],
    mobile: (digits) => `+346${digits().slice(0, 8)}`,
  },
};

/**
 * A customer's name as people in the country write it. Where the country has Arabic-script
 * names, one customer in three is written in Arabic only ("ليلى الحداد") and one in three
 * mixed ("عمر Al-Farsi"), chosen by position so the random draws (and with them every
 * phone, card and reward) are the same as with Latin names only.
 */
function displayName(names: CountryNames, firstIndex: number, lastIndex: number, position: number): string {
  const first = names.first[firstIndex]!;
  const last = names.last[lastIndex]!;
  if (!names.arabicFirst || !names.arabicLast) return `${first} ${last}`;
  switch (position % 3) {
    case 0:
      return `${names.arabicFirst[firstIndex]} ${names.arabicLast[lastIndex]}`;
    case 1:
      return `${names.arabicFirst[firstIndex]} ${last}`;
    default:
      return `${first} ${last}`;
  }
}

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same demo. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-4 UUID drawn from the seeded generator. */
function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

class DemoBuilder {
  readonly data: SandboxData = {
    version: 1,
    programs: PROGRAMS.map((p) => ({ ...p })),
    customers: [],
    cards: [],
    rewards: [],
  };
  private readonly phones = new Set<string>();
  private rewardCount = 0;

  constructor(
    readonly random: () => number,
    readonly now: Date,
  ) {}

  pick<T>(list: readonly T[]): T {
    return list[this.pickIndex(list)] as T;
  }

  pickIndex(list: readonly unknown[]): number {
    return Math.floor(this.random() * list.length);
  }

  digits = (): string => Array.from({ length: 10 }, () => Math.floor(this.random() * 10)).join('');

  ago(days: number): string {
    return isoTimestamp(new Date(this.now.getTime() - days * DAY));
  }

  customer(fields: Omit<CustomerRecord, 'status'>): CustomerRecord {
    const customer: CustomerRecord = { ...fields, status: 'active' };
    this.phones.add(customer.phone);
    this.data.customers.push(customer);
    return customer;
  }

  card(customer: CustomerRecord, program: ProgramRecord, visits: number): CardRecord {
    const card: CardRecord = {
      id: seededUuid(this.random),
      customer_id: customer.id,
      program_id: program.id,
      serial_number: `${program.serialPrefix}-${String(this.data.cards.length + 1).padStart(8, '0')}`,
      status: 'active',
      visits,
      points: visits * 8 + Math.floor(this.random() * 40),
      spent: visits * 14 + Math.floor(this.random() * 100),
    };
    this.data.cards.push(card);
    return card;
  }

  reward(
    card: CardRecord,
    state: 'available' | 'redeemed' | 'expired' | 'no_expiry',
    kind = this.pick(REWARD_KINDS),
    code?: string,
  ): RewardRecord {
    const earnedDaysAgo = 20 + Math.floor(this.random() * 100);
    const reward: RewardRecord = {
      code:
        code ??
        `RW-${(++this.rewardCount).toString(36).toUpperCase().padStart(4, '0')}${Math.floor(this.random() * 36 ** 4)
          .toString(36)
          .toUpperCase()
          .padStart(4, '0')}`,
      customer_id: card.customer_id,
      card_id: card.id,
      name: kind.name,
      description: kind.description,
      type: kind.type,
      price: kind.price,
      allowed_products: { quantity: kind.quantity, products_list: [...kind.products] },
      earned_at: this.ago(earnedDaysAgo),
      expires_at:
        state === 'no_expiry'
          ? null
          : state === 'expired'
            ? this.ago(1 + Math.floor(this.random() * 10))
            : this.ago(-(10 + Math.floor(this.random() * 60))),
      redeemed_at: state === 'redeemed' ? this.ago(Math.floor(earnedDaysAgo / 2)) : null,
      branch_id: null,
      order_reference: state === 'redeemed' ? `POS-${100000 + this.rewardCount}` : null,
    };
    this.data.rewards.push(reward);
    return reward;
  }

  /** A valid, unused mobile number of the country. */
  phoneFor(country: string): string {
    const names = NAMES[country] as CountryNames;
    for (;;) {
      const phone = names.mobile(this.digits);
      if (!this.phones.has(phone) && parsePhoneNumberFromString(phone)?.isValid()) return phone;
    }
  }
}

function addFixtures(builder: DemoBuilder): void {
  const [coffee, bakery] = builder.data.programs as [ProgramRecord, ProgramRecord];
  const { layla, omar, soren, lukasz, isik } = DEMO_FIXTURES;
  const laylaRecord = builder.customer({
    id: layla.id,
    name: layla.name,
    phone: layla.phone,
    email: 'layla.haddad@example.com',
    birthday: '1990-04-12',
    created_at: builder.ago(720),
    last_visit_at: builder.ago(2),
  });
  const laylaCard = builder.card(laylaRecord, coffee, 23);
  laylaCard.points = 180;
  builder.card(laylaRecord, bakery, 4);
  const [freeCoffee, , , breakfast] = REWARD_KINDS;
  builder.reward(laylaCard, 'available', freeCoffee, layla.rewards.availableProduct);
  builder.reward(laylaCard, 'no_expiry', breakfast, layla.rewards.availablePoints);
  builder.reward(laylaCard, 'redeemed', freeCoffee, layla.rewards.redeemed);
  builder.reward(laylaCard, 'expired', freeCoffee, layla.rewards.expired);

  const omarRecord = builder.customer({
    id: omar.id,
    name: omar.name,
    phone: omar.phone,
    email: null,
    birthday: null,
    created_at: builder.ago(700),
    last_visit_at: builder.ago(9),
  });
  builder.reward(builder.card(omarRecord, coffee, 11), 'available', freeCoffee, omar.reward);
  for (const fixture of [soren, lukasz, isik]) {
    const record = builder.customer({
      id: fixture.id,
      name: fixture.name,
      phone: fixture.phone,
      email: null,
      birthday: null,
      created_at: builder.ago(690),
      last_visit_at: builder.ago(30),
    });
    builder.card(record, coffee, 3);
  }
}

/** The demo: the fixtures and about three hundred more customers. */
export function createDemoData(options: { seed?: number; now?: Date; customers?: number } = {}): SandboxData {
  const builder = new DemoBuilder(seededRandom(options.seed ?? 1), options.now ?? new Date());
  addFixtures(builder);
  const [coffee, bakery] = builder.data.programs as [ProgramRecord, ProgramRecord];
  const countries = Object.keys(NAMES);
  for (let i = 0; i < 300; i++) {
    const country = countries[i % countries.length] as string;
    const names = NAMES[country] as CountryNames;
    const firstIndex = builder.pickIndex(names.first);
    const lastIndex = builder.pickIndex(names.last);
    // Emails are written in Latin letters whatever the script of the name.
    const first = names.first[firstIndex]!;
    const last = names.last[lastIndex]!;
    const customer = builder.customer({
      id: seededUuid(builder.random),
      name: displayName(names, firstIndex, lastIndex, Math.floor(i / countries.length)),
      phone: builder.phoneFor(country),
      email: builder.random() < 0.6 ? `${asciiSlug(first)}.${asciiSlug(last)}${i}@example.com` : null,
      birthday:
        builder.random() < 0.5
          ? `19${60 + Math.floor(builder.random() * 40)}-0${1 + Math.floor(builder.random() * 9)}-1${Math.floor(builder.random() * 10)}`
          : null,
      created_at: builder.ago(680 - i * 2),
      last_visit_at: builder.ago(Math.floor(builder.random() * 60)),
    });
    const card = builder.card(customer, coffee, Math.floor(builder.random() * 40));
    if (builder.random() < 0.3) builder.card(customer, bakery, Math.floor(builder.random() * 15));
    const draw = builder.random();
    if (draw < 0.45)
      builder.reward(card, builder.pick(['available', 'available', 'no_expiry', 'redeemed', 'expired'] as const));
    if (draw < 0.15) builder.reward(card, 'available');
  }
  if (options.customers) addGeneratedCustomers(builder, options.customers);
  return builder.data;
}

/**
 * Adds `count` customers quickly for load tests: Saudi mobiles from a block the demo does
 * not use (+966 58...), unique by construction, one Coffee Club card each, and an
 * available product reward for one in ten.
 */
function addGeneratedCustomers(builder: DemoBuilder, count: number): void {
  const coffee = builder.data.programs[0] as ProgramRecord;
  const countries = Object.keys(NAMES);
  const start = builder.now.getTime() - 600 * DAY;
  const step = Math.max(1, Math.floor((590 * DAY) / count));
  for (let i = 0; i < count; i++) {
    const names = NAMES[countries[i % countries.length] as string] as CountryNames;
    // Multiplying by a number coprime with 10^7 permutes 0..10^7-1: unique, scattered numbers.
    const national = ((i * 7_919_773) % 10_000_000).toString().padStart(7, '0');
    const createdAt = isoTimestamp(new Date(start + i * step));
    const customer = builder.customer({
      id: seededUuid(builder.random),
      name: displayName(
        names,
        builder.pickIndex(names.first),
        builder.pickIndex(names.last),
        Math.floor(i / countries.length),
      ),
      phone: `+96658${national}`,
      email: null,
      birthday: null,
      created_at: createdAt,
      // The spec types last_visit_at as a timestamp (never null): joining was the first visit.
      last_visit_at: createdAt,
    });
    const card = builder.card(customer, coffee, i % 30);
    if (i % 10 === 0) builder.reward(card, 'available', REWARD_KINDS[0]);
  }
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
}
