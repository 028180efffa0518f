#!/usr/bin/env node
/**
 * The real servers the tests run against, started on loopback in a temporary directory and
 * stopped afterwards. Today: Redis (Debian's `redis-server`, used by the shared rate limit).
 *
 *   node scripts/test-services.js <command...>   start them, run the command with
 *                                                 ORACLE_TEST_REDIS_URL set, stop them,
 *                                                 exit with the command's code (.ci/run)
 *   node scripts/test-services.js                start them, print the URLs, stop on Ctrl-C
 *
 * The test suite imports `startRedis` too (test/services-setup.ts): it uses the Redis named by
 * ORACLE_TEST_REDIS_URL when that is set, and otherwise starts its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REDIS_INSTALL_HINT = 'apt-get install redis-server';

/** The redis-server binary on PATH, or null when there is none. */
export function findRedisServer() {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? 'redis-server' : null;
}

/** A port free on 127.0.0.1 right now (Redis takes a fixed port, not 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a redis-server on 127.0.0.1 with nothing persisted (`--save ''`, no AOF) and its
 * working directory in a new temporary directory. `port` restarts one where it stood.
 * Resolves once it accepts connections: { url, port, stop() }; stop() ends it (SIGTERM) and
 * removes the directory.
 */
export async function startRedis({ port } = {}) {
  for (let attempt = 0; ; attempt++) {
    const chosen = port ?? (await freePort());
    const dir = mkdtempSync(join(tmpdir(), 'oracle-redis-'));
    try {
      return await launchRedis(chosen, dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      // Another process may take the probed port before Redis binds it: try another.
      if (port !== undefined || attempt >= 4 || !/Address already in use/.test(String(error.message))) throw error;
    }
  }
}

function launchRedis(port, dir) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const child = spawn('redis-server', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (!/Ready to accept connections/.test(output)) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
          rmSync(dir, { recursive: true, force: true });
        },
      });
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    exited.then((code) => reject(new Error(`redis-server on port ${port} exited (${code}) before it was ready:\n${output.trim()}`)));
  });
}

async function main(command) {
  if (!findRedisServer()) {
    process.stderr.write(`test-services: redis-server not found; install it with: ${REDIS_INSTALL_HINT}\n`);
    return 1;
  }
  const redis = await startRedis();
  process.stderr.write(`test-services: Redis on ${redis.url}\n`);
  try {
    if (command.length === 0) {
      await new Promise((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      return 0;
    }
    const child = spawn(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, ORACLE_TEST_REDIS_URL: redis.url },
    });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    const [code, signal] = await new Promise((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    return code ?? (signal ? 1 : 0);
  } finally {
    await redis.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`test-services: ${error.message}\n`);
      process.exit(1);
    },
  );
}
