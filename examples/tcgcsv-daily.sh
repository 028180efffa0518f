#!/bin/sh
# Daily TCGplayer market prices from the tcgcsv mirror (refreshed around 20:00 UTC).
# crontab:  40 20 * * *  /opt/oracle/examples/tcgcsv-daily.sh
# TCGCSV_GROUPS: the tcgcsv group ids (one per set) of the sets you track; category 3 is Pokémon.
# Products are matched by TCGplayer id and printing (docs/feeds.md, "Printings"): the tcg-id
# and the [Reverse Holo] / [1st Edition] tags the PriceCharting catalog carries, or, with
# TCGCSV_CATALOG=1, the catalog this script first builds from the same files and the category's
# Groups.csv (free data only; docs/feeds.md, "Catalog from tcgcsv").
# The quotes are stamped with the refresh they come from: today's 20:00 UTC, or yesterday's
# when run before it (an instant after now is refused).
set -eu
export ORACLE_DB="${ORACLE_DB:-/var/lib/oracle/oracle.db}"
base="${TCGCSV_URL:-https://tcgcsv.com/tcgplayer}"
category="${TCGCSV_CATEGORY:-3}"
stamp="$(date -u +%Y-%m-%dT20:00:00Z)"
[ "$(date -u +%H)" -ge 20 ] || stamp="$(date -u -d '-1 day' +%Y-%m-%dT20:00:00Z)"
urls=""
for group in ${TCGCSV_GROUPS:?set TCGCSV_GROUPS to the tcgcsv group ids to fetch}; do
  urls="$urls $base/$category/$group/ProductsAndPrices.csv"
done
# shellcheck disable=SC2086 # one argument per URL
if [ "${TCGCSV_CATALOG:-0}" = 1 ]; then
  oracle ingest --format tcgplayer --kind catalog --groups "$base/$category/Groups.csv" $urls
fi
# shellcheck disable=SC2086
oracle ingest --format tcgplayer --observed-at "$stamp" $urls
