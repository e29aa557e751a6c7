import type { Socket } from 'node:net';

/**
 * How one sealed message travels on a TCP connection: a 4-byte big-endian length, then the
 * message's bytes. A length prefix (rather than a newline) lets the reader refuse an oversized
 * frame from its first four bytes, before it has buffered any of it.
 */
const HEADER_BYTES = 4;

export function encodeFrame(payload: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(payload.byteLength);
  return Buffer.concat([header, payload]);
}

/** Why no frame was read. */
export type FrameRefusal = 'frame-too-large' | 'bad-frame' | 'timeout' | 'closed';

export type FrameResult = { ok: true; payload: Buffer } | { ok: false; reason: FrameRefusal };

/**
 * Reads exactly one frame from `socket`, and nothing after it: one connection carries one
 * message each way, so trailing bytes are a peer misbehaving. The whole frame must arrive
 * within `timeoutMs` (a total, not an idle timeout, so a peer trickling a byte a second
 * cannot hold a connection). Settles once; the caller closes the socket.
 */
export function readFrame(socket: Socket, limits: { maxBytes: number; timeoutMs: number }): Promise<FrameResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let expected: number | undefined;

    const finish = (result: FrameResult): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('end', onClose);
      resolve(result);
    };
    const onClose = (): void => finish({ ok: false, reason: 'closed' });
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      received += chunk.length;
      if (expected === undefined && received >= HEADER_BYTES) {
        expected = Buffer.concat(chunks).readUInt32BE(0);
        if (expected > limits.maxBytes) return finish({ ok: false, reason: 'frame-too-large' });
        if (expected === 0) return finish({ ok: false, reason: 'bad-frame' });
      }
      if (expected === undefined || received < HEADER_BYTES + expected) return;
      if (received > HEADER_BYTES + expected) return finish({ ok: false, reason: 'bad-frame' });
      finish({ ok: true, payload: Buffer.concat(chunks).subarray(HEADER_BYTES) });
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.timeoutMs);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('end', onClose);
  });
}
