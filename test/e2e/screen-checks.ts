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
