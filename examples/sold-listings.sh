#!/bin/sh
# Sold listings from a marketplace (here eBay's Marketplace Insights API), every 15 minutes.
# crontab:  */15 * * * *  /opt/oracle/examples/sold-listings.sh
# WATCHLIST: product_key<TAB>search words, one product a line (see watchlist.tsv).
# Each listing of the item_sales/search response is handed to `oracle ingest --format
# sold-listings` as it is, with the product_key of the watch-list line added (the marketplace
# does not know our catalog). The format reads eBay's own fields (docs/feeds.md, "Sold
# listings"): grader and grade from conditionId and the title, totalSoldQuantity units per
# listing, ids that make overlapping runs add only the sales made since.
set -eu
: "${EBAY_TOKEN:?set EBAY_TOKEN to an OAuth application token}"
export ORACLE_DB="${ORACLE_DB:-/var/lib/oracle/oracle.db}"
api="${EBAY_API_URL:-https://api.ebay.com}"
rejects="${REJECTS:-/var/log/oracle/sold-listings-rejects.ndjson}"
tab="$(printf '\t')"
while IFS="$tab" read -r key query; do
  case "$key" in '' | '#'*) continue ;; esac
  curl -fsSG "$api/buy/marketplace_insights/v1_beta/item_sales/search" \
    -H "Authorization: Bearer $EBAY_TOKEN" -H "X-EBAY-C-MARKETPLACE-ID: EBAY_US" \
    --data-urlencode "q=$query" --data-urlencode "limit=200" |
    jq -c --arg key "$key" '.itemSales[]? + {product_key: $key}'
done < "${WATCHLIST:-/etc/oracle/watchlist.tsv}" |
  oracle ingest --format sold-listings --max-rejects 100 --rejects "$rejects" -
