import type { Migration } from './migration';

/** Version 1: a record a customer, the rewards, the outbox, its journal and the meta rows. */
export const v1: Migration = {
  version: 1,
  stores: {
    customers: '++pk, &id, phoneE164, *nameWords',
    rewards: '&code, customerId',
    outbox: '++seq, state',
    journal: '++seq, doneAt',
    meta: '&key',
  },
};
