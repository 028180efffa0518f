/**
 * Options' environment variables read from the run's environment (ProgramDeps.env) rather
 * than from process.env, which commander reads itself while parsing: a test runs the program
 * in process with an environment of its own.
 */
import type { Command } from 'commander';
import type { Env } from './context.js';

/**
 * Gives every option of `command` and its ancestors that the command line left unset the value
 * of its variable in `env`, or its default when `env` lacks the variable; run before the action
 * (commander's preAction), after commander applied process.env. Same parser, same source
 * ('env'), so a flag still beats its variable.
 */
export function applyEnv(command: Command, env: Env): void {
  for (let cmd: Command | null = command; cmd !== null; cmd = cmd.parent) {
    for (const option of cmd.options) {
      if (option.envVar === undefined) continue;
      const key = option.attributeName();
      const source = cmd.getOptionValueSource(key);
      if (source === 'cli') continue;
      const raw = env[option.envVar];
      if (raw !== undefined) {
        // As commander applies a variable: a flag without a value is set by its presence.
        const value = option.isBoolean()
          ? !option.negate
          : option.parseArg === undefined
            ? raw
            : option.parseArg(raw, cmd.getOptionValue(key));
        cmd.setOptionValueWithSource(key, value, 'env');
      } else if (source === 'env') {
        cmd.setOptionValueWithSource(key, option.defaultValue, 'default');
      }
    }
  }
}
