/**
 * The bridge operations that go to the loyalty service: customers, rewards, whether the
 * service answers and how its clock stands. A failure in the till's own words is reworded
 * in the interface's language; the service's words stay.
 */
import type { z } from 'zod';
import type { ConnectionMode, ConnectionStatus, Failure } from '../../common/contract';
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import { inInterfaceLanguage } from './api-errors';
import type { LoyaltyApi } from './loyalty-api';
import type { ServiceConnection } from './service-connection';

export interface ServiceNeeds {
  connection: ServiceConnection;
  wording: () => Wording;
  /** The till's branch, added to a redemption that names none. */
  branchId: () => string | null;
  mode: () => ConnectionMode;
  /** The address the status names before it asks: the running demo's, or the configured one. */
  knownBaseUrl: () => string | null;
  /** The deadline of one request, which the renderer's reconciliation allows for. */
  timeoutMs: number;
}

export type ServiceOperation =
  | 'searchCustomers'
  | 'customerPage'
  | 'getCustomer'
  | 'registerCustomer'
  | 'updateCustomer'
  | 'checkReward'
  | 'redeemReward'
  | 'connectionStatus'
  | 'serviceClock';

export function serviceOperations(needs: ServiceNeeds): OperationTable<ServiceOperation> {
  const { connection, wording } = needs;
  const op = operationMaker(wording);
  const spoken = <R>(result: R | Failure): R | Failure =>
    isFailure(result) ? { ...result, error: inInterfaceLanguage(result.error, wording()) } : result;
  // The API's own answer type is kept, so the table checks it against the contract.
  const viaApi =
    <P, R>(call: (api: LoyaltyApi, payload: P) => Promise<R>) =>
    async (payload: P): Promise<R | Failure> => {
      const current = await connection.current();
      return 'api' in current ? spoken(await call(current.api, payload)) : current;
    };

  return {
    searchCustomers: op(
      payloads.searchCustomersPayload,
      viaApi((api, query: z.output<typeof payloads.searchCustomersPayload>) => api.searchCustomers(query)),
    ),
    customerPage: op(
      payloads.customerPagePayload,
      viaApi((api, query: z.output<typeof payloads.customerPagePayload>) => api.customerPage(query)),
    ),
    getCustomer: op(
      payloads.getCustomerPayload,
      viaApi((api, { id }: z.output<typeof payloads.getCustomerPayload>) => api.getCustomer(id)),
    ),
    registerCustomer: op(
      payloads.registerCustomerPayload,
      viaApi((api, body: z.output<typeof payloads.registerCustomerPayload>) => api.registerCustomer(body)),
    ),
    updateCustomer: op(
      payloads.updateCustomerPayload,
      viaApi((api, { id, ...body }: z.output<typeof payloads.updateCustomerPayload>) => api.updateCustomer(id, body)),
    ),
    checkReward: op(
      payloads.checkRewardPayload,
      viaApi((api, body: z.output<typeof payloads.checkRewardPayload>) => api.checkReward(body)),
    ),
    redeemReward: op(
      payloads.redeemRewardPayload,
      viaApi((api, body: z.output<typeof payloads.redeemRewardPayload>) => {
        const branchId = needs.branchId();
        const withBranch = body.branch_id === undefined && branchId ? { ...body, branch_id: branchId } : body;
        return api.redeemReward(withBranch);
      }),
    ),
    connectionStatus: op(payloads.noPayload, async () => {
      const status: ConnectionStatus = {
        mode: needs.mode(),
        baseUrl: needs.knownBaseUrl(),
        reachable: null,
        checkedAt: new Date().toISOString(),
      };
      if (status.mode === 'unconfigured') return { ok: true, data: status };
      const current = await connection.current();
      const probe = 'api' in current ? await current.api.probe() : current;
      if ('api' in current) status.baseUrl = current.target.baseUrl;
      // "Reachable" means the service answered; a refused key or a 5xx is reachable but failing.
      status.reachable = probe.ok || (probe.error.kind !== 'offline' && probe.error.kind !== 'timeout');
      if (!probe.ok) status.error = inInterfaceLanguage(probe.error, wording());
      status.checkedAt = new Date().toISOString();
      return { ok: true, data: status };
    }),
    serviceClock: op(payloads.noPayload, async () => {
      const clock = connection.clock();
      const estimate = clock.estimate();
      return {
        ok: true,
        data: {
          offsetMs: estimate?.offsetMs ?? null,
          uncertaintyMs: estimate?.uncertaintyMs ?? null,
          tillClockOffMs: estimate?.wallOffsetMs ?? null,
          localNow: clock.monotonicNow(),
          requestTimeoutMs: needs.timeoutMs,
        },
      };
    }),
  };
}

function isFailure(result: unknown): result is Failure {
  return (result as { ok?: unknown }).ok === false;
}
