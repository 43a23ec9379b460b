#!/usr/bin/env bash
# The pictures of docs/print/: one page of each game's `plateau print` PDF (and of a `plateau
# new` variant's), rendered at 60 dpi with poppler's pdftoppm. Run from the tree's root after a
# build: bash docs/print/make-pictures.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
plateau=./build/plateau
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for game in ecosysteme-savane ecosysteme-ocean ecosystem chenilles safari fauna; do
  "$plateau" print "$game" --out "$tmp/$game.pdf" > /dev/null
done
"$plateau" new ecosysteme ecosysteme-jungle --dir "$tmp/jungle" > /dev/null
"$plateau" print "$tmp/jungle" --out "$tmp/jungle.pdf" > /dev/null
page() {  # page <pdf> <page number> <picture name>
  pdftoppm -r 60 -png -f "$2" -l "$2" -singlefile "$tmp/$1.pdf" "docs/print/$3"
}
page ecosysteme-savane 1 savane-cards
page ecosysteme-savane 2 savane-backs
page ecosysteme-ocean 13 ocean-cards
page ecosystem 5 ecosystem-cards
page chenilles 1 chenilles-events
page chenilles 13 chenilles-species
page safari 1 safari-tiles
page safari 7 safari-start
page fauna 1 fauna-animals
page fauna 41 fauna-scales
page jungle 1 variant-cards
