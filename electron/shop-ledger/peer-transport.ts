import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createAddressRateLimit, type AddressRateLimit } from './address-rate-limit';
import { createAdmission, plainAddress, type Admission, type AdmissionRefusal } from './admission';
import { encodeFrame, readFrame, type FrameRefusal } from './frames';
import { isLanAddress } from './lan-address';
import type { ReplayCache } from './replay-cache';
import type { ShopKeys } from './shop-secret';
import { socketEnd } from './socket-ends';
import {
  MAX_MESSAGE_BYTES,
  openMessage,
  sealMessage,
  sealWithNonce,
  type OpenedMessage,
  type RefusalReason,
  type Sender,
  type ShopMessage,
} from './wire';

/**
 * The tills of a shop talk over plain TCP (docs/shop-ledger.md): a till listens on one port,
 * and each message is one connection — the sender connects, writes one frame, and reads one
 * frame back (the answer to its `ask` or `claim`). One message per connection keeps the state a
 * hostile host can make a till hold to a single, short-lived, capped buffer.
 *
 * Everything that arrives goes through `openMessage`: the box, the MAC, the connection's end it
 * was sealed for, the window, the replay cache. A refusal closes the connection and is counted
 * by reason; no byte of what was refused is kept or logged. Each message is sealed once its
 * connection stands, for that connection's far end (`socketEnd`), so what a host records on the
 * LAN is good for that one connection only.
 */

export interface PeerAddress {
  host: string;
  port: number;
}

export interface TransportLimits {
  /** The largest frame read; a bigger one is refused from its length, before it is buffered. */
  maxFrameBytes: number;
  /** How long a connection may take to deliver its whole frame: a valid sealed frame, or it is closed. */
  readTimeoutMs: number;
  /** Connections served at once; more are refused. */
  maxConnections: number;
  /** Of `maxConnections`, the places kept for tills heard from this shift (`admission.ts`). */
  reservedConnections: number;
  /** Connections one remote address may hold open at once. */
  openPerAddress: number;
  /** Connections one remote address may open per `rateWindowMs`. */
  connectionsPerAddress: number;
  rateWindowMs: number;
  /** How long an address whose till was heard from keeps its reserved place. */
  knownForMs: number;
}

export const DEFAULT_LIMITS: Readonly<TransportLimits> = Object.freeze({
  maxFrameBytes: MAX_MESSAGE_BYTES,
  // A till writes its frame as soon as it connects: a second is ample on any LAN.
  readTimeoutMs: 1000,
  // A shop has a handful of tills; each holds a connection for milliseconds.
  maxConnections: 32,
  reservedConnections: 16,
  openPerAddress: 4,
  connectionsPerAddress: 120,
  rateWindowMs: 10_000,
  // A shift.
  knownForMs: 8 * 60 * 60 * 1000,
});

/** Why something that arrived was not taken. */
export type TransportRefusal =
  | RefusalReason
  | Exclude<FrameRefusal, 'closed'>
  | 'rate-limited'
  | AdmissionRefusal
  /** A connection from outside the shop's LAN (a public address). */
  | 'not-lan'
  /** An `answer` sent to the port, or a reply that is not the answer to our `ask`. */
  | 'unexpected-kind';

/** What a request to a peer came to. */
export type Exchange =
  | { ok: true; reply: Extract<OpenedMessage, { kind: 'answer' | 'report' }> }
  | { ok: false; failure: 'unreachable' | 'timeout' };

export interface PeerTransportOptions {
  keys: ShopKeys;
  tillName: string;
  /** The shop's clock (ms): stamps and checks message times, and counts rate windows. */
  now: () => number;
  seenNonces: ReplayCache;
  /**
   * What the till makes of a message (from the remote `address`); the message to send back, if
   * any. A report is built by the page, so the reply may come later, within `readTimeoutMs`'s
   * sibling wait the ledger sets.
   */
  onMessage: (message: OpenedMessage, address: string) => ShopMessage | undefined | Promise<ShopMessage | undefined>;
  /** Which remote addresses may connect: the shop's LAN (`isLanAddress`) by default. */
  acceptRemote?: (address: string | undefined) => boolean;
  limits?: Partial<TransportLimits>;
}

export interface PeerTransport {
  /** Starts listening; where (the port chosen by the OS when 0 was asked). */
  listen(at: PeerAddress): Promise<PeerAddress>;
  /** Stops listening and closes every connection, ours and theirs. */
  close(): Promise<void>;
  /**
   * Sends `message` (an `ask` or a `claim`) to `peer` and waits for the answer to it. The
   * whole exchange ends after `timeoutMs`. Never throws: a peer's failing is an outcome.
   */
  send(peer: PeerAddress, message: ShopMessage, timeoutMs: number): Promise<Exchange>;
  /** How many times each refusal happened since start. */
  refusals(): Partial<Record<TransportRefusal, number>>;
}

/** The limits given over the defaults; a value that would switch a limit off is refused. */
function checkedLimits(given: Partial<TransportLimits> = {}): TransportLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`peer transport: ${name} must be a positive integer`);
  }
  if (limits.maxFrameBytes > MAX_MESSAGE_BYTES)
    throw new RangeError('peer transport: maxFrameBytes above the wire limit');
  if (limits.reservedConnections >= limits.maxConnections)
    throw new RangeError('peer transport: reservedConnections must leave strangers a place');
  return limits;
}

/** The port's guards against a hostile host: connections per address in a window, and which connections it takes. */
function guardsOf(limits: TransportLimits): { rate: AddressRateLimit; admission: Admission } {
  return {
    rate: createAddressRateLimit({ max: limits.connectionsPerAddress, windowMs: limits.rateWindowMs }),
    admission: createAdmission({
      total: limits.maxConnections,
      reserved: limits.reservedConnections,
      perAddress: limits.openPerAddress,
      knownForMs: limits.knownForMs,
    }),
  };
}

export function createPeerTransport(options: PeerTransportOptions): PeerTransport {
  const { keys, tillName, now, seenNonces, onMessage } = options;
  const acceptRemote = options.acceptRemote ?? isLanAddress;
  const limits = checkedLimits(options.limits);
  const { rate, admission } = guardsOf(limits);
  const counts: Partial<Record<TransportRefusal, number>> = {};
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  /** The port this till listens on, sent in every message's sealed hello (0 until it listens). */
  let listeningPort = 0;

  const refuse = (reason: TransportRefusal, socket?: Socket): void => {
    counts[reason] = (counts[reason] ?? 0) + 1;
    socket?.destroy();
  };
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset by the peer is an ordinary end of a connection here, never a crash.
    socket.on('error', () => socket.destroy());
    return socket;
  };
  /** Who seals a message for the far end of `socket`; null once the socket no longer knows it. */
  const senderFor = (socket: Socket): Sender | null => {
    const to = socketEnd(socket.remoteAddress, socket.remotePort);
    return to === null ? null : { from: tillName, to, now: new Date(now()), port: listeningPort };
  };

  /** One frame in, through `openMessage`; a refusal is counted and closes the connection. */
  async function receive(socket: Socket): Promise<OpenedMessage | undefined> {
    // The end it arrived at, read before the frame: a message sealed for another is refused.
    const at = socketEnd(socket.localAddress, socket.localPort) ?? '';
    const frame = await readFrame(socket, { maxBytes: limits.maxFrameBytes, timeoutMs: limits.readTimeoutMs });
    if (!frame.ok) {
      if (frame.reason !== 'closed') refuse(frame.reason, socket);
      return undefined;
    }
    const opened = openMessage(frame.payload, keys, { now: now(), at, seenNonces });
    if (!opened.ok) {
      refuse(opened.reason, socket);
      return undefined;
    }
    return opened.message;
  }

  async function serve(socket: Socket): Promise<void> {
    track(socket);
    if (!acceptRemote(socket.remoteAddress)) return refuse('not-lan', socket);
    const remote = plainAddress(socket.remoteAddress ?? '');
    // A till of the shop heard from this shift is not rate-limited (a busy shop checks often);
    // it is still held to a few connections at once.
    if (!admission.isKnown(remote, now()) && !rate.take(remote, now())) return refuse('rate-limited', socket);
    const admitted = admission.admit(remote, now());
    if (!admitted.ok) return refuse(admitted.reason, socket);
    socket.once('close', () => admission.release(remote));
    const message = await receive(socket);
    if (message === undefined) return;
    // Answers travel back on the asker's own connection, never to the port.
    if (message.kind === 'answer' || message.kind === 'report') return refuse('unexpected-kind', socket);
    // A fresh request sealed for this very connection: a till of the shop is there, and keeps
    // a reserved place this shift.
    admission.know(remote, now());
    const reply = await onMessage(message, remote);
    const back = senderFor(socket);
    if (reply === undefined || back === null) socket.end();
    else socket.end(encodeFrame(sealMessage(reply, keys, back)));
  }

  return {
    listen(at) {
      if (server !== undefined) return Promise.reject(new Error('peer transport: already listening'));
      return new Promise((resolve, reject) => {
        // A handler that fails (it should not) ends its connection, never the main process.
        const listening = createServer((socket) => void serve(socket).catch(() => socket.destroy()));
        // Before listening, an error (the port taken) fails `listen`; after, one failed accept
        // must not crash the till: the server goes on accepting.
        listening.on('error', (error) => {
          if (server !== listening) reject(error);
        });
        listening.listen(at.port, at.host, () => {
          server = listening;
          const { port } = listening.address() as AddressInfo;
          listeningPort = port;
          resolve({ host: at.host, port });
        });
      });
    },

    close() {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = undefined;
      return new Promise((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },

    send(peer, message, timeoutMs) {
      if (message.kind === 'answer' || message.kind === 'report')
        return Promise.reject(new TypeError('peer transport: an answer goes back on its connection'));
      const expected = message.kind === 'report-ask' ? 'report' : 'answer';
      return new Promise((resolve, reject) => {
        const socket = track(createConnection({ host: peer.host, port: peer.port }));
        let settled = false;
        /** Ends the exchange once: with what it came to, or with the error of a message this till could not seal. */
        const settle = (result: Exchange | Error): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          if (result instanceof Error) reject(result);
          else resolve(result);
        };
        const timer = setTimeout(() => settle({ ok: false, failure: 'timeout' }), timeoutMs);
        socket.once('error', () => settle({ ok: false, failure: 'unreachable' }));
        socket.once('connect', () => {
          // Sealed for the end this connection reached; its nonce is what the answer must name as `inReplyTo`.
          const from = senderFor(socket);
          if (from === null) return settle({ ok: false, failure: 'unreachable' });
          let sealed: Buffer;
          let sentNonce: string;
          try {
            ({ bytes: sealed, nonce: sentNonce } = sealWithNonce(message, keys, from));
          } catch (error) {
            // A bug of this till's, never the peer's failing: the caller hears of it, the process goes on.
            return settle(error instanceof Error ? error : new Error(String(error)));
          }
          socket.write(encodeFrame(sealed));
          void receive(socket).then((reply) => {
            if (reply === undefined) return settle({ ok: false, failure: 'unreachable' });
            if (reply.kind !== expected || reply.inReplyTo !== sentNonce) {
              refuse('unexpected-kind');
              return settle({ ok: false, failure: 'unreachable' });
            }
            // A till of the shop answered from there: its connections to us keep a reserved place.
            admission.know(plainAddress(socket.remoteAddress ?? peer.host), now());
            settle({ ok: true, reply });
          });
        });
      });
    },

    refusals: () => ({ ...counts }),
  };
}
