/**
 * Deterministic customers in the app's cache schema (`CachedCustomer`, db/schema.ts), for seeding
 * the benchmark's cache fast. Customer `i` is always the same record, so the runner and the
 * page can both name a customer (its phone, its name) without passing the data around.
 *
 * About 400 bytes each, like the service's customers: a uuid, a name, a grouped phone,
 * dates and one card. Names mix the letters the folding must handle (ø, ł, ı, ß, accents)
 * and Arabic script (tashkeel, hamza forms, ta marbuta, alef maqsura), alone or mixed with
 * Latin names.
 */
import type { Customer } from '../../../common/contract';
import type { CachedCustomer } from '../../../renderer/offline/db/schema';
import { nameWordsOf } from '../../../common/fold';

export const FIRST_NAMES = [
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
  'Oliver',
  'Amelia',
  'Harry',
  'Isla',
  'Jürgen',
  'Anja',
  'Lukas',
  'Sophie',
  'Bjørn',
  'Ingrid',
  'Åse',
  'Håkon',
  'Łukasz',
  'Agnieszka',
  'Zofia',
  'Işık',
  'Ayşe',
  'Mehmet',
  'Søren',
  'Mette',
  'José',
  'Lucía',
  'Álvaro',
  'Inés',
  'Aisha',
  'Hamdan',
  'Grace',
  'Noah',
  'Emily',
  'Jack',
  'لَيلى',
  'عمر',
  'فاطمة',
  'أحمد',
  'نورة',
  'هدى',
  'مصطفى',
  'عائشة',
  'يوسف',
  'إبراهيم',
] as const;

export const LAST_NAMES = [
  'Haddad',
  'Al-Zahrani',
  'Khalil',
  'Al-Qahtani',
  'Mansour',
  'Al-Harbi',
  'Nasser',
  'Saleh',
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'O\u2019Neill',
  'Müller',
  'Schäfer',
  'Weiß',
  'Köhler',
  'Løvland',
  'Sørensen',
  'Dæhli',
  'Bråten',
  'Żółkiewski',
  'Wiśniewska',
  'Kowalczyk',
  'Yılmaz',
  'Öztürk',
  'Çelik',
  'Østergaard',
  'Jørgensen',
  'García',
  'Fernández',
  'Núñez',
  'Al-Farsi',
  'Al-Mazrouei',
  'Evans',
  'Thomas',
  'Roberts',
  'Becker',
  'Haugen',
  'Kjær',
  'Nowak',
  'Demir',
  'الحداد',
  'الزهراني',
  'القحطاني',
  'الفارسي',
  'المزروعي',
  'العتيبي',
  'آل سعود',
  'الشامسي',
] as const;

const COFFEE_CLUB = { id: '6f1c2d9e-3b4a-4c5d-8e7f-1a2b3c4d5e01', name: 'Coffee Club', type: 'point' };

/** A small integer hash (xorshift-multiply), enough to scatter names and digits per index. */
function mix(i: number, salt: number): number {
  let x = (i + 1) * 0x9e3779b1 + salt * 0x85ebca6b;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function uuidOf(i: number, salt: number): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  const a = hex(mix(i, salt));
  const b = hex(mix(i, salt + 1));
  const c = hex(mix(i, salt + 2));
  const d = hex(i);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-a${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

/**
 * Saudi mobiles +966 5X XXX XXXX: the national number is a permutation of the index (a
 * multiplier coprime with 10^8), so every customer has a distinct, scattered number.
 */
export function phoneOf(i: number): string {
  const national = ((i * 48_271_547) % 100_000_000).toString().padStart(8, '0');
  return `+9665${national}`;
}

function groupedPhone(e164: string): string {
  // +966 5X XXX XXXX, as the service shows Saudi mobiles.
  return `${e164.slice(0, 4)} ${e164.slice(4, 6)} ${e164.slice(6, 9)} ${e164.slice(9)}`;
}

export function nameOf(i: number): string {
  const first = FIRST_NAMES[mix(i, 11) % FIRST_NAMES.length]!;
  const last = LAST_NAMES[mix(i, 12) % LAST_NAMES.length]!;
  return `${first} ${last}`;
}

const DAY = 86_400_000;
const EPOCH = Date.UTC(2024, 0, 1);

function isoSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+00:00');
}

export function customerAt(i: number, fetchedAt: string): CachedCustomer {
  const id = uuidOf(i, 1);
  const phoneE164 = phoneOf(i);
  const name = nameOf(i);
  const createdAt = isoSecond(EPOCH + (i % 600) * DAY + (i % 86_400) * 1000);
  const customer: Customer = {
    id,
    name,
    phone: groupedPhone(phoneE164),
    email: i % 3 === 0 ? `customer${i}@example.com` : null,
    birthday: i % 2 === 0 ? `19${60 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}` : null,
    status: 'active',
    cards: [
      {
        id: uuidOf(i, 7),
        serial_number: `CC-${String(i + 1).padStart(8, '0')}`,
        status: 'active',
        program: COFFEE_CLUB,
        visits: i % 30,
        points: (i % 30) * 8,
        spent: (i % 30) * 14,
      },
    ],
    created_at: createdAt,
    last_visit_at: createdAt,
  };
  return { id, phoneE164, nameWords: nameWordsOf(name), customer, fetchedAt };
}
