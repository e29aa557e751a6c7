import type { WebSocket } from 'ws';
import { DISPLAY_CHANNELS, DISPLAY_PUSH_CHANNEL, type DisplayChannel } from '../../common/display-model';
import type { DisplayHub } from '../display/display-hub';
import type { Logger } from '../log/log';
import { describeError } from '../log/log';
import { readRequest } from './bridge-socket';

const DISPLAY_CHANNEL_NAMES = new Set<string>(Object.values(DISPLAY_CHANNELS));

/**
 * The customer display's socket: the same wire as the till's (`bridge-socket.ts`), with the
 * display's two channels only and its one push, the model. A display page cannot reach the
 * till's handler table, nor the till's page the keypad: each has its own socket path, and the
 * hub checks the sender's path again.
 */
export function serveDisplaySocket(
  socket: WebSocket,
  options: { hub: DisplayHub; senderUrl: string; log: Logger },
): void {
  const { hub, senderUrl, log } = options;
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const release = hub.attach((payload) => send({ push: DISPLAY_PUSH_CHANNEL, payload }));
  socket.on('close', release);
  socket.on('message', (data, isBinary) => {
    const request = isBinary ? null : readRequest(data.toString());
    if (!request) {
      log.warn('Closed a customer display socket that sent something other than a request.');
      socket.close(1008, 'Not a display request');
      return;
    }
    if (!DISPLAY_CHANNEL_NAMES.has(request.channel)) {
      send({ id: request.id, refused: 'No such channel.' });
      return;
    }
    hub.handlers[request.channel as DisplayChannel]({ url: senderUrl }, request.payload).then(
      (result) => send({ id: request.id, result }),
      (error: unknown) => {
        log.error(`A customer display handler threw: ${describeError(error)}`);
        send({ id: request.id, refused: 'The till app failed to answer.' });
      },
    );
  });
}
