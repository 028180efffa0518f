/**
 * The pages of `oracle serve` (docs/web.md), each a read of the API routes with the same
 * parameters, rendered as HTML: a page's figures are its JSON twins' to the cent, since they are
 * the same route's answer. A page without `at` pins the instant of the request (to the second)
 * and its twin links carry it, so a twin opened later still answers the page's figures.
 */
import { z } from 'zod';
import type { MoversBody } from '../../domain/movers.js';
import type { EvidenceBody } from '../../domain/evidence.js';
import type { SalesBody } from '../../domain/sales.js';
import { DAY_MS, toIsoUtc } from '../../domain/time.js';
import { asOf } from '../../domain/params.js';
import { InvalidParameterError } from '../../domain/errors.js';
import type { PricingBundle } from '../../domain/bundle.js';
import type { Oracle } from '../../service/oracle.js';
import type { SearchBody } from '../../service/catalog.js';
import type { HistoryBody } from '../../service/history.js';
import type { Valuation } from '../../service/valuation.js';
import type { ValuationHistory } from '../../service/valuation-history.js';
import type { WatchEventRecordBody, WatchRuleBody } from '../../service/watch-bodies.js';
import { inputParser } from '../input.js';
import { JsonBytes, type Route } from '../route.js';
import type { ServerCache } from '../server-cache.js';
import { catalogSearchRoute } from '../routes/catalog-search.js';
import { evidenceRoute } from '../routes/evidence.js';
import { historyRoute } from '../routes/history.js';
import { moversRoute } from '../routes/movers.js';
import { pricingRoute } from '../routes/pricing.js';
import { salesRoute } from '../routes/sales.js';
import { valueHistoryRoute, valueRoute } from '../routes/value.js';
import { watchEventsRoute, watchRulesRoute } from '../routes/watches.js';
import { indexListRoute, indexRoute } from '../routes/indexes.js';
import type { IndexBody, IndexDefinitionBody } from '../../service/market-index.js';
import { VALUE_MAX_LINES } from '../value-schemas.js';
import { CHART_SCRIPTS } from './assets.js';
import { renderEvidence } from './evidence-page.js';
import { renderHome } from './home-page.js';
import { renderIndex, renderIndexList } from './index-pages.js';
import { href, html, type Html } from './html.js';
import { renderMovers } from './movers-view.js';
import { CHART_RANGES, renderProduct, type ChartRange } from './product-page.js';
import { renderValuation, renderValueForm } from './value-page.js';
import { renderWatches } from './watches-page.js';
import { moversForm } from './movers-form.js';

export interface PageContext {
  params: Record<string, string>;
  /** The query, each parameter once (pages take no repeated ones). */
  query: Record<string, string | undefined>;
  now: number;
  oracle: Oracle;
  cache: ServerCache;
  keyId: string | null;
}

export interface PageContent {
  title: string;
  body: Html;
  twins: { label: string; href: string }[];
  at?: string;
  q?: string;
  scripts?: readonly string[];
}

export interface Page {
  path: string;
  /** The query parameters it takes (any other is refused by name, as the API refuses it). */
  query: readonly string[];
  load(ctx: PageContext): Promise<PageContent>;
}

type Raw = Record<string, string | undefined>;

/** A route's answer to `raw` (its query, as text), and the route's URL for that answer: the page's JSON twin. */
async function read<T>(
  ctx: PageContext,
  route: Route,
  raw: Raw,
  params?: Record<string, string>,
): Promise<{ body: T; href: string }> {
  const query = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const body = await route.handle({
    params: inputParser(route.pathParams)(params ?? {}) as never,
    query: inputParser(route.query)(query) as never,
    now: ctx.now,
    oracle: ctx.oracle,
    cache: ctx.cache,
    keyId: ctx.keyId,
  });
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params![name]!));
  return {
    body: (body instanceof JsonBytes ? JSON.parse(body.bytes.toString('utf8')) : body) as T,
    href: href(path, query),
  };
}

/** The request's `at`, or its instant to the second: what every read of the page is as of. */
function pinnedAt(ctx: PageContext): { at: string; ms: number } {
  const given = ctx.query.at;
  if (given !== undefined && given !== '') return { at: given, ms: asOf(given, ctx.now, 'at') };
  const ms = Math.floor(ctx.now / 1000) * 1000;
  return { at: toIsoUtc(ms), ms };
}

const range = z.enum(Object.keys(CHART_RANGES) as [ChartRange, ...ChartRange[]]);

/** The page's `range`, or `fallback`; any other value refused by name, as the API refuses it. */
function chosenRange(ctx: PageContext, fallback: ChartRange): ChartRange {
  const chosen = range.default(fallback).safeParse(ctx.query.range);
  if (!chosen.success)
    throw new InvalidParameterError(
      'range',
      `range ${JSON.stringify(ctx.query.range)} is not one of ${Object.keys(CHART_RANGES).join(', ')}`,
    );
  return chosen.data;
}

/**
 * An index is chained from its base date whatever span is shown, so a year of daily steps
 * costs its members' prices at every day since (seconds): the index pages show a year's weekly
 * chain by default, and the list shows that chain's latest value, the index page's.
 */
const INDEX_RANGE: ChartRange = '1y';

const home: Page = {
  path: '/',
  query: ['q', 'at'],
  async load(ctx) {
    const { at } = pinnedAt(ctx);
    const q = ctx.query.q?.trim() ?? '';
    const search = q === '' ? null : await read<SearchBody>(ctx, catalogSearchRoute, { q, limit: '20' });
    const movers = await read<MoversBody>(ctx, moversRoute, { at, limit: '5' });
    return {
      title: search === null ? 'Card prices' : `Search: ${q}`,
      q,
      at,
      body: renderHome(search?.body ?? null, movers.body, at),
      twins: [
        ...(search === null ? [] : [{ label: 'search', href: search.href }]),
        { label: 'movers', href: movers.href },
      ],
    };
  },
};

const product: Page = {
  path: '/products/:product_key',
  query: ['at', 'extra_grades', 'chart', 'range'],
  async load(ctx) {
    const { at, ms } = pinnedAt(ctx);
    const key = { product_key: ctx.params.product_key! };
    const chosen = chosenRange(ctx, '90d');
    const { days, every } = CHART_RANGES[chosen];
    const chart = ctx.query.chart ?? 'ungraded';
    const extraGrades = ctx.query.extra_grades === 'true';
    const bundle = await read<PricingBundle>(
      ctx,
      pricingRoute,
      { at, extra_grades: ctx.query.extra_grades },
      key,
    );
    const history = await read<HistoryBody>(
      ctx,
      historyRoute,
      { from: toIsoUtc(ms - days * DAY_MS), to: at, every, slots: chart },
      key,
    );
    return {
      title: `${bundle.body.metadata.product_name} ${bundle.body.metadata.subtitle}`.trim(),
      at,
      scripts: CHART_SCRIPTS,
      body: renderProduct({
        bundle: bundle.body,
        history: history.body,
        chart: history.body.slots[0] ?? chart,
        range: chosen,
        at,
        extraGrades,
      }),
      twins: [
        { label: 'prices', href: bundle.href },
        { label: 'history', href: history.href },
      ],
    };
  },
};

const evidence: Page = {
  path: '/products/:product_key/evidence',
  query: ['slot', 'at'],
  async load(ctx) {
    const { at } = pinnedAt(ctx);
    const key = { product_key: ctx.params.product_key! };
    const slot = ctx.query.slot ?? 'ungraded';
    const explained = await read<EvidenceBody>(ctx, evidenceRoute, { slot, at }, key);
    const sales = await read<SalesBody>(ctx, salesRoute, { condition: slot, at, limit: '50' }, key);
    return {
      title: `Evidence: ${sales.body.product_name}`,
      at,
      body: renderEvidence(explained.body, sales.body, at),
      twins: [
        { label: 'evidence', href: explained.href },
        { label: 'sales', href: sales.href },
      ],
    };
  },
};

const movers: Page = {
  path: '/movers',
  query: ['span', 'condition', 'limit', 'at'],
  async load(ctx) {
    const { at } = pinnedAt(ctx);
    const { span, condition, limit } = ctx.query;
    const answer = await read<MoversBody>(ctx, moversRoute, { span, condition, limit, at });
    return {
      title: 'Movers',
      at,
      body: html`${moversForm(answer.body, at)}${renderMovers(answer.body, at)}`,
      twins: [{ label: 'movers', href: answer.href }],
    };
  },
};

const value: Page = {
  path: '/value',
  query: ['csv', 'at'],
  async load(ctx) {
    const { at } = pinnedAt(ctx);
    const csv = ctx.query.csv ?? '';
    const form = renderValueForm(csv, ctx.query.at, VALUE_MAX_LINES);
    if (csv.trim() === '') return { title: 'Collection value', at, body: form, twins: [] };
    const valued = await read<Valuation>(ctx, valueRoute, { csv, at });
    const history = await read<ValuationHistory>(ctx, valueHistoryRoute, { csv, to: at });
    return {
      title: 'Collection value',
      at,
      scripts: CHART_SCRIPTS,
      body: html`${renderValuation(valued.body, history.body, at)}${form}`,
      twins: [
        { label: 'value', href: valued.href },
        { label: 'value over time', href: history.href },
      ],
    };
  },
};

const watches: Page = {
  path: '/watches',
  query: ['at'],
  async load(ctx) {
    const at = ctx.query.at;
    const rules = await read<{ rules: WatchRuleBody[] }>(ctx, watchRulesRoute, {});
    const events = await read<{ events: WatchEventRecordBody[] }>(ctx, watchEventsRoute, { limit: '50' });
    return {
      title: 'Watches',
      at,
      body: renderWatches(rules.body.rules, events.body.events, at),
      twins: [
        { label: 'rules', href: rules.href },
        { label: 'events', href: events.href },
      ],
    };
  },
};

const indexes: Page = {
  path: '/indexes',
  query: ['at'],
  async load(ctx) {
    const { at, ms } = pinnedAt(ctx);
    const list = await read<{ indexes: IndexDefinitionBody[] }>(ctx, indexListRoute, {});
    const { every } = CHART_RANGES[INDEX_RANGE];
    const rows = [];
    for (const definition of list.body.indexes) {
      const started = Date.parse(definition.base_date) <= ms;
      const latest = started
        ? await read<IndexBody>(ctx, indexRoute, { from: at, to: at, every }, { name: definition.name })
        : null;
      rows.push({ definition, latest: latest?.body ?? null, href: latest?.href });
    }
    return {
      title: 'Market indexes',
      at,
      body: renderIndexList(rows, every, at),
      twins: [
        { label: 'indexes', href: list.href },
        ...rows.flatMap((r) => (r.href === undefined ? [] : [{ label: r.definition.name, href: r.href }])),
      ],
    };
  },
};

const marketIndex: Page = {
  path: '/indexes/:name',
  query: ['at', 'range'],
  async load(ctx) {
    const { at, ms } = pinnedAt(ctx);
    const chosen = chosenRange(ctx, INDEX_RANGE);
    const { days, every } = CHART_RANGES[chosen];
    const answer = await read<IndexBody>(
      ctx,
      indexRoute,
      { from: toIsoUtc(ms - days * DAY_MS), to: at, every },
      { name: ctx.params.name! },
    );
    return {
      title: `Index: ${answer.body.name}`,
      at,
      scripts: CHART_SCRIPTS,
      body: renderIndex(answer.body, chosen, at),
      twins: [{ label: 'index', href: answer.href }],
    };
  },
};

export const PAGES: readonly Page[] = [home, product, evidence, movers, value, watches, indexes, marketIndex];
