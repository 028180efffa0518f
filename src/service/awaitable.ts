/**
 * A value now, or a promise of it. The server's hot path (open store, cached key lookup,
 * cached bundle) has every answer at hand; awaiting it anyway cost a promise and a
 * microtask per step, several per request. Functions on that path return the value itself
 * when they have it, a promise only when they must wait (the store is opening, an upstream
 * is asked), and callers chain with `andThen`, or simply `await`.
 */
export type Awaitable<T> = T | Promise<T>;

/** `fn(value)`: at once when `value` is there, after it resolves when it is a promise. */
export function andThen<T, U>(value: Awaitable<T>, fn: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}

/** A part made on its first use by `make`: `get()` is the part itself once made (a promise until then), `made` it or undefined. */
export interface OnFirstUse<T> {
  get(): Awaitable<T>;
  readonly made: T | undefined;
}

export function onFirstUse<T>(make: () => Promise<T>): OnFirstUse<T> {
  let made: T | undefined;
  let making: Promise<T> | undefined;
  return {
    get: () => made ?? (making ??= make().then((part) => (made = part))),
    get made() {
      return made;
    },
  };
}
