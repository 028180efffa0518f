/**
 * The store as one command uses it: opened on the first call, as the command asks (`create`
 * for ingest), and closed when the command ends. The server holds its store differently
 * (store-handle.ts); the service runs over either.
 */
import { openStore } from '../store/open-store.js';
import type { OpenOptions, Store } from '../store/store.js';
import type { StoreHandle } from './store-handle.js';

export function createCommandStore(location: string, options: OpenOptions = {}): StoreHandle {
  let opening: Promise<Store> | undefined;
  let store: Store | undefined;
  const get = () =>
    (opening ??= openStore(location, options).then((opened) => (store = opened)));
  return {
    use(fn) {
      // A command makes a handful of calls: its data version is read for each.
      return store !== undefined ? fn(store, store.dataVersion()) : get().then((opened) => fn(opened, opened.dataVersion()));
    },
    async write(fn) {
      await fn(await get());
    },
    async close() {
      const opened = store ?? (await opening?.catch(() => undefined));
      store = opening = undefined;
      await opened?.close();
    },
  };
}
