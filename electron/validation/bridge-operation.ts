/**
 * What every subsystem's table of bridge operations is made of (bridge/app-core.ts composes
 * the tables): an operation validates its payload against its schema, in the interface's
 * language, and answers with data (`{ ok: true, data }` or a failure), never a throw.
 */
import type { z } from 'zod';
import type { BridgeError, Failure, Operation, Result, TillOperations } from '../../common/contract';
import type { Wording } from '../messages';
import { describeFieldErrors, fieldErrors, parseOptions } from './validation-errors';

/** What the renderer sends an operation, as common/contract.ts types it. */
export type PayloadOf<K extends Operation> = TillOperations[K]['payload'];

/** What an operation answers, as common/contract.ts types it (its data, or a failure). */
export type AnswerOf<K extends Operation> = TillOperations[K]['result'];

/**
 * One operation, once its payload is known to be valid (the sender is checked by the bridge):
 * it takes what arrived and answers `A`. `P` is what its schema lets through; it rides along
 * as a type only (`accepts`), so a table can hold the schema to the contract's payload.
 * `handsOver`: the secrets its answer exists to carry (the data key, to the till's page),
 * which the bridge scrubs from every other answer only.
 */
export type Run<P = unknown, A = Result<unknown> | Failure> = ((payload: unknown) => Promise<A>) & {
  handsOver?: () => readonly string[];
  /** Never set: the schema's output type, held both ways so it must be the contract's payload. */
  readonly accepts?: (payload: P) => P;
};

/** A void payload arrives as undefined or null (a renderer calling `op()`): the schema says so. */
type Arrives<P> = [P] extends [void] ? undefined | null : P;

/**
 * A subsystem's operations, each typed against the contract: its schema's output is the
 * operation's payload and its answer the operation's result, or the table does not compile.
 * The bridge's table is these tables joined (`joinOperations`).
 */
export type OperationTable<K extends Operation = Operation> = {
  [Name in K]: Run<Arrives<PayloadOf<Name>>, AnswerOf<Name>>;
};

/** Makes operations whose payload must match a schema, refused field by field in the words of `wording()`. */
export function operationMaker(wording: () => Wording) {
  return <S extends z.ZodType, A>(
      schema: S,
      run: (payload: z.output<S>) => Promise<A>,
    ): Run<z.output<S>, A | Failure> =>
    async (payload) => {
      const words = wording();
      const parsed = schema.safeParse(payload, parseOptions(words));
      if (parsed.success) return run(parsed.data);
      return validationFailure(fieldErrors(parsed.error, words), words);
    };
}

/**
 * Joins the subsystems' tables into the bridge's one table. An operation two subsystems both
 * define is a mistake that object spread would hide (the later one silently wins): it throws.
 */
export function joinOperations<T extends Partial<OperationTable>[]>(...tables: T): UnionToIntersection<T[number]> {
  const joined: Partial<Record<Operation, Run>> = {};
  for (const table of tables) {
    for (const [name, run] of Object.entries(table) as [Operation, Run][]) {
      if (name in joined) throw new Error(`Two subsystems define the bridge operation "${name}".`);
      joined[name] = run;
    }
  }
  return joined as UnionToIntersection<T[number]>;
}

type UnionToIntersection<U> = (U extends unknown ? (whole: U) => void : never) extends (whole: infer I) => void
  ? I
  : never;

/** Marks an operation whose answer carries `secrets` on purpose (see `Run`). */
export function handingOver<P, A>(run: Run<P, A>, secrets: () => readonly string[]): Run<P, A> {
  return Object.assign(run, { handsOver: secrets });
}

export function failure(error: BridgeError): Failure {
  return { ok: false, error };
}

export function validationFailure(fields: Record<string, string>, wording: Wording): Failure {
  return failure({ kind: 'validation', message: describeFieldErrors(fields, wording), fields });
}
