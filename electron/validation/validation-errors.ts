import { z } from 'zod';
import { ENGLISH, describe, isMainMessageKey, type Wording } from '../messages';

/**
 * Zod issues as the bridge's `fields`: field name -> one message, shown beside the field,
 * in `wording`'s language. The schemas' messages are catalogue keys (electron/messages);
 * a message that is not a key (zod's own, for a payload no screen would send) is kept.
 * Problems with the payload as a whole (wrong type, unknown fields) go under `_`.
 */
export function fieldErrors(error: z.ZodError, wording: Wording = ENGLISH): Record<string, string> {
  // A Map, then own properties: with a plain object, `constructor` or `__proto__` would
  // read as already set (or set the prototype) and the field would go unnamed.
  const fields = new Map<string, string>();
  const add = (name: string, message: string) => {
    if (!fields.has(name)) fields.set(name, message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, describe(wording, 'fields.notAccepted'));
      continue;
    }
    add(issue.path.length > 0 ? issue.path.map(String).join('.') : '_', issueMessage(issue, wording));
  }
  return Object.fromEntries(fields);
}

function issueMessage(issue: z.core.$ZodIssue, wording: Wording): string {
  if (!isMainMessageKey(issue.message)) return issue.message;
  // A choice among fixed values names them (`{values}`), as the schema lists them.
  const params: Record<string, string> =
    issue.code === 'invalid_value' ? { values: issue.values.map(String).join(', ') } : {};
  return describe(wording, issue.message, params);
}

// zod's own messages, for the few checks that name no key, in the interface language too.
const ZOD_LOCALES: Record<Wording['language'], (() => { localeError: z.core.$ZodErrorMap }) | null> = {
  en: null,
  ar: z.locales.ar,
};

/** What to pass to `safeParse` so that zod's own messages come in `wording`'s language. */
export function parseOptions(wording: Wording): z.core.ParseContext<z.core.$ZodIssue> | undefined {
  const locale = ZOD_LOCALES[wording.language];
  return locale ? { error: locale().localeError } : undefined;
}

/** One sentence naming the fields, for the error's `message`. */
export function describeFieldErrors(fields: Record<string, string>, wording: Wording = ENGLISH): string {
  const names = Object.keys(fields).filter((name) => name !== '_');
  if (names.length === 0)
    return (Object.hasOwn(fields, '_') ? fields._ : undefined) ?? describe(wording, 'fields.invalidRequest');
  return describe(wording, 'fields.check', { fields: names.join(', ') });
}
