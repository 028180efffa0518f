/**
 * One valid observation as primitives: what the insert binds and what resolution needs.
 * A reader refills a single instance for every row, so a row leaves no object behind.
 * Filled either by the fast check of CSV cells (observation-fast.ts) or by the schema's
 * check of a record (checkObservation, observation.ts), with the same result for the same
 * input.
 */
import { conditionKey, UNGRADED } from '../../domain/conditions.js';
import type { ProductIdentity } from '../../domain/identity.js';

export class ObservationValues {
  /** The product reference (at least one is set). */
  productKey: string | undefined = undefined;
  refsourceId: string | undefined = undefined;
  tcgplayerId: string | undefined = undefined;
  /** With tcgplayerId: the printing of a TCGplayer price (feed records only; CSV cells have none). */
  printing: string | undefined = undefined;
  /** A crosswalk identity naming the product (a Cardmarket guide's row; feed records only). Set after `set`. */
  identity: ProductIdentity | undefined = undefined;
  /** A sold listing's title when the record names no product (feed records only): matched to a product by it. */
  title: string | undefined = undefined;
  /** How the title matched its product (observations.matched_by); null when the record named it. */
  matchedBy: string | null = null;
  /** The resolved product's id: set by the record writer just before the row is inserted. */
  productId = 0;
  source = '';
  observedAt = 0;
  priceMinor = 0;
  /** Upper case (a played raw card: `RAW-LP` ...), or `ungraded`. */
  grader: string = UNGRADED;
  /** null when ungraded or played raw. */
  grade: number | null = null;
  /** conditionKey(grader, grade). */
  condition: string = UNGRADED;
  /** '' when the record has none (the store's encoding). */
  externalId = '';
  /** How many sales a price guide's quote summarises (`sales_volume`); null for a sale. Set after `set`. */
  salesVolume: number | null = null;
  /**
   * The currency the record is priced in (ISO 4217, upper case). Until the writer converts it,
   * `priceMinor` is in this currency's minor units; after, `priceMinor` is US cents and
   * `amountMinor` the record's own amount (null for USD). Set after `set`.
   */
  currency = 'USD';
  amountMinor: number | null = null;

  /** Sets the fields shared by both fillers; `grader` normalised, `grade` a valid half step. */
  set(
    productKey: string | undefined,
    refsourceId: string | undefined,
    tcgplayerId: string | undefined,
    source: string,
    observedAt: number,
    priceMinor: number,
    grader: string | undefined,
    grade: number | undefined,
    externalId: string | undefined,
  ): void {
    this.productKey = productKey;
    this.refsourceId = refsourceId;
    this.tcgplayerId = tcgplayerId;
    this.source = source;
    this.observedAt = observedAt;
    this.priceMinor = priceMinor;
    const ungraded = grader === undefined || grader === UNGRADED;
    this.grader = ungraded ? UNGRADED : grader;
    this.grade = ungraded || grade === undefined ? null : grade;
    this.condition = ungraded ? UNGRADED : conditionKey(grader, this.grade);
    this.externalId = externalId ?? '';
    this.salesVolume = null;
    this.currency = 'USD';
    this.amountMinor = null;
    this.title = undefined;
    this.identity = undefined;
    this.matchedBy = null;
  }
}
