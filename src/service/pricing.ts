/**
 * Pricing over one store: it reads the store and hands the points to the pure engine; it
 * owns no arithmetic of its own. A part of the oracle (oracle.ts), which looks products up
 * by what the caller names and runs these; the benchmarks time one bundle through it.
 */
import type { PricingBundle, PricingParams } from '../domain/bundle.js';
import { NoCatalogMappingError, UnknownProductError } from '../domain/errors.js';
import {
  computeBundle,
  computeExtraGrades,
  explainSlot,
  pointsRequest,
  productSales,
  timelineOfColumns,
  type Calibration,
  type ComputeBundleInput,
} from '../engine/index.js';
import type { EvidenceBody, EvidencePoint } from '../domain/evidence.js';
import type { PointReadOptions, Store, StoredProduct } from '../store/store.js';
import { parseCalibration } from './calibration.js';
import { productByKeyOrName } from './search.js';
import { suggestKeys } from './suggest.js';
import { createTurns, type Pause, type Turns } from './turns.js';
import {
  historyJson,
  historyOf,
  priceChange,
  PRICE_CHANGE_DAYS,
  type History,
  type PriceChange,
} from './history.js';
import type { HistoryRequest } from '../domain/history.js';
import type { CollectionRow, RowProblem } from '../domain/collection.js';
import { valueCollection, type Valuation } from './valuation.js';
import { valueHistory, type ValuationHistory } from './valuation-history.js';
import { DAY_MS, toIsoUtc } from '../domain/time.js';
import type { PricePoint } from '../domain/observation.js';
import { rateTable, type RateTable } from '../engine/currency.js';
import { PointConverter, withConverted } from './currency.js';
import { isExtraCondition } from '../domain/conditions.js';

/** The snapshot window is always 24 hours (SPEC.md 4.4). */
export const SNAPSHOT_WINDOW_HOURS = 24;

export interface Pricing {
  /** Looks a product up by catalog key; throws UnknownProductError with up to 3 close keys. */
  productByKey(productKey: string): Promise<StoredProduct>;
  /** Looks a product up by its local reference-source mapping; throws NoCatalogMappingError. */
  productByRefsource(refsourceId: string): Promise<StoredProduct>;
  /**
   * The product a key or a local reference-source mapping names (the errors of the two above);
   * with `orName`, a key or a name that matches one product (ProductChoiceError when several).
   */
  product(ref: ProductRef): Promise<StoredProduct>;
  /**
   * Prices one product; `id` is the bundle's reference-source id (null on the pricing route).
   * With `extraGrades` the bundle carries `extra_grades` (CONTRACT.md additions 6), from one
   * more read made only then.
   */
  price(
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    extraGrades?: boolean,
  ): Promise<PricingBundle>;
  /** The evidence of one slot (`ungraded`, `psa9`, an extra grade `bgs9.5` ...) of the bundle `price` gives: its points and steps. */
  explain(
    product: StoredProduct,
    slot: string,
    params: PricingParams,
    id: string | null,
  ): Promise<EvidenceBody>;
  /**
   * The observations the pricing of `product` at `params` reads, of one condition or (null)
   * every condition and extra grade, newest first, each kept or not with the engine's reason.
   */
  sales(
    product: StoredProduct,
    condition: string | null,
    params: PricingParams,
    id: string | null,
  ): Promise<EvidencePoint[]>;
  /**
   * Prices a product over a snapshot day, the window `parseSnapshotDate` gives
   * (00:00Z of the date to 00:00Z of the next day).
   */
  snapshot(
    product: StoredProduct,
    day: { start: number; end: number },
    outlierStddevs: number,
  ): Promise<PricingBundle>;
  /**
   * The bundles of one product at many instants, as `price` gives each (the store read once
   * for all of them, see price-point-series.ts).
   */
  priceSeries(
    product: StoredProduct,
    params: SeriesParams,
    instants: readonly number[],
    id: string | null,
  ): Promise<PricingBundle[]>;
  /** The history of a product's slots over the request's instants, with its summary. */
  history(
    product: StoredProduct,
    params: SeriesParams,
    request: HistoryRequest,
    id: string | null,
  ): Promise<History>;
  /**
   * `history`'s body as JSON, written a point at a time in the same turn as its bundles (the
   * history route's answer); `owner` (an API key's id) takes turns with the other owners (turns.ts).
   */
  historyJson(
    product: StoredProduct,
    params: SeriesParams,
    request: HistoryRequest,
    id: string | null,
    owner?: string,
  ): Promise<Buffer>;
  /** The value of a collection's rows at each instant of `request` (valuation-history.ts). */
  valueHistory(
    rows: readonly CollectionRow[],
    problems: readonly RowProblem[],
    params: SeriesParams,
    request: HistoryRequest,
  ): Promise<ValuationHistory>;
  /** The value of a collection's rows as of `params.asOf` (valuation.ts); `problems` are the file's bad records. */
  value(
    rows: readonly CollectionRow[],
    problems: readonly RowProblem[],
    params: PricingParams,
  ): Promise<Valuation>;
  /**
   * Every product's bundle as of `params.asOf`, one at a time in catalog row order, `id` set
   * to the product's refsource id: products are read a page at a time, so memory stays flat
   * whatever the catalog's size.
   */
  exportBundles(params: PricingParams): AsyncGenerator<PricingBundle>;
  /** `price`, and how the ungraded price moved over the 7 and 30 days before `params.asOf`. */
  priceWithChanges(
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    extraGrades?: boolean,
  ): Promise<PricedWithChanges>;
  /** Forget the calibrations read (another connection may have written one). */
  dataChanged(): void;
}

/** The newest of `list` (ordered by as_of, then written) usable at `at`: fitted on data before it. */
function calibrationAt(list: readonly Calibration[], at: number): Calibration | null {
  let usable: Calibration | null = null;
  for (const c of list) if (c.asOf <= at) usable = c;
  return usable;
}

/** Products read per page by `exportBundles`. */
export const EXPORT_PAGE_SIZE = 500;

/** Pricing parameters of a series: those of one price, without its instant. */
export type SeriesParams = Omit<PricingParams, 'asOf'>;

/**
 * A product named by its catalog key or by its local reference-source mapping; with `orName`
 * (the CLI), `productKey` may also be a name or search phrase that matches one product
 * (search.ts productByKeyOrName). The API names products by key alone (SPEC.md).
 */
export type ProductRef =
  | { productKey: string; refsourceId?: undefined; orName?: boolean }
  | { refsourceId: string; productKey?: undefined };

export interface PricedWithChanges {
  bundle: PricingBundle;
  changes: PriceChange[];
}

export function createPricing(store: Store, turns: Turns = createTurns()): Pricing {
  // Calibrations are few and change only with `oracle calibrate`: read once, then picked in
  // memory, so a bundle stays at the pricing read's two statements.
  let calibrations: Promise<Calibration[]> | undefined;
  const calibrationList = (): Promise<Calibration[]> =>
    (calibrations ??= store.calibrations.all().then(
      (rows) => rows.map(parseCalibration),
      (error: unknown) => {
        calibrations = undefined; // a failed read is not remembered
        throw error;
      },
    ));
  /** What the engine prices one product from: the points `pointsRequest` names and the calibration of the instant. */
  const engineInput = (
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    points: ComputeBundleInput['points'],
    list: readonly Calibration[],
  ): ComputeBundleInput => ({ product, points, params, id, calibration: calibrationAt(list, params.asOf) });
  /** The engine's input of one price; `options.matchedBy` for `explain`, whose points say how a title match brought them in. */
  const readInput = async (
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    extraGrades = false,
    options?: PointReadOptions,
  ): Promise<ComputeBundleInput> => {
    const request = pointsRequest(params);
    const [points, extraPoints] = await Promise.all([
      store.pricePoints.read(product.id, request, options),
      extraGrades ? store.pricePoints.readExtra(product.id, request, options) : undefined,
    ]);
    const input = engineInput(product, params, id, points, await calibrationList());
    return extraPoints === undefined ? input : { ...input, extraPoints };
  };
  // The reference rates, read once on the first price asked in another currency than USD.
  let rates: Promise<RateTable> | undefined;
  const converterFor = async (params: { currency?: string }): Promise<PointConverter | null> => {
    if (params.currency === undefined || params.currency === 'USD') return null;
    rates ??= store.rates.all().then(rateTable, (error: unknown) => {
      rates = undefined; // a failed read is not remembered
      throw error;
    });
    return new PointConverter(await rates, params.currency);
  };
  /** The bundle of `input`, with the figures in `converter`'s currency beside its US cents. */
  const priced = (
    input: ComputeBundleInput,
    converter: PointConverter | null,
    convertedPoints?: ComputeBundleInput['points'],
  ) => {
    const bundle = computeBundle(input);
    if (converter === null) return bundle;
    const converted = computeBundle({
      ...input,
      points: convertedPoints ?? converter.points(input.points as readonly PricePoint[]),
      extraPoints: input.extraPoints && converter.points(input.extraPoints),
    });
    return withConverted(bundle, converted, converter.used, converter.currency);
  };
  const price: Pricing['price'] = async (product, params, id, extraGrades) => {
    const converter = await converterFor(params);
    return priced(await readInput(product, params, id, extraGrades), converter);
  };
  // A series is long work on the event loop (a bundle per instant): it runs in turns
  // (turns.ts), its read included, so no request waits behind it for long.
  /** Hands `each` the bundle of every instant in order. */
  const seriesIn = async (
    pause: Pause,
    product: StoredProduct,
    params: SeriesParams,
    instants: readonly number[],
    id: string | null,
    each: (bundle: PricingBundle) => void,
  ) => {
    const read = await store.pricePointSeries.readSeries(
      product.id,
      instants.map((asOf) => pointsRequest({ ...params, asOf })),
      pause,
    );
    await pause();
    const timeline = timelineOfColumns(read);
    const converter = await converterFor(params);
    const convertedTimeline = converter === null ? undefined : timelineOfColumns(converter.columns(read));
    const list = await calibrationList();
    for (const asOf of instants) {
      await pause();
      each(
        priced(engineInput(product, { ...params, asOf }, id, timeline, list), converter, convertedTimeline),
      );
    }
  };
  const priceSeries: Pricing['priceSeries'] = (product, params, instants, id) =>
    turns.run(async (pause) => {
      const bundles: PricingBundle[] = [];
      await seriesIn(pause, product, params, instants, id, (bundle) => bundles.push(bundle));
      return bundles;
    });
  const productByKey: Pricing['productByKey'] = async (productKey) => {
    const product = await store.products.findByKey(productKey);
    if (!product) throw new UnknownProductError(productKey, await suggestKeys(store, productKey));
    return product;
  };
  const productByRefsource: Pricing['productByRefsource'] = async (refsourceId) => {
    const product = await store.products.findByRefsourceId(refsourceId);
    if (!product) throw new NoCatalogMappingError(refsourceId);
    return product;
  };
  return {
    productByKey,
    productByRefsource,
    product: (ref) =>
      ref.refsourceId !== undefined
        ? productByRefsource(ref.refsourceId)
        : ref.orName === true
          ? productByKeyOrName(store, ref.productKey)
          : productByKey(ref.productKey),
    price,
    async *exportBundles(params) {
      let after = 0;
      for (;;) {
        const page = await store.products.pageAfter(after, EXPORT_PAGE_SIZE);
        for (const product of page) yield await price(product, params, product.refsourceId);
        if (page.length < EXPORT_PAGE_SIZE) return;
        after = page.at(-1)!.id;
      }
    },
    // A collection file is the CLI's: a line may name its product as `oracle price` takes it.
    valueHistory: (rows, problems, params, request) =>
      valueHistory(
        { productByKey: (text) => productByKeyOrName(store, text), productByRefsource, priceSeries },
        rows,
        problems,
        params,
        request,
      ),
    // A collection file is the CLI's: a line may name its product as `oracle price` takes it.
    value: (rows, problems, params) =>
      valueCollection(
        { productByKey: (text) => productByKeyOrName(store, text), productByRefsource, price },
        rows,
        problems,
        params,
      ),
    async explain(product, slot, params, id) {
      return explainSlot(
        await readInput(product, params, id, isExtraCondition(slot), { matchedBy: true }),
        slot,
      );
    },
    async sales(product, condition, params, id) {
      const extra = condition === null || isExtraCondition(condition);
      return productSales(await readInput(product, params, id, extra, { matchedBy: true }), condition);
    },
    priceSeries,
    history: (product, params, request, id) =>
      priceSeries(product, params, request.instants, id).then((bundles) =>
        historyOf(product.productKey, request, bundles),
      ),
    historyJson: (product, params, request, id, owner) =>
      turns.run(async (pause) => {
        const body = historyJson(product.productKey, request);
        await seriesIn(pause, product, params, request.instants, id, (bundle) => body.add(bundle));
        await pause();
        return body.done();
      }, owner),
    async priceWithChanges(product, params, id, extraGrades) {
      const { asOf, ...series } = params;
      const instants = [...PRICE_CHANGE_DAYS.map((days) => asOf - days * DAY_MS), asOf];
      const bundles = await priceSeries(product, series, instants, id);
      const bundle = bundles.at(-1)!;
      if (extraGrades) {
        const extraPoints = await store.pricePoints.readExtra(product.id, pointsRequest(params));
        bundle.extra_grades = computeExtraGrades(extraPoints, params);
      }
      const priced = (i: number) => {
        const price = bundles[i]!.ungraded.price_minor;
        return price === null ? null : { at: toIsoUtc(instants[i]!), price_minor: price };
      };
      const now = priced(instants.length - 1);
      return { bundle, changes: PRICE_CHANGE_DAYS.map((days, i) => priceChange(days, priced(i), now)) };
    },
    snapshot(product, day, outlierStddevs) {
      return price(
        product,
        { windowHours: SNAPSHOT_WINDOW_HOURS, outlierStddevs, asOf: day.end },
        product.refsourceId,
      );
    },
    dataChanged() {
      calibrations = undefined;
      rates = undefined;
    },
  };
}
