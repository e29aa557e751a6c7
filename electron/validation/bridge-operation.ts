/**
 * What every subsystem's table of bridge operations is made of (bridge/app-core.ts composes
 * the tables): an operation validates its payload against its schema, in the interface's
 * language, and answers with data (`{ ok: true, data }` or a failure), never a throw.
 */
import type { z } from 'zod';
import type { BridgeError, Failure, Operation, Result } from '../../common/contract';
import type { Wording } from '../messages';
import { describeFieldErrors, fieldErrors, parseOptions } from './validation-errors';

/**
 * One operation, once its payload is known to be valid (the sender is checked by the bridge).
 * `handsOver`: the secrets its answer exists to carry (the data key, to the till's page),
 * which the bridge scrubs from every other answer only.
 */
export type Run = ((payload: unknown) => Promise<Result<unknown> | Failure>) & {
  handsOver?: () => readonly string[];
};

/** A subsystem's operations: the bridge's table is these tables joined. */
export type OperationTable<K extends Operation = Operation> = Record<K, Run>;

/** Makes operations whose payload must match a schema, refused field by field in the words of `wording()`. */
export function operationMaker(wording: () => Wording) {
  return <S extends z.ZodType>(schema: S, run: (payload: z.output<S>) => Promise<Result<unknown> | Failure>): Run =>
    async (payload) => {
      const words = wording();
      const parsed = schema.safeParse(payload, parseOptions(words));
      if (parsed.success) return run(parsed.data);
      return validationFailure(fieldErrors(parsed.error, words), words);
    };
}

/** Marks an operation whose answer carries `secrets` on purpose (see `Run`). */
export function handingOver(run: Run, secrets: () => readonly string[]): Run {
  return Object.assign(run, { handsOver: secrets });
}

export function failure(error: BridgeError): Failure {
  return { ok: false, error };
}

export function validationFailure(fields: Record<string, string>, wording: Wording): Failure {
  return failure({ kind: 'validation', message: describeFieldErrors(fields, wording), fields });
}
