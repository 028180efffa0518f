// @module-tag sqlite-only: option parsing: no store
import { describe, expect, it } from 'vitest';
import { every, HISTORY_DEFAULT_EVERY, HISTORY_DEFAULT_SLOTS, slots } from '../../src/domain/history.js';
import { moversCondition, moversLimit } from '../../src/domain/movers.js';
import { outlierStddevs, windowHours } from '../../src/domain/params.js';
import { salesLimit } from '../../src/domain/sales.js';
import { createProgram } from '../../src/cli/program.js';
import { outlierStddevsOption, windowHoursOption } from '../../src/cli/options.js';

// An option names its default by the constant its schema takes it from (options.ts,
// schemaOption), so that no schema is built at start; these hold the two to the same value.
describe('option defaults', () => {
  it('are what the schema gives an absent input', () => {
    expect(windowHoursOption().defaultValue).toBe(windowHours.parse(undefined));
    expect(outlierStddevsOption().defaultValue).toBe(outlierStddevs.parse(undefined));
    expect(HISTORY_DEFAULT_SLOTS.join(',')).toBe(slots.parse(undefined));
    expect(HISTORY_DEFAULT_EVERY).toBe(every.parse(undefined));
  });

  const defaultsOf = (name: string) => {
    const command = createProgram().commands.find((c) => c.name() === name);
    return Object.fromEntries(
      command?.options.map((option) => [option.attributeName(), option.defaultValue]) ?? [],
    );
  };

  it('of history, sales and movers are the schema defaults', () => {
    expect(defaultsOf('history')).toMatchObject({
      slots: slots.parse(undefined),
      every: every.parse(undefined),
      windowHours: 24,
      outlierStddevs: 2,
    });
    expect(defaultsOf('sales')).toMatchObject({ limit: salesLimit.parse(undefined) });
    expect(defaultsOf('movers')).toMatchObject({
      condition: moversCondition.parse(undefined),
      limit: moversLimit.parse(undefined),
    });
  });
});
