// @module-tag sqlite-only: the circuit breaker alone: no store
import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../src/upstream/circuit-breaker.js';

describe('circuit breaker', () => {
  it('opens after the threshold, lets one probe through after the cool-down, and closes on success', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 2, coolDownMs: 1_000 }, () => now);
    breaker.failure();
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    now = 1_000;
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.failure();
    expect(breaker.state).toBe('open');
    now = 2_000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.success();
    expect(breaker.state).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
  });
});
