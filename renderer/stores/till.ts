import type { TillApi } from '../../common/contract';

/**
 * The bridge, as the stores reach it. Only stores import this module: views never talk to
 * the main process. Reading `window.till` lazily lets unit tests install a test double.
 */
export function till(): TillApi {
  return window.till;
}
