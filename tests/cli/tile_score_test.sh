#!/usr/bin/env bash
# plateau score on a Safari map: the example map's table and per-feature reasons, its JSON, and
# bad maps (two tiles on one space, mismatched edges, an unknown tile, a bad rotation, a piece
# on a segment the tile does not have) refused with exit 2 naming the file and the JSON path.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

out=$("$plateau" score safari "$src/games/safari/tests/maps/example.json")
grep -q "TOTAL               4       3" <<<"$out" || fail "example totals: $out"
grep -qF "kind trail; players [1]; points 3; tiles [0,0] [1,0]; why complete: 2 species" <<<"$out" || fail "trail reason: $out"
grep -qF "why unfinished: 3 animal(s) (birds included)" <<<"$out" || fail "bush reason: $out"
json=$("$plateau" score safari "$src/games/safari/tests/maps/example.json" --format json)
grep -q '"final_trails": 3' <<<"$json" || fail "json: $json"

bad() {  # bad <tiles json> <pieces json> <expected message after the file name>
  echo "{\"players\": [{}, {}], \"tiles\": $1, \"pieces\": $2}" > "$work/map.json"
  refused "$work/map.json: at $3" score safari "$work/map.json"
}
bad '[[0,-1,"CSS1",0],[0,-1,"CSS2",0]]' '[]' "/tiles/1: cell [0, -1] already holds a tile"
bad '[[0,0,"CSS2",0],[1,0,"CS1",0]]' '[]' "/tiles/1: the north edge is savanna but the neighbouring tile shows trail"
bad '[[0,0,"CS99",0]]' '[]' "/tiles/0: unknown tile id 'CS99'"
bad '[[0,0,"CS1",45]]' '[]' "/tiles/0: rotation 45 is not 0, 90, 180 or 270"
bad '[[0,0,"CS1",0]]' '[{"player":1,"cell":[0,0],"segment":1}]' "/pieces/0/segment: the tile at [0, 0] has 0 segment(s)"
echo "tile_score_test: ok"
