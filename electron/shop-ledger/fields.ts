import { randomBytes } from 'node:crypto';
import { hasControlCharacters } from '../validation/control-characters';

/**
 * The small values the tills of a shop exchange, each checked the same way wherever it is
 * read: a peer holds the shop secret, but its bytes are still input from the network.
 */

/** As long as Settings lets a till's name be (storage/settings.ts). */
export const MAX_TILL_NAME = 60;

/** A till's name as Settings stores it: trimmed, 1–60 characters, no control characters. */
export function isTillName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= MAX_TILL_NAME &&
    value.trim() === value &&
    !hasControlCharacters(value)
  );
}

/**
 * A time exactly as `Date.prototype.toISOString` writes it (UTC, milliseconds, `Z`). One
 * spelling per instant means two times compare correctly as strings, and two tills can never
 * disagree over which of two claims came first.
 */
export function isIsoTime(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 24) return false;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === value;
}

/**
 * Whether `value` is `bytes` bytes written as unpadded base64url, in the one spelling
 * `Buffer` writes: the last character's spare bits must be zero. Otherwise several texts
 * would stand for one MAC or token, and two tills could hold one reward under two names.
 */
function isBase64urlOf(value: unknown, bytes: number): value is string {
  if (typeof value !== 'string' || value.length !== Math.ceil((bytes * 4) / 3)) return false;
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return false;
  return Buffer.from(value, 'base64url').toString('base64url') === value;
}

const NONCE_BYTES = 16;

/** 128 random bits, base64url: never repeats by chance within a shop's lifetime. */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64url');
}

export function isNonce(value: unknown): value is string {
  return isBase64urlOf(value, NONCE_BYTES);
}

/** An HMAC-SHA256 (32 bytes) as unpadded base64url: 43 characters. */
export function isMacText(value: unknown): value is string {
  return isBase64urlOf(value, 32);
}
