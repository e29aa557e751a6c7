/**
 * A last line of defence for bridge results: returns `value` with every given secret
 * removed from every string in it, property names included (the parts that held one are
 * copied; the rest is shared with `value`, which is never changed). A service that echoes
 * the Authorization header in an error message, or uses it as a field name, would
 * otherwise hand the key to the renderer.
 *
 * The walk is bounded in depth: nothing the till sends over the bridge nests deeply, so a
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

/**
 * Copies only what holds a secret: a clean value comes back as itself, so the common case
 * (a page of a hundred customers without the key anywhere) is a walk without allocations.
 * Every level is still visited, for the depth bound.
 */
function walk(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_RESULT_DEPTH) throw new ResultTooDeepError();
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const clean = walk(item, secrets, depth + 1);
      if (copy === null && clean !== item) copy = value.slice(0, i);
      copy?.push(clean);
    }
    return copy ?? value;
  }
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  // Anything but a plain object (a Map, a class instance) is copied as a plain object of its own
  // enumerable properties, as JSON and the bridge see it, never passed on as it is.
  const prototype: unknown = Object.getPrototypeOf(value);
  let entries: Array<[string, unknown]> | null = prototype === Object.prototype || prototype === null ? null : [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const cleanKey = scrubText(key, secrets);
    const clean = walk(item, secrets, depth + 1);
    if (entries === null && (cleanKey !== key || clean !== item)) {
      entries = keys.slice(0, i).map((before): [string, unknown] => [before, record[before]]);
    }
    entries?.push([cleanKey, clean]);
  }
  // fromEntries defines own properties, so a `__proto__` key stays a key and sets no prototype.
  return entries ? Object.fromEntries(entries) : value;
}

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
