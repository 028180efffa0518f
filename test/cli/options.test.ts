import { describe, expect, it } from 'vitest';
import { every, HISTORY_DEFAULT_EVERY, HISTORY_DEFAULT_SLOTS, slots } from '../../src/domain/history.js';
import { outlierStddevs, windowHours } from '../../src/domain/params.js';
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

  it('of history are the schema defaults', () => {
    const history = createProgram().commands.find((command) => command.name() === 'history');
    const defaults = Object.fromEntries(history?.options.map((option) => [option.attributeName(), option.defaultValue]) ?? []);
    expect(defaults).toMatchObject({ slots: slots.parse(undefined), every: every.parse(undefined), windowHours: 24, outlierStddevs: 2 });
  });
});
