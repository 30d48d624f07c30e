// Port against original, decision by decision. Reads the decisions that
// scripts/majiang_mjai_check.sh kept (MAJIANG_MJAI_KEEP=DIR) when the port was the adapter
// (MAJIANG_MJAI_CMD="haifu bot --player majiang-0402"): each seat's stream and, per decision,
// @kobalab/majiang-ai 1.0.13's answer (the check's "expected"; npm's lib/player.js is player
// 0504) and the port's ("got"). It replays every stream, in this process, into a second player,
// LEGACY_PLAYER_JS (a copy of majiang-ai's git-only legacy/player-0402.js, the seed's player),
// and sorts every decision where the port's answer is not 1.0.13's:
//   version: the port answers as LEGACY_PLAYER_JS does (the difference is 0402 -> 0504);
//   port:    the port answers unlike LEGACY_PLAYER_JS too.
// For each different discard it also replays the stream up to the decision into 1.0.13 and
// LEGACY_PLAYER_JS and prints the position as each sees it: shanten, per legal discard its ev
// and danger (1.0.13: the relative danger of suanpai 0504; legacy: the level of suanpai 0305),
// and whether each pick is a fold (at its own lowest danger) or a push; and, with
// CODED_PLAYER_JS, that player's answer there (e.g. the untouched legacy/player-0402.js with its
// coded 愚形 threshold 300 when LEGACY_PLAYER_JS is the copy with the seed's 400).
//
//   NODE_PATH=$(scripts/majiang_mjai.sh --install) node scripts/majiang_mjai_compare.js \
//       KEEP_DIR LEGACY_PLAYER_JS [CODED_PLAYER_JS] [--json]
// The commands are in reports/arena/port-vs-majiang-ai.md.
'use strict';
const fs = require('fs');
const path = require('path');

const [PORT_DIR, LEGACY_JS, CODED_JS] = process.argv.slice(2).filter((a) => a !== '--json');
const JSON_OUT = process.argv.includes('--json');
if (!PORT_DIR || !LEGACY_JS) {
    console.error('usage: node majiang_mjai_compare.js KEEP_DIR LEGACY_PLAYER_JS [CODED_PLAYER_JS] [--json]');
    process.exit(2);
}
const Majiang = require('@kobalab/majiang-core');

// Two copies of the adapter module, each with its own Player class.
function adapterModule(playerFile) {
    const file = path.join(__dirname, 'majiang_mjai.js');
    delete require.cache[require.resolve(file)];
    const before = process.env.MAJIANG_AI_PLAYER;
    if (playerFile) process.env.MAJIANG_AI_PLAYER = playerFile; else delete process.env.MAJIANG_AI_PLAYER;
    const mod = require(file);
    if (before === undefined) delete process.env.MAJIANG_AI_PLAYER; else process.env.MAJIANG_AI_PLAYER = before;
    return mod;
}
const NEW = adapterModule(null);
const OLD = adapterModule(path.resolve(LEGACY_JS));
// CODED_JS (optional): a second legacy player, replayed at each different discard (e.g. the
// untouched legacy/player-0402.js with its coded 300 when LEGACY_JS is the seed's 400 copy).
const CODED = CODED_JS ? adapterModule(path.resolve(CODED_JS)) : null;
const NewPlayer = require('@kobalab/majiang-ai');
const OldPlayer = require(path.resolve(LEGACY_JS));

// The position at select_dapai, as each player sees it.
let capture = null;
function wrap(Class, danger) {
    const orig = Class.prototype.select_dapai;
    Class.prototype.select_dapai = function (info) {
        if (capture && !capture.done) {
            capture.done = true;
            const shoupai = this.shoupai;
            const n = Majiang.Util.xiangting(shoupai);
            const paishu = this._suanpai.paishu_all();
            const w = danger(this);
            const rows = [];
            for (const p of this.get_dapai(shoupai)) {
                const after = shoupai.clone().dapai(p);
                const x = Majiang.Util.xiangting(after);
                const kept = !(n > 2 && this.xiangting(after) > n || x > n);
                rows.push({ p, kept, ev: kept ? +this.eval_shoupai(after, paishu).toFixed(1) : null,
                            w: w ? +w(p).toFixed(2) : null });
            }
            capture.view = { n, rows };
        }
        return orig.call(this, info);
    };
}
wrap(NewPlayer, (pl) => pl._suanpai.suan_weixian_all(pl.shoupai._bingpai));
wrap(OldPlayer, (pl) => {
    if (!pl._model.shoupai.find((s) => s.lizhi)) return null;
    return (p) => {
        let w = 0;
        for (let l = 0; l < 4; l++) {
            if (l === pl._menfeng || !pl._model.shoupai[l].lizhi) continue;
            w = Math.max(w, pl._suanpai.suan_weixian(p, l));
        }
        return w;
    };
});

function replay(mod, lines, upto) {
    const a = new mod.Adapter(undefined, {});
    for (let i = 0; i < upto - 1; i++) a.react(lines[i]);
    capture = { done: false };
    const answer = JSON.parse(a.react(lines[upto - 1]));
    const view = capture.view;
    capture = null;
    return { answer, view, model: a.player._model, menfeng: a.player._menfeng, hand: a.player.shoupai.toString() };
}

function canon(a, flag = true, red = false) {
    if (!a) return 'null';
    const out = { type: a.type };
    for (const k of flag ? ['pai', 'tsumogiri'] : ['pai']) if (a[k] !== undefined) out[k] = a[k];
    if (Array.isArray(a.consumed)) out.consumed = a.consumed.map((x) => (red ? unred(x) : x)).sort();
    return JSON.stringify(out);
}
function short(a) {
    if (!a || a.type === 'none') return 'pass';
    if (a.type === 'dahai') return `${a.pai}${a.tsumogiri ? '(tsumogiri)' : ''}`;
    if (['chi', 'pon', 'daiminkan', 'ankan', 'kakan'].includes(a.type)) return `${a.type} ${a.pai || ''}+${(a.consumed || []).join(',')}`;
    return a.type;
}
const KINDS = { dahai: 'discard', reach: 'riichi', chi: 'call', pon: 'call', daiminkan: 'call', ankan: 'kan',
                kakan: 'kan', hora: 'tsumo/ron', ryukyoku: 'kyushu', none: 'none' };
const unred = (p) => (p ? p.replace(/^5([mps])r$/, '5$1') : p);
const toM = (p) => NEW.toMajiang(p);

// Which rule of player 0402 (seed 000, suanpai 0305 levels) or of player 0504 (1.0.13, relative
// danger) makes the two picks differ; q = 1.0.13's pick, p = the port's.
function reason(sub, v504, v402, qPai, pPai, coded, expected) {
    if (!v504 || !v402) return '?';
    const find = (view, pai) => view.rows.find((r) => r.p.slice(0, 2) === toM(pai).slice(0, 2)) || {};
    const n = v504.n;
    const minRel = Math.min(...v504.rows.map((r) => r.w)), minLvl = Math.min(...v402.rows.map((r) => r.w));
    const q = find(v504, qPai), p = find(v504, pPai), qOld = find(v402, qPai), pOld = find(v402, pPai);
    if (sub === 'both fold, a different safest tile') return 'danger measure: another safest tile';
    if (sub === 'port pushes, 1.0.13 folds') {
        if (minLvl >= 6) return '0402 pushes: no discard below level 6 (min < 6 fails); 0504 folds to a tile under 3.0';
        if (n === 0 && p.ev < 200) return '0504 (from 0403): tenpai worth under 200 does not push; 0402 pushes every tenpai';
        if (p.w >= 13.5) return '0504 (from 0503): never a tile of 13.5 or more';
        return `0402 pushes level ${pOld.w} <= 5 at value ${p.ev} (好形 or better); 0504: ${p.w} >= 3.0 (or 8.0) while a tile is under 3.0`;
    }
    if (sub === 'port folds, 1.0.13 pushes') {
        const why = n > 2 ? '3+ shanten folds' : qOld.ev < 400 ? `愚形 (value ${qOld.ev} < 400) folds`
            : `好形 (value ${qOld.ev} < 1200) does not push level ${qOld.w} > 5`;
        const seed = n <= 2 && n > 0 && qOld.ev >= 300 && qOld.ev < 400
            ? (coded && coded.replace('(tsumogiri)', '') === toMjaiShort(expected) ? ' [the seed\'s 400: the coded 300 answers as 1.0.13]' : ' [value in 300..400]') : '';
        const allowed = minRel >= 3.0 ? `no discard under 3.0 (min ${minRel}), ${q.w} < 8.0` : `${q.w} (min ${minRel})`;
        return `0402: ${why}${seed}; 0504 pushes: ${allowed}`;
    }
    return `both push: 0402 lets ${pPai} (level ${pOld.w}, value ${p.ev}) through, 0504 not (${p.w}); 0504 lets ${qPai} (${q.w}, value ${q.ev}), 0402 not (level ${qOld.w})`;
}
function toMjaiShort(a) { return a && a.type === 'dahai' ? a.pai : ''; }

function foldOrPush(view, pai) {
    if (!view) return '?';
    const min = Math.min(...view.rows.map((r) => r.w));
    const row = view.rows.find((r) => r.p.slice(0, 2) === toM(pai).slice(0, 2));
    if (!row) return '?';
    return row.w <= min ? 'safest' : 'push';
}

const files = fs.readdirSync(PORT_DIR).filter((f) => f.endsWith('.answers.jsonl')).sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }));
const table = {}; // kind -> class -> n
const compared = {};
const out = [];
const hidden = []; // port = 1.0.13 but port != legacy
const legacyDiff = {}; // legacy != 1.0.13, by kind
const copyFlag = []; // the port's tsumogiri flag unlike the legacy player's, same tile
for (const f of files) {
    const port = fs.readFileSync(path.join(PORT_DIR, f), 'utf8').split('\n').filter((x) => x).map((x) => JSON.parse(x));
    const stream = fs.readFileSync(path.join(PORT_DIR, f.replace('.answers', '')), 'utf8').split('\n').filter((x) => x);
    // The legacy player's answer to every line of the stream (kept next to the stream: the
    // replay takes minutes).
    const cache = path.join(PORT_DIR, f.replace('.answers.jsonl', `.${path.basename(LEGACY_JS, '.js')}.jsonl`));
    let oldAnswers;
    if (fs.existsSync(cache)) oldAnswers = fs.readFileSync(cache, 'utf8').split('\n').filter((x) => x).map((x) => JSON.parse(x));
    else {
        const legacy = new OLD.Adapter(undefined, {});
        oldAnswers = stream.map((text) => JSON.parse(legacy.react(text)));
        fs.writeFileSync(cache, oldAnswers.map((a) => JSON.stringify(a)).join('\n') + '\n');
    }
    const old = new Map(port.map((d) => [d.line, { got: oldAnswers[d.line - 1] }]));
    for (const d of port) {
        const kind = KINDS[d.expected.type] || 'other';
        compared[kind] = (compared[kind] || 0) + 1;
        const o = old.get(d.line);
        if (canon(o.got) !== canon(d.expected)) legacyDiff[kind] = (legacyDiff[kind] || 0) + 1;
        // The copy (tsumogiri or the held copy of the same tile) is counted apart.
        const portEqOld = canon(d.got, false, true) === canon(o.got, false, true);
        if (portEqOld && canon(d.got) !== canon(o.got)) copyFlag.push(`${f} line ${d.line}`);
        else if (canon(d.got) !== canon(o.got) && canon(d.got) === canon(d.expected)) hidden.push({ file: f, line: d.line, kind, port: short(d.got), legacy: short(o.got) });
        if (canon(d.got) === canon(d.expected)) {
            continue;
        }
        // copy: the same move as 1.0.13's but another copy of a tile (the tsumogiri flag, a red
        // or plain five in a call); version: the move of player 0402; port: neither.
        let cls = canon(d.got, false, true) === canon(d.expected, false, true) ? 'copy' : portEqOld ? 'version' : 'port';
        let sub = '';
        const rec = { file: f, line: d.line, kind, cls, majiang_ai: short(d.expected), port: short(d.got), legacy: short(o.got),
                      event: d.event };
        if (d.expected.type === 'dahai' && d.got.type === 'dahai') {
            if (unred(d.expected.pai) === unred(d.got.pai)) {
                sub = d.expected.pai !== d.got.pai ? 'same kind, red or plain five' : 'same tile, tsumogiri flag';
            }
            else {
                // Replay both players to the decision (the tsumo line, or the call before it).
                const a = replay(NEW, stream, d.line), b = replay(OLD, stream, d.line);
                rec.hand = a.hand;
                rec.shanten = a.view && a.view.n;
                rec.riichi = a.model.shoupai.map((s, l) => (s.lizhi && l !== a.menfeng ? l : null)).filter((x) => x !== null)
                    .map((l) => `${['dealer', 'shimocha-of-dealer', 'toimen-of-dealer', 'kamicha-of-dealer'][l]}`);
                rec.v0504 = a.view && a.view.rows;
                rec.v0402 = b.view && b.view.rows;
                const fNew = foldOrPush(a.view, d.expected.pai), fOld = foldOrPush(b.view, d.got.pai);
                rec.how = `1.0.13 ${fNew}, port ${fOld}`;
                if (CODED) rec.coded = short(replay(CODED, stream, d.line).answer);
                const row = (view, pai) => view && view.rows.find((x) => x.p.slice(0, 2) === toM(pai).slice(0, 2));
                const rn = row(a.view, d.expected.pai), ro = row(b.view, d.got.pai);
                const rp = row(a.view, d.got.pai), ron = row(b.view, d.expected.pai);
                rec.detail = {
                    min_rel: a.view && Math.min(...a.view.rows.map((x) => x.w)),
                    min_lvl: b.view && Math.min(...b.view.rows.map((x) => x.w)),
                    pick_0504: rn && { p: rn.p, ev: rn.ev, rel: rn.w, lvl: ron && ron.w },
                    pick_port: ro && { p: ro.p, ev: ro.ev, lvl: ro.w, rel: rp && rp.w },
                };
                sub = fNew === 'safest' && fOld === 'safest' ? 'both fold, a different safest tile'
                    : fNew === 'push' && fOld === 'safest' ? 'port folds, 1.0.13 pushes'
                    : fNew === 'safest' && fOld === 'push' ? 'port pushes, 1.0.13 folds'
                    : 'both push, a different tile';
                rec.reason = reason(sub, a.view, b.view, d.expected.pai, d.got.pai, rec.coded, d.expected);
            }
        }
        else if (kind === 'call' || kind === 'none') {
            sub = `1.0.13 ${short(d.expected)}, port ${short(d.got)}`.replace(/\+.*?(,|$)/g, '$1');
            sub = d.expected.type === 'none' ? 'port calls, 1.0.13 passes' : d.got.type === 'none' ? 'port passes, 1.0.13 calls' : 'another call';
        }
        else sub = `${d.expected.type} vs ${d.got.type}`;
        rec.sub = sub;
        const key = `${kind} | ${sub}`;
        table[key] = table[key] || { version: 0, port: 0, copy: 0 };
        table[key][cls]++;
        out.push(rec);
    }
}
if (JSON_OUT) {
    for (const r of out) console.log(JSON.stringify(r));
    for (const h of hidden) console.log(JSON.stringify(Object.assign({ hidden: true }, h)));
    process.exit(0);
}
console.log(`decisions compared: ${Object.entries(compared).map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`different from 1.0.13: the port ${out.length}; ${path.basename(LEGACY_JS)} `
            + `${Object.values(legacyDiff).reduce((x, y) => x + y, 0)} (${Object.entries(legacyDiff).map(([k, n]) => `${k} ${n}`).join(', ')})`);
console.log('kind | what | another copy (copy) | as player 0402 (version) | unlike 0402 (port)');
for (const [k, v] of Object.entries(table).sort()) console.log(`${k} | ${v.copy} | ${v.version} | ${v.port}`);
const reasons = {};
for (const r of out) if (r.reason) { const k = r.reason.replace(/-?[0-9][0-9.]*/g, 'N'); reasons[k] = (reasons[k] || 0) + 1; }
console.log('different discards by reason (numbers as N):');
for (const [k, n] of Object.entries(reasons).sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
console.log(`decisions where the port's move is player 0402's but its copy (tsumogiri flag, red five) is not: ${copyFlag.length}`);
console.log(`decisions where the port agrees with 1.0.13 but not with player 0402: ${hidden.length}`);
for (const h of hidden) console.log(`  ${h.file} line ${h.line} ${h.kind}: port ${h.port}, legacy ${h.legacy}`);
for (const r of out) {
    console.log(`\n${r.file} line ${r.line}: ${r.kind}, ${r.cls}: ${r.sub}; 1.0.13 ${r.majiang_ai}, port ${r.port}, player 0402 ${r.legacy}`);
    if (r.hand) {
        console.log(`  reason: ${r.reason}`);
        console.log(`  hand ${r.hand}, shanten ${r.shanten}, riichi: ${r.riichi.join(', ')}; ${r.how}`
                    + (r.coded ? `; ${path.basename(CODED_JS)}: ${r.coded}` : ''));
        const rows = new Map();
        for (const x of r.v0504 || []) rows.set(x.p, { p: x.p, kept: x.kept, ev: x.ev, rel: x.w });
        for (const x of r.v0402 || []) Object.assign(rows.get(x.p) || (rows.set(x.p, { p: x.p }), rows.get(x.p)), { lvl: x.w, ev0402: x.ev });
        console.log('  ' + [...rows.values()].map((x) => `${x.p}:ev ${x.ev === null ? '-' : x.ev}` + (x.ev0402 !== x.ev ? `/${x.ev0402}` : '') + ` rel ${x.rel} lvl ${x.lvl}`).join('; '));
    }
}
