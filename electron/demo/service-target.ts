/**
 * What the till talks to: the demo's own service while demo mode is on (started if need
 * be), otherwise the configured address with the stored key, or why it talks to none.
 */
import type { Failure } from '../../common/contract';
import { describeError, type Logger } from '../log/log';
import { describe, type Wording } from '../messages';
import type { ServiceTarget } from '../service/loyalty-api';
import { failure } from '../validation/bridge-operation';
import type { DemoMode } from './demo-mode';

export interface ServiceTargetNeeds {
  demo: DemoMode;
  baseUrl: () => string | null;
  apiKey: () => string | null;
  log: Logger;
  wording: () => Wording;
}

/** Starts the demo's service (or finds it running); null, with a line in the log, when it cannot start. */
export async function startDemo(demo: DemoMode, log: Logger): Promise<ServiceTarget | null> {
  try {
    return await demo.start();
  } catch (error) {
    log.error(`The demo service could not be started: ${describeError(error)}`);
    return null;
  }
}

export function serviceTargetOf(needs: ServiceTargetNeeds): () => Promise<ServiceTarget | Failure> {
  const { demo, log, wording } = needs;
  return async () => {
    if (demo.isOn()) {
      const target = await startDemo(demo, log);
      if (target) return target;
      return failure({
        kind: 'offline',
        code: 'demo_unavailable',
        message: describe(wording(), 'bridge.demoUnavailable'),
      });
    }
    const baseUrl = needs.baseUrl();
    const apiKey = needs.apiKey();
    if (!baseUrl || !apiKey) {
      return failure({
        kind: 'unauthorized',
        code: 'not_configured',
        message: describe(wording(), 'bridge.notConfigured'),
      });
    }
    return { baseUrl, apiKey };
  };
}
