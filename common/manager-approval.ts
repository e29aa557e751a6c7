/**
 * How long one right manager PIN approves what it guards. The main process enforces it
 * (electron/storage/pin-guard.ts); the page reuses an approval for the same minutes rather
 * than ask again a few seconds later, and never for longer than the main process grants.
 */
export const MANAGER_APPROVAL_MS = 5 * 60_000;
