/**
 * What the fixtures of old databases hold: the customers and rewards each earlier version's
 * code was given to store (make-fixtures.ts), and so what today's code must find in them
 * once they are upgraded (old-databases.test.ts). Names that folding treats specially
 * (accents, letters of their own, Arabic alef forms, alef maqsura, ta marbuta, tatweel,
 * tashkeel) are there because version 3 folded the stored names again.
 */
import type { Card, Customer, Program, Reward } from '../../../../../common/contract';

export const FETCHED_AT = '2026-11-20T09:00:00.000Z';

const COFFEE: Program = { id: 'prog-coffee', name: 'Coffee Club', type: 'point' };
const BAKERY: Program = { id: 'prog-bakery', name: 'Bakery Friends', type: 'point' };

const NAMES = [
  'Layla Haddad',
  'Søren Kierkegaard',
  'Łukasz Nowak',
  "Siobhán O'Brien",
  'Işık Yılmaz',
  'فاطمة الزهراء',
  'مصطفى كمال',
  'محـــمد العلي',
  'ٱلاء حسن',
  'لَيلى أحمد',
  'إبراهيم آل سعود',
  'Zoë Ægir',
];

/** A Saudi mobile number of the service's grouped international form, unique for `i`. */
function phoneOf(i: number): string {
  const digits = String(1_000_000 + ((i * 7919) % 9_000_000)).padStart(7, '0');
  return `+966 5${i % 2 === 0 ? '0' : '5'} ${digits.slice(0, 3)} ${digits.slice(3)}`;
}

function customerOf(i: number): Customer {
  const name = i < NAMES.length ? NAMES[i]! : `Customer ${i} ${NAMES[i % NAMES.length]!.split(' ')[0]!}`;
  const cards: Card[] = [
    {
      id: `card-${i}-c`,
      serial_number: null,
      status: 'active',
      program: COFFEE,
      visits: i,
      points: i * 10,
      spent: null,
    },
  ];
  if (i % 3 === 0) {
    cards.push({
      id: `card-${i}-b`,
      serial_number: `B-${i}`,
      status: 'active',
      program: BAKERY,
      visits: null,
      points: i,
      spent: i * 2,
    });
  }
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name,
    phone: phoneOf(i),
    email: i % 4 === 0 ? `c${i}@example.com` : null,
    birthday: i % 5 === 0 ? '1990-05-17' : null,
    status: 'active',
    cards,
    created_at: '2026-01-01T10:00:00+00:00',
    last_visit_at: null,
  };
}

/** 40 customers: they span three customer blocks of 16. */
export const OLD_CUSTOMERS: readonly Customer[] = Array.from({ length: 40 }, (_, i) => customerOf(i));

/** The fifth customer again, renamed and with new points: a stored customer rewritten. */
export const RENAMED: Customer = {
  ...OLD_CUSTOMERS[4]!,
  name: 'Işıl Yılmaz-Demir',
  cards: [{ ...OLD_CUSTOMERS[4]!.cards[0]!, points: 999 }],
};

/** The customers as each old till last stored them. */
export const STORED_CUSTOMERS: readonly Customer[] = OLD_CUSTOMERS.map((customer, i) => (i === 4 ? RENAMED : customer));

/** The rewards of the first customer, stored with them. */
export const OLD_REWARDS: readonly Reward[] = ['RW-OLD0001', 'RW-OLD0002'].map((code, i) => ({
  code,
  status: 'available',
  name: i === 0 ? 'Free coffee' : 'Croissant',
  description: null,
  type: 'product',
  allowed_products: { quantity: 1, products_list: [] },
  customer_id: OLD_CUSTOMERS[0]!.id,
  earned_at: '2026-11-01T10:00:00+00:00',
  expires_at: null,
  redeemed_at: null,
}));

/** The reward the old till queued a redemption of while offline. */
export const QUEUED_CODE = 'RW-OLD0002';

/** A customer the old till registered while offline: in its cache and its outbox. */
export const OFFLINE_REGISTRATION = { name: 'Nour Offline', phone: '0509990002' };
