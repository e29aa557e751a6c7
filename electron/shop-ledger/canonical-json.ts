import { isRecord } from '../../common/is-record';

/**
 * One byte sequence per JSON value: object keys in code-unit order at every level, no
 * whitespace. A MAC is computed over this, not over the bytes as sent, so the sender's and the
 * receiver's serialisers never have to agree on key order or spacing.
 *
 * Recursive: callers pass only values whose depth is already bounded (wire.ts checks it).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
