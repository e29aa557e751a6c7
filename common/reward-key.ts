/**
 * The one spelling of a reward code that two records of the same reward share. The service
 * matches codes case-insensitively, so the renderer's cache keys on it and the tills of a
 * shop hash it into their claim tokens: "rw-abc " typed at one till and "RW-ABC" scanned at
 * another must be the same reward.
 */
export function rewardKey(code: string): string {
  return code.trim().toUpperCase();
}
