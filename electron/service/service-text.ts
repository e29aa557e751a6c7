import { replaceControlCharacters } from '../validation/control-characters';

/**
 * Text the loyalty service wrote for people (a `message`, a field's error) as the till may
 * show it: plain text only. The renderer shows it as text, but a message such as
 * `<img src=x onerror=…>`, or one holding NUL, ESC or a direction override, should not
 * reach the cashier as it came. Tags and control characters go, whitespace is collapsed
 * and the length is capped; nothing readable left means undefined, and the caller uses
 * the app's own words.
 */
export const MAX_SERVICE_TEXT = 300;

export function plainServiceText(value: unknown, max = MAX_SERVICE_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = replaceControlCharacters(value, ' ')
    // Whole elements whose content is code, then any remaining tag, closed or cut off.
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?[A-Za-z!?][^>]*(>|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
