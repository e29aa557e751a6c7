import { defineStore } from 'pinia';
import { useCurrentCustomer } from './customers/current';
import { useCustomerForm } from './customers/form';
import { useCustomerSearch } from './customers/search';

export { RECENT_LIMIT, type CustomerNotice, type CustomerOrigin, type RecentCustomer } from './customers/current';
export { correctionOf } from './customers/form';
export type { CustomerDraft } from './customers/form-checks';

export const PAGE_SIZE = 20;

/**
 * Customers as the screens see them, composed of its concerns (renderer/stores/customers/):
 * the search, the one customer on screen and how one is opened, and the register / correct
 * form. Each concern's file says what it adds to the store.
 */
export const useCustomersStore = defineStore('customers', () => {
  // A search starts afresh: the last customer's error no longer stands.
  const finder = useCustomerSearch(() => (onScreen.customerError.value = null));
  const onScreen = useCurrentCustomer(finder);
  const form = useCustomerForm(onScreen);
  return { ...finder, ...onScreen, ...form };
});
