/**
 * The one redaction (electron/log/redaction.ts), which the log and the support file both use,
 * on every kind of value the till handles: each must be gone from whatever line it turns up
 * in, in every spelling, while the line's own words (times, versions, addresses, statuses)
 * stay readable. test/electron/health/support-file.test.ts checks the same values end to end.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createRedactingLogger, redact } from '../../../electron/log/log';
import { followPersonalValues, personalValuesOf } from '../../../electron/log/personal-values';
import { createCapturedLog } from '../../support/captured-log';

const API_KEY = 'sk_live_Q7w3ZtY9mK2pL8xV';
const DATA_KEY = randomBytes(32);
const SECRETS = [API_KEY, DATA_KEY.toString('base64'), DATA_KEY.toString('base64url'), DATA_KEY.toString('hex')];

/** The page's records as the main process keeps them (common/work-copy-contract.ts). */
const RECORDS = [
  {
    kind: 'redeem',
    customerName: 'Layla Haddad',
    phoneE164: '+966501234567',
    code: 'RW-LAYLA001',
    orderReference: 'Table 7 Khalid',
    customerId: '0b1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
    cashier: 'Omar Farouk',
  },
  { kind: 'register', name: 'سارة العتيبي', phoneE164: '+966551112233', email: 'sara.otaibi@example.com' },
];
const PERSONAL = personalValuesOf(RECORDS, ['Noura Salem', 'POS-77']);

/** Every kind of value, each in the spellings it is written in. */
const VALUES: Record<string, string[]> = {
  'a Latin name': ['Layla Haddad', 'layla haddad', 'LAYLA HADDAD', 'Layla'],
  'an Arabic name': ['سارة العتيبي', 'ليلى حداد', 'محمد'],
  'a phone': [
    '+966501234567',
    '966501234567',
    '00966501234567',
    '0501234567',
    '+966 50 123 4567',
    '050 123 4567',
    '050-123-4567',
    '(050) 123 4567',
    '501234567',
    '٠٥٠١٢٣٤٥٦٧',
    '+٩٦٦٥٠١٢٣٤٥٦٧',
  ],
  'an email': ['sara.otaibi@example.com', 'layla+loyalty@mail.example.co.uk'],
  'a birthday': ['1990-05-14', '14/05/1990', '14.05.1990', '١٤/٠٥/١٩٩٠'],
  'a card serial': ['CC-00000123', 'BK-00004567', 'LC4471882901'],
  'a reward code': ['RW-LAYLA001', 'rw-layla001', 'RW-7QX2'],
  'an order reference': ['POS-118842', 'ORD-2024-0042', 'Table 7 Khalid'],
  'an API key': [API_KEY, 'pk_test_9Zb2Lq7Wm4Xv8Rt1Yc6N'],
  'the data key': SECRETS.slice(1),
  'a customer or card id': ['0b1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b', '7A1E9C40-2F3B-4D5E-8A6B-0C1D2E3F4A5B'],
  'a cashier': ['Omar Farouk', 'Noura Salem', 'POS-77'],
};

/** How each turns up in a log line: as the service's message, a renderer error, a JSON body, a path. */
const LINES = [
  (value: string) => `Renderer error in customers: could not open ${value}`,
  (value: string) => `Renderer error: Unexpected token 'x', "${value}"... is not valid JSON`,
  (value: string) => `POST /v1/customers -> 422: {"message":"The value ${value} is taken."}`,
  (value: string) => `GET /v1/customers/${value} -> 404 (12 ms)`,
  (value: string) => `[2026-11-27 10:15:02.118] [warn] ${value}`,
];

describe('redact: every personal value and secret the till handles', () => {
  for (const [kind, spellings] of Object.entries(VALUES)) {
    test(`${kind}, in every spelling and every place in a line`, () => {
      for (const value of spellings) {
        for (const line of LINES) {
          const cleaned = redact(line(value), SECRETS, PERSONAL);
          expect(cleaned, `${kind}: ${line(value)}`).not.toContain(value);
          // Not a part of it either: the digits of a phone, a name's words.
          for (const part of value.split(/[\s()/.+-]+/).filter((piece) => piece.length >= 4))
            expect(cleaned, `${kind}: ${part} of ${value}`).not.toContain(part);
        }
      }
    });
  }

  test('the log keeps its own words: times, versions, addresses, statuses, routes and its exports’ names', () => {
    const lines = [
      '[2026-11-27 10:15:02.118] [info] GET /v1/customers -> 200 (31 ms)',
      '[2026-11-27T10:15:02.118Z] [info] Loyalty Till 0.1.0 started.',
      'The shop ledger listens on 192.168.1.20:47231, with 2 tills named in Settings.',
      'Refused a link (command-line): Unknown route "redeem": the routes are customer, reward, register, find.',
      'An export (loyalty-till-journal-2026-11-27.csv) left the till: saved.',
      'A support file (loyalty-till-support-LT-7K3M-Q9XZ-2026-11-27.zip) left the till: download.',
      // An earlier version's support file, a JSON document, in the lines it wrote.
      'A support file (loyalty-till-support-LT-7K3M-Q9XZ-2026-11-27.json) left the till: download.',
      'The update feed offers 1.5.0; not taken (not_in_stage). The till runs on Electron 45.4.1.',
      'POST /v1/rewards/redeem -> timeout, request not sent (8004 ms)',
      'The work copy could not be opened (2 line(s)); it is kept as work-copy.jsonl.unreadable-1764375000123.',
    ];
    for (const line of lines) expect(redact(line, SECRETS, PERSONAL)).toBe(line);
  });

  test('says what kind of value was there', () => {
    expect(redact('Layla Haddad, +966 50 123 4567, layla@mail.example.com, RW-7QX2', [], PERSONAL)).toBe(
      '[personal], [phone], [email], [reward code]',
    );
    expect(redact(`key ${API_KEY} then Bearer abcdefgh12345678`, SECRETS)).toBe(
      'key [redacted] then Bearer [redacted]',
    );
    expect(redact('born 1990-05-14, card CC-00000123, id 0b1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b', [])).toBe(
      'born [date], card [number], id [id]',
    );
  });

  test('the log writes every line through it, with the values known at the time of each line', () => {
    const sink = createCapturedLog();
    let personal = personalValuesOf([]);
    const log = createRedactingLogger(
      sink,
      () => SECRETS,
      () => personal,
    );
    log.error('Renderer error: Omar Farouk pressed twice');
    personal = PERSONAL;
    log.error('Renderer error: Omar Farouk pressed twice');
    log.warn(`The data key ${DATA_KEY.toString('hex')} and ${API_KEY} for +966 50 123 4567`);
    expect(sink.lines).toEqual([
      'error Renderer error: Omar Farouk pressed twice',
      'error Renderer error: [personal] pressed twice',
      'warn The data key [redacted] and [redacted] for [phone]',
    ]);
    // The same function, called directly, says the same.
    expect(sink.lines[2]).toBe(
      `warn ${redact(`The data key ${DATA_KEY.toString('hex')} and ${API_KEY} for +966 50 123 4567`, SECRETS, PERSONAL)}`,
    );
  });

  test('followed as the work copy changes: a new value known to the next line, each record folded once', () => {
    let folds = 0;
    // A record as the work copy holds it, counting each time its name is read.
    const first = {
      uid: 'a',
      get customerName() {
        folds++;
        return 'Layla Haddad';
      },
    };
    const records: object[] = [first];
    let revision = 0;
    let reads = 0;
    const personal = followPersonalValues(
      () => {
        reads++;
        return { records: [...records], names: ['Omar Farouk'] };
      },
      () => String(revision),
    );
    const clean = (text: string) => redact(text, [], personal());

    expect(clean('Layla Haddad and Yousef Harbi, served by Omar')).toBe(
      '[personal] and Yousef Harbi, served by [personal]',
    );
    expect(clean('Layla again')).toBe('[personal] again');
    expect(reads).toBe(1);

    // Queued a moment ago: known to the very next line, without the first record read again.
    records.push({ uid: 'b', customerName: 'Yousef Al-Harbi', phoneE164: '+966559876543' });
    revision++;
    expect(clean('Yousef Al-Harbi at 0559876543')).toBe('[personal] at [phone]');
    expect(reads).toBe(2);
    expect(folds).toBe(1);

    // Gone from the copy (sent, acknowledged): still never written in clear this run.
    records.splice(0, 1);
    revision++;
    expect(clean('Layla Haddad')).toBe('[personal]');
    expect(folds).toBe(1);
  });
});
