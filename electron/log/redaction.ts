/**
 * The one redaction of what the till must never write down in clear: its keys, and every
 * personal value it handles. The log (log.ts, every line the main process writes) and the
 * support file (electron/health/support-file.ts) both go through `redact`, so what one is
 * cleaned of, the other is.
 *
 * Three kinds of rule, in this order:
 * 1. The values known now: the keys (the API key, the demo's key, the data key in every
 *    spelling) and the personal values the till holds (personal-values.ts: the names, phones,
 *    order references and codes of its outbox and journal, its cashiers).
 * 2. Shapes: whatever looks like a bearer token, an email, an id (UUID), a reward code, a key
 *    (long hex or base64-like runs), a date, a phone (in any spelling: +966 50 123 4567,
 *    966501234567, 0501234567, (050) 123-4567, Arabic-Indic digits), or a serial or order
 *    reference (a run of letters and digits with four digits or more).
 * 3. Free text that can only be data: Arabic script (the till logs in English, so Arabic in
 *    a line came from a customer, a cashier or a service's message) and quoted spans (error
 *    messages quote the values they choke on).
 *
 * Timestamps (an ISO time, the log's own `2024-05-14 10:00:00.123`) and the names of the
 * till's own exports are set aside first and put back last: they say when and what, and are
 * nobody's.
 *
 * What it cannot know: a name in free text, unquoted, that the till holds nowhere (a customer
 * only ever cached by the page). The main process's own lines never carry one; the page's
 * error reports are the only free text it logs.
 */

/** What replaces a secret: the same word as before, so lines written by earlier versions read alike. */
export const SECRET_MARK = '[redacted]';

/** Personal values known to the till, matched whole or by their words (personal-values.ts builds it). */
export interface PersonalValues {
  /** Each value, folded (lower case, spaces collapsed), and each word of a name of three letters or more. */
  has(folded: string): boolean;
  /** How many words the longest value has: the window of words looked at. */
  longestWords: number;
}

const DIGIT = '[0-9\\u0660-\\u0669\\u06F0-\\u06F9]';
const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/**
 * The till's own exports, named by their day (`loyalty-till-journal-2026-11-27.csv`): nobody's, and the
 * log says which left. `.json` is an earlier version's support file, still in its log lines.
 */
const EXPORT_NAME = /\bloyalty-till-[a-z]+(?:-LT-[0-9A-Z]{4}-[0-9A-Z]{4})?-\d{4}-\d{2}-\d{2}\.(?:csv|pdf|json|zip)\b/g;
/** The work copy set aside under a lost key (`work-copy.jsonl.unreadable-<ms>`): the till's own file, named for the help desk. */
const SET_ASIDE_NAME = /\bwork-copy\.jsonl\.unreadable-\d+\b/g;
const BEARER = /\bBearer\s+[^\s"',;]{8,}/gi;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const REWARD_CODE = /\bRW-[A-Z0-9]+/gi;
const HEX_RUN = /\b[0-9a-f]{32,}\b/gi;
/** base64, base64url and key-like tokens: long, with upper case, lower case and digits (a path or a word has not all three). */
const KEY_LIKE = /[A-Za-z0-9+/_=-]{20,}/g;
/** Not inside a name (`journal-2026-11-27.csv` is an export's, dated today): a date standing alone, as a birthday is written. */
const DATE = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:${DIGIT}{4}[-/.]${DIGIT}{1,2}[-/.]${DIGIT}{1,2}|${DIGIT}{1,2}[-/.]${DIGIT}{1,2}[-/.]${DIGIT}{4})(?![\\p{N}-])`,
  'gu',
);
/** A run of digits with the separators phones are written with; judged by its count of digits. */
const PHONE_LIKE = new RegExp(`(?<![\\p{L}\\p{N}])(?:\\+|00)?\\(?${DIGIT}(?:[ \\-()]{0,2}${DIGIT})+\\)?`, 'gu');
const DIGITS = new RegExp(DIGIT, 'g');
/** A token of letters, digits and dashes: a card's serial or an order reference when it has a letter and four digits or more (digits alone are judged as a phone). */
const NUMBERED = /[\p{L}\p{N}][\p{L}\p{N}_-]{5,}/gu;
const ARABIC_LETTER =
  '[\\u0600-\\u065F\\u066A-\\u06EF\\u06FA-\\u06FF\\u0750-\\u077F\\u08A0-\\u08FF\\uFB50-\\uFDFF\\uFE70-\\uFEFF]';
const ARABIC_RUN = new RegExp(`${ARABIC_LETTER}+(?:[\\s\\u200C-\\u200F]+${ARABIC_LETTER}+)*`, 'g');
const QUOTED = /"[^"\n]{1,300}"|“[^”\n]{1,300}”|«[^»\n]{1,300}»/g;
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.-][\p{L}\p{M}\p{N}]+)*/gu;
/** Private-use characters mark a timestamp set aside; a log line never holds them (they are not typed). */
const HELD = /\uE000(\d+)\uE001/g;

/** A value as `PersonalValues` keeps it: its words, in lower case, apart by one space (`POS 7/A` is `pos 7 a`). */
export function foldValue(text: string): string {
  return wordsOf(text.normalize('NFC'))
    .map((word) => word.text)
    .join(' ');
}

function wordsOf(text: string): Array<{ start: number; end: number; text: string }> {
  return [...text.matchAll(WORD)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: match[0].toLowerCase(),
  }));
}

/**
 * `text` with every secret and every personal value the rules find replaced by a mark naming
 * its kind (`[phone]`, `[email]` …; a secret by `[redacted]`).
 */
export function redact(text: string, secrets: readonly string[], personal?: PersonalValues | null): string {
  const held: string[] = [];
  const hold = (kept: string) => `\uE000${held.push(kept) - 1}\uE001`;
  let out = text.replace(TIMESTAMP, hold).replace(EXPORT_NAME, hold).replace(SET_ASIDE_NAME, hold);
  for (const secret of secrets) {
    // Short strings would blank out ordinary words; keys are long.
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(SECRET_MARK);
  }
  // Shapes first, so a name's word inside an email or a code never splits it, and a phone
  // the till knows is still said to be a phone.
  out = out
    .replace(BEARER, `Bearer ${SECRET_MARK}`)
    .replace(EMAIL, '[email]')
    .replace(UUID, '[id]')
    .replace(REWARD_CODE, '[reward code]')
    .replace(HEX_RUN, '[key]')
    .replace(KEY_LIKE, (run) => (/[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) ? '[key]' : run))
    .replace(DATE, '[date]')
    .replace(NUMBERED, (token) =>
      /\p{L}/u.test(token) && (token.match(/\p{N}/gu)?.length ?? 0) >= 4 ? '[number]' : token,
    )
    .replace(PHONE_LIKE, phoneMark);
  if (personal) out = withoutKnown(out, personal);
  out = out
    .replace(ARABIC_RUN, '[text]')
    .replace(QUOTED, (span) => (looksLikeData(span.slice(1, -1)) ? `${span[0]}[text]${span.at(-1)}` : span));
  return out.replace(HELD, (_mark, index: string) => held[Number(index)] ?? '');
}

/** A run of digits is a phone with seven digits or more; a closing bracket it took without its opening one is given back. */
function phoneMark(run: string): string {
  if ((run.match(DIGITS)?.length ?? 0) < 7) return run;
  return run.endsWith(')') && !run.includes('(') ? '[phone])' : '[phone]';
}

/**
 * Whether a quoted span is data rather than a word of the till's own (a route, a field, an
 * option: one lower-case word): a name has a capital or a space, a value a digit or a letter
 * outside plain ASCII.
 */
function looksLikeData(quoted: string): boolean {
  return /\p{L}/u.test(quoted) && !/^[a-z][a-z_.-]*$/.test(quoted);
}

/** Replaces every run of words that is a known value, the longest first where runs overlap. */
function withoutKnown(text: string, personal: PersonalValues): string {
  const words = wordsOf(text);
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < words.length; i++) {
    for (let size = Math.min(personal.longestWords, words.length - i); size >= 1; size--) {
      const run = words.slice(i, i + size);
      // The words of a run are apart as a value's are written: a space, a slash, a dash, never a line.
      const near = run.every(
        (word, at) => at === 0 || /^[^\n\p{L}\p{N}]{1,3}$/u.test(text.slice(run[at - 1]!.end, word.start)),
      );
      if (!near || !personal.has(run.map((word) => word.text).join(' '))) continue;
      spans.push([run[0]!.start, run[size - 1]!.end]);
      i += size - 1;
      break;
    }
  }
  let out = text;
  for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}[personal]${out.slice(end)}`;
  return out;
}
