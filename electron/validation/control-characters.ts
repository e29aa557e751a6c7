import { z } from 'zod';
import { ENGLISH, describe, msg } from '../messages';

/**
 * Characters that have no place in anything a cashier types: the C0 and C1 controls (NUL,
 * ESC, newlines, DEL and the rest), the bidi embeddings and overrides (U+202A–U+202E) and
 * the bidi isolates (U+2066–U+2069). An override can make a name or an order reference
 * display reversed in the journal; NUL and ESC can cut or colour a log line or a file.
 * Every script, emoji, and the ordinary direction marks (U+200E, U+200F, U+061C) are fine.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const ALL_CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTERS.source, 'g');

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** `text` with each control character replaced by `replacement`. */
export function replaceControlCharacters(text: string, replacement: string): string {
  return text.replace(ALL_CONTROL_CHARACTERS, replacement);
}

/** The field message for text that holds one, in English: the same words for every field. */
export const CONTROL_CHARACTER_MESSAGE = describe(ENGLISH, 'text.controlCharacters');

/**
 * A trimmed string without control characters. Surrounding whitespace, line breaks included
 * (a scanner's Enter), is trimmed away first; NUL, ESC and the bidi controls are not
 * whitespace, so they are refused wherever they stand.
 */
export const plainText = (required?: string) =>
  z
    .string(required)
    .trim()
    .refine((text) => !hasControlCharacters(text), msg('text.controlCharacters'));
