#!/usr/bin/env python3
# What plateau print should hold for a shipped game, read from its data with no Plateau code:
# one line per section "<label>\t<parts printed, copies counted>\t<parts per A4 sheet>\t<backs 0/1>"
# then "title\t<text>" lines, a title per design that the PDF must show.
# Used by print_test.sh (tests/CMakeLists.txt: print.<game>_counts).
import json, sys

src, game = sys.argv[1], sys.argv[2]
def load(name):
    with open(f"{src}/games/{game}/data/{name}.json", encoding="utf-8") as f:
        return json.load(f)
def en(n):
    return n.get("en") or n.get("fr") if isinstance(n, dict) else n

CARDS = 9    # 63 x 88 mm on A4 inside 10 mm margins: 3 x 3
TILES = 24   # 45 mm: 4 x 6
SHEETS = 2   # 190 x 130 mm: 1 x 2
START = 6    # the 135 x 45 mm start tile: 1 x 6
sections, titles = [], []
if game in ("ecosysteme-savane", "ecosysteme-ocean", "ecosystem"):
    cards = load("cards")["cards"]
    sections.append(("cards", sum(c["count"] for c in cards), CARDS, 1))
    titles += [en(c["name"]) for c in cards]
elif game == "chenilles":
    d = load("chenilles")
    for deck in ("events", "hazards", "resource_cards"):
        sections.append((deck.replace("_", " "), sum(c["count"] for c in d[deck]), CARDS, 1))
        titles += [c["id"].replace("_", " ") for c in d[deck]]
    sections.append(("species sheets", len(d["species"]), SHEETS, 0))
    titles += [en(s["name"]) for s in d["species"]]
    for board in ("forest board", "time board", "market board"):
        sections.append((board, 1, SHEETS, 0))
    titles += ["forest board", "time board", "market"]
elif game == "safari":
    t = load("tiles")
    land = [x for x in t["tiles"] if x["count"] > 0 and "sprites" not in x.get("variants", [])]
    sections.append(("tiles", sum(x["count"] for x in land), TILES, 1))
    titles += [x["id"] for x in land]
    sections.append(("start tile", 1, START, 1))
    titles.append("start tile")
elif game == "fauna":
    animals = load("animals")["animals"]
    sections.append(("animals", len(animals), CARDS, 1))
    titles += [en(a["name"]) for a in animals]
    scales = load("scales")["scales"]
    sections.append(("scales", len(scales), SHEETS, 0))
    titles += [en(s["name"]) for s in scales]
else:
    sys.exit(f"print_expect.py: no expectations for {game}")
for s in sections:
    print("\t".join(str(x) for x in s))
for t in titles:
    print(f"title\t{t}")
