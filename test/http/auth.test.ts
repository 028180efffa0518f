/**
 * How the key headers are read (SPEC.md section 5, the keyHeaders schema): X-API-Key trimmed
 * and winning when not blank, else `Authorization: Bearer <key>` in any case of the scheme;
 * anything else presents no key. Against a real server on port 0.
 */
import { describe, expect, it } from 'vitest';
import { pricingPath, PRODUCTS, STORED_KEY, useSeededServer } from './_helpers.js';

const seeded = useSeededServer(Date.now());
const MISSING = 'missing API key: send X-API-Key: <key> or Authorization: Bearer <key>';
const INVALID = 'invalid or revoked API key';

describe('the key headers', () => {
  it.each([
    [{ 'x-api-key': `  ${STORED_KEY}\t` }, 200],
    [{ authorization: `Bearer ${STORED_KEY}` }, 200],
    [{ authorization: `bearer \t${STORED_KEY} ` }, 200],
    [{ 'x-api-key': '   ', authorization: `Bearer ${STORED_KEY}` }, 200],
    [{ 'x-api-key': 'ork_wrong', authorization: `Bearer ${STORED_KEY}` }, INVALID],
    [{ 'x-api-key': '' }, MISSING],
    [{ authorization: `Basic ${STORED_KEY}` }, MISSING],
    [{ authorization: 'Bearer' }, MISSING],
    [{ authorization: `Bearer ${STORED_KEY} extra` }, MISSING],
  ] as const)('%j answers %s', async (headers, expected) => {
    const res = await fetch(seeded.server.url + pricingPath(PRODUCTS.plain.productKey), { headers });
    if (expected === 200) {
      expect(res.status).toBe(200);
    } else {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toBe(expected);
    }
  });
});
