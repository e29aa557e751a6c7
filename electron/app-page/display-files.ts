/**
 * The files the customer display's page names (its scripts, module preloads and styles, as
 * Vite writes them into `display.html`): all the display's host serves besides the page
 * itself. Nothing else of the renderer, not the till's scripts nor its other pages, is
 * reachable from the display's origin.
 */
export function filesNamedBy(html: string): Set<string> {
  const named = new Set<string>();
  for (const match of html.matchAll(/\b(?:src|href)\s*=\s*"(\.\/[^"]+)"/g)) {
    // Resolved as the browser resolves it beside the page, then reduced to its path.
    const path = new URL(match[1]!, 'app://display/').pathname;
    if (!path.includes('\\') && !path.includes('%')) named.add(path);
  }
  return named;
}
