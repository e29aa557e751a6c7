/**
 * The bridge's table of handlers, one a channel, over the operations the subsystems give:
 * each handler answers only the app's own page, never throws, and scrubs every secret from
 * its answer.
 */
import { CHANNELS, type Channel, type Operation } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { ResultTooDeepError, scrubSecrets } from '../log/scrub-secrets';
import { describe, type Wording } from '../messages';
import { failure, type OperationTable } from '../validation/bridge-operation';
import { isFromOrigin } from './sender-origin';

export type BridgeSender = { url: string } | null | undefined;
export type BridgeHandler = (sender: BridgeSender, payload: unknown) => Promise<unknown>;
export type BridgeHandlers = Record<Channel, BridgeHandler>;

export interface GuardNeeds {
  /** The only origin whose frames may call the bridge, e.g. `app://till`. */
  appOrigin: string;
  log: Logger;
  wording: () => Wording;
  /** What no answer may carry (the API keys, the data key), but an operation's own hand-over (`Run`). */
  secrets: () => string[];
}

export function guardedHandlers(operations: OperationTable, needs: GuardNeeds): BridgeHandlers {
  const { appOrigin, log, wording } = needs;
  const handlers = {} as BridgeHandlers;
  for (const operation of Object.keys(CHANNELS) as Operation[]) {
    const run = operations[operation];
    const handedOver = run.handsOver;
    const secrets = handedOver
      ? () => needs.secrets().filter((secret) => !handedOver().includes(secret))
      : needs.secrets;
    handlers[CHANNELS[operation]] = async (sender, payload) => {
      if (!isFromOrigin(sender?.url, appOrigin)) {
        log.warn(`Refused ${operation}: the request did not come from the app's own page.`);
        return failure({
          kind: 'unauthorized',
          code: 'forbidden_sender',
          message: describe(wording(), 'bridge.forbiddenSender'),
        });
      }
      try {
        return scrubSecrets(await run(payload), secrets());
      } catch (error) {
        if (error instanceof ResultTooDeepError) {
          log.warn(`${operation}: ${error.message}`);
          return failure({ kind: 'bad_response', message: describe(wording(), 'bridge.tooDeep') });
        }
        log.error(`${operation} failed inside the till app: ${describeError(error)}`);
        return failure({ kind: 'server', code: 'internal_error', message: describe(wording(), 'bridge.internal') });
      }
    };
  }
  return handlers;
}
