import { nextTick } from 'vue';

/**
 * After a refused save, the cashier's eyes and cursor go to the first field that needs
 * correcting, in the order the form shows them.
 */
export async function focusFirstInvalid(container: HTMLElement | null): Promise<void> {
  await nextTick();
  container?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
