/**
 * Pricing over one store: it reads the store and hands the points to the pure engine; it
 * owns no arithmetic of its own. The inside of the oracle (oracle.ts), which looks products
 * up by what the caller names and runs these; the benchmarks time one bundle through it.
 */
import type { ConvertedFigures, PricingBundle, PricingParams } from '../domain/bundle.js';
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
import type { EvidencePoint, ExplainedEvidence } from '../domain/evidence.js';
import type { PointReadOptions, Store, StoredProduct } from '../store/store.js';
import { parseCalibration } from './calibration.js';
import { productByKeyOrName } from './search.js';
import { suggestKeys } from './suggest.js';
import { createTurns, type Pause, type Turns } from './turns.js';
import {
  findSlot,
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

/**
 * The oracle's pricing over one store, with products already looked up: what `createPricing`
 * makes. Not an interface of its own: each method is documented once, on the Oracle method
 * that calls it (oracle.ts); the benchmarks and the backtest time bundles through it.
 */
export type Pricing = ReturnType<typeof createPricing>;

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

export function createPricing(store: Store, turns: Turns = createTurns()) {
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
  const price = async (
    product: StoredProduct,
    params: PricingParams,
    id: string | null,
    extraGrades?: boolean,
  ): Promise<PricingBundle> => {
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
  const priceSeries = (
    product: StoredProduct,
    params: SeriesParams,
    instants: readonly number[],
    id: string | null,
  ): Promise<PricingBundle[]> =>
    turns.run(async (pause) => {
      const bundles: PricingBundle[] = [];
      await seriesIn(pause, product, params, instants, id, (bundle) => bundles.push(bundle));
      return bundles;
    });
  const productByKey = async (productKey: string): Promise<StoredProduct> => {
    const product = await store.products.findByKey(productKey);
    if (!product) throw new UnknownProductError(productKey, await suggestKeys(store, productKey));
    return product;
  };
  const productByRefsource = async (refsourceId: string): Promise<StoredProduct> => {
    const product = await store.products.findByRefsourceId(refsourceId);
    if (!product) throw new NoCatalogMappingError(refsourceId);
    return product;
  };
  return {
    productByKey,
    productByRefsource,
    /** A key or local mapping; with `orName`, a key or a name that matches one product (ProductChoiceError when several). */
    product: (ref: ProductRef): Promise<StoredProduct> =>
      ref.refsourceId !== undefined
        ? productByRefsource(ref.refsourceId)
        : ref.orName === true
          ? productByKeyOrName(store, ref.productKey)
          : productByKey(ref.productKey),
    price,
    /** The converter of `params.currency`, null for USD; an UnknownCurrencyError when no rate of it is stored. */
    converter: converterFor,
    async *exportBundles(params: PricingParams): AsyncGenerator<PricingBundle> {
      let after = 0;
      for (;;) {
        const page = await store.products.pageAfter(after, EXPORT_PAGE_SIZE);
        for (const product of page) yield await price(product, params, product.refsourceId);
        if (page.length < EXPORT_PAGE_SIZE) return;
        after = page.at(-1)!.id;
      }
    },
    // A collection file is the CLI's: a line may name its product as `oracle price` takes it.
    valueHistory: (
      rows: readonly CollectionRow[],
      problems: readonly RowProblem[],
      params: SeriesParams,
      request: HistoryRequest,
    ): Promise<ValuationHistory> =>
      valueHistory(
        { productByKey: (text) => productByKeyOrName(store, text), productByRefsource, priceSeries },
        rows,
        problems,
        params,
        request,
      ),
    // A collection file is the CLI's: a line may name its product as `oracle price` takes it.
    value: (
      rows: readonly CollectionRow[],
      problems: readonly RowProblem[],
      params: PricingParams,
    ): Promise<Valuation> =>
      converterFor(params).then((converter) =>
        valueCollection(
          { productByKey: (text) => productByKeyOrName(store, text), productByRefsource, price },
          rows,
          problems,
          params,
          converter,
        ),
      ),
    async explain(
      product: StoredProduct,
      slot: string,
      params: PricingParams,
      id: string | null,
    ): Promise<ExplainedEvidence> {
      const converter = await converterFor(params);
      const input = await readInput(product, params, id, isExtraCondition(slot), { matchedBy: true });
      const body = explainSlot(input, slot);
      // The slot's figures in the currency, from the bundle `price` would give (one conversion path).
      const converted =
        converter === null ? undefined : findSlot(priced(input, converter), slot)?.meta.converted;
      return converted === undefined ? body : { ...body, converted: converted as ConvertedFigures };
    },
    async sales(
      product: StoredProduct,
      condition: string | null,
      params: PricingParams,
      id: string | null,
    ): Promise<EvidencePoint[]> {
      const extra = condition === null || isExtraCondition(condition);
      return productSales(await readInput(product, params, id, extra, { matchedBy: true }), condition);
    },
    priceSeries,
    history: (
      product: StoredProduct,
      params: SeriesParams,
      request: HistoryRequest,
      id: string | null,
    ): Promise<History> =>
      priceSeries(product, params, request.instants, id).then((bundles) =>
        historyOf(product.productKey, request, bundles),
      ),
    historyJson: (
      product: StoredProduct,
      params: SeriesParams,
      request: HistoryRequest,
      id: string | null,
      owner?: string,
    ): Promise<Buffer> =>
      turns.run(async (pause) => {
        const body = historyJson(product.productKey, request);
        await seriesIn(pause, product, params, request.instants, id, (bundle) => body.add(bundle));
        await pause();
        return body.done();
      }, owner),
    async priceWithChanges(
      product: StoredProduct,
      params: PricingParams,
      id: string | null,
      extraGrades?: boolean,
    ): Promise<PricedWithChanges> {
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
    snapshot(
      product: StoredProduct,
      day: { start: number; end: number },
      outlierStddevs: number,
      currency?: string,
    ): Promise<PricingBundle> {
      const params = { windowHours: SNAPSHOT_WINDOW_HOURS, outlierStddevs, asOf: day.end };
      return price(product, currency === undefined ? params : { ...params, currency }, product.refsourceId);
    },
    /** Forget the calibrations and rates read (another connection may have written new ones). */
    dataChanged(): void {
      calibrations = undefined;
      rates = undefined;
    },
  };
}
