/**
 * The test files a worker runs share its process (`isolate: false` in vitest.config.ts): what one
 * file leaves behind must not reach the next. Node's fetch keeps idle connections to the servers a
 * file started on port 0; once such a server is closed, its port can be handed to the next file's
 * server, and a kept socket would be reset in the middle of that file's request. Each file ends
 * by closing them, with a fresh pool for the next.
 */
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll } from 'vitest';

afterAll(async () => {
  const used = getGlobalDispatcher();
  setGlobalDispatcher(new Agent());
  await used.close();
});
