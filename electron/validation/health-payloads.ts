import { z } from 'zod';
import { msg } from '../messages';
import { plainText } from './control-characters';

/**
 * What the page may tell the main process for the till's health (electron/health/): its
 * offline cache's last complete refresh and size, and, with a support file, the browser it
 * runs in. Strict objects, bounded: nothing else rides along.
 */
const CACHE = msg('payload.health.cache');

export const cacheReportPayload = z.strictObject({
  lastCompleteRefreshAt: z.iso.datetime({ offset: true, message: CACHE }).nullable(),
  customers: z.int(CACHE).min(0, CACHE).max(100_000_000, CACHE).nullable(),
});

export const supportFilePayload = z.strictObject({
  userAgent: plainText(msg('payload.health.userAgent')).max(512, msg('payload.health.userAgent')),
});
