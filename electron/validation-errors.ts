import type { z } from 'zod';

/**
 * Zod issues as the bridge's `fields`: field name -> one message, shown beside the field.
 * Problems with the payload as a whole (wrong type, unknown fields) go under `_`.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= 'This field is not accepted here.';
      continue;
    }
    const name = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fields[name] ??= issue.message;
  }
  return fields;
}

/** One sentence naming the fields, for the error's `message`. */
export function describeFieldErrors(fields: Record<string, string>): string {
  const names = Object.keys(fields).filter((name) => name !== '_');
  if (names.length === 0) return fields._ ?? 'The request was not valid.';
  return `Please check: ${names.join(', ')}.`;
}
