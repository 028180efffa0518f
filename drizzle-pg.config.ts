import { defineConfig } from 'drizzle-kit';

/** The PostgreSQL store's migrations (src/store/pg/schema.ts): `npm run db:generate:pg`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/pg/schema.ts',
  out: './drizzle-pg',
});
