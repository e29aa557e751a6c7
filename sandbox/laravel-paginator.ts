/**
 * What Laravel's length-aware paginator adds to a paginated API resource: `links` beside
 * `data`, and `from`, `to`, `path` and `links` in `meta` (Illuminate's LengthAwarePaginator
 * and UrlWindow, with their defaults). The laravel dialect's search answer carries them, as
 * such a service's would, next to the spec's four integers.
 */
import type { PageMeta } from './model';

/** UrlWindow's default: pages shown on each side of the current one. */
const EACH_SIDE = 3;

/** The paginator's keys for a page of `count` customers, its URLs built from the request's. */
export function laravelPagination(meta: PageMeta, count: number, requestUrl: URL) {
  const { current_page: current, last_page: last, per_page: perPage, total } = meta;
  const path = `${requestUrl.origin}${requestUrl.pathname}`;
  // The query string is kept (`withQueryString()`): a next page of a search is of the same search.
  const pageUrl = (page: number) => {
    const query = new URLSearchParams(requestUrl.search);
    query.delete('page');
    query.append('page', String(page));
    return `${path}?${query}`;
  };
  const prev = current > 1 ? pageUrl(current - 1) : null;
  const next = current < last ? pageUrl(current + 1) : null;
  const from = count > 0 ? (current - 1) * perPage + 1 : null;
  const pages = windowPages(current, last).map((page) =>
    page === '...'
      ? { url: null, label: '...', active: false }
      : { url: pageUrl(page), label: String(page), active: page === current },
  );
  return {
    links: { first: pageUrl(1), last: pageUrl(last), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: last,
      links: [
        { url: prev, label: '&laquo; Previous', active: false },
        ...pages,
        { url: next, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}

/** UrlWindow's pages: every page up to 13; beyond that both ends and the current page's neighbours, with '...' between. */
function windowPages(current: number, last: number): Array<number | '...'> {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (last < EACH_SIDE * 2 + 8) return range(1, last);
  const window = EACH_SIDE + 4;
  const start = range(1, 2);
  const finish = range(last - 1, last);
  if (current <= window) return [...range(1, window + EACH_SIDE), '...', ...finish];
  if (current > last - window) return [...start, '...', ...range(last - (window + EACH_SIDE - 1), last)];
  return [...start, '...', ...range(current - EACH_SIDE, current + EACH_SIDE), '...', ...finish];
}
