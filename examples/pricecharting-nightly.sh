#!/bin/sh
# Nightly PriceCharting feed: update the catalog, then ingest the day's price-guide quotes.
# crontab:  15 4 * * *  /opt/oracle/examples/pricecharting-nightly.sh
# PRICECHARTING_CSV_URL: the price-guide download link of your PriceCharting subscription.
# Stamped with the day, a retried run adds nothing (quotes are unique on all their fields).
set -eu
: "${PRICECHARTING_CSV_URL:?set PRICECHARTING_CSV_URL to your price-guide download link}"
export ORACLE_DB="${ORACLE_DB:-/var/lib/oracle/oracle.db}"
csv="$(mktemp "${TMPDIR:-/tmp}/pricecharting.XXXXXX.csv")"
trap 'rm -f "$csv"' EXIT
curl -fsS --retry 3 -o "$csv" "$PRICECHARTING_CSV_URL"
# A new product without a release date (its era cannot be told) is rejected and listed here.
oracle ingest --kind catalog --max-rejects 1000 --rejects "${REJECTS:-/var/log/oracle/pricecharting-catalog-rejects.ndjson}" "$csv"
oracle ingest --format pricecharting --observed-at "$(date -u +%Y-%m-%dT00:00:00Z)" "$csv"
