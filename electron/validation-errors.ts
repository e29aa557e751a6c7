import type { z } from 'zod';

/**
 * Zod issues as the bridge's `fields`: field name -> one message, shown beside the field.
 * Problems with the payload as a whole (wrong type, unknown fields) go under `_`.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  // A Map, then own properties: with a plain object, `constructor` or `__proto__` would
  // read as already set (or set the prototype) and the field would go unnamed.
  const fields = new Map<string, string>();
  const add = (name: string, message: string) => {
    if (!fields.has(name)) fields.set(name, message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, 'This field is not accepted here.');
      continue;
    }
    add(issue.path.length > 0 ? issue.path.map(String).join('.') : '_', issue.message);
  }
  return Object.fromEntries(fields);
}

/** One sentence naming the fields, for the error's `message`. */
export function describeFieldErrors(fields: Record<string, string>): string {
  const names = Object.keys(fields).filter((name) => name !== '_');
  if (names.length === 0) return (Object.hasOwn(fields, '_') ? fields._ : undefined) ?? 'The request was not valid.';
  return `Please check: ${names.join(', ')}.`;
}
