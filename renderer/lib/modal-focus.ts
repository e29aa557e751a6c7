/**
 * Focus for a modal: Tab and Shift+Tab go round inside it, and once it closes focus goes back
 * where it was, or, when that element is gone (the approved action removed it or changed the
 * screen), to the screen's heading: never to the page's body, where a keyboard is lost.
 */

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A keydown on the modal: a Tab past its last control comes back to its first, and the other way. */
export function trapTab(event: KeyboardEvent, modal: HTMLElement | null): void {
  if (event.key !== 'Tab' || !modal) return;
  const controls = [...modal.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !modal.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !modal.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** After a modal closed: back to `opener` if it is still on the page, else the screen's heading. */
export function focusAfterModal(opener: Element | null): void {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return; // the new screen chose already
  if (opener instanceof HTMLElement && opener.isConnected && opener !== document.body && !opener.closest('[inert]')) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}
