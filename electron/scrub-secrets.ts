/**
 * A last line of defence for bridge results: returns a copy of `value` with every given
 * secret removed from every string in it. A service that echoes the Authorization header
 * in an error message would otherwise hand the key to the renderer.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((secret) => secret.length >= 4);
  if (active.length === 0) return value;
  return walk(value, active) as T;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => walk(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, secrets)]));
  }
  return value;
}
