/**
 * Checks every main screen is held to: axe-core (0 violations of any impact), touch-size
 * targets and legible text, no horizontal scrolling; and the screenshots a person looks at.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Git-ignored: every run writes each main screen at each size, light and dark. */
export const SCREENS_DIR = join(ROOT, 'test-output/screenshots');

export const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
] as const;
export const THEMES = ['light', 'dark'] as const;
export type ThemeName = (typeof THEMES)[number];

let axeSource: Promise<string> | null = null;
function loadAxe(): Promise<string> {
  const require = createRequire(import.meta.url);
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: string[];
}

/** axe-core over the whole page; evaluated through DevTools, so the page's CSP does not stop it. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(await loadAxe());
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

export interface SizeProblem {
  what: string;
  problem: string;
}

/**
 * Every visible interactive element at least 44x44 CSS px (a checkbox inside its label is
 * measured as the label, which is what a finger hits), and no visible text under 14 px.
 */
export function sizeProblems(page: Page): Promise<SizeProblem[]> {
  return page.evaluate(() => {
    const problems: Array<{ what: string; problem: string }> = [];
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} “${(el.textContent ?? '').trim().slice(0, 40)}”`;
    const visible = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return rect.width > 1 && rect.height > 1 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const interactive = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="option"], [tabindex]:not([tabindex="-1"])',
    );
    for (const el of interactive) {
      if (!visible(el)) continue;
      const target =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('label') ?? el)
          : el;
      const rect = target.getBoundingClientRect();
      if (rect.width < 43.5 || rect.height < 43.5) {
        problems.push({ what: describe(target), problem: `${Math.round(rect.width)}x${Math.round(rect.height)} px` });
      }
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || seen.has(parent) || !(node.textContent ?? '').trim()) continue;
      seen.add(parent);
      if (!visible(parent) || parent.closest('.visually-hidden, script, style')) continue;
      const size = Number.parseFloat(getComputedStyle(parent).fontSize);
      if (size < 13.95) problems.push({ what: describe(parent), problem: `text ${size} px` });
    }
    return problems;
  });
}

export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const scroller = document.querySelector('.screen-scroll');
    const widest = Math.max(document.documentElement.scrollWidth, scroller?.scrollWidth ?? 0);
    return widest - document.documentElement.clientWidth;
  });
}

export async function useTheme(page: Page, theme: ThemeName): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
}

export async function shoot(
  page: Page,
  name: string,
  theme: ThemeName,
  size: { width: number; height: number },
): Promise<void> {
  await mkdir(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `${name}-${size.width}x${size.height}-${theme}.png`) });
}

/**
 * The most of an 800x600 window that the header (with its alerts) and the shortcut bar may
 * take together: what is left is the cashier's screen.
 */
export const CHROME_LIMIT_800x600 = 100;

/**
 * The window's height less the part the screen's content scrolls in and the screen's own
 * action bar (Settings' Save, `[data-screen-actions]`): the header, its alerts and the
 * shortcut bar.
 */
export function chromeHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const height = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().height ?? 0;
    return Math.round(window.innerHeight - height('.screen-scroll') - height('[data-screen-actions]'));
  });
}

/**
 * Whether the header's till name is cut (an ellipsis, or clipped by its box): the cashier
 * must be able to read which till this is at every size. False when no name is shown.
 */
export function tillNameCut(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const name = document.querySelector('.app-header__till');
    const box = document.querySelector('.app-header__title');
    if (!name || !box) return false;
    return name.scrollWidth > name.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1;
  });
}

/**
 * How many lines the shortcut bar takes: its visible shortcuts' distinct middles. It must keep
 * one at every size, or it eats the screen's height and its keys move about as screens change.
 */
export function shortcutBarLines(page: Page): Promise<number> {
  return page.evaluate(() => {
    // By their middles: a key's button is taller than a line of words beside it.
    const middles: number[] = [];
    for (const item of document.querySelectorAll('.shortcut-bar > *')) {
      const box = item.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) middles.push(box.top + box.height / 2);
    }
    middles.sort((a, b) => a - b);
    return middles.filter((middle, index) => index === 0 || middle - middles[index - 1]! > 8).length;
  });
}

/**
 * Elements that scroll inside something that scrolls too (or inside a page that scrolls):
 * a wheel or a finger moves one or the other, and the cashier cannot tell which. Form
 * controls, which scroll their own text, are left out.
 */
export function nestedScrolling(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
    const scrolls = (el: Element): boolean => {
      if (el === document.scrollingElement) {
        return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      }
      const style = getComputedStyle(el);
      const y = /auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
      const x = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      return y || x;
    };
    const found: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (el.matches('input, textarea, select') || !scrolls(el)) continue;
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (scrolls(up)) {
          found.push(`${describe(el)} scrolls inside ${up === document.scrollingElement ? 'the page' : describe(up)}`);
          break;
        }
      }
    }
    return found;
  });
}

/**
 * Every visible thing that opens (`<summary>`, or anything with `aria-expanded`) shows that it
 * opens: a list marker (the disclosure triangle) or a drawn marker before or after its words.
 */
export function expandablesWithoutMarker(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
    const drawn = (el: Element, pseudo: string): boolean => {
      const style = getComputedStyle(el, pseudo);
      const content = style.content;
      if (!content || content === 'none' || content === 'normal') return false;
      return style.display !== 'none' && style.visibility !== 'hidden' && (content !== '""' || style.width !== 'auto');
    };
    const found: string[] = [];
    for (const el of document.querySelectorAll('summary, [aria-expanded]')) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(el);
      const listMarker = style.display === 'list-item' && style.listStyleType !== 'none';
      const child = el.querySelector('[data-marker]');
      if (listMarker || drawn(el, '::before') || drawn(el, '::after') || child) continue;
      found.push(`${describe(el)} opens but shows no marker`);
    }
    return found;
  });
}

/**
 * Text in the other script than the interface's (an Arabic name in English, a Latin name or
 * description in Arabic) is data, not the catalogue's words: each such text must sit in an
 * isolate (`<bdi>`, an element with `dir`, or Unicode isolate characters), so it keeps its own
 * direction without reordering what is around it. And an isolate laid out as a block (a
 * grid cell, a paragraph) keeps its text at the start of its row in the interface's
 * direction, whatever the script inside it.
 */
export function unisolatedOrMisaligned(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
    const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
    const ARABIC = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
    const LATIN = /[A-Za-z\u00c0-\u024f]/;
    const [other, own] = rtl ? [LATIN, ARABIC] : [ARABIC, LATIN];
    const ISOLATED_RUN = /[\u2066\u2067\u2068][^\u2069]*\u2069?/g;
    const visible = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return rect.width > 1 && rect.height > 1 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = (node.textContent ?? '').replace(ISOLATED_RUN, '');
      // A sentence of the catalogue may name a thing in the other script; a text of the other script alone is data.
      if (!parent || !other.test(text) || own.test(text)) continue;
      if (parent.closest('bdi, [dir]:not(html), script, style, option, .visually-hidden') || !visible(parent)) continue;
      // SVG text has no dir: an isolate there is its unicode-bidi (a chart's names).
      if (/isolate|plaintext/.test(getComputedStyle(parent).unicodeBidi)) continue;
      found.push(`${describe(parent)} is not isolated`);
    }
    for (const el of document.body.querySelectorAll('bdi, [dir]')) {
      if (el.matches('input, textarea, select, option') || !visible(el)) continue;
      const style = getComputedStyle(el);
      if (style.display === 'inline' || style.display === 'contents' || style.textAlign === 'center') continue;
      if (!(el.textContent ?? '').trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const left = box.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft);
      const right = box.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight);
      if (text.width >= right - left - 2) continue; // it fills its row
      const gap = rtl ? right - text.right : text.left - left;
      if (gap > 2) found.push(`${describe(el)} starts ${Math.round(gap)} px from the start of its row`);
    }
    return found;
  });
}

/**
 * State text that is cut: the connection's state, the outbox's counts, badges and status
 * lines, each clipped by its own box (an ellipsis), pushed out of the window, or covered
 * by something drawn over it. And the cashier's select: the choice shown must fit whole at
 * 1366 px, and its number (what tells two cashiers apart) at any width.
 */
export function truncatedStateText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
    const shown = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return (
        rect.width > 1 &&
        rect.height > 1 &&
        style.visibility !== 'hidden' &&
        !el.closest('.visually-hidden') &&
        style.clipPath === 'none'
      );
    };
    /** Whole inside every scrolling box around it: not merely scrolled past the edge of one. */
    const inView = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      for (let box = el.parentElement; box; box = box.parentElement) {
        if (!/(auto|scroll|hidden)/.test(getComputedStyle(box).overflowY)) continue;
        const edge = box.getBoundingClientRect();
        if (rect.top < edge.top - 1 || rect.bottom > edge.bottom + 1) return false;
      }
      return true;
    };
    const modal = document.querySelector('dialog[open]');
    const found: string[] = [];
    const states = document.querySelectorAll(
      '.connection, .connection__label, .badge, .outbox-button, .outbox-button > span, [role="status"], .report__total dd',
    );
    for (const el of states) {
      if (!shown(el) || !(el.textContent ?? '').trim()) continue;
      const rect = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
        found.push(`${describe(el)} is cut by its box (${el.scrollWidth} px in ${el.clientWidth})`);
      } else if (rect.left < -1 || rect.right > document.documentElement.clientWidth + 1) {
        found.push(`${describe(el)} runs out of the window`);
      } else if (!modal && rect.top >= 0 && rect.bottom <= window.innerHeight && inView(el)) {
        const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        if (top && !el.contains(top) && !top.contains(el)) found.push(`${describe(el)} is covered by ${describe(top)}`);
      }
    }
    const select = document.querySelector<HTMLSelectElement>('[data-testid="cashier-select"]');
    const option = select?.selectedOptions[0];
    if (select && option && option.value && shown(select)) {
      // The width a select would take to show `text` whole: a copy holding only it, unconstrained.
      const wholeWidth = (text: string): number => {
        const copy = select.cloneNode(false) as HTMLSelectElement;
        copy.removeAttribute('data-testid');
        copy.append(new Option(text));
        copy.style.cssText =
          'position:fixed;inset-block-start:0;width:auto;min-width:0;max-width:none;visibility:hidden';
        select.parentElement!.append(copy);
        const width = copy.getBoundingClientRect().width;
        copy.remove();
        return width;
      };
      const width = select.getBoundingClientRect().width;
      const text = option.text.trim();
      const number = text.includes(' · ') ? text.slice(0, text.indexOf(' · ')) : null;
      if (window.innerWidth >= 1366 && wholeWidth(text) > width + 1)
        found.push(`the cashier “${text}” is cut in the header at ${window.innerWidth} px`);
      // The number and the ellipsis after it.
      if (number && wholeWidth(`${number} · …`) > width + 1)
        found.push(`the cashier's number “${number}” is cut in the header`);
    }
    return found;
  });
}

/**
 * With a modal open (the manager PIN), the keyboard stays in it: Tab and Shift+Tab go round
 * its own controls, and nothing behind it takes focus. Focus is put back where it was.
 */
export async function focusLeavesModal(page: Page): Promise<string[]> {
  const modal = page.locator('dialog[open], [aria-modal="true"]');
  if ((await modal.count()) === 0) return [];
  const found: string[] = [];
  const before = await page.evaluate(() => document.activeElement?.id ?? null);
  const inside = () =>
    page.evaluate(() => {
      const open = document.querySelector('dialog[open], [aria-modal="true"]');
      return !!open && open.contains(document.activeElement);
    });
  const controls = await page.evaluate(
    () => document.querySelector('dialog[open], [aria-modal="true"]')!.querySelectorAll('button, input, select').length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let press = 0; press < controls + 2; press += 1) {
      await page.keyboard.press(key);
      if (!(await inside())) {
        found.push(`${key} ${press + 1} times leaves the modal`);
        break;
      }
    }
  }
  const reachable = await page.evaluate(() => {
    const open = document.querySelector('dialog[open], [aria-modal="true"]')!;
    const names: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]')) {
      if (open.contains(el)) continue;
      el.focus();
      if (document.activeElement === el)
        names.push(`${el.tagName.toLowerCase()} “${(el.textContent ?? '').trim().slice(0, 30)}”`);
    }
    return names;
  });
  for (const name of reachable) found.push(`${name} behind the modal takes focus`);
  await page.evaluate((id) => (id ? document.getElementById(id)?.focus() : undefined), before);
  return found;
}

/**
 * What the page prints, as on an A4 page (186 mm between the margins, 703 CSS px): no form
 * control or notice about the screen's own actions, and every table within the page.
 */
export async function printProblems(page: Page): Promise<string[]> {
  const viewport = page.viewportSize();
  // Print hides the buttons and fields: the one with focus is given it back afterwards.
  await page.evaluate(() => document.activeElement?.setAttribute('data-focus-before-print', ''));
  await page.setViewportSize({ width: 703, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  try {
    return await page.evaluate(() => {
      const found: string[] = [];
      const shown = (el: Element) => {
        const rect = el.getBoundingClientRect();
        return rect.width > 1 && rect.height > 1 && getComputedStyle(el).visibility !== 'hidden';
      };
      const describe = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
      for (const el of document.querySelectorAll(
        'button, input, select, textarea, .notice, [role="alert"], [role="status"], .loading',
      )) {
        if (shown(el)) found.push(`${describe(el)} is printed`);
      }
      const width = document.documentElement.clientWidth;
      for (const table of document.querySelectorAll('table')) {
        if (!shown(table)) continue;
        const rect = table.getBoundingClientRect();
        if (rect.right > width + 1 || rect.left < -1 || table.scrollWidth > table.clientWidth + 1)
          found.push(`${describe(table)} runs off the page (${Math.round(rect.width)} px on ${width})`);
      }
      return found;
    });
  } finally {
    // Back to no emulation (not 'screen', which page.pdf() would then print with).
    await page.emulateMedia({ media: null });
    if (viewport) await page.setViewportSize(viewport);
    await page.evaluate(() => {
      const focused = document.querySelector<HTMLElement>('[data-focus-before-print]');
      focused?.removeAttribute('data-focus-before-print');
      focused?.focus();
    });
  }
}

/**
 * A chart's labels clear of its bars and numbers, and inside the chart; and bars of two
 * states in colours far enough apart to tell (each channel summed, at least 120 of 765).
 */
export function chartProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const svg of document.querySelectorAll<SVGSVGElement>('svg.shift-chart__svg')) {
      const box = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll('.shift-chart__label')];
      const others = [...svg.querySelectorAll('rect, .shift-chart__number')];
      for (const label of labels) {
        const rect = label.getBoundingClientRect();
        const name = (label.textContent ?? '').trim();
        if (rect.left < box.left - 1 || rect.right > box.right + 1)
          found.push(`chart label “${name}” runs out of the chart`);
        for (const other of others) {
          if (overlap(rect, other.getBoundingClientRect()))
            found.push(
              `chart label “${name}” runs into ${other.tagName === 'rect' ? 'a bar' : `its count “${other.textContent?.trim()}”`}`,
            );
        }
      }
      const colours = new Map<string, number[]>();
      for (const swatch of document.querySelectorAll<HTMLElement>('.shift-chart__swatch')) {
        const state = [...swatch.classList].find((c) => c.startsWith('shift-chart__bar--')) ?? '';
        colours.set(state, (getComputedStyle(swatch).backgroundColor.match(/\d+/g) ?? []).slice(0, 3).map(Number));
      }
      const entries = [...colours.entries()];
      for (let i = 0; i < entries.length; i += 1)
        for (let j = i + 1; j < entries.length; j += 1) {
          const [a, ca] = entries[i]!;
          const [b, cb] = entries[j]!;
          const distance = ca.reduce((sum, value, k) => sum + Math.abs(value - (cb[k] ?? 0)), 0);
          if (distance < 120) found.push(`${a} and ${b} are hard to tell apart (${distance})`);
        }
    }
    return found;
  });
}
