#!/usr/bin/env python3
"""The review page's summary block and severity filter, and a player's summary page, as headless
Chromium renders them (`make review-check`).

usage:
  review_filter_check.py harness OUT_DIR PAGE.html
      writes OUT_DIR/filter-all.html, filter-only-disagreements.html and filter-bad-moves.html:
      each loads the page in an iframe with that URL hash and, once it has loaded, writes what the
      browser shows into <pre id="result">: the body's classes, the selector's value, every
      decision block with its classes and whether it is displayed (computed style), the summary
      table's rows and the bad-move list's links. Chromium needs --allow-file-access-from-files.
  review_filter_check.py filter DOM_DIR PAGE.json
      reads the three dumped DOMs (DOM_DIR/filter-*.dom.html) and checks them against the review
      JSON: with no hash every block is shown; with #only-disagreements the body has only-dis and
      exactly the blocks where the player's choice is not linear's first are shown; with
      #bad-moves the body has only-bad and exactly the bad moves' blocks are shown; the summary
      table's rows (game, discards, riichi, calls) carry the JSON's decision counts and match
      rates; the bad-move list links every bad move.
  review_filter_check.py summary DOM.html SUMMARY_DIR
      checks a `haifu review --summary` index as Chromium dumped it against summary.json: the
      totals table (match rate with its interval and method), one linked row per game, every
      link leading to a page that exists.
"""
import html
import json
import os
import re
import sys

HASHES = {"all": "", "only-disagreements": "#only-disagreements", "bad-moves": "#bad-moves"}

HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="result">pending</pre>
<iframe id="f" src="{src}" width="1200" height="900"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {{
  var out = document.getElementById('result');
  try {{
    var d = this.contentDocument, w = this.contentWindow;
    var secs = Array.prototype.slice.call(d.querySelectorAll('section.decision')).map(function (s) {{
      return {{id: s.id, cls: s.className, shown: w.getComputedStyle(s).display !== 'none'}};
    }});
    var table = d.querySelector('table.summary');
    var rows = table ? Array.prototype.slice.call(table.querySelectorAll('tr')).slice(1).map(function (r) {{
      return Array.prototype.slice.call(r.cells).map(function (c) {{ return c.textContent.trim(); }});
    }}) : null;
    var list = d.getElementById('bad-moves-list');
    var links = [];
    if (list) {{
      var ol = list.nextElementSibling;
      links = Array.prototype.slice.call(ol.querySelectorAll('a')).map(function (a) {{ return a.getAttribute('href'); }});
    }}
    var sel = d.getElementById('severity');
    out.textContent = JSON.stringify({{body: d.body.className, select: sel ? sel.value : null,
      summary_heading: !!d.getElementById('summary'), summary: rows, bad_links: links, sections: secs}});
  }} catch (e) {{ out.textContent = 'error: ' + e; }}
}});
</script></body></html>
"""


def harness(out_dir, page):
    for name, h in HASHES.items():
        with open(os.path.join(out_dir, f"filter-{name}.html"), "w", encoding="utf-8") as f:
            f.write(HARNESS.format(src=html.escape(os.path.basename(page) + h)))


def result(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<pre id="result">(.*?)</pre>', text, re.S)
    if not m:
        return None, f"{path}: no result block"
    raw = html.unescape(m.group(1))
    if not raw.startswith("{"):
        return None, f"{path}: {raw[:200]} (was Chromium run with --allow-file-access-from-files?)"
    return json.loads(raw), None


def check_filter(dom_dir, json_path):
    review = json.load(open(json_path, encoding="utf-8"))
    decisions = [d for r in review["rounds"] for d in r["decisions"]]
    disagree = {d["id"] for d in decisions if not d["matched"]}
    bad = {d["id"] for d in decisions if d.get("bad_move")}
    fail = []
    seen = {}
    for name in HASHES:
        r, err = result(os.path.join(dom_dir, f"filter-{name}.dom.html"))
        if err:
            fail.append(err)
            continue
        seen[name] = r
        shown = {s["id"] for s in r["sections"] if s["shown"]}
        if len(r["sections"]) != len(decisions):
            fail.append(f"{name}: {len(r['sections'])} blocks, the JSON has {len(decisions)} decisions")
        body = r["body"].split()
        if name == "all":
            want, cls, value = {d["id"] for d in decisions}, None, "all"
        elif name == "only-disagreements":
            want, cls, value = disagree, "only-dis", "disagreements"
        else:
            want, cls, value = bad, "only-bad", "bad"
        if cls and cls not in body:
            fail.append(f"{name}: the body has no {cls} class (classes: {r['body']!r})")
        if r["select"] != value:
            fail.append(f"{name}: the severity selector shows {r['select']!r}, not {value!r}")
        if shown != want:
            fail.append(f"{name}: {len(shown)} blocks shown, {len(want)} expected; "
                        f"shown but not expected {sorted(shown - want)[:5]}, hidden but expected {sorted(want - shown)[:5]}")
        for s in r["sections"]:
            if s["shown"] and name == "bad-moves" and "bad" not in s["cls"].split():
                fail.append(f"bad-moves: block {s['id']} without the bad class is shown")
                break
    r = seen.get("all")
    if r:
        if not r["summary_heading"] or not r["summary"]:
            fail.append("the summary block (#summary and its table) is missing")
        else:
            s = review["summary"]
            rows = {row[0]: row for row in r["summary"]}
            for label, key in (("game", "game"), ("discards", "discard"), ("riichi", "riichi"), ("calls", "call")):
                row = rows.get(label)
                a = s[key]
                if row is None:
                    fail.append(f"summary: no {label} row")
                    continue
                if row[1] != str(a["decisions"]):
                    fail.append(f"summary {label}: n {row[1]} vs JSON {a['decisions']}")
                want_rate = f"{100 * a['match_rate']:.0f}%"
                if not row[2].endswith(want_rate):
                    fail.append(f"summary {label}: match rate {row[2]!r} vs JSON {want_rate}")
                if a["with_probability"] > 0 and not row[3].startswith(f"{100 * a['bad_move_rate']:.0f}%"):
                    fail.append(f"summary {label}: bad-move rate {row[3]!r} vs JSON {a['bad_move_rate']:.3f}")
        links = {l.lstrip("#") for l in r["bad_links"]}
        if links != bad:
            fail.append(f"bad-move list links {len(links)} decisions, the JSON has {len(bad)} bad moves")
    print(f"review-check: filter: {len(decisions)} blocks, {len(disagree)} disagreements, {len(bad)} bad moves; "
          f"shown with #only-disagreements {sum(s['shown'] for s in seen.get('only-disagreements', {}).get('sections', []))}, "
          f"with #bad-moves {sum(s['shown'] for s in seen.get('bad-moves', {}).get('sections', []))}")
    if not bad:
        print("review-check: note: no bad moves on this page (weights without calibration?): "
              "the #bad-moves check only saw an empty set")
    return fail


def check_summary(dom_path, summary_dir):
    s = json.load(open(os.path.join(summary_dir, "summary.json"), encoding="utf-8"))
    text = open(dom_path, encoding="utf-8").read()
    fail = []
    totals = re.search(r'<table class="summary totals">(.*?)</table>', text, re.S)
    if not totals:
        fail.append("summary: no totals table")
    else:
        m = s["totals"]["match_rate"]
        want = f"{100 * m['value']:.1f}% ({100 * m['lo']:.1f}%–{100 * m['hi']:.1f}%)"
        if want not in totals.group(1) or "wilson" not in totals.group(1):
            fail.append(f"summary: totals table lacks the match rate {want} (wilson)")
    games = re.search(r'<table class="summary games">(.*?)</table>', text, re.S)
    links = re.findall(r'<a href="([^"]+)">', games.group(1)) if games else []
    if len(links) != s["games"]:
        fail.append(f"summary: {len(links)} linked games, summary.json has {s['games']}")
    for l in links:
        if not os.path.isfile(os.path.join(summary_dir, html.unescape(l))):
            fail.append(f"summary: link {l} leads nowhere")
    if 'src="trend.png"' not in text or not os.path.isfile(os.path.join(summary_dir, "trend.png")):
        fail.append("summary: no trend plot")
    print(f"review-check: summary of {s['player']}: {s['games']} games, {s['totals']['agreement']['decisions']} decisions, "
          f"{len(links)} links")
    return fail


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "harness" and len(sys.argv) == 4:
        harness(sys.argv[2], sys.argv[3])
        return 0
    if mode == "filter" and len(sys.argv) == 4:
        fail = check_filter(sys.argv[2], sys.argv[3])
    elif mode == "summary" and len(sys.argv) == 4:
        fail = check_summary(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for f in fail:
        print("review-check: FAIL:", f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
