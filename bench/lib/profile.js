// @ts-check
/**
 * Summaries of the V8 CPU profiles written by `--profile` (node --cpu-prof): the functions
 * with the most self time, to see where a benchmark's time goes before guessing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './workspace.js';

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 */

/**
 * The top `limit` functions by self time in one .cpuprofile, as text lines.
 * @param {string} path
 * @param {number} [limit]
 * @returns {string[]}
 */
export function topSelfTime(path, limit = 15) {
  /** @type {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} */
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<string, number>} */
  const selfUs = new Map();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    if (!node) return;
    const f = node.callFrame;
    const where = f.url ? `${relative(ROOT, f.url.replace('file://', ''))}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
    totalUs += dt;
  });
  return [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(
      ([key, us]) =>
        `${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
}

/**
 * Summaries of every profile in a directory.
 * @param {string} dir
 * @returns {string}
 */
export function summarizeProfiles(dir) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  return files.map((f) => [`== ${join(dir, f)}`, ...topSelfTime(join(dir, f))].join('\n')).join('\n\n');
}
