// The messages the tills of a shop exchange (electron/shop-ledger/wire.ts, replay-cache.ts,
// socket-ends.ts): every kind round-trips, and each way a message can be wrong (old, seen
// before, sealed for another connection) is refused with its reason, never a thrown error.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { claimToken, newClaim } from '../../../electron/shop-ledger/claims';
import { MESSAGE_WINDOW_MS, ReplayCache } from '../../../electron/shop-ledger/replay-cache';
import { socketEnd } from '../../../electron/shop-ledger/socket-ends';
import {
  MAX_CLAIMS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  openMessage,
  sealMessage,
  type RefusalReason,
  type ShopMessage,
} from '../../../electron/shop-ledger/wire';
import { OTHER_SHOP_KEYS, SHOP_KEYS } from '../../support/shop-keys';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const CLAIM = newClaim(SHOP_KEYS, 'RW-LAYLA001', 'Till 1', NOW);
const ASK_NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';
/** The end of the connection every message here is sealed for, and read at unless a test says otherwise. */
const TO = '10.0.0.2:47231';

function seal(message: ShopMessage, from = 'Till 1', now = NOW): Buffer {
  return sealMessage(message, SHOP_KEYS, { from, to: TO, now });
}

/** What is inside a box this shop sealed. */
function inside(box: Uint8Array): Buffer {
  const plain = SHOP_KEYS.unbox(box);
  if (plain === null) throw new Error('not a box of this shop');
  return plain;
}

/** `text` boxed as a till of the shop would box it: how a malformed message from within the shop arrives. */
function plain(text: Uint8Array | string): Buffer {
  return SHOP_KEYS.box(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
}

/** Opens bytes as they arrive; a string is taken as a message's JSON, boxed by a till of the shop. */
function open(bytes: Uint8Array | string, now = NOW.getTime(), seenNonces = new ReplayCache(), at = TO) {
  const raw = typeof bytes === 'string' ? plain(bytes) : bytes;
  return openMessage(raw, SHOP_KEYS, { now, at, seenNonces });
}

function refusal(bytes: Uint8Array | string, now?: number): RefusalReason | 'opened' {
  const result = open(bytes, now);
  return result.ok ? 'opened' : result.reason;
}

/** A sealed message as an object, changed by `change`, and written back (its MAC kept). */
function altered(message: ShopMessage, change: (json: Record<string, any>) => void): string {
  const json = JSON.parse(inside(seal(message)).toString('utf8'));
  change(json);
  return JSON.stringify(json);
}

describe('a valid message round-trips', () => {
  test.each<[string, ShopMessage]>([
    ['a claim', { kind: 'claim', claim: CLAIM }],
    ['an ask', { kind: 'ask', since: '2026-11-26T08:00:00.000Z' }],
    ['a query', { kind: 'query', token: CLAIM.token }],
    ['an answer', { kind: 'answer', inReplyTo: ASK_NONCE, claims: [CLAIM, { ...CLAIM, till: 'Till 2' }] }],
    ['an empty answer', { kind: 'answer', inReplyTo: ASK_NONCE, claims: [] }],
  ])('%s', (_what, message) => {
    const result = open(seal(message));
    expect(result).toEqual({
      ok: true,
      message: { ...message, from: 'Till 1', port: 0, to: TO, sentAt: NOW.toISOString(), nonce: expect.any(String) },
    });
  });

  test('whatever order the keys arrive in (the MAC covers the canonical encoding)', () => {
    const json = JSON.parse(inside(seal({ kind: 'claim', claim: CLAIM })).toString('utf8'));
    const reversed = Object.fromEntries(Object.entries(json).reverse());
    reversed.claim = Object.fromEntries(Object.entries(json.claim).reverse());
    expect(refusal(JSON.stringify(reversed, null, 2))).toBe('opened');
  });

  test('with a till name in any script', () => {
    expect(refusal(seal({ kind: 'ask', since: NOW.toISOString() }, 'صندوق ٢'))).toBe('opened');
  });

  test('carrying no code, phone or key, only the token, and none of it readable on the wire', () => {
    const box = seal({ kind: 'claim', claim: CLAIM });
    const text = inside(box).toString('utf8');
    expect(text).not.toMatch(/layla|RW-|sk_test/i);
    expect(text).toContain(claimToken(SHOP_KEYS, 'rw-layla001'));
    // On the wire: not the till's name, the time or the token, in any encoding a listener may try.
    for (const seen of [box.toString('latin1'), box.toString('utf8'), box.toString('base64')]) {
      expect(seen).not.toContain('Till 1');
      expect(seen).not.toContain('2026-11-26');
      expect(seen).not.toContain(claimToken(SHOP_KEYS, 'rw-layla001'));
    }
    // Two boxes of the same message differ (a random IV): a listener cannot tell repeats apart.
    expect(seal({ kind: 'claim', claim: CLAIM }).equals(box)).toBe(false);
  });

  test('a box of another shop, or one changed on the way, does not open', () => {
    const theirs = sealMessage({ kind: 'ask', since: NOW.toISOString() }, OTHER_SHOP_KEYS, {
      from: 'Till 1',
      to: TO,
      now: NOW,
    });
    expect(refusal(theirs)).toBe('unreadable');
    const box = seal({ kind: 'ask', since: NOW.toISOString() });
    expect(refusal(box.subarray(0, box.length - 1))).toBe('unreadable');
    expect(refusal(Buffer.concat([Buffer.from([2]), box.subarray(1)]))).toBe('unreadable');
  });
});

describe('sealMessage refuses to send what a peer would refuse', () => {
  test('a till name that is not plain short text', () => {
    expect(() => seal({ kind: 'ask', since: NOW.toISOString() }, 'Till\n1')).toThrow(/bad-till/);
  });

  test('an answer of too many claims', () => {
    const claims = Array.from({ length: MAX_CLAIMS_PER_MESSAGE + 1 }, () => CLAIM);
    expect(() => seal({ kind: 'answer', inReplyTo: ASK_NONCE, claims })).toThrow(/too-many-claims/);
  });

  test('a claim announced for another till, or a claim that is not one', () => {
    expect(() => seal({ kind: 'claim', claim: CLAIM }, 'Till 2')).toThrow(/malformed/);
    expect(() => seal({ kind: 'claim', claim: { ...CLAIM, at: 'now' } })).toThrow(/malformed/);
  });

  test('but the largest answer, of the longest till names, fits', () => {
    const till = '𝔗'.repeat(30); // 60 UTF-16 units, 4 bytes each in UTF-8
    const claims = Array.from({ length: MAX_CLAIMS_PER_MESSAGE }, () => ({ ...CLAIM, till }));
    expect(refusal(seal({ kind: 'answer', inReplyTo: ASK_NONCE, claims }, till))).toBe('opened');
  });
});

describe('a forged or foreign message is refused', () => {
  test("sealed with another shop's secret", () => {
    const foreign = sealMessage({ kind: 'claim', claim: CLAIM }, OTHER_SHOP_KEYS, { from: 'Till 1', to: TO, now: NOW });
    // Its box does not open: nothing of it is read.
    expect(refusal(foreign)).toBe('unreadable');
    // Inside another shop's box that somehow opened, its MAC would still not hold.
    expect(refusal(OTHER_SHOP_KEYS.unbox(foreign)!.toString('utf8'))).toBe('forged');
  });

  test.each<[string, (json: Record<string, any>) => void]>([
    ['a field changed after sealing', (json) => (json.since = '2026-11-26T00:00:00.000Z')],
    ['another sender', (json) => (json.from = 'Till 9')],
    ['another time', (json) => (json.sentAt = '2026-11-26T10:00:01.000Z')],
    ['another nonce', (json) => (json.nonce = 'BAAAAAAAAAAAAAAAAAAAAA')],
    ['another connection’s end', (json) => (json.to = '10.0.0.3:47231')],
    ['a MAC of zeros', (json) => (json.mac = Buffer.alloc(32).toString('base64url'))],
  ])('%s', (_what, change) => {
    expect(refusal(altered({ kind: 'ask', since: '2026-11-26T08:00:00.000Z' }, change))).toBe('forged');
  });

  test('a MAC in a second spelling of the same bytes', () => {
    const text = altered({ kind: 'ask', since: NOW.toISOString() }, (json) => {
      const last = json.mac.at(-1);
      // The last of 43 characters carries 4 bits and 2 spare ones; setting a spare bit keeps the bytes.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      json.mac = json.mac.slice(0, -1) + alphabet[alphabet.indexOf(last) | 1];
    });
    expect(refusal(text)).toBe('malformed');
  });

  test('a single changed byte anywhere', () => {
    const sealed = seal({ kind: 'answer', inReplyTo: ASK_NONCE, claims: [CLAIM] });
    fc.assert(
      fc.property(fc.nat(sealed.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const bytes = Buffer.from(sealed);
        bytes[at] = bytes[at]! ^ flip;
        expect(open(bytes).ok).toBe(false);
      }),
    );
  });
});

describe('the time window', () => {
  const sealed = seal({ kind: 'ask', since: NOW.toISOString() });
  test('is five minutes either way', () => {
    expect(MESSAGE_WINDOW_MS).toBe(5 * 60 * 1000);
  });

  test.each([
    ['from a till two minutes and a LAN’s delay behind', 2 * 60 * 1000 + 500, 'opened'],
    ['from a till two minutes and a LAN’s delay ahead', -2 * 60 * 1000 - 500, 'opened'],
    ['exactly five minutes late', MESSAGE_WINDOW_MS, 'opened'],
    ['exactly five minutes early', -MESSAGE_WINDOW_MS, 'opened'],
    ['more than five minutes late', MESSAGE_WINDOW_MS + 1, 'outside-window'],
    ['more than five minutes early', -MESSAGE_WINDOW_MS - 1, 'outside-window'],
    ['a day late', 24 * 60 * 60 * 1000, 'outside-window'],
  ])('a message read %s: %s', (_what, offset, outcome) => {
    expect(refusal(sealed, NOW.getTime() + offset)).toBe(outcome);
  });
});

describe('the connection’s end a message is sealed for', () => {
  test('a message read at another end is refused, however fresh, before its nonce is remembered', () => {
    const cache = new ReplayCache();
    const sealed = seal({ kind: 'claim', claim: CLAIM });
    // Recorded on the way to 10.0.0.2 and sent to another till, or back to its sender: never taken.
    for (const elsewhere of ['10.0.0.3:47231', '10.0.0.1:47231', '10.0.0.2:47232', '[fd00::2]:47231']) {
      expect(open(sealed, NOW.getTime(), cache, elsewhere)).toEqual({ ok: false, reason: 'misaddressed' });
    }
    expect(cache.size).toBe(0);
    // At its own end it opens once, and a second time is a replay.
    expect(open(sealed, NOW.getTime(), cache).ok).toBe(true);
    expect(open(sealed, NOW.getTime(), cache)).toEqual({ ok: false, reason: 'replayed' });
  });

  test.each([
    ['a name, not an address', 'till-2:47231'],
    ['no port', '10.0.0.2'],
    ['port 0', '10.0.0.2:0'],
    ['IPv6 without brackets', 'fd00::2:47231'],
    ['an IPv4-mapped address (written as its IPv4)', '[::ffff:10.0.0.2]:47231'],
    ['upper-case IPv6', '[FD00::2]:47231'],
    ['a number', 47231],
  ])('a `to` that is %s is malformed', (_what, to) => {
    expect(refusal(altered({ kind: 'ask', since: NOW.toISOString() }, (json) => (json.to = to)))).toBe('malformed');
  });

  test('both sides write an end alike, whatever the socket calls it', () => {
    expect(socketEnd('::ffff:10.0.0.2', 47231)).toBe('10.0.0.2:47231');
    expect(socketEnd('10.0.0.2', 47231)).toBe('10.0.0.2:47231');
    expect(socketEnd('fe80::1%eth0', 47231)).toBe('[fe80::1]:47231');
    expect(socketEnd('FD00::2', 47231)).toBe('[fd00::2]:47231');
    expect(socketEnd(undefined, 47231)).toBeNull();
    expect(socketEnd('10.0.0.2', undefined)).toBeNull();
    expect(socketEnd('till-2', 47231)).toBeNull();
  });
});

describe('replays', () => {
  test('the same message twice is refused the second time', () => {
    const cache = new ReplayCache();
    const sealed = seal({ kind: 'claim', claim: CLAIM });
    expect(open(sealed, NOW.getTime(), cache).ok).toBe(true);
    expect(open(sealed, NOW.getTime() + 1000, cache)).toEqual({ ok: false, reason: 'replayed' });
  });

  test('a nonce is forgotten once its message has left the window, and the replay is still refused', () => {
    const cache = new ReplayCache();
    const sealed = seal({ kind: 'claim', claim: CLAIM });
    open(sealed, NOW.getTime(), cache);
    expect(cache.size).toBe(1);
    const later = NOW.getTime() + MESSAGE_WINDOW_MS + 2000;
    expect(open(seal({ kind: 'ask', since: NOW.toISOString() }, 'Till 1', new Date(later)), later, cache).ok).toBe(
      true,
    );
    expect(cache.size).toBe(1);
    expect(open(sealed, later, cache)).toEqual({ ok: false, reason: 'outside-window' });
  });

  test('a message from the future is remembered until it leaves the window', () => {
    const cache = new ReplayCache();
    const ahead = new Date(NOW.getTime() + MESSAGE_WINDOW_MS);
    const sealed = seal({ kind: 'ask', since: NOW.toISOString() }, 'Till 1', ahead);
    expect(open(sealed, NOW.getTime(), cache).ok).toBe(true);
    expect(open(sealed, NOW.getTime() + 2 * MESSAGE_WINDOW_MS, cache)).toEqual({ ok: false, reason: 'replayed' });
  });

  test('a full cache refuses new messages rather than forget a nonce still in the window', () => {
    const cache = new ReplayCache({ maxEntries: 2 });
    const ask = () => seal({ kind: 'ask', since: NOW.toISOString() });
    expect(open(ask(), NOW.getTime(), cache).ok).toBe(true);
    expect(open(ask(), NOW.getTime(), cache).ok).toBe(true);
    expect(open(ask(), NOW.getTime(), cache)).toEqual({ ok: false, reason: 'replay-cache-full' });
    const later = NOW.getTime() + MESSAGE_WINDOW_MS + 1;
    expect(open(seal({ kind: 'ask', since: NOW.toISOString() }, 'Till 1', new Date(later)), later, cache).ok).toBe(
      true,
    );
  });

  test('forged messages are not remembered, so they cannot fill the cache', () => {
    const cache = new ReplayCache({ maxEntries: 1 });
    const foreign = sealMessage({ kind: 'claim', claim: CLAIM }, OTHER_SHOP_KEYS, { from: 'Till 1', to: TO, now: NOW });
    expect(open(foreign, NOW.getTime(), cache)).toEqual({ ok: false, reason: 'unreadable' });
    expect(open(OTHER_SHOP_KEYS.unbox(foreign)!.toString('utf8'), NOW.getTime(), cache)).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(cache.size).toBe(0);
  });
});

describe('hostile input is refused, never thrown', () => {
  const ask: ShopMessage = { kind: 'ask', since: NOW.toISOString() };

  test.each<[string, Uint8Array | string, RefusalReason]>([
    ['more than 64 KiB', Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x20), 'too-large'],
    ['no bytes', '', 'not-json'],
    ['cut-off JSON', plain(inside(seal(ask)).subarray(0, 40)), 'not-json'],
    ['bytes that are not UTF-8', plain(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), 'not-json'],
    ['bytes that are no box', Buffer.from('{"kind":"ask"}'), 'unreadable'],
    ['nested ten thousand deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'too-deep'],
    [
      'a claim with something nested in it',
      altered({ kind: 'claim', claim: CLAIM }, (j) => (j.claim.till = [['x']])),
      'too-deep',
    ],
    ['a JSON array', '[]', 'malformed'],
    ['a JSON string', '"ask"', 'malformed'],
    ['JSON null', 'null', 'malformed'],
    ['no kind', altered(ask, (j) => delete j.kind), 'malformed'],
    ['an unknown kind', altered(ask, (j) => (j.kind = 'redeem')), 'unknown-kind'],
    ['a kind from Object.prototype', altered(ask, (j) => (j.kind = 'toString')), 'unknown-kind'],
    ['the version before `to`', altered(ask, (j) => ((j.v = 1), delete j.to)), 'malformed'],
    ['a later version', altered(ask, (j) => (j.v = 3)), 'malformed'],
    ['no `to`', altered(ask, (j) => delete j.to), 'malformed'],
    ['an extra field', altered(ask, (j) => (j.phone = '+966501234567')), 'malformed'],
    ['a missing field', altered(ask, (j) => delete j.since), 'malformed'],
    ['a field of another kind', altered(ask, (j) => (j.claims = [])), 'malformed'],
    ['a till name with a line break', altered(ask, (j) => (j.from = 'Till\n1')), 'bad-till'],
    ['a till name with a bidi override', altered(ask, (j) => (j.from = 'Till \u202e1')), 'bad-till'],
    ['a till name too long', altered(ask, (j) => (j.from = 'T'.repeat(61))), 'bad-till'],
    ['an empty till name', altered(ask, (j) => (j.from = '')), 'bad-till'],
    ['a till name that is not text', altered(ask, (j) => (j.from = 1)), 'bad-till'],
    ['a time that is no time', altered(ask, (j) => (j.sentAt = 'yesterday')), 'malformed'],
    ['a short nonce', altered(ask, (j) => (j.nonce = 'abc')), 'malformed'],
    ['no MAC', altered(ask, (j) => delete j.mac), 'malformed'],
    ['a "since" that is no time', altered(ask, (j) => (j.since = 0)), 'malformed'],
    [
      'a claim announced for another till',
      altered({ kind: 'claim', claim: CLAIM }, (j) => (j.claim.till = 'Till 2')),
      'malformed',
    ],
    [
      'a claim with a phone in it',
      altered({ kind: 'claim', claim: CLAIM }, (j) => (j.claim.phone = '+966')),
      'malformed',
    ],
    [
      'an answer whose claims are no list',
      altered({ kind: 'answer', inReplyTo: ASK_NONCE, claims: [] }, (j) => (j.claims = {})),
      'malformed',
    ],
    [
      'an answer with one bad claim',
      altered({ kind: 'answer', inReplyTo: ASK_NONCE, claims: [CLAIM] }, (j) => j.claims.push({ ...CLAIM, at: 'now' })),
      'malformed',
    ],
    [
      'an answer of too many claims',
      altered(
        { kind: 'answer', inReplyTo: ASK_NONCE, claims: [] },
        (j) => (j.claims = Array.from({ length: MAX_CLAIMS_PER_MESSAGE + 1 }, () => CLAIM)),
      ),
      'too-many-claims',
    ],
    [
      'an answer of a large list of anything',
      altered(
        { kind: 'answer', inReplyTo: ASK_NONCE, claims: [] },
        (j) => (j.claims = Array.from({ length: 20_000 }, () => 0)),
      ),
      'too-many-claims',
    ],
  ])('%s', (_what, bytes, reason) => {
    expect(refusal(bytes)).toBe(reason);
  });

  test('any bytes, and any JSON, come back as a refusal', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 512 }),
          fc.json().map((text) => Buffer.from(text)),
          // Even boxed by a till of the shop, no JSON of these shapes is a message.
          fc.json().map((text) => plain(text)),
        ),
        (bytes) => {
          const result = open(bytes);
          expect(result.ok).toBe(false);
        },
      ),
    );
  });
});
