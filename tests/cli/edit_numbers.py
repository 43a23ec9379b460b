#!/usr/bin/env python3
# Edits numbers of a game's data file at random, the way a designer tuning placeholders would,
# for tests that check a game's suite survives number edits (chenilles_edits_test.sh, issue 17).
#
#   edit_numbers.py DATA.json SCHEMA.json --seed S [--count 5]   edits COUNT numbers in place
#   edit_numbers.py DATA.json SCHEMA.json --list                  lists every editable number
#   edit_numbers.py DATA.json SCHEMA.json --path P --value V      sets one number (P as listed)
#
# An editable number is a plain integer leaf of the data whose schema gives it bounds; the new
# value stays within them: the old value moved by 1 to 3 (or up to a third of it, when larger).
# Not edited: a forest lot's `roll` and a stage's `column` (they say which die face or which
# column a thing is, not how much of something). Paths are printed as `--set` takes them (list
# elements by id when they have one), so a failing edit can be replayed with plateau --set.
import argparse
import json
import random
import sys

SKIP_KEYS = {"roll", "column"}


def leaves(data, schema, path, out):
    """Collects (path, parent, key, low, high) for every bounded integer leaf."""
    if isinstance(data, dict):
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        extra = schema.get("additionalProperties", {}) if isinstance(schema, dict) else {}
        for key, value in data.items():
            if key.startswith("$"):
                continue
            sub = props.get(key, extra if isinstance(extra, dict) else {})
            step(data, key, value, sub, path + [key], out)
    elif isinstance(data, list):
        items = schema.get("items", {}) if isinstance(schema, dict) else {}
        for i, value in enumerate(data):
            name = value["id"] if isinstance(value, dict) and isinstance(value.get("id"), str) else str(i)
            step(data, i, value, items, path + [name], out)


def step(parent, key, value, schema, path, out):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if key in SKIP_KEYS or schema.get("type") != "integer":
            return
        if "minimum" in schema and "maximum" in schema:
            out.append((".".join(path), parent, key, schema["minimum"], schema["maximum"]))
        return
    leaves(value, schema, path, out)


def new_value(rng, old, low, high):
    reach = max(3, abs(old) // 3)
    choices = [v for v in range(max(low, old - reach), min(high, old + reach) + 1) if v != old]
    return rng.choice(choices) if choices else old


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("schema")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--path")
    ap.add_argument("--value", type=int)
    a = ap.parse_args()
    with open(a.data) as f:
        data = json.load(f)
    with open(a.schema) as f:
        schema = json.load(f)
    prefix = a.data.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    found = []
    leaves(data, schema, [prefix], found)
    if a.list:
        for path, parent, key, low, high in found:
            print(f"{path} {parent[key]} {low} {high}")
        return 0
    if a.path:
        picked = [e for e in found if e[0] == a.path]
        if not picked:
            sys.exit(f"no editable number at {a.path}")
        edits = [(picked[0], a.value)]
    else:
        if a.seed is None:
            sys.exit("give --seed, --list or --path")
        rng = random.Random(a.seed)
        edits = []
        for entry in rng.sample(found, min(a.count, len(found))):
            _, parent, key, low, high = entry
            edits.append((entry, new_value(rng, parent[key], low, high)))
    for (path, parent, key, low, high), value in edits:
        print(f"--set {path}={value}  (was {parent[key]}, bounds {low}..{high})")
        parent[key] = value
    with open(a.data, "w") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
