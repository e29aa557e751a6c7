// The TCP port between tills (electron/shop-ledger/peer-transport.ts): each message is sealed
// once its connection stands, for that connection's far end, and the answer for the asker's.
import { afterEach, expect, test } from 'vitest';
import { newClaim } from '../../../electron/shop-ledger/claims';
import { createPeerTransport, type PeerTransport } from '../../../electron/shop-ledger/peer-transport';
import { ReplayCache } from '../../../electron/shop-ledger/replay-cache';
import type { OpenedMessage } from '../../../electron/shop-ledger/wire';
import { LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

const now = () => Date.parse('2026-11-26T10:00:00.000Z');
const open: PeerTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

function transport(tillName: string, onMessage: (message: OpenedMessage) => void = () => undefined): PeerTransport {
  const made = createPeerTransport({
    keys: SHOP_KEYS,
    tillName,
    now,
    seenNonces: new ReplayCache(),
    onMessage: (message) => {
      onMessage(message);
      return { kind: 'answer', inReplyTo: message.nonce, claims: [] };
    },
  });
  open.push(made);
  return made;
}

test('a request is sealed for the address and port dialled, its answer for the asker’s end', async () => {
  const heard: OpenedMessage[] = [];
  const two = transport('Till 2', (message) => heard.push(message));
  const at = await two.listen({ host: LOOPBACK, port: 0 });
  const one = transport('Till 1');
  const exchange = await one.send(at, { kind: 'ask', since: new Date(0).toISOString() }, 1000);
  expect(heard).toEqual([expect.objectContaining({ from: 'Till 1', to: `${LOOPBACK}:${at.port}` })]);
  expect(exchange).toMatchObject({
    ok: true,
    reply: { from: 'Till 2', to: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
  });
  expect(exchange.ok && exchange.reply.to).not.toBe(`${LOOPBACK}:${at.port}`);
});

test('a message this till cannot seal fails the call, not the process', async () => {
  const two = transport('Till 2');
  const at = await two.listen({ host: LOOPBACK, port: 0 });
  // A claim announced by Till 1 for another till: no till would take it, so none is sent.
  const claim = newClaim(SHOP_KEYS, 'RW-BUG00001', 'Till 3', new Date(now()));
  await expect(transport('Till 1').send(at, { kind: 'claim', claim }, 1000)).rejects.toThrow(/malformed/);
  expect(two.refusals()).toEqual({});
});
