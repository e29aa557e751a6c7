import { isRecord } from '../../common/is-record';
import { nestsDeeperThan } from '../../common/json-depth';
import { canonicalJson } from './canonical-json';
import type { ShopReportPart } from '../../common/contract';
import { isClaim, type Claim } from './claims';
import { isReportPart } from './report-part';
import { isIsoTime, isMacText, isNonce, isTillName, newNonce } from './fields';
import { MESSAGE_WINDOW_MS, type ReplayCache } from './replay-cache';
import { BOX_OVERHEAD, type ShopKeys } from './shop-secret';
import { isSocketEnd } from './socket-ends';

/**
 * What the tills of a shop say to each other, whatever carries it (docs/shop-ledger.md):
 * - `claim`: "I have just claimed this reward" (the till's own claim);
 * - `ask`: "send me the claims made since this time" (a till back on the LAN);
 * - `query`: "send me the claims you hold on this reward" (a check);
 * - `answer`: some of those claims, in reply to one `ask`, `query` or `claim`;
 * - `report-ask` and `report`: one till's end-of-shift figures, for the shop's report.
 * Each is one JSON object with the sender's till name and the port it listens on (the sealed
 * hello: it names a till, which the receiver dials back to prove before it believes where that
 * till is), the end of the connection it is sealed for (`to`, socket-ends.ts), its time, a
 * random nonce and an HMAC-SHA256 under the shop's message key over the canonical encoding of
 * the rest, sent in an AES-256-GCM box under the shop's box key (`ShopKeys.box`): nothing of it
 * is readable to a host without the shop's secret, a box changed on the way does not open, and
 * a box recorded on the way is refused by every till it is sent to again.
 */
export type ShopMessage =
  | { kind: 'claim'; claim: Claim }
  | { kind: 'ask'; since: string }
  /** "What do you hold on this reward?": a check, one round trip whatever the ledger's size. */
  | { kind: 'query'; token: string }
  /** "Send me your report for this period" (the shop's report, asked with the manager's approval). */
  | { kind: 'report-ask'; since: string; until: string }
  /** One till's report, in reply to one `report-ask`. */
  | ({ kind: 'report'; inReplyTo: string } & ShopReportPart)
  | { kind: 'answer'; inReplyTo: string; claims: Claim[] };

/** A message as it was opened: what was said, by which till, for which connection's end, when. */
export type OpenedMessage = ShopMessage & { from: string; port: number; to: string; sentAt: string; nonce: string };

/**
 * Who seals a message and for whom: its till name, the port its ledger listens on (0: none),
 * the end of the connection that carries it (`socketEnd`: the address and port dialled, or the
 * asker's for an answer), and when.
 */
export interface Sender {
  from: string;
  to: string;
  now: Date;
  port?: number;
}

/** 2: messages name the connection's end they are sealed for (`to`); a till of version 1 is refused as malformed. */
const VERSION = 2;
/** Far above any message the till sends, far below what could strain a till to read. */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Claims in one answer; a longer list goes in several. ~330 bytes a claim at worst. */
export const MAX_CLAIMS_PER_MESSAGE = 128;
/** The envelope (0), an answer's list (1), a claim in it (2): nothing nests deeper. */
const MAX_DEPTH = 3;

const ENVELOPE_FIELDS = ['from', 'kind', 'mac', 'nonce', 'port', 'sentAt', 'to', 'v'];
const BODY_FIELDS: Record<ShopMessage['kind'], string[]> = {
  claim: ['claim'],
  ask: ['since'],
  query: ['token'],
  'report-ask': ['since', 'until'],
  report: ['byCashier', 'byReward', 'inReplyTo', 'totals'],
  answer: ['claims', 'inReplyTo'],
};

export type RefusalReason =
  | 'too-large'
  /** Not a box of this shop: another shop's, changed on the way, or noise. */
  | 'unreadable'
  | 'not-json'
  | 'too-deep'
  | 'malformed'
  | 'unknown-kind'
  | 'bad-till'
  | 'too-many-claims'
  | 'forged'
  /** Sealed for another connection: recorded on the LAN and sent again, to another till or from elsewhere. */
  | 'misaddressed'
  | 'outside-window'
  | 'replayed'
  | 'replay-cache-full';

export type OpenResult = { ok: true; message: OpenedMessage } | { ok: false; reason: RefusalReason };

/**
 * The bytes to send for `message`, from the till `from`, sent at `now`. The till's own
 * messages are checked as a peer would check them, so a bug here shows at the sender.
 */
export function sealMessage(message: ShopMessage, keys: ShopKeys, sender: Sender): Buffer {
  return sealWithNonce(message, keys, sender).bytes;
}

/** As `sealMessage`, with the nonce the message carries: what its answer must name as `inReplyTo`. */
export function sealWithNonce(message: ShopMessage, keys: ShopKeys, sender: Sender): { bytes: Buffer; nonce: string } {
  const nonce = newNonce();
  const port = sender.port ?? 0;
  const { from, to } = sender;
  const unsigned = { ...message, v: VERSION, from, port, to, sentAt: sender.now.toISOString(), nonce };
  const sealed = { ...unsigned, mac: keys.messageMac(canonicalJson(unsigned)).toString('base64url') };
  const shape = readShape(sealed);
  if (!shape.ok) throw new RangeError(`sealMessage: ${shape.reason}`);
  const bytes = Buffer.from(JSON.stringify(sealed), 'utf8');
  if (bytes.length + BOX_OVERHEAD > MAX_MESSAGE_BYTES) throw new RangeError('sealMessage: too-large');
  return { bytes: keys.box(bytes), nonce };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `bytes` as JSON, or undefined when they are not UTF-8 JSON. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(bytes));
  } catch {
    return undefined;
  }
}

function hasExactly(record: Record<string, unknown>, fields: readonly string[]): boolean {
  const keys = Object.keys(record);
  return keys.length === fields.length && fields.every((field) => Object.hasOwn(record, field));
}

function isKind(value: unknown): value is ShopMessage['kind'] {
  return typeof value === 'string' && Object.hasOwn(BODY_FIELDS, value);
}

/** The shape of a parsed message, field by field; the MAC and the clock are checked after. */
function readShape(
  value: unknown,
): { ok: true; message: OpenedMessage; mac: string } | { ok: false; reason: RefusalReason } {
  if (!isRecord(value) || typeof value.kind !== 'string') return { ok: false, reason: 'malformed' };
  if (!isKind(value.kind)) return { ok: false, reason: 'unknown-kind' };
  // A report may carry its till's outbox figures; one from a till of an earlier version does not.
  const optional = value.kind === 'report' && value.outbox !== undefined ? ['outbox'] : [];
  if (!hasExactly(value, [...ENVELOPE_FIELDS, ...BODY_FIELDS[value.kind], ...optional]) || value.v !== VERSION) {
    return { ok: false, reason: 'malformed' };
  }
  const { from, port, to, sentAt, nonce, mac } = value;
  if (!isTillName(from)) return { ok: false, reason: 'bad-till' };
  if (!isIsoTime(sentAt) || !isNonce(nonce) || !isMacText(mac) || !isSocketEnd(to)) {
    return { ok: false, reason: 'malformed' };
  }
  if (!Number.isSafeInteger(port) || (port as number) < 0 || (port as number) > 65_535) {
    return { ok: false, reason: 'malformed' };
  }
  const envelope = { from, port: port as number, to, sentAt, nonce };
  switch (value.kind) {
    case 'claim':
      // An announcement is the sender's own claim; others' travel in answers.
      if (!isClaim(value.claim) || value.claim.till !== from) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'claim', claim: value.claim, ...envelope } };
    case 'ask':
      if (!isIsoTime(value.since)) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'ask', since: value.since, ...envelope } };
    case 'query':
      if (!isMacText(value.token)) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'query', token: value.token, ...envelope } };
    case 'report-ask':
      if (!isIsoTime(value.since) || !isIsoTime(value.until)) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'report-ask', since: value.since, until: value.until, ...envelope } };
    case 'report': {
      const { inReplyTo, totals, byReward, byCashier, outbox } = value;
      const part = { totals, byReward, byCashier, ...(outbox !== undefined ? { outbox } : {}) };
      if (!isNonce(inReplyTo) || !isReportPart(part)) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'report', inReplyTo, ...part, ...envelope } };
    }
    case 'answer': {
      const { claims, inReplyTo } = value;
      if (!Array.isArray(claims) || !isNonce(inReplyTo)) return { ok: false, reason: 'malformed' };
      if (claims.length > MAX_CLAIMS_PER_MESSAGE) return { ok: false, reason: 'too-many-claims' };
      if (!claims.every(isClaim)) return { ok: false, reason: 'malformed' };
      return { ok: true, mac, message: { kind: 'answer', inReplyTo, claims, ...envelope } };
    }
  }
}

/**
 * Reads a message from a peer, refusing with a reason (never throwing) anything that is not
 * a well-formed message of this shop, sealed for the connection's end it arrived at (`at`,
 * `socketEnd`), sent within the window and not seen before. The box is opened first (only a
 * till of the shop can seal one); then the checks run cheapest first, and the nonce is
 * remembered only once the MAC has proved the sender and the end, this connection: a frame
 * recorded elsewhere and sent again never reaches the memory of nonces, so a flood of them
 * cannot fill it.
 */
export function openMessage(
  bytes: Uint8Array,
  keys: ShopKeys,
  context: { now: number; at: string; seenNonces: ReplayCache },
): OpenResult {
  if (bytes.byteLength > MAX_MESSAGE_BYTES) return { ok: false, reason: 'too-large' };
  const plain = keys.unbox(bytes);
  if (plain === null) return { ok: false, reason: 'unreadable' };
  const value = parseJson(plain);
  if (value === undefined) return { ok: false, reason: 'not-json' };
  if (nestsDeeperThan(value, MAX_DEPTH)) return { ok: false, reason: 'too-deep' };
  const shape = readShape(value);
  if (!shape.ok) return shape;
  const { mac: _mac, ...unsigned } = value as Record<string, unknown>;
  if (!keys.verifyMessageMac(canonicalJson(unsigned), Buffer.from(shape.mac, 'base64url'))) {
    return { ok: false, reason: 'forged' };
  }
  if (shape.message.to !== context.at) return { ok: false, reason: 'misaddressed' };
  const sentAt = Date.parse(shape.message.sentAt);
  if (Math.abs(context.now - sentAt) > MESSAGE_WINDOW_MS) return { ok: false, reason: 'outside-window' };
  const verdict = context.seenNonces.check(shape.message.nonce, sentAt, context.now);
  if (verdict === 'replayed') return { ok: false, reason: 'replayed' };
  if (verdict === 'full') return { ok: false, reason: 'replay-cache-full' };
  return { ok: true, message: shape.message };
}
