/**
 * A last line of defence for bridge results: returns a copy of `value` with every given
 * secret removed from every string in it, property names included. A service that echoes
 * the Authorization header in an error message, or uses it as a field name, would
 * otherwise hand the key to the renderer.
 *
 * The copy is bounded in depth: nothing the till sends over the bridge nests deeply, so a
 * value deeper than `MAX_RESULT_DEPTH` is refused with `ResultTooDeepError` (the caller
 * reports the answer as unreadable) rather than walked until the stack overflows.
 */
export const MAX_RESULT_DEPTH = 32;

export class ResultTooDeepError extends Error {
  constructor() {
    super(`The result nests more than ${MAX_RESULT_DEPTH} levels deep.`);
    this.name = 'ResultTooDeepError';
  }
}

export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((secret) => secret.length >= 4);
  return walk(value, active, 0) as T;
}

function walk(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_RESULT_DEPTH) throw new ResultTooDeepError();
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets, depth + 1));
  // fromEntries defines own properties, so a `__proto__` key stays a key and sets no prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [scrubText(key, secrets), walk(item, secrets, depth + 1)]),
  );
}

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
