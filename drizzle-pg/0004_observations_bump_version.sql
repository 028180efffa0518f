-- Any write to observations that oracle's ingest did not make (psql, another tool) bumps
-- data_version and NOTIFYs oracle_data in its own transaction, as the ingest does
-- (src/store/pg/data-version.ts), so the replicas' caches of points and bundles never outlive
-- it. The ingest bumps the version itself, once per batch that changed something, and marks its
-- transaction (oracle.bumps_version) so its statements are not counted again.
CREATE FUNCTION "oracle_observations_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bumped bigint;
BEGIN
  IF coalesce(current_setting('oracle.bumps_version', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version INTO bumped;
  PERFORM pg_notify('oracle_data', bumped::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "observations_bump_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "observations"
  FOR EACH STATEMENT EXECUTE FUNCTION "oracle_observations_changed"();
