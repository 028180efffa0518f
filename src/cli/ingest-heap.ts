/**
 * V8's heap settings for an `oracle ingest` process, which makes many short-lived objects a
 * record and keeps none. Both are V8 flags set at run time: V8 reads them at each collection,
 * so they take effect (measured, bench/findings.md, 6b). The build's code cache is made in a
 * process that never ingests (scripts/warm-code-cache.js), so it keeps the flags a start
 * checks it against. Every start-up and process tuning: docs/development.md, "Start-up and
 * process tuning".
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The young generation an ingest lets V8 grow to: two 8 MiB semispaces. V8 grows new space
 * whenever the bytes that survived its collections since it last grew exceed its capacity, so
 * any long run reached V8's maximum here, two 16 MiB semispaces: 16 MiB more peak memory for a
 * catalog of 50,000 products than for one of 10,000, and no time saved.
 */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 2 ** 20;

let youngGenerationCapped = false;

/**
 * Turns off allocation-site pretenuring for this process. A chunk of catalog records is alive
 * at some young-generation collections; in some runs V8 then took an allocation site on the
 * records' path for a long-lived one and made its later objects in the old generation, where
 * the dead ones kept the records they pointed to alive until a full collection, so memory grew
 * with the catalog. An ingest makes no long-lived objects for pretenuring to speed up.
 */
export function keepIngestObjectsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * Stops the young generation's growth once it has reached YOUNG_GENERATION_CAP_BYTES: called
 * between chunks of input, it pins new space where V8 has grown it (V8 only doubles it).
 */
export function capYoungGeneration(): void {
  if (youngGenerationCapped) return;
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (newSpace === undefined || newSpace.space_size < YOUNG_GENERATION_CAP_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  youngGenerationCapped = true;
}
