#!/usr/bin/env python3
"""Checks a `haifu review` page as Chromium rendered it (--dump-dom) against the mjlog record.

usage: review_check.py RECORD.mjlog SEAT DOM.html PAGE.json

From the record itself (not from haifu): the player's discards outside riichi (tiles, in order),
riichi declarations and chi / pon / open kan calls. From the DOM: the decision blocks
(<section class="decision ..." data-kind data-human>). Fails when they disagree, when the number
of blocks is not the JSON's decision count, or when the filter's JS did not run.
"""
import gzip
import json
import re
import sys
from html.parser import HTMLParser

record, seat, dom_path, json_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
raw = open(record, "rb").read()
if raw[:2] == b"\x1f\x8b":
    raw = gzip.decompress(raw)
xml = raw.decode("utf-8", "replace")

go = re.search(r'<GO type="(\d+)"', xml)
aka = not (int(go.group(1)) & 0x02) if go else True


def mpsz(tile_id):
    kind = tile_id // 4
    if aka and tile_id in (16, 52, 88):
        return "0" + "mps"[kind // 9]
    if kind >= 27:
        return f"{kind - 26}z"
    return f"{kind % 9 + 1}{'mps'[kind // 9]}"


discard_letter = "DEFG"[seat]
discards, riichi, calls = [], 0, 0
in_riichi = declared = False
for m in re.finditer(r"<([A-Z]+)(\d*)([^>]*)>", xml):
    tag, num, attrs = m.group(1), m.group(2), m.group(3)
    if tag == "INIT":
        in_riichi = declared = False
    elif tag == "REACH":
        who = int(re.search(r'who="(\d+)"', attrs).group(1))
        step = int(re.search(r'step="(\d+)"', attrs).group(1))
        if who == seat and step == 1:
            riichi += 1
            declared = True
    elif tag == discard_letter and num:
        if not in_riichi:
            discards.append(mpsz(int(num)))
        if declared:
            in_riichi = True
    elif tag == "N":
        who = int(re.search(r'who="(\d+)"', attrs).group(1))
        code = int(re.search(r'm="(\d+)"', attrs).group(1))
        if who != seat:
            continue
        if code & 0x4 or (code & 0x8):  # chi, pon
            calls += 1
        elif not code & 0x10 and not code & 0x20 and code & 0x3:  # open kan (from someone)
            calls += 1


class Blocks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.blocks = []
        self.body_class = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body_class = a.get("class") or ""
        if tag == "section" and "decision" in (a.get("class") or "").split():
            self.blocks.append((a.get("data-kind"), a.get("data-human")))


p = Blocks()
p.feed(open(dom_path, encoding="utf-8").read())
review = json.load(open(json_path, encoding="utf-8"))
fail = []
page_discards = [h for k, h in p.blocks if k == "discard"]
page_riichi = sum(1 for k, h in p.blocks if k == "riichi" and h == "riichi")
page_calls = sum(1 for k, h in p.blocks if k == "call" and h != "pass")
if page_discards != discards:
    fail.append(f"discard blocks {len(page_discards)} vs {len(discards)} discards outside riichi in the record"
                + (f"; first difference at {next(i for i, (a, b) in enumerate(zip(page_discards, discards)) if a != b)}"
                   if any(a != b for a, b in zip(page_discards, discards)) else ""))
if page_riichi != riichi:
    fail.append(f"{page_riichi} riichi blocks chose riichi, the record declares {riichi}")
if page_calls != calls:
    fail.append(f"{page_calls} call blocks called, the record has {calls} calls")
if len(p.blocks) != review["summary"]["game"]["decisions"]:
    fail.append(f"{len(p.blocks)} blocks, the JSON counts {review['summary']['game']['decisions']} decisions")
if "only-dis" not in p.body_class.split():
    fail.append("the filter's JS did not run (body has no only-dis class with #only-disagreements)")
kinds = {k: sum(1 for b in p.blocks if b[0] == k) for k in ("discard", "riichi", "call")}
print(f"review-check: {record.split('/')[-1]} seat {seat}: {len(p.blocks)} decision blocks "
      f"({kinds['discard']} discards = {len(discards)} in the record, {kinds['riichi']} riichi/dama "
      f"({riichi} riichi declared), {kinds['call']} call offers ({calls} calls made))")
for f in fail:
    print("review-check: FAIL:", f)
sys.exit(1 if fail else 0)
