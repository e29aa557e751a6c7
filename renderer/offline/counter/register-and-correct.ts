/**
 * Registering a customer and correcting one. A registration is queued while the service
 * cannot be reached (the customer usable at once); a correction needs the service. What the
 * service made is written through to the cache and journalled, behind the answer.
 */
import type { Customer, RegisterCustomerPayload, UpdateCustomerPayload } from '../../../common/contract';
import { readPhone } from '../../../common/phone';
import { isUnreachable } from '../connection/failure-kinds';
import { CounterPart } from './counter-part';
import type { RegisterOutcome } from './outcomes';

export class RegisterAndCorrect extends CounterPart {
  /** Register (idempotent by phone); offline it is queued and the customer usable at once. */
  async registerCustomer(payload: RegisterCustomerPayload): Promise<RegisterOutcome> {
    const queue = async (): Promise<RegisterOutcome> => {
      const cashier = this.cashier();
      const queued = await this.afterWrites(() => this.outbox.queueRegistration(payload, this.settings(), cashier));
      if (!queued.ok) {
        const { ok: _refused, ...refusal } = queued;
        return { outcome: 'refused', ...refusal };
      }
      if (!queued.queued) return { outcome: 'known_here', customer: queued.customer.customer };
      this.replaySoon();
      return { outcome: 'queued', customer: queued.customer.customer };
    };
    if (this.offlineNow()) return queue();
    const cashier = this.cashier();
    const attemptedAt = this.now().toISOString();
    const result = await this.api.registerCustomer(payload);
    if (result.ok) {
      const { customer, created } = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a registered customer', () => this.cache.putCustomers([customer], fetchedAt));
      // A phone the service already knew registers nobody new: only a creation is journalled.
      if (created) this.journalCustomer('register', customer, cashier, attemptedAt);
      return { outcome: 'registered', customer, created };
    }
    if (isUnreachable(result.error)) return queue();
    return { outcome: 'failed', error: result.error };
  }

  /** Corrections need the service (they are not queued); the answer is written through. */
  async updateCustomer(payload: UpdateCustomerPayload) {
    const cashier = this.cashier();
    const attemptedAt = this.now().toISOString();
    const result = await this.api.updateCustomer(payload);
    if (result.ok) {
      const customer = result.data;
      const fetchedAt = this.now().toISOString();
      this.writeBehind.queue('a corrected customer', () => this.cache.putCustomers([customer], fetchedAt));
      this.journalCustomer('correct', customer, cashier, attemptedAt);
    }
    return result;
  }

  /** A registration or correction the service made: into the journal, behind the answer. */
  private journalCustomer(
    kind: 'register' | 'correct',
    customer: Customer,
    cashier: string | null,
    attemptedAt: string,
  ): void {
    const phoneE164 = readPhone(customer.phone, this.settings().defaultCountry)?.e164 ?? customer.phone;
    this.writeBehind.queue(`a ${kind === 'register' ? 'registration' : 'correction'} for the journal`, () =>
      this.outbox.journalAnswered({
        kind,
        outcome: kind === 'register' ? 'registered' : 'corrected',
        cashier,
        customerId: customer.id,
        customerName: customer.name,
        phoneE164,
        attemptedAt,
      }),
    );
  }
}
