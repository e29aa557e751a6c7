import { z } from 'zod';
import { ARABIC_DIGITS, INTERFACE_LANGUAGES, THEMES } from '../../common/settings-choices';
import type { DisplayModel } from '../../common/display-model';
import { plainText } from '../validation/control-characters';

/**
 * What the till may show on the customer display, checked field by field: every object is
 * strict, so a model that carries anything beyond these fields (a phone, an email, a code, an
 * id, an order reference) is refused whole, and nothing of it reaches the display. The texts
 * are the service's names and descriptions, bounded and free of control characters.
 */
const text = (max: number) => plainText().max(max);
const points = z.int().min(-1_000_000_000).max(1_000_000_000);

const reward = z.strictObject({
  name: text(200),
  description: text(500).nullable(),
  products: z.strictObject({ quantity: z.int().min(0).max(10_000), choices: z.int().min(0).max(10_000) }).nullable(),
  expiresOn: z.iso.date().nullable(),
  expiresThisWeek: z.boolean(),
});

const view = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('idle') }),
  z.strictObject({ kind: z.literal('blank') }),
  z.strictObject({ kind: z.literal('not-found') }),
  z.strictObject({ kind: z.literal('looking-up') }),
  z.strictObject({
    kind: z.literal('customer'),
    // "Sara A.": a first name and an initial, never a whole name.
    name: text(60),
    cards: z.array(z.strictObject({ programme: text(200), points })).max(20),
    rewards: z.array(reward).max(50),
  }),
  z.strictObject({
    kind: z.literal('check'),
    reward,
    verdict: z.enum(['available', 'available-offline', 'used', 'expired', 'unavailable']),
  }),
  z.strictObject({
    kind: z.literal('redeemed'),
    reward,
    points: z.strictObject({ before: points, after: points, cost: points }).nullable(),
    queued: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('refused'), reward }),
]);

export const displayModelSchema: z.ZodType<DisplayModel> = z.strictObject({
  view,
  programme: text(200).nullable(),
  asOf: z.iso.datetime({ offset: true }).nullable(),
  language: z.enum(INTERFACE_LANGUAGES),
  digits: z.enum(ARABIC_DIGITS),
  theme: z.enum(THEMES),
  idleSeconds: z.int().min(10).max(600),
  revision: z.int().min(0),
});

/** A keypad entry: digits only, as many as a phone number can have. */
export const displayPhoneEntrySchema = z.strictObject({ digits: z.string().regex(/^\d{4,15}$/) });
