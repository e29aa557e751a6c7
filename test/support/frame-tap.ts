// What a host that records the shop's LAN would hold: every frame the tills' ledger sockets
// receive in this process, byte for byte as it crossed the wire (a 4-byte length, then the
// sealed box). The machine has no packet capture and Node reads no raw frames, so the record
// is taken where the bytes arrive: Node announces every TCP socket on `diagnostics_channel`,
// and the tap reads each ledger socket's incoming bytes beside the till, changing nothing of
// what the till reads. Each connection carries one frame each way (peer-transport.ts), so
// what one socket received is one frame.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { ShopKeys } from '../../electron/shop-ledger/shop-secret';

export interface FrameTap {
  /** Every frame received so far, each once, in the order the connections closed. */
  frames(): Buffer[];
  stop(): void;
}

/** Starts recording; `isLedgerPort(port)` says which ports are the tills' ledger ports. */
export function tapLedgerFrames(isLedgerPort: (port: number) => boolean): FrameTap {
  const frames = new Map<string, Buffer>();
  let stopped = false;

  function record(socket: Socket): void {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('close', () => {
      const bytes = Buffer.concat(chunks);
      if (!stopped && bytes.length > 4) frames.set(bytes.toString('base64'), bytes);
    });
  }
  // A connection to a ledger port, from a till asking; the server side of one, at the till asked.
  const onClient = ({ socket }: { socket: Socket }): void => {
    socket.once('connect', () => {
      if (isLedgerPort(socket.remotePort ?? 0)) record(socket);
    });
  };
  const onServer = ({ socket }: { socket: Socket }): void => {
    if (isLedgerPort(socket.localPort ?? 0)) record(socket);
  };
  subscribe('net.client.socket', onClient as (message: unknown) => void);
  subscribe('net.server.socket', onServer as (message: unknown) => void);

  return {
    frames: () => [...frames.values()],
    stop() {
      stopped = true;
      unsubscribe('net.client.socket', onClient as (message: unknown) => void);
      unsubscribe('net.server.socket', onServer as (message: unknown) => void);
    },
  };
}

/** What each frame says, read with the shop's keys the test holds (the replaying host has none): to know what was recorded. */
export function kindsOf(frames: readonly Buffer[], keys: ShopKeys): string[] {
  return frames.map((frame) => {
    const plain = keys.unbox(frame.subarray(4));
    return plain === null ? 'unreadable' : String((JSON.parse(plain.toString('utf8')) as { kind?: unknown }).kind);
  });
}
