/**
 * Unicode isolates for text built as a string (notices, hints) rather than markup: the
 * string equivalent of `<bdi>`. A phone number, reward code or order reference keeps its
 * left-to-right order inside an Arabic sentence, and a name in any script keeps its own
 * direction without reordering the sentence around it. Where markup is possible the views
 * use `<bdi dir="ltr">` / `dir="auto"` instead.
 *
 * In a left-to-right interface, left-to-right text needs no isolate, and none is added: the
 * English strings stay exactly as written.
 */
import { currentLanguage, t } from './index';
import { directionOf } from './languages';

const LRI = '\u2066';
const FSI = '\u2068';
const PDI = '\u2069';

/** Hebrew, Arabic, Syriac, Thaana, N'Ko … and their presentation forms. */
const RIGHT_TO_LEFT_CHARACTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

const interfaceIsRtl = (): boolean => directionOf(currentLanguage()) === 'rtl';

/** Always left to right: phone numbers, reward codes, order references, URLs. */
export function ltr(text: string): string {
  return interfaceIsRtl() ? `${LRI}${text}${PDI}` : text;
}

/** In its own direction, decided by its first strong character: people's names, search text. */
export function isolate(text: string): string {
  return interfaceIsRtl() || RIGHT_TO_LEFT_CHARACTER.test(text) ? `${FSI}${text}${PDI}` : text;
}

/** Names (tills, people) in one phrase, each in its own direction, joined as the catalogue joins lists. */
export function isolatedList(names: readonly string[]): string {
  return names.map(isolate).join(t('reconciliation.listSeparator'));
}
