/**
 * The bridge's operation tables are typed against common/contract.ts on both sides: a
 * handler's answer must be the operation's result, its schema's output the operation's
 * payload, and a table must hold every operation it names. Each `@ts-expect-error` below is
 * a mistake the type check (`npm run typecheck`, part of `npm test`) must refuse: were the
 * types loosened, the expectation would be unused and the type check would fail.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TillState } from '../../../common/contract';
import { ENGLISH } from '../../../electron/messages';
import { joinOperations, operationMaker, type OperationTable } from '../../../electron/validation/bridge-operation';
import * as payloads from '../../../electron/validation/bridge-payloads';

const op = operationMaker(() => ENGLISH);
const state = {} as TillState;

describe('an operation table typed against the contract', () => {
  it('refuses a handler whose answer is not the operation’s result', async () => {
    const table: OperationTable<'getState'> = {
      // @ts-expect-error getState answers a TillState, not a number
      getState: op(payloads.noPayload, async () => ({ ok: true as const, data: 42 })),
    };
    expect(await table.getState(undefined)).toEqual({ ok: true, data: 42 });
  });

  it('refuses a schema whose output is not the operation’s payload', () => {
    const table: OperationTable<'setApiKey'> = {
      // @ts-expect-error setApiKey's payload is { apiKey: string }, not { key: string }
      setApiKey: op(z.strictObject({ key: z.string() }), async () => ({ ok: true as const, data: state })),
    };
    expect(Object.keys(table)).toEqual(['setApiKey']);
  });

  it('refuses a table that lacks an operation it names', () => {
    // @ts-expect-error endManagerApproval is named but has no handler
    const table: OperationTable<'getState' | 'endManagerApproval'> = {
      getState: op(payloads.noPayload, async () => ({ ok: true as const, data: state })),
    };
    expect(Object.keys(table)).toEqual(['getState']);
  });

  it('accepts a handler that answers the contract’s shape, a failure included', async () => {
    const table: OperationTable<'getState'> = {
      getState: op(payloads.noPayload, async () => ({ ok: true as const, data: state })),
    };
    expect(await table.getState({ stray: true })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  });
});

describe('joinOperations', () => {
  const getState = op(payloads.noPayload, async () => ({ ok: true as const, data: state }));
  const endManagerApproval = op(payloads.noPayload, async () => ({ ok: true as const, data: null }));

  it('joins the subsystems’ tables into one', () => {
    const joined = joinOperations({ getState }, { endManagerApproval });
    expect(Object.keys(joined).sort()).toEqual(['endManagerApproval', 'getState']);
    expect(joined.getState).toBe(getState);
  });

  it('throws on an operation two subsystems both define, where a spread would let one win', () => {
    expect(() => joinOperations({ getState }, { endManagerApproval, getState })).toThrow(
      'Two subsystems define the bridge operation "getState".',
    );
  });
});
