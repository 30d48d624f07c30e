#!/usr/bin/env python3
"""Measure the 3-player (sanma) rules and mjlog encodings from Tenhou's own game records.

    scripts/sanma_facts.py [DIR_OR_FILE...] [--counts]
    scripts/sanma_facts.py --rounding4p DIR

Reads every `*.mjlog` (plain mjlog XML) in the given folders or files; the default is
`$HAIFU_SHARED/data/tenhou/sanma` (HAIFU_SHARED defaults to `../shared` beside the repository),
the 279 Houou sanma games of 2020-01-01. Prints a report of what the records show, section by
section (see docs/sanma.md for the reading of it):

  1. header tags: GO type bits, UN, INIT seed / ten / hai3 / oya, tile ids present
  2. the north set-aside (抜きドラ): the <N> code, who, when, the draw after it, DORA, ron on it
  3. AGARI: counts, fu/han/points, yaku ids (which one carries the nukidora), tsumo payments
     (tsumo loss), honba per payment, riichi sticks, dora/ura/aka recount, ippatsu, rinshan
  4. RYUUKYOKU: kinds, tenpai/noten payments
  5. calls: chi / pon / kan kinds, how the "from" bits of a pon are written at three seats
  6. the end: owari, start/return points, uma and oka, rounding, the game-end rule
  7. the 1m -> 9m dora wrap, with a scored example

`--counts` prints instead one JSON object per file, {"file", "rounds", "agari", "ryuukyoku",
"ryuukyoku_kinds", "nuki", "final_scores", "final_points"}, then a total line: the independent
count a reader of sanma mjlogs can be compared with.

`--rounding4p DIR` checks the owari rounding found at three players on the 4-player mjlogs of DIR
(e.g. $HAIFU_SHARED/data/tenhou): whole-number results with a score ending in 500.

Python 3 standard library only. Everything here is measured from the files; nothing is
assumed about Tenhou's sanma rules except the tile numbering (id // 4 = 34-kind index) and the
4-player meld bit layout, which the report itself checks.
"""
import collections
import json
import math
import os
import re
import signal
import sys
from pathlib import Path
from urllib.parse import unquote

signal.signal(signal.SIGPIPE, signal.SIG_DFL)

TAG = re.compile(r"<(/?)([A-Za-z_][A-Za-z0-9_]*)((?:\s+[A-Za-z_][A-Za-z0-9_]*=\"[^\"]*\")*)\s*/?>")
ATTR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=\"([^\"]*)\"")
DRAW = {"T": 0, "U": 1, "V": 2, "W": 3}
DISCARD = {"D": 0, "E": 1, "F": 2, "G": 3}
NORTH = 30  # 34-kind index of 北

YAKU = [
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九",
    "一盃口", "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
    "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順",
    "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色",
    "清一色", "人和", "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭",
    "九蓮宝燈", "純正九蓮宝燈", "国士無双", "国士無双13面", "大四喜", "小四喜", "四槓子", "ドラ",
    "裏ドラ", "赤ドラ",
]
LIMIT = ["-", "満貫", "跳満", "倍満", "三倍満", "役満"]
ROUND_NAME = "東南西北"


def tile_name(tid):
    k = tid // 4
    if k < 27:
        n = k % 9 + 1
        red = tid in (16, 52, 88)
        return ("0" if red else str(n)) + "mps"[k // 9]
    return "東南西北白發中"[k - 27]


def kind_name(k):
    return tile_name(k * 4 + (1 if k in (4, 13, 22) else 0))


def round_name(r):
    return "%s%d" % (ROUND_NAME[r // 4] if r // 4 < 4 else "?", r % 4 + 1)


def dora_of(k, sanma=True):
    """34-kind index of the dora an indicator of kind k points at."""
    if k < 27:
        suit, n = divmod(k, 9)
        if sanma and suit == 0:  # only 1m and 9m exist
            return 8 if n == 0 else 0
        return suit * 9 + (n + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


def decode_meld(m):
    """Tenhou's meld code -> dict(kind, tiles, called, frm). frm is the low 2 bits (relative seat)."""
    frm = m & 3
    if m & 0x4:
        t = m >> 10
        r = t % 3
        t //= 3
        t = t // 7 * 9 + t % 7
        tiles = [t * 4 + 4 * i + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return dict(kind="chi", tiles=tiles, called=tiles[r], frm=frm)
    if m & 0x8:
        unused = (m >> 5) & 3
        t = m >> 9
        r = t % 3
        t //= 3
        tiles = [t * 4 + i for i in range(4) if i != unused]
        return dict(kind="pon", tiles=tiles, called=tiles[r], frm=frm)
    if m & 0x10:
        added = (m >> 5) & 3
        t = m >> 9
        r = t % 3
        t //= 3
        tiles = [t * 4 + i for i in range(4)]
        return dict(kind="kakan", tiles=tiles, called=t * 4 + added, frm=frm)
    if m & 0x20:
        tile = m >> 8
        return dict(kind="nuki", tiles=[tile], called=tile, frm=frm)
    tile = m >> 8
    t = tile // 4
    return dict(kind="ankan" if frm == 0 else "daiminkan", tiles=[t * 4 + i for i in range(4)],
                called=tile, frm=frm)


def ints(s):
    return [int(x) for x in s.split(",")] if s else []


def ceil100(x):
    return -(-x // 100) * 100


class Round:
    def __init__(self, game, index, attrs):
        self.game = game
        self.index = index
        self.attrs = attrs
        self.seed = ints(attrs["seed"])
        self.ten = ints(attrs["ten"])
        self.oya = int(attrs["oya"])
        self.events = []  # (kind, who, payload)
        self.ends = []  # AGARI / RYUUKYOKU attr dicts in order

    @property
    def rnd(self):
        return self.seed[0]

    @property
    def where(self):
        return "%s %s#%d (%s-%d)" % (self.game.id, "round", self.index, round_name(self.rnd), self.seed[1])


class Game:
    def __init__(self, path):
        self.path = path
        self.id = path.name[:-len(".mjlog")] if path.name.endswith(".mjlog") else path.name
        self.go = None
        self.un = []
        self.taikyoku = None
        self.rounds = []
        self.owari = None
        self.tags = collections.Counter()
        text = path.read_text(encoding="utf-8")
        cur = None
        for close, name, rest in TAG.findall(text):
            if close:
                continue
            a = dict(ATTR.findall(rest))
            md = re.fullmatch(r"([TUVWDEFG])(\d+)", name)
            self.tags[md.group(1) if md else name] += 1
            if md:
                letter, tile = md.group(1), int(md.group(2))
                if letter in DRAW:
                    cur.events.append(("draw", DRAW[letter], (tile, letter)))
                else:
                    cur.events.append(("discard", DISCARD[letter], (tile, letter)))
            elif name == "GO":
                self.go = a
            elif name == "UN":
                self.un.append(a)
            elif name == "TAIKYOKU":
                self.taikyoku = a
            elif name == "INIT":
                cur = Round(self, len(self.rounds), a)
                self.rounds.append(cur)
            elif name == "N":
                m = int(a["m"])
                cur.events.append(("call", int(a["who"]), (m, decode_meld(m))))
            elif name == "REACH":
                cur.events.append(("reach", int(a["who"]), (int(a["step"]), a.get("ten"))))
            elif name == "DORA":
                cur.events.append(("dora", None, int(a["hai"])))
            elif name == "AGARI":
                cur.events.append(("agari", int(a["who"]), a))
                cur.ends.append(a)
            elif name == "RYUUKYOKU":
                cur.events.append(("ryuukyoku", None, a))
                cur.ends.append(a)
            elif name == "BYE":
                if cur:
                    cur.events.append(("bye", int(a["who"]), a))
            if "owari" in a:
                self.owari = a["owari"]


def load(paths):
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files += sorted(q for q in p.iterdir() if q.name.endswith(".mjlog"))
        else:
            files.append(p)
    return [Game(f) for f in files]


class Report:
    def __init__(self):
        self.lines = []

    def h(self, title):
        self.lines.append("")
        self.lines.append("== " + title)

    def __call__(self, *parts):
        self.lines.append(" ".join(str(p) for p in parts))

    def text(self):
        return "\n".join(self.lines).lstrip("\n")


def counter_str(c, key=None, fmt=str):
    try:
        items = sorted(c.items(), key=key or (lambda kv: kv[0]))
    except TypeError:
        items = sorted(c.items(), key=lambda kv: str(kv[0]))
    return ", ".join("%s: %d" % (fmt(k), v) for k, v in items)


def yaku_pairs(a):
    p = ints(a.get("yaku", ""))
    return list(zip(p[0::2], p[1::2]))


def base_points(fu, han, yakuman):
    if yakuman:
        return 8000 * yakuman
    if han >= 13:
        return 8000
    if han >= 11:
        return 6000
    if han >= 8:
        return 4000
    if han >= 6:
        return 3000
    if han >= 5:
        return 2000
    return min(2000, fu * 2 ** (2 + han))


def han_of(a):
    yakuman = ints(a.get("yakuman", ""))
    if yakuman:
        return 0, len(yakuman)
    return sum(h for _, h in yaku_pairs(a)), 0


def section_header(games, R):
    R.h("1. header tags, INIT fields, tile ids")
    R("games:", len(games), " rounds (INIT):", sum(len(g.rounds) for g in games))
    dates = collections.Counter(g.id[:8] if re.fullmatch(r"\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}", g.id)
                                else "no log id" for g in games)
    R("games by date (from the log id):", counter_str(dates),
      "; without a log id:", [g.id for g in games if not re.fullmatch(r"\d{10}gm-.*", g.id)])
    R("log id type field:", counter_str(collections.Counter(g.id.split("-")[1] for g in games if "gm-" in g.id)))
    go = collections.Counter(g.go.get("type") for g in games)
    lobby = collections.Counter(g.go.get("lobby") for g in games)
    R("GO type values:", counter_str(go), " lobby:", counter_str(lobby))
    for t in sorted(go, key=int):
        v = int(t)
        bits = []
        for b, n in [(0x01, "vs humans"), (0x02, "no red fives"), (0x04, "no open tanyao"), (0x08, "hanchan"),
                     (0x10, "sanma"), (0x40, "fast")]:
            if v & b:
                bits.append("0x%02x %s" % (b, n))
        level = {0: "一般", 0x80: "上級", 0x20: "特上", 0xA0: "鳳凰"}[v & 0xA0]
        R("  type %s = 0x%x: %s, 0x20|0x80 bits -> %s; bits 0x02 / 0x04 / 0x40 unset: red fives, open tanyao,"
          " normal speed" % (t, v, ", ".join(bits), level))
    n3 = collections.Counter()
    dan3 = collections.Counter()
    rate3 = collections.Counter()
    sx3 = collections.Counter()
    un_count = collections.Counter(len(g.un) for g in games)
    for g in games:
        for u in g.un:
            if "n0" not in u:
                continue
            n3["empty" if u.get("n3", None) == "" else repr(unquote(u.get("n3", "<absent>")))] += 1
            d = u.get("dan", "").split(",")
            r = u.get("rate", "").split(",")
            s = u.get("sx", "").split(",")
            dan3[d[3] if len(d) > 3 else "<absent>"] += 1
            rate3[r[3] if len(r) > 3 else "<absent>"] += 1
            sx3[s[3] if len(s) > 3 else "<absent>"] += 1
    R("<UN> n3:", counter_str(n3), "; 4th dan:", counter_str(dan3), "; 4th rate:", counter_str(rate3),
      "; 4th sx:", counter_str(sx3))
    later = collections.Counter(tuple(sorted(k for k in u if k not in ("n0", "n1", "n2", "n3")))
                                for g in games for u in g.un[1:])
    R("<UN> tags per game:", counter_str(un_count), "; attributes of the later ones besides names:",
      counter_str(later, fmt=lambda k: ",".join(k) or "none"))
    R("TAIKYOKU oya:", counter_str(collections.Counter(g.taikyoku.get("oya") for g in games)))
    rnd = collections.Counter()
    oya_ok = oya_bad = 0
    ten_len = collections.Counter()
    ten4 = collections.Counter()
    hai3 = collections.Counter()
    seed_len = collections.Counter()
    first_ten = collections.Counter()
    for g in games:
        for i, r in enumerate(g.rounds):
            rnd[r.rnd] += 1
            seed_len[len(r.seed)] += 1
            if r.oya == r.rnd % 4 and r.oya < 3:
                oya_ok += 1
            else:
                oya_bad += 1
            ten_len[len(r.ten)] += 1
            ten4[r.ten[3] if len(r.ten) > 3 else None] += 1
            hai3["absent" if "hai3" not in r.attrs else ("empty" if r.attrs["hai3"] == "" else "tiles")] += 1
            if i == 0:
                first_ten[",".join(map(str, r.ten))] += 1
    R("INIT seed fields per INIT:", counter_str(seed_len),
      "(round, honba, riichi sticks, die 1, die 2, dora indicator)")
    R("INIT seed[0] (round number) values:", counter_str(rnd, fmt=lambda k: "%d=%s" % (k, round_name(k))))
    R("  -> seed[0] = 4*wind + hand with hand 0..2 (no value with seed[0] % 4 == 3): numbering as at four players,",
      "hand 4 of each wind skipped")
    R("INIT oya == seed[0] % 4 (and < 3):", oya_ok, "of", oya_ok + oya_bad)
    R("INIT ten fields:", counter_str(ten_len, fmt=str), "; 4th value:", counter_str(ten4),
      "; first round ten:", counter_str(first_ten))
    R("INIT hai3:", counter_str(hai3))
    reach = collections.Counter()
    for g in games:
        for r in g.rounds:
            for k, w, p in r.events:
                if k == "reach" and p[0] == 2:
                    v = ints(p[1])
                    reach[(len(v), v[3] if len(v) > 3 else None)] += 1
    R("REACH step=2 ten: (fields, 4th value):", counter_str(reach, fmt=str))
    # tile ids everywhere
    seen = collections.Counter()
    where_first = {}

    def note(t, w):
        seen[t] += 1
        where_first.setdefault(t, w)

    for g in games:
        for r in g.rounds:
            for p in range(4):
                for t in ints(r.attrs.get("hai%d" % p, "")):
                    note(t, r.where)
            note(r.seed[5], r.where)
            for kind, who, pay in r.events:
                if kind in ("draw", "discard"):
                    note(pay[0], r.where)
                elif kind == "call":
                    for t in pay[1]["tiles"]:
                        note(t, r.where)
                elif kind == "dora":
                    note(pay, r.where)
                elif kind == "agari":
                    for key in ("hai", "doraHai", "doraHaiUra", "machi"):
                        for t in ints(pay.get(key, "")):
                            note(t, r.where)
    bad = sorted(t for t in seen if 4 <= t <= 31)
    R("distinct tile ids seen:", len(seen), "(108 expected: 1m, 9m x4 each + 27 kinds of p/s/honors x4)")
    R("ids 4..31 (2m-8m) seen:", bad if bad else "none")
    R("ids seen in 0..35:", sorted(t for t in seen if t < 36))
    R("red fives: id 16 (0m) seen %d times, id 52 (0p) %d, id 88 (0s) %d" % (seen[16], seen[52], seen[88]))
    draws = sum(g.tags["W"] for g in games)
    disc = sum(g.tags["G"] for g in games)
    R("seat-3 tags: W (draw)", draws, ", G (discard)", disc)
    R("tag counts over all games:", counter_str(sum((g.tags for g in games), collections.Counter()),
                                                  key=lambda kv: -kv[1]))


def nuki_events(games):
    """Yield (round, event index, who, m) for every <N> with the 0x20 bit."""
    for g in games:
        for r in g.rounds:
            for i, (kind, who, pay) in enumerate(r.events):
                if kind == "call" and pay[1]["kind"] == "nuki":
                    yield r, i, who, pay[0]


def in_riichi(r, i, who):
    """Has `who` a riichi accepted (step 2) before event i of round r?"""
    return any(k == "reach" and w == who and p[0] == 2 for k, w, p in r.events[:i])


def section_nuki(games, R):
    R.h("2. the north set-aside (抜きドラ): <N> with bit 0x20")
    nk = list(nuki_events(games))
    codes = collections.Counter(m for _, _, _, m in nk)
    low = collections.Counter(m & 0xFF for _, _, _, m in nk)
    tiles = collections.Counter(m >> 8 for _, _, _, m in nk)
    R("nuki count:", len(nk), "; distinct m:", counter_str(codes))
    R("  m & 0xFF:", counter_str(low, fmt=hex), "; m >> 8 (tile id):", counter_str(tiles),
      "-> m = tile_id << 8 | 0x20, tile_id 120..123 = 北")
    other20 = 0
    for g in games:
        for r in g.rounds:
            for kind, who, pay in r.events:
                if kind == "call" and pay[1]["kind"] != "nuki" and pay[0] & 0x20 and not pay[0] & 0x1C:
                    other20 += 1
    R("  other <N> codes that would decode as nuki (bit 0x20 without 0x04/0x08/0x10):", other20)
    # what precedes: own draw? what follows?
    prev = collections.Counter()
    nxt = collections.Counter()
    dora_after = collections.Counter()
    dora_ex = {}
    riichi_nuki = 0
    chained = 0
    first_action = 0
    by_who = collections.Counter()
    left = collections.Counter()
    for r, i, who, m in nk:
        by_who[(who - r.oya) % 3] += 1
        j = i - 1
        while j >= 0 and r.events[j][0] == "bye":
            j -= 1
        k, w, p = r.events[j] if j >= 0 else ("start", None, None)
        if k == "draw":
            prev["own draw (%s)" % p[1] if w == who else "other's draw"] += 1
            k2, w2, p2 = r.events[j - 1] if j > 0 else ("start", None, None)
            if k2 == "call" and w2 == who:
                chained += 1
        else:
            prev[k if k != "call" else "call %s" % p[1]["kind"]] += 1
        if i + 1 < len(r.events):
            k, w, p = r.events[i + 1]
            if k == "draw":
                nxt["draw by same seat (%s)" % p[1] if w == who else "draw by other seat"] += 1
            elif k == "dora":
                nxt["DORA"] += 1
            else:
                nxt[k + (" same seat" if w == who else "")] += 1
        # a DORA before the replacement draw: is an open kan's indicator still pending?
        pending = False
        for k, w, p in r.events[:i]:
            if k == "call" and p[1]["kind"] in ("daiminkan", "kakan"):
                pending = True
            elif k == "dora":
                pending = False
        for k, w, p in r.events[i + 1:]:
            if k == "dora":
                key = "after an open kan whose DORA was still pending" if pending else "no kan pending"
                dora_after[key] += 1
                dora_ex.setdefault(key, r.where)
                break
            if k in ("draw", "discard", "agari", "ryuukyoku") or k == "call":
                break
        if in_riichi(r, i, who):
            riichi_nuki += 1
        if not any(k == "discard" and w == who for k, w, _ in r.events[:i]):
            first_action += 1
        left[55 - sum(1 for k, _, _ in r.events[:i] if k == "draw")] += 1
    R("tag before the <N> nuki (BYE skipped):", counter_str(prev))
    R("tag after it:", counter_str(nxt))
    R("  -> a nuki is made only by the seat to move, right after its own draw (which may be the replacement draw",
      "of its previous nuki or kan); the replacement draw is an ordinary T/U/V tag, nothing marks it")
    R("nuki whose preceding draw was the replacement draw of the same seat's nuki/kan:", chained)
    R("<DORA> between a nuki and the replacement draw:", counter_str(dora_after) or "none",
      " e.g. %s" % dora_ex if dora_ex else "")
    R("  -> a nuki never opens a dora indicator; an open kan's pending indicator is shown at the nuki",
      "(as it would be at the discard)")
    R("nuki by a player already in riichi:", riichi_nuki, "; nuki before the seat's own first discard:", first_action)
    R("live-wall draws left when a nuki is made (55 - draw tags so far), smallest values:",
      counter_str(collections.Counter({k: v for k, v in left.items() if k <= 3})) or "none below 4",
      "; minimum", min(left))
    R("nuki by seat relative to dealer (0=東 1=南 2=西):", counter_str(by_who))
    # a north drawn as the last live tile (the 55th draw tag of the round)
    haitei_north = collections.Counter()
    for g in games:
        for r in g.rounds:
            nd = 0
            for i, (k, w, p) in enumerate(r.events):
                if k != "draw":
                    continue
                nd += 1
                if nd == 55 and p[0] // 4 == NORTH:
                    nk_ = r.events[i + 1] if i + 1 < len(r.events) else ("end", None, None)
                    haitei_north["discarded" if nk_[0] == "discard" else
                                 "set aside" if nk_[0] == "call" else nk_[0]] += 1
    R("a north drawn as the last live tile (55th draw tag), what came next:", counter_str(haitei_north) or "none")
    # kans versus DORA for comparison
    kan_dora = collections.Counter()
    for g in games:
        for r in g.rounds:
            for i, (kind, who, pay) in enumerate(r.events):
                if kind == "call" and pay[1]["kind"] in ("ankan", "daiminkan", "kakan"):
                    got = "no DORA"
                    for k, w, p in r.events[i + 1:]:
                        if k == "dora":
                            got = "DORA"
                            break
                        if k in ("agari", "ryuukyoku"):
                            break
                        if k == "discard" and w == who:
                            # open kans show their dora after the discard at Tenhou; look one more step
                            continue
                        if k == "draw" and w != who:
                            break
                    kan_dora[(pay[1]["kind"], got)] += 1
    R("kans followed by a <DORA> (before the next player's draw):", counter_str(kan_dora, fmt=lambda k: "%s %s" % k))
    # per game / per round
    per_game = collections.Counter()
    per_round_player = collections.Counter()
    for g in games:
        n = 0
        for r in g.rounds:
            c = collections.Counter(who for kind, who, pay in r.events
                                    if kind == "call" and pay[1]["kind"] == "nuki")
            n += sum(c.values())
            for p in range(3):
                per_round_player[c[p]] += 1
        per_game[n] += 1
    vals = [k for k, v in per_game.items() for _ in range(v)]
    R("nuki per game: mean %.2f, min %d, max %d" % (sum(vals) / len(vals), min(vals), max(vals)))
    R("nuki per player per round:", counter_str(per_round_player))
    # the wall: draws in exhaustive rounds
    draws_tab = collections.Counter()
    for g in games:
        for r in g.rounds:
            if len(r.ends) == 1 and "type" not in r.ends[0] and "ba" in r.ends[0] and "who" not in r.ends[0]:
                nd = sum(1 for k, _, _ in r.events if k == "draw")
                nn = sum(1 for k, _, p in r.events if k == "call" and p[1]["kind"] == "nuki")
                nkan = sum(1 for k, _, p in r.events if k == "call" and p[1]["kind"] in ("ankan", "daiminkan", "kakan"))
                draws_tab[(nd, nn, nkan)] += 1
    tot = collections.Counter()
    for (nd, nn, nkan), v in draws_tab.items():
        tot[nd] += v
    R("exhaustive draws (RYUUKYOKU without type): draw tags per round:", counter_str(tot))
    R("  by (draw tags, nukis, kans):", counter_str(draws_tab, fmt=lambda k: "%d/%d/%d" % k))
    R("  -> 108 tiles - 39 dealt - 14 dead wall = 55 draws whatever the nukis and kans: every replacement draw",
      "(after a nuki as after a kan) shortens the live wall by one, the dead wall stays 14")
    # ron on a set-aside north
    robbed = []
    for r, i, who, m in nk:
        if i + 1 < len(r.events) and r.events[i + 1][0] == "agari":
            a = r.events[i + 1][2]
            robbed.append((r, i, who, m, a))
    R("AGARI directly after a nuki:", len(robbed))
    for r, i, who, m, a in robbed:
        R("  %s: nuki by seat %d (tile %d), AGARI who=%s fromWho=%s machi=%s yaku=%s ten=%s"
          % (r.where, who, m >> 8, a["who"], a["fromWho"], a.get("machi"), a.get("yaku", a.get("yakuman")),
             a.get("ten")))
    # any agari whose machi is a north, by ron, and what preceded it
    ron_north = collections.Counter()
    for g in games:
        for r in g.rounds:
            for i, (kind, who, pay) in enumerate(r.events):
                if kind == "agari" and pay["who"] != pay["fromWho"] and ints(pay["machi"])[0] // 4 == NORTH:
                    j = i - 1
                    while j >= 0 and r.events[j][0] == "agari":
                        j -= 1
                    k, w, p = r.events[j]
                    ron_north["after discard" if k == "discard" else
                              "after nuki" if k == "call" and p[1]["kind"] == "nuki" else k] += 1
    R("  槍槓 (yaku 3) in those wins:", sum(1 for *_, a in robbed if 3 in dict(yaku_pairs(a))),
      "; one of them has 一盃口 as its only yaku (%d), so any hand waiting on 北 may rob it, with no yaku for it"
      % sum(1 for *_, a in robbed if [y for y, _ in yaku_pairs(a)] == [9]))
    R("ron wins on a north tile, by what preceded:", counter_str(ron_north) or "none")
    north_disc = sum(1 for g in games for r in g.rounds for k, _, p in r.events
                     if k == "discard" and p[0] // 4 == NORTH)
    north_pon = sum(1 for g in games for r in g.rounds for k, _, p in r.events
                    if k == "call" and p[1]["kind"] != "nuki" and p[1]["tiles"][0] // 4 == NORTH)
    R("north discarded (not set aside):", north_disc, "; north pon/kan calls:", north_pon)


def agari_details(games):
    """Yield (round, event index, agari attrs, context dict)."""
    for g in games:
        for r in g.rounds:
            prev_agari = False
            for i, (kind, who, a) in enumerate(r.events):
                if kind != "agari":
                    prev_agari = False
                    continue
                ctx = {"second": prev_agari}
                prev_agari = True
                yield r, i, a, ctx


def hand_tiles(a):
    tiles = ints(a["hai"])
    nuki = 0
    for m in ints(a.get("m", "")):
        d = decode_meld(m)
        if d["kind"] == "nuki":
            nuki += 1
        else:
            tiles += d["tiles"]
    return tiles, nuki


def count_dora(tiles, nuki, indicators, sanma=True):
    hand = 0
    nk = 0
    for ind in indicators:
        d = dora_of(ind // 4, sanma)
        hand += sum(1 for t in tiles if t // 4 == d)
        if d == NORTH:
            nk += nuki
    return hand, nk


def section_agari(games, R):
    R.h("3. AGARI")
    ags = list(agari_details(games))
    R("AGARI count:", len(ags), " (tsumo %d, ron %d); games with at least one: %d"
      % (sum(1 for _, _, a, _ in ags if a["who"] == a["fromWho"]),
         sum(1 for _, _, a, _ in ags if a["who"] != a["fromWho"]),
         len({r.game.id for r, _, _, _ in ags})))
    double = sum(1 for _, _, _, c in ags if c["second"])
    R("double ron (an AGARI right after an AGARI):", double)
    order = collections.Counter()
    for r, i, a, c in ags:
        if c["second"]:
            a0 = r.events[i - 1][2]
            frm = int(a["fromWho"])
            order[("first winner = discarder+%d" % ((int(a0["who"]) - frm) % 3),
                   "second = discarder+%d" % ((int(a["who"]) - frm) % 3))] += 1
    R("  order:", counter_str(order, fmt=lambda k: "%s, %s" % k))
    for r, i, a, c in ags:
        if c["second"]:
            a0 = r.events[i - 1][2]
            R("  e.g. %s: ba=%s; first who=%s sc=%s; second who=%s sc=%s" % (
                r.where, a["ba"], a0["who"], a0["sc"], a["who"], a["sc"]))
            break
    fu = collections.Counter()
    limit = collections.Counter()
    yaku = collections.Counter()
    yaku_han = collections.defaultdict(collections.Counter)
    yakuman = collections.Counter()
    ten_fields = collections.Counter()
    for r, i, a, c in ags:
        t = ints(a["ten"])
        ten_fields[len(t)] += 1
        fu[t[0]] += 1
        limit[t[2]] += 1
        for y, h in yaku_pairs(a):
            yaku[y] += 1
            yaku_han[y][h] += 1
        for y in ints(a.get("yakuman", "")):
            yakuman[y] += 1
    R("ten= fields:", counter_str(ten_fields), "(fu, points, limit code)")
    R("fu:", counter_str(fu))
    R("limit code (ten[2]):", counter_str(limit, fmt=lambda k: "%d=%s" % (k, LIMIT[k] if k < len(LIMIT) else k)))
    R("yaku ids (count; han values):")
    for y in sorted(yaku):
        R("  %2d %-10s %5d  han %s" % (y, YAKU[y] if y < len(YAKU) else "?", yaku[y], counter_str(yaku_han[y])))
    R("yakuman ids:", counter_str(yakuman, fmt=lambda y: "%d %s" % (y, YAKU[y])) or "none")
    R("yaku ids above 54:", sorted(y for y in yaku if y > 54) or "none", " (so the nukidora has no id of its own)")
    R("extra AGARI attributes:", counter_str(collections.Counter(
        k for _, _, a, _ in ags for k in a if k not in
        ("ba", "hai", "m", "machi", "ten", "yaku", "yakuman", "doraHai", "doraHaiUra", "who", "fromWho", "sc",
         "owari"))) or "none")
    closed = collections.Counter()
    for r, i, a, c in ags:
        ms = [decode_meld(m) for m in ints(a.get("m", ""))]
        if ms and all(d["kind"] == "nuki" for d in ms):
            y = dict(yaku_pairs(a))
            closed["wins"] += 1
            for yid in (0, 1, 7, 22):
                closed[YAKU[yid]] += yid in y
    R("wins whose m holds only set-aside norths:", counter_str(closed, key=lambda kv: -kv[1]),
      "-> a nuki leaves the hand closed (riichi, 門前清自摸和, 平和 still count)")
    # --- dora recount
    R("")
    R("dora / ura / aka recount (hand + called tiles from hai and m; nuki = m codes with 0x20):")
    m_nuki_vs_round = collections.Counter()
    res = collections.Counter()
    first_bad = {}
    ex_nuki_dora = None
    ex_north_dora = None
    ex_ura_north = None
    for r, i, a, c in ags:
        tiles, nuki = hand_tiles(a)
        who = int(a["who"])
        nuki_round = sum(1 for k, w, p in r.events[:i] if k == "call" and w == who and p[1]["kind"] == "nuki")
        m_nuki_vs_round["m lists all" if nuki == nuki_round else "m %d vs %d" % (nuki, nuki_round)] += 1
        y = dict(yaku_pairs(a))
        if ints(a.get("yakuman", "")):
            continue
        hand, nk = count_dora(tiles, nuki, ints(a["doraHai"]))
        got = y.get(52, 0)
        for name, model in [("hand dora + nuki + nuki*(north is dora)", hand + nuki + nk),
                            ("hand dora only", hand), ("hand dora + nuki", hand + nuki)]:
            ok = model == got
            res[(name, ok)] += 1
            if not ok and name.startswith("hand dora + nuki +"):
                first_bad.setdefault(name, (r.where, a))
        if nuki and got and ex_nuki_dora is None and hand + nuki + nk == got and hand > 0:
            ex_nuki_dora = (r, a, hand, nuki, nk, got)
        if nk and ex_north_dora is None:
            ex_north_dora = (r, a, hand, nuki, nk, got)
        if nuki and hand == 0 and nk == 0:
            res[("52 present with no dora in the hand, value = nuki", got == nuki)] += 1
        aka = sum(1 for t in tiles if t in (16, 52, 88))
        res[("aka = count of ids 52/88", aka == y.get(54, 0))] += 1
        if 53 in y or "doraHaiUra" in a:
            uh, un = count_dora(tiles, nuki, ints(a.get("doraHaiUra", "")))
            res[("ura = hand ura + nuki*(north is ura)", uh + un == y.get(53, 0))] += 1
            if un:
                res[("ura, wins where a 西 ura indicator makes each set-aside north an ura",
                     uh + un == y.get(53, 0))] += 1
                ex_ura_north = ex_ura_north or (r.where, a.get("doraHaiUra"), nuki, uh, y.get(53, 0))
        nkans = sum(1 for k, w, p in r.events[:i] if k == "call" and p[1]["kind"] in ("ankan", "daiminkan", "kakan"))
        res[("len(doraHai) == 1 + kans before the win", len(ints(a["doraHai"])) == 1 + nkans)] += 1
    R("  AGARI m lists the winner's nukis:", counter_str(m_nuki_vs_round))
    for (name, ok), v in sorted(res.items()):
        R("  %-45s %s: %d" % (name, "match" if ok else "MISMATCH", v))
    for name, (w, a) in first_bad.items():
        R("  first mismatch (%s): %s yaku=%s" % (name, w, a.get("yaku")))
    if ex_nuki_dora:
        r, a, hand, nuki, nk, got = ex_nuki_dora
        R("  example: %s hai=%s m=%s doraHai=%s -> hand dora %d + nuki %d = yaku 52 value %d (yaku=%s)"
          % (r.where, a["hai"], a.get("m"), a["doraHai"], hand, nuki, got, a["yaku"]))
    if ex_north_dora:
        r, a, hand, nuki, nk, got = ex_north_dora
        R("  north is dora (indicator 西) example: %s doraHai=%s nuki=%d hand dora=%d -> 52 value %d (yaku=%s)"
          % (r.where, a["doraHai"], nuki, hand, got, a["yaku"]))
    if ex_ura_north:
        R("  ura via north example: %s doraHaiUra=%s nuki=%d hand ura=%d -> yaku 53 value %d" % ex_ura_north)
    kan_short = 0
    for r, i, a, c in ags:
        nkans = sum(1 for k, w, p in r.events[:i] if k == "call" and p[1]["kind"] in ("ankan", "daiminkan", "kakan"))
        if len(ints(a["doraHai"])) != 1 + nkans:
            j = i - 1
            while r.events[j][0] in ("draw", "dora"):
                j -= 1
            R("  doraHai shorter than 1 + kans: %s, the win is the replacement draw after a %s (its indicator"
              " is not yet open)" % (r.where, r.events[j][2][1]["kind"]))
    # --- value and payments
    R("")
    R("points (ten[1]) against fu/han; han = sum of yaku han incl. dora, base = fu*2^(2+han) capped:")
    model = collections.Counter()
    examples = {True: [], False: []}
    first_bad = {}
    honba_ron = collections.Counter()
    honba_tsumo = collections.Counter()
    second = collections.Counter()
    sticks_ok = collections.Counter()
    sc4 = collections.Counter()
    for r, i, a, c in ags:
        fu_, pts, lim = ints(a["ten"])
        han, ym = han_of(a)
        base = base_points(fu_, han, ym)
        who, frm = int(a["who"]), int(a["fromWho"])
        dealer = who == r.oya
        tsumo = who == frm
        honba, sticks = ints(a["ba"])
        sc = ints(a["sc"])
        sc4["[%d, %d]" % tuple(sc[6:8])] += 1
        delta = [sc[2 * p + 1] * 100 for p in range(3)]
        if tsumo:
            d_pay = ceil100(2 * base)
            k_pay = ceil100(base)
            m3 = 2 * d_pay if dealer else d_pay + k_pay
            m4 = 3 * d_pay if dealer else d_pay + 2 * k_pay
            half = (ceil100(2 * base + base // 2) * 2 if dealer
                    else ceil100(2 * base + base // 2) + ceil100(base + base // 2))
            key = "tsumo %s" % ("dealer" if dealer else "non-dealer")
            cands = [("the two payers' 4-player shares only (tsumo loss)", m3),
                     ("the 4-player total", m4), ("missing share split between the payers (北家折半)", half)]
            for p in range(3):
                if p != who:
                    share = d_pay if (dealer or p == r.oya) else k_pay
                    extra = -delta[p] - share
                    honba_tsumo["%s per honba" % (extra // honba) if honba else "0 at honba 0" if extra == 0
                                else "%d at honba 0" % extra] += 1
            if len(examples[dealer]) < (6 if not dealer else 4) and (honba or sticks or len(examples[dealer]) < 2):
                examples[dealer].append((r, a, delta, honba, sticks))
        else:
            m_ron = ceil100(6 * base) if dealer else ceil100(4 * base)
            key = "ron %s" % ("dealer" if dealer else "non-dealer")
            cands = [("6x / 4x base as at four players", m_ron)]
            extra = -delta[frm] - pts
            if c["second"]:
                second["second winner: loser pays exactly ten[1], winner gets exactly ten[1]"] += (
                    extra == 0 and delta[who] == pts)
            else:
                honba_ron["%s per honba" % (extra // honba) if honba else "0 at honba 0" if extra == 0
                          else "%d at honba 0" % extra] += 1
        for name, val in cands:
            ok = val == pts
            model[(key, name, ok)] += 1
            if not ok and name.startswith(("the two", "6x")):
                first_bad.setdefault((key, name), (r.where, a, val))
        if not c["second"]:
            sticks_ok[delta[who] == pts + 200 * honba + 1000 * sticks] += 1
    for (key, name, ok), v in sorted(model.items()):
        R("  %-19s %-52s %s: %d" % (key, name, "match" if ok else "no", v))
    for (key, name), (w, a, val) in first_bad.items():
        R("  first mismatch (%s, %s): %s ten=%s yaku=%s yakuman=%s model %d" % (
            key, name, w, a["ten"], a.get("yaku"), a.get("yakuman"), val))
    edge = collections.Counter()
    for r, i, a, c in ags:
        fu_, pts, lim = ints(a["ten"])
        han, ym = han_of(a)
        if (fu_, han) in ((30, 4), (60, 3)) or (han >= 13 and not ym):
            edge[("%d fu %d han" % (fu_, han) if han < 13 else "kazoe (%d han)" % han,
                  "dealer" if int(a["who"]) == r.oya else "non-dealer",
                  "tsumo" if a["who"] == a["fromWho"] else "ron", pts, LIMIT[lim])] += 1
    R("no kiriage, kazoe yakuman: (hand, winner, kind, ten[1], limit):", counter_str(edge, fmt=lambda k: "/".join(map(str, k))))
    R("tsumo examples (ten[1] = what the winner gets before honba and sticks; sc deltas x100):")
    for dealer in (False, True):
        for r, a, delta, honba, sticks in examples[dealer]:
            who = int(a["who"])
            fu_, pts, lim = ints(a["ten"])
            han, ym = han_of(a)
            pays = ", ".join("seat %d%s pays %d" % (p, " (dealer)" if p == r.oya else "", -delta[p])
                             for p in range(3) if p != who)
            R("  %s: %s tsumo by seat %d, %d fu %d han (%s): ten=%d; %s; winner +%d (honba %d, sticks %d)"
              % (r.where, "dealer" if dealer else "non-dealer", who, fu_, han, LIMIT[lim], pts, pays, delta[who],
                 honba, sticks))
    R("ron: the loser pays ten[1] plus", counter_str(honba_ron))
    R("tsumo: each payer pays its share plus", counter_str(honba_tsumo))
    R("double ron:", counter_str(second))
    R("winner's delta == ten[1] + 200*honba + 1000*sticks (ba = honba,sticks; first winner only):",
      counter_str(sticks_ok))
    R("sc 4th seat pair:", counter_str(sc4))
    # --- haitei / houtei: on the 55th draw
    last = collections.Counter()
    for r, i, a, c in ags:
        y = dict(yaku_pairs(a))
        nd = sum(1 for k, _, _ in r.events[:i] if k == "draw")
        if 5 in y:
            last[("海底 (5)", nd)] += 1
        if 6 in y:
            last[("河底 (6)", nd)] += 1
    R("haitei/houtei wins by the number of draw tags before the win:",
      counter_str(last, fmt=lambda k: "%s at %d draws" % k))
    # --- ippatsu / rinshan with nuki
    R("")
    ip = collections.Counter()
    ip_ex = {}
    rin = collections.Counter()
    for r, i, a, c in ags:
        who, frm = int(a["who"]), int(a["fromWho"])
        y = dict(yaku_pairs(a))
        if ints(a.get("yakuman", "")):
            continue
        # rinshan: tsumo whose draw follows the winner's own nuki or kan (a DORA tag may sit between)
        if who == frm and r.events[i - 1][0] == "draw":
            j = i - 2
            while j >= 0 and r.events[j][0] == "dora":
                j -= 1
            k2, w2, p2 = r.events[j]
            if k2 == "call" and w2 == who:
                rin[(p2[1]["kind"] if p2[1]["kind"] == "nuki" else "kan", 4 in y)] += 1
            else:
                rin[("ordinary draw", 4 in y)] += 1
        # ippatsu window: riichi (step 1) by the winner, no pon/kan since, the winner has discarded only once
        st = [j for j, (k, w, p) in enumerate(r.events[:i]) if k == "reach" and w == who and p[0] == 1]
        if st:
            j = st[-1]
            after = r.events[j + 1:i]
            disc_after = [e for e in after if e[0] == "discard" and e[1] == who]
            calls = [e for e in after if e[0] == "call" and e[2][1]["kind"] != "nuki"]
            nukis = [e for e in after if e[0] == "call" and e[2][1]["kind"] == "nuki"]
            if len(disc_after) == 1 and not calls:
                robbed = r.events[i - 1][0] == "call" and r.events[i - 1][2][1]["kind"] == "nuki"
                if robbed and len(nukis) == 1:
                    kind = "ron on the nuki itself"
                elif nukis:
                    whose = "own" if all(e[1] == who for e in nukis) else (
                        "other's" if all(e[1] != who for e in nukis) else "both")
                    kind = "a nuki (%s) in the window" % whose
                else:
                    kind = "no nuki in the window"
                ip[(kind, 2 in y)] += 1
                ip_ex.setdefault((kind, 2 in y), r.where)
    R("ippatsu (yaku 2) in non-yakuman wins before the winner's second discard after riichi, no pon/kan since:")
    for (kind, got), v in sorted(ip.items()):
        R("  %-28s ippatsu %s: %d  e.g. %s" % (kind, "awarded" if got else "not awarded", v, ip_ex[(kind, got)]))
    R("rinshan (yaku 4) on a tsumo by what preceded the winning draw:",
      counter_str(rin, fmt=lambda k: "%s/%s" % (k[0], "yaku 4" if k[1] else "no yaku 4")))
    # --- wind yaku
    wind = collections.Counter()
    for r, i, a, c in ags:
        y = dict(yaku_pairs(a))
        who = int(a["who"])
        seatwind = (who - r.oya) % 3
        for yid in range(10, 14):
            if yid in y:
                wind[("seat", yid - 10 == seatwind)] += 1
        for yid in range(14, 18):
            if yid in y:
                wind[("round", yid - 14 == r.rnd // 4)] += 1
    R("wind yaku consistency (seat wind = (who - oya) % 3, round wind = seed[0] // 4):",
      counter_str(wind, fmt=lambda k: "%s %s" % (k[0], "consistent" if k[1] else "INCONSISTENT")))


def section_ryuukyoku(games, R):
    R.h("4. RYUUKYOKU")
    kinds = collections.Counter()
    pay = collections.Counter()
    pay_ex = {}
    nm = []
    other = collections.Counter()
    for g in games:
        for r in g.rounds:
            for kind, who, a in r.events:
                if kind != "ryuukyoku":
                    continue
                t = a.get("type", "(none: exhaustive)")
                kinds[t] += 1
                sc = ints(a["sc"])
                delta = tuple(sc[2 * p + 1] * 100 for p in range(3))
                tenpai = tuple(p for p in range(3) if ("hai%d" % p) in a)
                if t == "(none: exhaustive)":
                    key = (len(tenpai), tuple(sorted(set(d for d in delta))))
                    pay[key] += 1
                    pay_ex.setdefault(key, (r.where, tenpai, delta))
                elif t == "nm":
                    nm.append((r, a, delta))
                else:
                    other[(t, delta)] += 1
    R("kinds:", counter_str(kinds))
    sc4 = collections.Counter(tuple(ints(a["sc"])[6:8]) for g in games for r in g.rounds
                              for k, _, a in r.events if k == "ryuukyoku")
    R("sc 4th seat pair:", counter_str(sc4, fmt=str))
    R("exhaustive draws, (tenpai players shown as haiN, distinct deltas):")
    for key, v in sorted(pay.items()):
        w, tp, d = pay_ex[key]
        R("  %d tenpai: deltas %s  x%d  e.g. %s tenpai=%s delta=%s" % (key[0], key[1], v, w, tp, d))
    R("  -> 1 tenpai: +2000 / -1000 -1000; 2 tenpai: +1000 +1000 / -2000: a 2000-point pool (3000 at four players)")
    R("other kinds with their deltas:", counter_str(other, fmt=str) or "none")
    for r, a, d in nm:
        R("  nagashi mangan %s: dealer %d, deltas %s, ba=%s, tenpai shown=%s" % (
            r.where, r.oya, d, a["ba"], [p for p in range(3) if "hai%d" % p in a]))
    # renchan after a draw
    cont = collections.Counter()
    for g in games:
        for k, r in enumerate(g.rounds[:-1]):
            nxt = g.rounds[k + 1]
            if len(r.ends) == 1 and "who" not in r.ends[0]:
                a = r.ends[0]
                t = a.get("type", "exhaustive")
                shown = ("hai%d" % r.oya) in a
                if t == "yao9":
                    label = "declared by the dealer" if shown else "declared by a non-dealer"
                else:
                    label = "dealer tenpai" if shown else "dealer noten"
                key = (t, label,
                       "same dealer" if nxt.oya == r.oya else "dealer moves",
                       "honba+1" if nxt.seed[1] == r.seed[1] + 1 else "honba %d->%d" % (r.seed[1], nxt.seed[1]))
                cont[key] += 1
    R("after a draw (next INIT):", counter_str(cont, fmt=lambda k: "/".join(k)))
    R("  (for yao9 the haiN attribute shows the declarer's hand, not a tenpai hand)")


def section_calls(games, R):
    R.h("5. calls")
    kinds = collections.Counter()
    frm = collections.defaultdict(collections.Counter)
    rel = collections.Counter()
    for g in games:
        for r in g.rounds:
            last_disc = None
            for kind, who, pay in r.events:
                if kind == "discard":
                    last_disc = (who, pay[0])
                elif kind == "call":
                    d = pay[1]
                    kinds[d["kind"]] += 1
                    frm[d["kind"]][d["frm"]] += 1
                    if d["kind"] in ("pon", "daiminkan", "chi"):
                        src, tile = last_disc
                        ok_tile = d["called"] == tile
                        rel[(d["kind"], d["frm"], (src - who) % 3, (src - who) % 4, ok_tile)] += 1
                elif kind == "draw":
                    last_disc = None
    R("<N> kinds:", counter_str(kinds))
    for k in sorted(frm):
        R("  %s: m & 3 = %s" % (k, counter_str(frm[k])))
    R("pon/daiminkan 'from' bits against the discarder (m&3, (discarder-who)%3, (discarder-who)%4, called tile"
      " = discarded tile):")
    for key, v in sorted(rel.items()):
        R("  %s m&3=%d  rel%%3=%d rel%%4=%d tile-match=%s: %d" % (key + (v,)))
    m3 = sum(v for k, v in rel.items() if k[1] == k[2])
    m4 = sum(v for k, v in rel.items() if k[1] == k[3])
    R("  m & 3 == (discarder - caller) mod 3: %d of %d; == (discarder - caller) mod 4: %d of %d" % (
        m3, sum(rel.values()), m4, sum(rel.values())))
    R("  -> the 'from' bits keep the four-seat geometry with an empty seat 3: seat 0 calling from seat 2 writes 2",
      "(対面), seat 1 from seat 0 writes 3 (上家), seat 2 from seat 0 writes 2; decode with (who + (m & 3)) % 4")


def owari_fields(s):
    v = s.split(",")
    return [(int(v[2 * p]), float(v[2 * p + 1])) for p in range(4)]


def hand_after(r):
    """Scores (x100) after the round's AGARI / RYUUKYOKU tags, from their sc."""
    after = None
    for a in r.ends:
        sc = ints(a["sc"])
        after = [sc[2 * p] + sc[2 * p + 1] for p in range(3)] if after is None else \
            [after[p] + sc[2 * p + 1] for p in range(3)]
    return after


def rhaz(x):
    """Round half away from zero."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


ROUNDINGS = [  # (name, R(score, return) in thousands, before the uma)
    ("score/1000 rounded half away from zero", lambda s, ret: rhaz(s / 1000.0) - ret // 1000),
    ("score/1000 rounded half up", lambda s, ret: math.floor(s / 1000.0 + 0.5) - ret // 1000),
    ("(score-return)/1000 rounded half up", lambda s, ret: math.floor((s - ret) / 1000.0 + 0.5)),
    ("score/1000 五捨六入 (half toward zero)",
     lambda s, ret: int(math.copysign(math.ceil(abs(s / 1000.0) - 0.5), s)) - ret // 1000),
    ("(score-return)/1000 truncated", lambda s, ret: int((s - ret) / 1000.0)),
]


def section_end(games, R):
    R.h("6. the end of the game")
    first = collections.Counter(tuple(g.rounds[0].ten) for g in games)
    R("first INIT ten:", counter_str(first, fmt=str), "-> 35000 each; the 4th seat 0")
    nrounds = collections.Counter(len(g.rounds) for g in games)
    last_round = collections.Counter(round_name(g.rounds[-1].rnd) for g in games)
    R("rounds per game:", counter_str(nrounds))
    R("last round:", counter_str(last_round))
    cont_ok = collections.Counter()
    zero_after = 0
    neg_goes_on = 0
    for g in games:
        for k, r in enumerate(g.rounds):
            after = hand_after(r)
            if k + 1 < len(g.rounds):
                cont_ok[after == g.rounds[k + 1].ten[:3]] += 1
                zero_after += 0 in after
                neg_goes_on += min(after) < 0
    R("score continuity (next INIT ten == sc before + delta):", counter_str(cont_ok))
    R("hands after which a score was exactly 0 and the game went on:", zero_after,
      "; below 0 and the game went on:", neg_goes_on)
    # owari
    sums = collections.Counter()
    top_bonus = collections.Counter()
    leftover = collections.Counter()
    uma = collections.Counter()
    rounding = collections.Counter()
    rounding_bad = {}
    top_rule = collections.Counter()
    ties = 0
    no_owari = 0
    for g in games:
        if not g.owari:
            no_owari += 1
            continue
        ow = owari_fields(g.owari)
        R_ = [s * 100 for s, _ in ow[:3]]
        pts = [x for _, x in ow[:3]]
        sums[sum(s for s, _ in ow[:3]) * 100] += 1
        R4 = ow[3]
        uma["4th seat owari field %s" % (R4,)] += 1
        last = g.rounds[-1]
        after = hand_after(last)
        sticks_left = ints(last.ends[-1]["ba"])[1] if "who" not in last.ends[-1] else 0
        order = sorted(range(3), key=lambda p: (-R_[p], (p - g.rounds[0].oya) % 3))
        if len(set(R_)) < 3:
            ties += 1
        diff = [R_[p] - after[p] * 100 for p in range(3)]
        leftover[(sticks_left, tuple(diff))] += 1
        top_bonus[diff[order[0]] == 1000 * sticks_left and sum(diff) == 1000 * sticks_left] += 1
        for name, f in ROUNDINGS:
            ok = all(abs(pts[p] - (f(R_[p], 40000) + (0 if rank == 1 else -20))) < 1e-9
                     for rank, p in enumerate(order) if rank > 0)
            rounding[name, ok] += 1
            if not ok:
                rounding_bad.setdefault(name, (g.id, [(R_[p], pts[p]) for p in order]))
        top_rule[abs(pts[order[0]] + pts[order[1]] + pts[order[2]]) < 1e-9] += 1
        top_rule["top == rounded(score) - 40 + 15 (oka) + 20 (uma): %s" % (
            abs(pts[order[0]] - (rhaz(R_[order[0]] / 1000.0) - 40 + 35)) < 1e-9)] += 1
    R("games without owari:", no_owari, "; sum of the owari scores:", counter_str(sums))
    R("owari 4th seat field:", counter_str(uma))
    R("leftover riichi sticks at the end (sticks on the table after the last hand, owari minus the last sc):",
      counter_str(leftover, fmt=str))
    R("  the top's owari score includes 1000 per leftover stick:", counter_str(top_bonus))
    R("ties in the final score:", ties)
    R("owari points of 2nd and 3rd = R(score) + uma (2nd 0, 3rd -20), by the rounding R tried:")
    for (name, ok), v in sorted(rounding.items()):
        R("  %-42s %s: %d%s" % (name, "all games match" if ok else "mismatch", v,
                                "  first: %s" % (rounding_bad[name],) if not ok and name in rounding_bad else ""))
    own = sum(v for k, v in top_rule.items() if isinstance(k, str) and k.endswith("True"))
    R("top's points == -(2nd + 3rd):", top_rule[True], "of", top_rule[True] + top_rule[False],
      "; top's points == its own R(score) - 40 + 15 (oka) + 20 (uma):", own, "of", top_rule[True] + top_rule[False])
    R("  -> oka (40000 - 35000) x 3 = 15 and uma +20 / 0 / -20: the top takes whatever makes the sum 0")
    # game end
    trans = collections.Counter()
    trans_ex = {}
    for g in games:
        for k, r in enumerate(g.rounds):
            after = [x * 100 for x in hand_after(r)]
            went_on = k + 1 < len(g.rounds)
            last_a = r.ends[-1]
            if min(after) < 0:
                key = ("any round", "a score below 0")
            elif r.rnd < 6:
                if went_on:
                    continue
                key = (round_name(r.rnd), "no score below 0")
            else:
                top = max(after)
                order = sorted(range(3), key=lambda p: (-after[p], (p - g.rounds[0].oya) % 3))
                if "who" not in last_a and "type" in last_a:
                    res = "abortive draw (%s)" % last_a["type"]
                elif any(int(a.get("who", -1)) == r.oya for a in r.ends if "who" in a):
                    res = "dealer won"
                elif "who" not in last_a and ("hai%d" % r.oya) in last_a:
                    res = "dealer tenpai"
                else:
                    res = "dealer lost the deal"
                key = ("南3" if r.rnd == 6 else "西1-2" if r.rnd in (8, 9) else round_name(r.rnd),
                       "top >= 40000" if top >= 40000 else "top < 40000", res,
                       "dealer top" if order[0] == r.oya else "dealer not top")
            key = key + ("GOES ON" if went_on else "ENDS",)
            trans[key] += 1
            trans_ex.setdefault(key, r.where)
    R("game end: after each hand from 南3 on (and any hand leaving a score below 0, and any other last hand):")
    for key, v in sorted(trans.items()):
        R("  %-72s %3d  e.g. %s" % ("/".join(key), v, trans_ex[key]))


def section_wrap(games, R):
    R.h("7. dora indicator wrap in manzu: 1m -> 9m, 9m -> 1m")
    res = collections.Counter()
    shown = set()
    for r, i, a, c in agari_details(games):
        if ints(a.get("yakuman", "")):
            continue
        inds = ints(a["doraHai"])
        if not any(t // 4 in (0, 8) for t in inds):
            continue
        tiles, nuki = hand_tiles(a)
        y = dict(yaku_pairs(a))
        h3, n3 = count_dora(tiles, nuki, inds, sanma=True)
        h4, n4 = count_dora(tiles, nuki, inds, sanma=False)
        got = y.get(52, 0)
        res[("sanma wrap (1m->9m, 9m->1m)", h3 + nuki + n3 == got)] += 1
        res[("four-player order (1m->2m, 9m->1m)", h4 + nuki + n4 == got)] += 1
        for ik in (0, 8):
            d = 8 if ik == 0 else 0
            if any(t // 4 == ik for t in inds) and any(t // 4 == d for t in tiles) and ik not in shown:
                shown.add(ik)
                R("example, indicator %s: %s who=%s hai=%s m=%s doraHai=%s (%s) yaku=%s ten=%s: %d x %s in the hand,"
                  " nuki %d -> yaku 52 = %d" % (
                      kind_name(ik), r.where, a["who"], a["hai"], a.get("m", ""), a["doraHai"],
                      " ".join(tile_name(t) for t in inds), a["yaku"], a["ten"],
                      sum(1 for t in tiles if t // 4 == d), kind_name(d), nuki, got))
    R("wins with a 1m or 9m indicator, yaku 52 recount:",
      counter_str(res, fmt=lambda k: "%s %s" % (k[0], "match" if k[1] else "mismatch")))


def rounding_4p(folder):
    """The owari rounding on Tenhou's 4-player mjlogs of the integer era (owari points without a
    decimal part) where some score ends in 500: the one place the half-point rounding shows."""
    res = collections.Counter()
    bad = []
    for f in sorted(Path(folder).glob("*.mjlog")):
        t = f.read_text(encoding="utf-8", errors="replace")
        go = re.search(r'<GO type="(\d+)"', t)
        ow = re.search(r'owari="([^"]*)"', t)
        if not go or not ow or int(go.group(1)) & 0x10 or int(go.group(1)) > 0xFF:
            continue
        v = ow.group(1).split(",")
        try:
            sc = [int(v[2 * p]) * 100 for p in range(4)]
            pts = [float(v[2 * p + 1]) for p in range(4)]
        except (ValueError, IndexError):
            continue
        if any(x != int(x) for x in pts) or not any(x % 1000 == 500 for x in sc):
            continue
        oya = int(re.search(r'<TAIKYOKU oya="(\d)"', t).group(1)) if "<TAIKYOKU" in t else 0
        order = sorted(range(4), key=lambda p: (-sc[p], (p - oya) % 4))
        uma = [None, 10, -10, -20]
        for name, f_ in ROUNDINGS:
            ok = all(abs(pts[p] - (f_(sc[p], 30000) + uma[rk])) < 1e-9 for rk, p in enumerate(order) if rk)
            res[(name, ok)] += 1
            if not ok and name.startswith("score/1000 rounded half away"):
                bad.append((f.name, go.group(1), [(sc[p], pts[p]) for p in order]))
    print("4-player mjlogs (GO type <= 0xFF, no sanma bit) with whole-number owari points and a score"
          " ending in 500: 2nd-4th = R(score) - 30 + uma (+10/-10/-20)")
    for (name, ok), v in sorted(res.items()):
        print("  %-42s %s: %d" % (name, "match" if ok else "mismatch", v))
    for b in bad:
        print("  half away from zero fails:", b)


def counts(games):
    total = collections.Counter()
    for g in games:
        ag = sum(1 for r in g.rounds for k, _, _ in r.events if k == "agari")
        ry = [a.get("type", "") for r in g.rounds for k, _, a in r.events if k == "ryuukyoku"]
        nk = sum(1 for _ in nuki_events([g]))
        ow = owari_fields(g.owari) if g.owari else None
        obj = {"file": g.path.name, "rounds": len(g.rounds), "agari": ag, "ryuukyoku": len(ry),
               "ryuukyoku_kinds": dict(collections.Counter(t or "exhaustive" for t in ry)), "nuki": nk,
               "final_scores": [s * 100 for s, _ in ow[:3]] if ow else None,
               "final_points": [x for _, x in ow[:3]] if ow else None}
        print(json.dumps(obj, ensure_ascii=False))
        total.update(games=1, rounds=len(g.rounds), agari=ag, ryuukyoku=len(ry), nuki=nk)
    print(json.dumps({"total": dict(total)}))


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    shared = os.environ.get("HAIFU_SHARED") or str(Path(__file__).resolve().parents[1] / ".." / "shared")
    if "--rounding4p" in argv:
        rounding_4p(Path(args[0]) if args else Path(shared) / "data" / "tenhou")
        return 0
    if not args:
        args = [str(Path(shared) / "data" / "tenhou" / "sanma")]
    games = load(args)
    if not games:
        print("no .mjlog files in", args, file=sys.stderr)
        return 1
    if "--counts" in argv:
        counts(games)
        return 0
    R = Report()
    R("sanma_facts: %d games from %s" % (len(games), ", ".join(args)))
    section_header(games, R)
    section_nuki(games, R)
    section_agari(games, R)
    section_ryuukyoku(games, R)
    section_calls(games, R)
    section_end(games, R)
    section_wrap(games, R)
    print(R.text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
