/**
 * A value made when first asked for, then kept. For what a module would otherwise make as it
 * loads, on every command's start, though few commands use it: a regular expression of a Unicode
 * property class (`\p{L}`) is built from Unicode's tables when it is made, not when it runs
 * (bench/findings.md, 10a); a store's SQL statement is prepared when a command first runs it, not
 * whenever a file is opened (bench/findings.md, 4). Every start-up tuning: docs/development.md,
 * "Start-up and process tuning".
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
