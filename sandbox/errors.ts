/**
 * Errors the sandbox answers with. The spec leaves the error body "not shown"; the sandbox
 * answers `{ ok: false, error: { code, message, fields? } }`, documented in docs/sandbox.md
 * (in the spec dialect: `dialect.ts` writes other dialects' bodies from the same error).
 */
export type FieldErrors = Record<string, string[]>;

/** The message for a missing field; a dialect may reword it with the field's name. */
export const FIELD_REQUIRED = 'This field is required.';

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
  }

  body() {
    return {
      ok: false as const,
      error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) },
    };
  }
}

export const invalid = (fields: FieldErrors) =>
  new ServiceError(422, 'validation_failed', 'The request has invalid fields.', fields);

// One answer for an unknown code and for a code shown with someone else's phone, so that a
// caller cannot use the service to learn which codes exist.
export const rewardNotFound = () =>
  new ServiceError(404, 'reward_not_found', 'No reward with this code was found for this phone number.');

export const rewardUnavailable = (message: string) => new ServiceError(422, 'reward_unavailable', message);
