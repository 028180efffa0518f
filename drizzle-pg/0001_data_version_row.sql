-- The one row of data_version (schema.ts): bumped by every commit that changes what pricing
-- reads, so replicas can tell that their cached bundles are stale.
INSERT INTO "data_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
