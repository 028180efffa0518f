// @module-tag sqlite-only: the MCP adapter over the one service, whose reads run on both stores in the CLI and HTTP suites
/**
 * `oracle mcp` (src/mcp/server.ts) as an assistant's client sees it: the SDK's own Client over
 * its in-memory transport, against a real database and the real service, with a fixed clock;
 * then the built CLI as a child process over stdio (StdioClientTransport), as a desktop
 * assistant starts it.
 */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { createOracle, type Oracle } from '../../src/service/oracle.js';
import { openStore } from '../../src/store/open-store.js';
import { AS_OF, AS_OF_MS, marketDatabase } from '../cli/_market-database.js';
import { BIN, childEnv, tempDir } from '../_setup.js';

const TOOLS = ['explain_price', 'movers', 'price', 'price_history', 'search_catalog', 'value_collection'];

let db: string;
let oracle: Oracle;
let client: Client;

beforeAll(async () => {
  db = await marketDatabase(tempDir());
  oracle = createOracle({ store: await openStore(db) });
  const server = createMcpServer({ oracle, now: () => AS_OF_MS, version: '9.9.9' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await oracle?.close();
});

/** A call's JSON answer; fails the test on a tool error. */
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError ?? false, text).toBe(false);
  expect(result.structuredContent).toEqual(JSON.parse(text));
  return JSON.parse(text) as Record<string, any>;
}

/** A call's error text; fails the test unless the tool refused. */
async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

describe('the MCP server in process', () => {
  it('lists six read-only tools whose input schemas are the domain inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    const price = tools.find((tool) => tool.name === 'price')!;
    const properties = price.inputSchema.properties as Record<
      string,
      { type?: string; description?: string }
    >;
    expect(Object.keys(properties).sort()).toEqual(
      ['at', 'extra_grades', 'outlier_stddevs', 'product_key', 'refsource_id', 'window_hours'].sort(),
    );
    expect(properties.at!.description).toMatch(/not later than now/);
    expect(client.getInstructions()).toMatch(/as_of/);
  });

  it('searches the catalog', async () => {
    const body = await call('search_catalog', { q: 'risng card' });
    expect(body.as_of).toBe(AS_OF);
    expect(body.did_you_mean).toBe('rising card');
    expect(body.products.map((p: { product_key: string }) => p.product_key)).toEqual(['rising']);
  });

  it('prices a card as of an instant, each price with its basis, interval, sales and sources', async () => {
    const body = await call('price', { product_key: 'rising', at: '2026-10-15T12:00:00Z' });
    expect(body).toMatchObject({ as_of: AS_OF, product_key: 'rising', currency: 'USD' });
    expect(body.product.product_name).toBe('Rising Card');
    const ungraded = body.prices.find((p: { slot: string }) => p.slot === 'ungraded');
    expect(ungraded).toMatchObject({ basis: 'own', sources: { ebay: expect.any(Number) } });
    expect(ungraded.price_minor).toBeGreaterThan(14_000);
    expect(ungraded.price_minor).toBeLessThan(16_000);
    expect(ungraded.interval_80.low_minor).toBeLessThanOrEqual(ungraded.price_minor);
    expect(ungraded.newest_observation_at).toBe('2026-10-15T06:00:00Z');
    expect(body.prices).toHaveLength(17);
    const psa10 = body.prices.find((p: { slot: string }) => p.slot === 'psa10');
    expect(psa10.basis).toBe('own');
    // The same price as the CLI gives for the same instant.
    const bundle = await oracle.price({
      ref: { productKey: 'rising' },
      query: { windowHours: 24, outlierStddevs: 2, asOf: AS_OF_MS },
      now: AS_OF_MS,
    });
    expect(ungraded.price_minor).toBe(bundle.ungraded.price_minor);
    // A week earlier, before the step, and by refsource id; numbers are read as the texts they write as.
    const before = await call('price', { refsource_id: '700', at: '8d', window_hours: 24 });
    expect(before.as_of).toBe('2026-10-07T12:00:00Z');
    expect(before.prices[0].price_minor).toBeLessThan(11_000);
  });

  it('explains a slot with every observation, its source and date', async () => {
    const body = await call('explain_price', { product_key: 'rising', slot: 'ungraded' });
    expect(body).toMatchObject({ as_of: AS_OF, slot: 'ungraded' });
    const outlier = body.points.find((p: { price_minor: number }) => p.price_minor === 200_000);
    expect(outlier).toMatchObject({ source: 'ebay', kept: false, observed_at: '2026-10-15T07:00:00Z' });
    expect(outlier.reason).toEqual(expect.any(String));
    expect(body.steps.length).toBeGreaterThan(0);
  });

  it('gives the history, the movers and the value of a collection, each as of its instant', async () => {
    const history = await call('price_history', { product_key: 'falling', from: '14d', every: '7d' });
    expect(history.as_of).toBe(AS_OF);
    expect(history.points.map((p: { at: string }) => p.at)).toEqual([
      '2026-10-01T12:00:00Z',
      '2026-10-08T12:00:00Z',
      AS_OF,
    ]);
    const movers = await call('movers', { span: '14d' });
    expect(movers.as_of).toBe(AS_OF);
    expect(movers.gainers[0].product_key).toBe('rising');
    expect(movers.losers[0].product_key).toBe('falling');
    const value = await call('value_collection', {
      rows: [
        { product_key: 'rising', condition: 'ungraded', quantity: 2, cost_basis_minor: 20_000 },
        { refsource_id: '702', condition: 'PSA 10', quantity: 1 },
        { product_key: 'nope', condition: 'ungraded', quantity: 1 },
      ],
    });
    expect(value.as_of).toBe(AS_OF);
    expect(value.lines.map((l: { product_key: string }) => l.product_key)).toEqual(['rising', 'steady']);
    expect(value.total.priced_lines).toBe(2);
    expect(value.problems).toEqual([
      { line: 4, reason: expect.stringContaining('unknown product_key "nope"') },
    ]);
  });

  it("refuses bad arguments in the CLI's and the API's words, and writes nothing", async () => {
    expect(await refusal('price', { product_key: 'rising', window_hours: 0 })).toContain(
      'window_hours: must be an integer from 1 to 72 (got "0")',
    );
    expect(await refusal('price', { product_key: 'rising', at: '2026-10-16' })).toMatch(
      /^at "2026-10-16" is in the future/,
    );
    expect(await refusal('price', { product_key: 'no-such-card' })).toMatch(/no-such-card/);
    expect(await refusal('price', {})).toMatch(/either product_key or refsource_id/);
    expect(await refusal('price', { product_key: 'rising', drop: 'table' })).toMatch(/unknown argument drop/);
    expect(await refusal('explain_price', { product_key: 'rising', slot: 'psa11' })).toMatch(
      /slot: must be ungraded, or a grader and a grade/,
    );
    expect((await oracle.inventory()).observations).toBeGreaterThan(0);
  });
});

describe('oracle mcp over stdio', () => {
  it('answers an assistant that starts it as a child process, and ends when the client closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--db', db, 'mcp'],
      env: childEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const stdio = new Client({ name: 'stdio-test', version: '1.0.0' });
    await stdio.connect(transport);
    try {
      expect(stdio.getServerVersion()).toMatchObject({ name: 'oracle' });
      expect((await stdio.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const result = (await stdio.callTool({
        name: 'price',
        arguments: { product_key: 'steady', at: AS_OF },
      })) as CallToolResult;
      const body = JSON.parse((result.content[0] as { text: string }).text) as {
        as_of: string;
        prices: { slot: string; price_minor: number; basis: string }[];
      };
      expect(body.as_of).toBe(AS_OF);
      expect(body.prices[0]).toMatchObject({ slot: 'ungraded', basis: 'own' });
      expect(body.prices[0]!.price_minor).toBeGreaterThan(4_900);
    } finally {
      await stdio.close();
    }
  }, 60_000);
});
