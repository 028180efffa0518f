#!/usr/bin/env node
/**
 * The real servers the tests run against, started on loopback in a temporary directory and
 * stopped afterwards: Redis (Debian's `redis-server`, used by the shared rate limit) and
 * PostgreSQL (Debian's `postgresql`, the scaled-out store).
 *
 *   node scripts/test-services.js <command...>   start them, run the command with
 *                                                 ORACLE_TEST_REDIS_URL and ORACLE_TEST_PG_URL
 *                                                 set, stop them, exit with the command's code
 *                                                 (.ci/run)
 *   node scripts/test-services.js                start them, print the URLs, stop on Ctrl-C
 *
 * The test suite imports `startRedis` and `startPostgres` too (test/redis-setup.ts,
 * test/pg-setup.ts): it uses the servers named by those variables when they are set, and
 * otherwise starts its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
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
      if (port !== undefined || attempt >= 4 || !/Address already in use/.test(String(error.message)))
        throw error;
    }
  }
}

function launchRedis(port, dir) {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
  ];
  return launchServer({
    name: 'redis-server',
    file: 'redis-server',
    args,
    dir,
    port,
    ready: { stream: 'stdout', line: /Ready to accept connections/ },
    url: `redis://127.0.0.1:${port}`,
    stopSignal: 'SIGTERM',
  });
}

/**
 * Spawns a server in `dir` and resolves once `ready.line` appears on `ready.stream`:
 * { url, port, dir, stop() }; stop() sends `stopSignal`, waits for the exit and removes `dir`.
 * Rejects with the server's output when it exits first.
 */
function launchServer({ name, file, args, dir, port, ready, url, stopSignal, spawnOptions = {} }) {
  const child = spawn(file, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const watched = child[ready.stream];
  const other = ready.stream === 'stdout' ? child.stderr : child.stdout;
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (!ready.line.test(output)) return;
      watched.off('data', onData);
      watched.resume();
      resolve({
        url,
        port,
        dir,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
          await exited;
          rmSync(dir, { recursive: true, force: true });
        },
      });
    };
    watched.setEncoding('utf8').on('data', onData);
    other.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    void exited.then((code) =>
      reject(new Error(`${name} on port ${port} exited (${code}) before it was ready:\n${output.trim()}`)),
    );
  });
}

export const PG_INSTALL_HINT = 'apt-get install postgresql';

/**
 * The directory of PostgreSQL's server binaries (initdb, postgres): that of an `initdb` on
 * PATH, else the newest /usr/lib/postgresql/<version>/bin (Debian keeps them off PATH);
 * null when there is none.
 */
export function findPostgresBin() {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'initdb'))
    .find((file) => existsSync(file));
  const candidates = onPath ? [dirname(realpathSync(onPath))] : [];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  return (
    candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) ?? null
  );
}

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` account the
 * Debian package creates (its uid and gid, read from /etc/passwd).
 */
function serverAccount() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error("running as root and there is no 'postgres' account for the server to run as");
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The database the tests use; the cluster's superuser has the same name. */
const PG_DATABASE = 'oracle';

/**
 * Starts a PostgreSQL cluster made by initdb in a new temporary directory: listening on a
 * free 127.0.0.1 port, its unix socket in the same directory, durability off (fsync,
 * synchronous_commit, full_page_writes: nothing here outlives the run), trust
 * authentication for the `oracle` superuser, and an `oracle` database. The C locale makes
 * its text order the byte order SQLite uses. Resolves once it accepts connections:
 * { url, port, dir, stop() }; stop() shuts it down (fast) and removes the directory.
 */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error(`PostgreSQL's initdb not found; install it with: ${PG_INSTALL_HINT}`);
  const account = serverAccount();
  const dir = mkdtempSync(join(tmpdir(), 'oracle-pg-'));
  try {
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    if (account.uid !== undefined) {
      chownSync(dir, account.uid, account.gid);
      chownSync(data, account.uid, account.gid);
    }
    const init = spawnSync(
      join(bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        PG_DATABASE,
        '--auth=trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      { encoding: 'utf8', cwd: dir, ...account },
    );
    if (init.status !== 0)
      throw new Error(
        `initdb failed (${init.status ?? init.signal}):\n${(init.stderr || init.stdout || String(init.error)).trim()}`,
      );
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      try {
        const server = await launchPostgres(bin, data, dir, port, account);
        await createDatabase(port).catch(async (error) => {
          await server.stop();
          throw error;
        });
        return server;
      } catch (error) {
        // Another process may take the probed port before PostgreSQL binds it: try another.
        if (attempt >= 4 || !/could not bind|Address already in use/.test(String(error.message))) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function launchPostgres(bin, data, dir, port, account) {
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    // Test files run side by side, each with its servers and their pools.
    max_connections: '300',
  };
  return launchServer({
    name: 'postgres',
    file: join(bin, 'postgres'),
    args: ['-D', data, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    dir,
    port,
    ready: { stream: 'stderr', line: /database system is ready to accept connections/ },
    url: `postgres://${PG_DATABASE}@127.0.0.1:${port}/${PG_DATABASE}`,
    // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients).
    stopSignal: 'SIGINT',
    spawnOptions: account,
  });
}

async function createDatabase(port) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: PG_DATABASE, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${PG_DATABASE}`);
  } finally {
    await client.end();
  }
}

async function main(command) {
  if (!findRedisServer()) {
    process.stderr.write(`test-services: redis-server not found; install it with: ${REDIS_INSTALL_HINT}\n`);
    return 1;
  }
  if (!findPostgresBin()) {
    process.stderr.write(
      `test-services: PostgreSQL's initdb not found; install it with: ${PG_INSTALL_HINT}\n`,
    );
    return 1;
  }
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  process.stderr.write(`test-services: Redis on ${redis.url}, PostgreSQL on ${pg.url}\n`);
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
      env: { ...process.env, ORACLE_TEST_REDIS_URL: redis.url, ORACLE_TEST_PG_URL: pg.url },
    });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward).on('SIGTERM', forward);
    const [code, signal] = await new Promise((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    return code ?? (signal ? 1 : 0);
  } finally {
    await Promise.all([redis.stop(), pg.stop()]);
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
