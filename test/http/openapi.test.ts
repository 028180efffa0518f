// @module-tag sqlite-only: the served document: no store
/**
 * The OpenAPI document as the server serves it (`serve --metrics`, so every route is in it):
 * Redocly's linter with its recommended rules finds nothing in it, and the points no linter
 * looks at hold (what the server requires is required, dates and times carry their format,
 * the rate-limit and auth headers are documented, writes are no GET's answer).
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, tempDir } from '../_setup.js';
import { getJson, seedDatabase, startServer, type TestServer } from './_helpers.js';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

let server: TestServer;
let doc: any;

beforeAll(async () => {
  const dir = tempDir('oracle-openapi-');
  await seedDatabase(join(dir, 'oracle.db'), Date.now());
  server = await startServer({ dbPath: join(dir, 'oracle.db'), metrics: true });
  doc = await getJson(`${server.url}/api/v1/openapi.json`);
});

afterAll(async () => {
  await server?.close();
});

describe('the served OpenAPI document', () => {
  it('lints clean with Redocly recommended: 0 errors, 0 warnings', async () => {
    const file = join(tempDir('oracle-openapi-lint-'), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // No telemetry and no update check: the linter reads the file and nothing else.
    const { code, stdout, stderr } = await runCommand(
      process.execPath,
      [REDOCLY, 'lint', '--extends=recommended', '--format=json', file],
      {
        env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(
      report.problems.map((p) => `${p.ruleId}: ${p.message}`),
      stderr,
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(code).toBe(0);
  });

  it('describes every route of the server, /metrics included', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/developer/catalog',
      '/api/v1/developer/catalog/search',
      '/api/v1/developer/indexes',
      '/api/v1/developer/indexes/{name}',
      '/api/v1/developer/movers',
      '/api/v1/developer/pricing/{product_key}',
      '/api/v1/developer/pricing/{product_key}/evidence',
      '/api/v1/developer/pricing/{product_key}/history',
      '/api/v1/developer/pricing/{product_key}/sales',
      '/api/v1/developer/refsource/{refsource_id}',
      '/api/v1/developer/refsource/{refsource_id}/snapshot',
      '/api/v1/developer/value',
      '/api/v1/developer/value/history',
      '/api/v1/developer/watches',
      '/api/v1/developer/watches/events',
      '/api/v1/health',
      '/api/v1/openapi.json',
      '/api/v1/ready',
      '/metrics',
    ]);
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('lists each parameter as the handler receives it: type, range, default, required', () => {
    const pricing = doc.paths['/api/v1/developer/pricing/{product_key}'].get;
    expect(pricing.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:product_key',
      'query:window_hours',
      'query:outlier_stddevs',
      'query:at',
      'query:extra_grades',
      'query:currency',
    ]);
    expect(pricing.parameters[5]).toMatchObject({
      required: false,
      schema: { type: 'string', pattern: '^[A-Za-z]{3}$' },
      description: expect.stringMatching(/meta\.converted.*stay US cents and `USD`/),
    });
    expect(pricing.parameters[1]).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 72, default: 24 },
    });
    expect(pricing.security).toEqual([{ apiKeyHeader: [] }, { bearer: [] }]);
    expect(doc.components.securitySchemes).toEqual({
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: expect.stringMatching(/Wins over Authorization/),
      },
      bearer: { type: 'http', scheme: 'bearer', description: expect.stringMatching(/Bearer <key>/) },
    });
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
    const evidence = doc.paths['/api/v1/developer/pricing/{product_key}/evidence'].get;
    expect(evidence.parameters.find((p: { name: string }) => p.name === 'slot')).toMatchObject({
      required: true,
      schema: { type: 'string' },
      description: expect.stringMatching(/BGS 9\.5/),
    });
  });

  it('requires the snapshot date and gives dates and times their format', () => {
    const snapshot = doc.paths['/api/v1/developer/refsource/{refsource_id}/snapshot'].get;
    expect(snapshot.parameters.find((p: { name: string }) => p.name === 'date')).toMatchObject({
      required: true,
      schema: { type: 'string', format: 'date' },
    });
    const pricing = doc.paths['/api/v1/developer/pricing/{product_key}'].get;
    // An instant is written as people write it (`30d`, `2026-10-28`), which JSON Schema's date-time format would refuse.
    const at = pricing.parameters.find((p: { name: string }) => p.name === 'at');
    expect(at).toMatchObject({
      required: false,
      schema: { type: 'string' },
      description: expect.stringMatching(/`30d`.*end of that UTC day \(23:59:59\.999Z/),
    });
    expect(at.schema.format).toBeUndefined();
    const { Slot, OracleCardPricingResponse, Catalog } = doc.components.schemas;
    expect(Slot.properties.window_start).toEqual({ type: 'string', format: 'date-time' });
    expect(OracleCardPricingResponse.properties.metadata.properties.release_date.anyOf).toContainEqual({
      type: 'string',
      format: 'date',
    });
    expect(JSON.stringify(Catalog)).toContain(
      '"earliest_observation":{"anyOf":[{"type":"string","format":"date"}',
    );
  });

  it("documents every key of the evidence route's points, the optional sales_volume and matched_by included", () => {
    const point = doc.components.schemas.Evidence.properties.points.items;
    expect(Object.keys(point.properties)).toEqual([
      'condition',
      'observed_at',
      'source',
      'price_minor',
      'kept',
      'reason',
      'z',
      'weight',
      'sales_volume',
      'matched_by',
    ]);
    expect(point.required).not.toContain('sales_volume');
    expect(point.required).not.toContain('matched_by');
    expect(point.properties.matched_by).toMatchObject({
      type: 'string',
      description: expect.stringMatching(/by its title/),
    });
  });

  it('states integers without the ±2^53 bounds and grades as an integer enum', () => {
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(doc.components.schemas.GradedSlot.properties.grade).toEqual({
      type: 'integer',
      enum: [7, 8, 9, 10],
    });
  });

  it('documents the rate-limit headers, Retry-After and WWW-Authenticate, and no 403 on a GET', () => {
    const pricing = doc.paths['/api/v1/developer/pricing/{product_key}'].get.responses;
    expect(Object.keys(pricing['200'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    expect(Object.keys(pricing['429'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    expect(pricing['401'].headers).toEqual({
      'WWW-Authenticate': expect.objectContaining({
        required: true,
        schema: { type: 'string', const: 'Bearer realm="oracle"' },
      }),
    });
    expect(pricing['429'].headers['Retry-After']).toMatchObject({
      required: true,
      schema: { type: 'integer', exclusiveMinimum: 0 },
    });
    expect(pricing['200'].headers['RateLimit-Remaining']).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 0 },
    });
    // After the bucket, a bad parameter's 400 carries them; a 400 before it (no Host) does not.
    expect(pricing['400'].headers['RateLimit-Limit']).toMatchObject({ required: false });
    for (const [path, item] of Object.entries(doc.paths) as [string, { get: { responses: object } }][]) {
      expect(Object.keys(item.get.responses), path).not.toContain('403');
      expect(
        Object.keys(item.get.responses).some((s) => s.startsWith('4')),
        path,
      ).toBe(true);
    }
    // Health takes no token: no rate-limit headers there; the catalog is in the bucket (issue 35).
    expect(doc.paths['/api/v1/health'].get.responses['200'].headers).toBeUndefined();
    expect(Object.keys(doc.paths['/api/v1/developer/catalog'].get.responses['200'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
  });
});
