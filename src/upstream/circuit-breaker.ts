/**
 * A circuit breaker: after `failureThreshold` consecutive failures the circuit opens and
 * callers are told the upstream is down WITHOUT calling it, for `coolDownMs`. Then one probe
 * call is let through (half-open): success closes the circuit, failure opens it again.
 * This is what keeps a server from hammering an upstream that is already down.
 */

export interface CircuitBreakerOptions {
  failureThreshold: number;
  coolDownMs: number;
}

export const CIRCUIT_BREAKER_DEFAULTS: CircuitBreakerOptions = { failureThreshold: 5, coolDownMs: 30_000 };

export type CircuitState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | null = null;
  #probing = false;

  constructor(
    readonly options: CircuitBreakerOptions = CIRCUIT_BREAKER_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): CircuitState {
    if (this.#openedAt === null) return 'closed';
    return this.now() - this.#openedAt >= this.options.coolDownMs ? 'half-open' : 'open';
  }

  /** True when a call may go out now; in half-open state only one probe at a time may. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#probing) return false;
    this.#probing = true;
    return true;
  }

  success(): void {
    this.#failures = 0;
    this.#openedAt = null;
    this.#probing = false;
  }

  failure(): void {
    this.#failures += 1;
    if (this.#probing || this.#failures >= this.options.failureThreshold) this.#openedAt = this.now();
    this.#probing = false;
  }
}
