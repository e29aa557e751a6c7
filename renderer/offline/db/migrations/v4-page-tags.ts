import type { Migration } from './migration';

/**
 * Version 4: the entity tags of the refresh's pages, so an unchanged page costs a 304 and
 * no write. Nothing to fill: a till without tags asks unconditionally once.
 */
export const v4: Migration = { version: 4, stores: { pageTags: 'page' } };
