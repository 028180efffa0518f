#!/bin/sh
# Sold listings from a marketplace (here eBay's Marketplace Insights API), every 15 minutes.
# crontab:  */15 * * * *  /opt/oracle/examples/sold-listings.sh
# WATCHLIST: product_key<TAB>search words, one product a line (see watchlist.tsv).
# Each sale becomes one canonical observation line (docs/feeds.md, "Sold listings"); the item
# id is its external_id, so listings already ingested add nothing and overlapping runs are safe.
# Grader and grade come from the listing's structured condition descriptors, never its title.
set -eu
: "${EBAY_TOKEN:?set EBAY_TOKEN to an OAuth application token}"
export ORACLE_DB="${ORACLE_DB:-/var/lib/oracle/oracle.db}"
tab="$(printf '\t')"
while IFS="$tab" read -r key query; do
  case "$key" in '' | '#'*) continue ;; esac
  curl -fsSG "https://api.ebay.com/buy/marketplace_insights/v1_beta/item_sales/search" \
    -H "Authorization: Bearer $EBAY_TOKEN" -H "X-EBAY-C-MARKETPLACE-ID: EBAY_US" \
    --data-urlencode "q=$query" --data-urlencode "limit=200" |
    jq -c --arg key "$key" '
      def descriptor($name): [.conditionDescriptors[]? | select(.name == $name) | .values[0].content][0];
      # "Professional Sports Authenticator (PSA)" -> "PSA"
      def abbreviation: if . == null then null else (capture("\\((?<g>[A-Za-z0-9-]+)\\)\\s*$").g // .) end;
      .itemSales[]? | {
        source: "ebay",
        external_id: .itemId,
        product_key: $key,
        observed_at: .lastSoldDate,
        price: .lastSoldPrice.value,
        currency: .lastSoldPrice.currency,
        grader: (descriptor("Professional Grader") | abbreviation),
        grade: descriptor("Grade")
      }'
done < "${WATCHLIST:-/etc/oracle/watchlist.tsv}" |
  oracle ingest --format ndjson --max-rejects 100 --rejects /var/log/oracle/sold-listings-rejects.ndjson -
