import { rewardKey } from '../../common/reward-key';
import { isRecord } from '../../common/is-record';
import { isIsoTime, isMacText, isNonce, isTillName, newNonce } from './fields';
import type { ShopKeys } from './shop-secret';

/**
 * A till's claim on a reward it redeemed while the service could not be reached. It names
 * the reward by a token only the shop's tills can compute, so what crosses the LAN carries
 * no phone, name or code.
 */
export interface Claim {
  /** HMAC-SHA256 of the normalised reward code under the shop's claim key, base64url. */
  token: string;
  /** The claiming till's name (Settings). */
  till: string;
  /** When the till claimed it, by its own clock, as `toISOString` writes it. */
  at: string;
  /** Random: tells apart two claims that agree on everything else. */
  nonce: string;
}

const REWARD_CODE = /^RW-[A-Z0-9]+$/;
const MAX_REWARD_CODE = 64;

/**
 * The token of a reward code, the same at every till of the shop however the code was typed.
 * A code that is not one (validated at the bridge long before) is a programming error; the
 * message does not repeat it, since a code is a bearer secret.
 */
export function claimToken(keys: ShopKeys, code: string): string {
  const normalised = rewardKey(code);
  if (normalised.length > MAX_REWARD_CODE || !REWARD_CODE.test(normalised)) {
    throw new RangeError('claimToken: not a reward code');
  }
  return keys.claimMac(normalised).toString('base64url');
}

/** This till's claim on `code`, made now. */
export function newClaim(keys: ShopKeys, code: string, till: string, now: Date): Claim {
  if (!isTillName(till)) throw new RangeError('newClaim: not a till name');
  return { token: claimToken(keys, code), till, at: now.toISOString(), nonce: newNonce() };
}

/** Whether a value read from a peer is a claim, with exactly the four fields. */
export function isClaim(value: unknown): value is Claim {
  return (
    isRecord(value) &&
    Object.keys(value).length === 4 &&
    isMacText(value.token) &&
    isTillName(value.till) &&
    isIsoTime(value.at) &&
    isNonce(value.nonce)
  );
}

/**
 * Code-unit order, the same on every till. `localeCompare` is not: it follows each
 * machine's language, and two tills must never disagree about a winner.
 */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Earliest `at` first; then the smaller till name; then the smaller nonce. The token comes
 * last: it never decides between claims on one reward, but makes the order total, so a list
 * of claims on several rewards has one order whatever order they came in.
 */
export function compareClaims(a: Claim, b: Claim): number {
  return (
    compareText(a.at, b.at) ||
    compareText(a.till, b.till) ||
    compareText(a.nonce, b.nonce) ||
    compareText(a.token, b.token)
  );
}

/**
 * Which of the claims on one reward stands, whatever order they arrived in: the earliest,
 * ties ("the same moment") broken by till name, then nonce. Undefined for no claims.
 */
export function winningClaim(claims: readonly Claim[]): Claim | undefined {
  let winner: Claim | undefined;
  for (const claim of claims) {
    if (winner === undefined || compareClaims(claim, winner) < 0) winner = claim;
  }
  return winner;
}
