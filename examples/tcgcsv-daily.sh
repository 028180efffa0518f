#!/bin/sh
# Daily TCGplayer market prices from the tcgcsv mirror (refreshed around 20:00 UTC).
# crontab:  40 20 * * *  /opt/oracle/examples/tcgcsv-daily.sh
# TCGCSV_GROUPS: the tcgcsv group ids (one per set) of the sets you track; category 3 is Pokémon.
# Products are matched by the TCGplayer id the PriceCharting catalog carries (tcg-id).
set -eu
export ORACLE_DB="${ORACLE_DB:-/var/lib/oracle/oracle.db}"
category="${TCGCSV_CATEGORY:-3}"
urls=""
for group in ${TCGCSV_GROUPS:?set TCGCSV_GROUPS to the tcgcsv group ids to fetch}; do
  urls="$urls https://tcgcsv.com/tcgplayer/$category/$group/ProductsAndPrices.csv"
done
# shellcheck disable=SC2086 # one argument per URL
oracle ingest --format tcgplayer --observed-at "$(date -u +%Y-%m-%dT20:00:00Z)" $urls
