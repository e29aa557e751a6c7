/**
 * How many connections one remote address may open in a window. The tills of a shop open a
 * few per claim and per check; a host flooding the port is refused before any of its bytes
 * are read, and the other tills, from other addresses, are still served.
 *
 * A fixed window per address, counted on the injected clock. The map of addresses is bounded:
 * when it is full, windows that have ended are dropped, and if none has, a new address is
 * refused (a LAN has far fewer hosts than the bound).
 */
export interface AddressRateLimit {
  /** True when a connection from `address` arriving at `now` (ms) may be served. */
  take(address: string, now: number): boolean;
}

export interface AddressRateLimitOptions {
  /** Connections one address may open per window. */
  max: number;
  windowMs: number;
  /** Addresses remembered at once. */
  maxAddresses?: number;
}

export function createAddressRateLimit(options: AddressRateLimitOptions): AddressRateLimit {
  const maxAddresses = options.maxAddresses ?? 1024;
  const windows = new Map<string, { start: number; count: number }>();
  const ended = (start: number, now: number): boolean => now - start >= options.windowMs || now < start;
  return {
    take(address, now) {
      let window = windows.get(address);
      if (window === undefined || ended(window.start, now)) {
        if (window === undefined && windows.size >= maxAddresses) {
          for (const [other, { start }] of windows) if (ended(start, now)) windows.delete(other);
          if (windows.size >= maxAddresses) return false;
        }
        window = { start: now, count: 0 };
        windows.set(address, window);
      }
      window.count += 1;
      return window.count <= options.max;
    },
  };
}
