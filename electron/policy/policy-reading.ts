import { z } from 'zod';
import { isRecord } from '../../common/is-record';
import { describe, msg, type MainMessageKey, type Wording } from '../messages';
import { fieldErrors } from '../validation/validation-errors';
import { MAX_POLICY_BYTES, POLICY_SCHEMA_VERSION, policySchema, type Policy } from './policy-schema';

/** Why a policy was not applied. Every kind applies nothing: the till keeps its own settings. */
export type PolicyProblemKind =
  | 'unreadable'
  | 'too_large'
  | 'not_json'
  | 'not_object'
  | 'version'
  | 'invalid'
  /** A pipe, a device, a socket or a link where the policy file should be. */
  | 'not_regular'
  /** Reading it did not finish within the deadline (`seconds`). */
  | 'too_slow';

export interface PolicyProblem {
  kind: PolicyProblemKind;
  /** Where the policy was read: a file's path, the registry key, the profile's domain. */
  origin: string;
  /** The schema's complaints, worded when they are shown (in the interface language then). */
  error?: z.ZodError;
  /** The OS's error code for an unreadable source (`EACCES`, `EISDIR`, an exit status). */
  code?: string;
  /** For `too_slow`: the deadline, in seconds. */
  seconds?: number;
}

/** What one look at the machine's policy found. */
export type PolicyReading =
  | { state: 'none' }
  | { state: 'applied'; policy: Policy; origin: string }
  | { state: 'refused'; problem: PolicyProblem };

export const NO_POLICY: PolicyReading = Object.freeze({ state: 'none' });

/**
 * Checks a policy already read into a value (from JSON, the registry, a profile): wholly
 * valid, or refused whole. A version other than this one is refused before its fields are
 * read, so a newer policy is said to be newer, not listed as a page of unknown fields.
 */
export function checkPolicy(value: unknown, origin: string): PolicyReading {
  if (!isRecord(value)) return refused({ kind: 'not_object', origin });
  if (value.schemaVersion !== POLICY_SCHEMA_VERSION) return refused({ kind: 'version', origin });
  const parsed = policySchema.safeParse(value);
  if (!parsed.success) return refused({ kind: 'invalid', origin, error: parsed.error });
  return { state: 'applied', policy: parsed.data, origin };
}

/** Reads a policy from JSON text, as in `policy.json` (a byte-order mark, as Notepad writes, is allowed). */
export function checkPolicyText(bytes: Buffer, origin: string): PolicyReading {
  if (bytes.length > MAX_POLICY_BYTES) return refused({ kind: 'too_large', origin });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return refused({ kind: 'not_json', origin });
  }
  return checkPolicy(value, origin);
}

export function refused(problem: PolicyProblem): PolicyReading {
  return { state: 'refused', problem };
}

const PROBLEM_WORDS: Record<PolicyProblemKind, MainMessageKey> = {
  unreadable: msg('policy.unreadable'),
  too_large: msg('policy.tooLarge'),
  not_json: msg('policy.notJson'),
  not_object: msg('policy.notObject'),
  version: msg('policy.unknownVersion'),
  invalid: msg('policy.invalid'),
  not_regular: msg('policy.notRegularFile'),
  too_slow: msg('policy.tooSlow'),
};

/**
 * Why the policy was not applied, in `wording`'s language: the same sentence goes to the log
 * (in English) and to Settings. Schema complaints name each field by its path in the policy.
 */
export function describePolicyProblem(problem: PolicyProblem, wording: Wording): string {
  const why = describe(wording, PROBLEM_WORDS[problem.kind], {
    max: MAX_POLICY_BYTES / 1024,
    version: POLICY_SCHEMA_VERSION,
    code: problem.code ?? '?',
    seconds: problem.seconds ?? 0,
  });
  const fields = problem.error
    ? Object.entries(fieldErrors(withFullPaths(problem.error), wording))
        .map(([field, message]) => describe(wording, 'problem.ofField', { field, message }))
        .join(' ')
    : '';
  return describe(wording, 'policy.notApplied', { origin: problem.origin, why: fields ? `${why} ${fields}` : why });
}

/**
 * An unknown key is named by its whole path (`settings.apiKey`), not by its last part as a
 * bridge field is: in a policy, the same key may be misplaced at several levels.
 */
function withFullPaths(error: z.ZodError): z.ZodError {
  return new z.ZodError(
    error.issues.flatMap((issue): z.core.$ZodIssue[] =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({
            code: 'custom',
            path: [...issue.path, key],
            message: msg('fields.notAccepted'),
            input: undefined,
          }))
        : [issue],
    ),
  );
}

/**
 * The manager PIN's hash the policy sets, for the PIN's guard (issue 34 wires it): null
 * without a policy, with one that sets none, and with one that was refused, since a refused
 * policy applies nothing.
 */
export function policyManagerPinHash(reading: PolicyReading): string | null {
  return reading.state === 'applied' ? (reading.policy.managerPinHash ?? null) : null;
}
