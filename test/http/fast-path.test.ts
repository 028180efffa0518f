/**
 * The request path's shortcut for keys keeps its promise: a keep-alive connection's remembered
 * key never outlives a revocation or a key change.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/service/keys.js';
import { openStore } from '../../src/store/open-store.js';
import { ENV_KEY, pricingPath, PRODUCTS, REVOKED_KEY, STORED_KEY, useSeededServer } from './_helpers.js';
import { nextOrWithinASecond } from '../_pg.js';

const NOW = Date.now();
const seeded = useSeededServer(NOW);

/** GETs over `agent`; says whether the request went out on an already used socket. */
function get(agent: Agent, path: string, key: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${seeded.server.url}${path}`, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('keys on one keep-alive connection', () => {
  it('answers each request for the key it presents, whichever came before on the connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const path = pricingPath(PRODUCTS.plain.productKey);
      const answers = [];
      for (const key of [
        STORED_KEY,
        STORED_KEY,
        'ork_wrong',
        ENV_KEY,
        REVOKED_KEY,
        STORED_KEY,
        `${STORED_KEY.slice(0, -1)}X`,
      ]) {
        answers.push(await get(agent, path, key));
      }
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 200, 401, 200, 401]);
      expect(answers.slice(1).every((a) => a.reused)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a key on the next request of the same connection after another process revokes it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const writer = await openStore(seeded.dbPath);
    try {
      await writer.apiKeys.create('key_conn_revoked', 'x', hashApiKey('ork_conn-revoked'), NOW);
      const path = '/api/v1/developer/catalog';
      expect((await get(agent, path, 'ork_conn-revoked')).status).toBe(200);
      expect((await get(agent, path, 'ork_conn-revoked')).status).toBe(200);
      await writer.apiKeys.revoke('key_conn_revoked', NOW);
      const answer = await nextOrWithinASecond(
        () => get(agent, path, 'ork_conn-revoked'),
        (a) => a.status === 401,
      );
      expect(answer).toEqual({ status: 401, reused: true });
    } finally {
      await writer.close();
      agent.destroy();
    }
  });
});
