#!/usr/bin/env bash
# plateau print and plateau export tts, end to end (issue 35). One case per run:
#   counts <game>    the PDF of a shipped game: pages and parts as its data gives them
#                    (print_expect.py reads them with no Plateau code), every design's title
#                    and the rules stamp on the page (pdftotext), a first page that is not blank
#                    (pdftoppm), pdfinfo opens it
#   variant          a `plateau new` variant, then the same variant without a look: plain faces,
#                    said so
#   changed          --write-fingerprints, a one-number edit, --only-changed-since FILE prints
#                    that card alone after a cover naming it; the same against a git revision
#   refusals         unknown paper, an output that is not a PDF, a fingerprint file that is
#                    not one, a revision that is an option: exit 2 naming the argument
#   tts <game>       export tts: the saved object's fields, each deck's sheets holding as many
#                    distinct faces as the deck has designs, counts as the data gives them
set -euo pipefail
source "$(dirname "$0")/lib.sh"
case_name=$3
game=${4:-}

for tool in pdfinfo pdftotext pdftoppm; do
  command -v "$tool" > /dev/null || fail "$tool is missing: bash tools/bootstrap.sh install (poppler-utils)"
done

# check_pdf <pdf> <expect file> <fingerprint>: pages, stamps, titles, a page with ink.
check_pdf() {
  local pdf=$1 expect=$2 fp=$3
  pdfinfo "$pdf" > "$work/info.txt" || fail "pdfinfo cannot open $pdf"
  pdftotext "$pdf" "$work/text.txt" || fail "pdftotext cannot read $pdf"
  pdftoppm -r 30 -gray -f 1 -l 1 "$pdf" "$work/page"
  python3 - "$work/info.txt" "$work/text.txt" "$expect" "$fp" "$work"/page*.pgm <<'PY'
import math, re, sys
info, text, expect, fp, pgm = sys.argv[1:6]
pages = int(re.search(r"^Pages:\s+(\d+)", open(info).read(), re.M).group(1))
words = " ".join(open(text, encoding="utf-8").read().split())
# Titles are looked for with no white space: a long one wraps, at a hyphen too.
squeezed = "".join(words.split()).replace("-", "")
want_pages = parts = 0
for line in open(expect, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "title":
        if "".join(f[1].split()).replace("-", "") not in squeezed:
            sys.exit(f"FAIL: title '{f[1]}' not in the PDF's text")
        continue
    n, per, backs = int(f[1]), int(f[2]), int(f[3])
    want_pages += math.ceil(n / per) * (2 if backs else 1)
    parts += n
if pages != want_pages:
    sys.exit(f"FAIL: {pages} pages, expected {want_pages}")
stamps = words.count("rules " + fp)
if stamps != parts:
    sys.exit(f"FAIL: {stamps} parts stamped 'rules {fp}', expected {parts}")
# The first page: a binary PGM; some of it must be ink.
data = open(pgm, "rb").read()
m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
w, h = int(m.group(1)), int(m.group(2))
pixels = data[m.end():m.end() + w * h]
dark = sum(1 for p in pixels if p < 200) / len(pixels)
if dark < 0.05:
    sys.exit(f"FAIL: the first page is blank ({dark:.1%} ink)")
print(f"{pages} pages, {parts} parts stamped, first page {dark:.0%} ink")
PY
}

# has <text file> <text>: the text is in the file, line breaks and white space aside (a long
# line of a PDF wraps).
has() {
  python3 -c 'import sys; sq = lambda t: "".join(t.split()); sys.exit(0 if sq(sys.argv[2]) in sq(open(sys.argv[1], encoding="utf-8").read()) else 1)' "$1" "$2"
}

fingerprint() {  # the rules fingerprint plateau print stamps, from its summary line
  sed -n 's/.*· rules \([0-9a-f]\{16\}\)$/\1/p' "$1"
}

case "$case_name" in
  counts)
    python3 "$src/tests/cli/print_expect.py" "$src" "$game" > "$work/expect.txt"
    "$plateau" print "$game" --out "$work/$game.pdf" > "$work/out.txt"
    cat "$work/out.txt"
    while IFS=$'\t' read -r label n _ _; do
      [ "$label" = title ] && continue
      grep -qF "$n $label (" "$work/out.txt" || fail "summary does not say '$n $label': $(cat "$work/out.txt")"
    done < "$work/expect.txt"
    check_pdf "$work/$game.pdf" "$work/expect.txt" "$(fingerprint "$work/out.txt")"
    # Letter paper holds the same parts.
    "$plateau" print "$game" --paper letter --out "$work/$game-letter.pdf" > /dev/null
    pdfinfo "$work/$game-letter.pdf" | grep -q "Page size: *612 x 792" || fail "letter page size: $(pdfinfo "$work/$game-letter.pdf")"
    ;;
  variant)
    "$plateau" new ecosysteme ecosysteme-jungle --dir "$work/jungle" > /dev/null
    "$plateau" print "$work/jungle" --out "$work/jungle.pdf" > "$work/out.txt" 2> "$work/err.txt"
    grep -qF "130 cards (1 designs)" "$work/out.txt" || fail "variant: $(cat "$work/out.txt")"
    printf 'cards\t130\t9\t1\ntitle\tMeadow\n' > "$work/expect.txt"
    check_pdf "$work/jungle.pdf" "$work/expect.txt" "$(fingerprint "$work/out.txt")"
    ! grep -q "no look" "$work/err.txt" || fail "the variant has a look: $(cat "$work/err.txt")"
    rm "$work/jungle/data/look.json"
    "$plateau" print "$work/jungle" --out "$work/plain.pdf" > "$work/out.txt" 2> "$work/err.txt"
    grep -qF "has no look (data/look.json): its cards are printed as plain text faces from its data" "$work/err.txt" ||
      fail "no look not said: $(cat "$work/err.txt")"
    pdftotext "$work/plain.pdf" "$work/plain.txt"
    has "$work/plain.txt" "each orthogonally connected group of meadows" || fail "plain face without the card's doc"
    ;;
  changed)
    cp -r "$src/games/ecosysteme-savane" "$work/savane"
    "$plateau" print "$work/savane" --out "$work/all.pdf" --write-fingerprints "$work/fp.json" > "$work/out.txt"
    grep -q '"plateau_print_fingerprints"' "$work/fp.json" || fail "fingerprint file: $(head -c 300 "$work/fp.json")"
    # Nothing changed: a cover saying so, no card.
    "$plateau" print "$work/savane" --out "$work/none.pdf" --only-changed-since "$work/fp.json" > /dev/null
    pdftotext "$work/none.pdf" "$work/none.txt"
    has "$work/none.txt" "nothing changed" || fail "unchanged print: $(pdftotext "$work/none.pdf" -)"
    [ "$(pdfinfo "$work/none.pdf" | sed -n 's/^Pages: *//p')" = 1 ] || fail "unchanged print is not one cover page"
    # One number of one card: the zebra's count.
    python3 - "$work/savane/data/cards.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p, encoding="utf-8"))
for c in d["cards"]:
    if c["id"] == "zebra":
        c["count"] = 13
json.dump(d, open(p, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
PY
    "$plateau" print "$work/savane" --out "$work/changed.pdf" --only-changed-since "$work/fp.json" > "$work/out.txt"
    fp=$(fingerprint "$work/out.txt")
    pdftotext "$work/changed.pdf" "$work/changed.txt"
    has "$work/changed.txt" "changed: Zebra (cards/cards#zebra, 13 copies)" || fail "cover: $(cat "$work/changed.txt")"
    # The cover, then 13 zebras on 2 sheets of faces and their 2 of backs; only zebras.
    [ "$(pdfinfo "$work/changed.pdf" | sed -n 's/^Pages: *//p')" = 5 ] || fail "changed print pages: $(pdfinfo "$work/changed.pdf")"
    [ "$(grep -o "rules $fp" "$work/changed.txt" | wc -l)" = 14 ] || fail "13 zebras and the cover stamped: $(grep -c "rules $fp" "$work/changed.txt")"
    for other in Waterhole Prairie Gazelle Lion Vulture; do
      ! grep -q "$other" "$work/changed.txt" || fail "$other printed though unchanged"
    done
    # The same against a git revision of a repository holding the game.
    cp -r "$src/games/ecosysteme-savane" "$work/repo-savane"
    git -C "$work/repo-savane" init -q
    git -C "$work/repo-savane" -c user.name=t -c user.email=t@t add -A
    git -C "$work/repo-savane" -c user.name=t -c user.email=t@t commit -qm before
    sed -i 's/"id": "lion", "count": 10/"id": "lion", "count": 11/' "$work/repo-savane/data/cards.json"
    grep -q '"id": "lion", "count": 11' "$work/repo-savane/data/cards.json" || fail "the test's edit did not apply"
    "$plateau" print "$work/repo-savane" --out "$work/git.pdf" --only-changed-since HEAD > /dev/null
    pdftotext "$work/git.pdf" "$work/git.txt"
    has "$work/git.txt" "changed since HEAD: 11 part(s) to print" || fail "git cover: $(head -5 "$work/git.txt")"
    has "$work/git.txt" "changed: Lion (cards/cards#lion, 11 copies)" || fail "git cover: $(head -5 "$work/git.txt")"
    [ "$(grep -c "^changed: " "$work/git.txt")" = 1 ] || fail "more than the lion changed: $(grep "^changed: " "$work/git.txt")"
    # A look change reprints the cards it draws and no other: a new icon for the zebra.
    git -C "$work/repo-savane" -c user.name=t -c user.email=t@t commit -qam "lion"
    sed -i 's/"zebra": "🦓"/"zebra": "Z"/' "$work/repo-savane/data/look.json"
    "$plateau" print "$work/repo-savane" --out "$work/git2.pdf" --only-changed-since HEAD > /dev/null
    pdftotext "$work/git2.pdf" "$work/git2.txt"
    has "$work/git2.txt" "changed since HEAD: 12 part(s) to print" || fail "a look edit: $(head -5 "$work/git2.txt")"
    [ "$(grep "^changed: " "$work/git2.txt")" = "changed: Zebra (cards/cards#zebra, 12 copies)" ] ||
      fail "a look edit reprinted more than the zebra: $(grep "^changed: " "$work/git2.txt")"
    # A field no face shows (the doc of the studio's comment) changes nothing to print.
    git -C "$work/repo-savane" checkout -q -- data/look.json
    sed -i 's/"\$comment": "Écosystème – Savane: 132 cards/"$comment": "Savane, 133 cards/' "$work/repo-savane/data/cards.json"
    grep -q '"Savane, 133 cards' "$work/repo-savane/data/cards.json" || fail "the test's comment edit did not apply"
    "$plateau" print "$work/repo-savane" --out "$work/git3.pdf" --only-changed-since HEAD > /dev/null
    pdftotext "$work/git3.pdf" "$work/git3.txt"
    has "$work/git3.txt" "nothing changed" || fail "a comment reprinted cards: $(head -5 "$work/git3.txt")"
    ;;
  refusals)
    refused "--paper a3: unknown paper size (a4 or letter)" print ecosysteme-savane --paper a3 --out "$work/x.pdf"
    echo "my notes" > "$work/notes.txt"
    refused "--out $work/notes.txt: refusing to replace a file that is not a PDF" print ecosysteme-savane --out "$work/notes.txt"
    grep -q "my notes" "$work/notes.txt" || fail "the notes were touched"
    refused "--only-changed-since $work/notes.txt: not a fingerprint file of plateau print" print ecosysteme-savane --out "$work/x.pdf" --only-changed-since "$work/notes.txt"
    "$plateau" print chenilles --out "$work/c.pdf" --write-fingerprints "$work/chenilles-fp.json" > /dev/null
    refused "the fingerprints of game 'chenilles', not of 'ecosysteme-savane'" print ecosysteme-savane --out "$work/x.pdf" --only-changed-since "$work/chenilles-fp.json"
    refused "--only-changed-since --upload-pack=touch: neither a file nor a git revision" print ecosysteme-savane --out "$work/x.pdf" "--only-changed-since=--upload-pack=touch"
    refused "--only-changed-since no-such-rev: no such file, nor a revision" print "$src/games/ecosysteme-savane" --out "$work/x.pdf" --only-changed-since no-such-rev
    refused "--write-fingerprints $work/notes.txt: refusing to replace a file that is not a fingerprint file" print ecosysteme-savane --out "$work/y.pdf" --write-fingerprints "$work/notes.txt"
    mkdir "$work/taken"
    refused "--out $work/taken already exists" export tts ecosysteme-savane --out "$work/taken"
    [ ! -e "$work/x.pdf" ] || fail "a refused print wrote its PDF"
    ;;
  tts)
    python3 "$src/tests/cli/print_expect.py" "$src" "$game" > "$work/expect.txt"
    # At 2 pixels per millimetre: small sheets this test decodes itself, cell by cell.
    "$plateau" export tts "$game" --out "$work/tts" --px-per-mm 2 > "$work/out.txt"
    cat "$work/out.txt"
    python3 - "$work/tts" "$game" "$work/expect.txt" <<'PY'
import hashlib, json, os, struct, sys, zlib
folder, game, expect = sys.argv[1:4]

def png_pixels(path):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (path, depth, colour, interlace)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows

def distinct_cells(path, cols, rows_n):
    """How many cells of the sheet hold a drawing, and how many distinct drawings they hold."""
    w, h, bpp, rows = png_pixels(path)
    cw, ch = w // cols, h // rows_n
    drawn, kinds = 0, set()
    for r in range(rows_n):
        for c in range(cols):
            cell = b"".join(rows[y][c * cw * bpp:(c + 1) * cw * bpp] for y in range(r * ch, (r + 1) * ch))
            if cell.count(255) == len(cell):
                continue  # a cell left white
            drawn += 1
            kinds.add(hashlib.sha1(cell).hexdigest())
    return drawn, len(kinds)
save = json.load(open(os.path.join(folder, game + ".json"), encoding="utf-8"))
for key in ("SaveName", "ObjectStates"):
    if key not in save: sys.exit(f"FAIL: no {key}")
want = {}
for line in open(expect, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] != "title": want[f[0]] = int(f[1])
def png_size(url):
    assert url.startswith("file://"), url
    path = url[len("file://"):]
    head = open(path, "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])
got = {}
faces_total = 0
for o in save["ObjectStates"]:
    label = o["Nickname"].rsplit(" (", 1)[0]
    if o["Name"] == "DeckCustom":
        for key in ("Transform", "DeckIDs", "CustomDeck", "ContainedObjects"):
            if key not in o: sys.exit(f"FAIL: deck {label} has no {key}")
        if len(o["DeckIDs"]) != len(o["ContainedObjects"]): sys.exit(f"FAIL: {label}: DeckIDs and cards differ")
        ids = set(o["DeckIDs"])
        for k, d in o["CustomDeck"].items():
            for key in ("FaceURL", "BackURL", "NumWidth", "NumHeight"):
                if key not in d: sys.exit(f"FAIL: {label} sheet {k} has no {key}")
            if not (2 <= d["NumWidth"] <= 10 and 2 <= d["NumHeight"] <= 7): sys.exit(f"FAIL: {label}: sheet {d['NumWidth']}x{d['NumHeight']}")
            faces = {i for i in ids if i // 100 == int(k)}
            if not faces or max(i % 100 for i in faces) >= d["NumWidth"] * d["NumHeight"]:
                sys.exit(f"FAIL: {label}: card ids {sorted(faces)} beyond sheet {k}")
            # The sheet image: NumWidth x NumHeight cells of one card's size (the back's).
            w, h = png_size(d["FaceURL"])
            bw, bh = png_size(d["BackURL"])
            if (w, h) != (bw * d["NumWidth"], bh * d["NumHeight"]): sys.exit(f"FAIL: {label}: sheet {w}x{h}, back {bw}x{bh}")
            # The sheet itself: as many drawn cells, all different, as the deck has faces on it.
            drawn, kinds = distinct_cells(d["FaceURL"][len("file://"):], d["NumWidth"], d["NumHeight"])
            if drawn != len(faces) or kinds != len(faces):
                sys.exit(f"FAIL: {label} sheet {k}: {drawn} drawn cells, {kinds} distinct, for {len(faces)} faces")
        for c in o["ContainedObjects"]:
            if c["Name"] != "Card" or str(c["CardID"] // 100) not in c["CustomDeck"]: sys.exit(f"FAIL: {label}: card {c}")
        got[label] = len(o["DeckIDs"])
        faces_total += len(ids)
        print(f"{label}: {len(o['DeckIDs'])} cards, {len(ids)} distinct faces on {len(o['CustomDeck'])} sheet(s)")
    elif o["Name"] == "Bag":
        designs = set()
        for t in o["ContainedObjects"]:
            if t["Name"] != "Custom_Tile": sys.exit(f"FAIL: {label}: {t['Name']} in the bag")
            img = t["CustomImage"]
            for key in ("ImageURL", "ImageSecondaryURL", "CustomTile"):
                if key not in img: sys.exit(f"FAIL: {label}: a tile has no {key}")
            png_size(img["ImageURL"]); png_size(img["ImageSecondaryURL"])
            designs.add(img["ImageURL"])
        got[label] = len(o["ContainedObjects"])
        faces_total += len(designs)
        print(f"{label}: {len(o['ContainedObjects'])} tiles, {len(designs)} distinct faces")
    else:
        sys.exit(f"FAIL: unexpected object {o['Name']}")
if got != want: sys.exit(f"FAIL: {got} != {want}")
# One distinct face per design: as many as the designs' titles.
designs = sum(1 for line in open(expect, encoding="utf-8") if line.startswith("title\t"))
if faces_total != designs: sys.exit(f"FAIL: {faces_total} distinct faces, {designs} designs")
PY
    ;;
  *) fail "unknown case $case_name" ;;
esac
echo "print_test $case_name $game: ok"
