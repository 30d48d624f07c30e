// Self-test of scripts/majiang_mjai.js (電脳麻将 as an mjai player): does the adapter, fed a seat's
// mjai stream, give the answers the same majiang-ai player gave in the game itself?
//
//   node scripts/majiang_mjai_check.js [GAMES] [SEED]        (defaults 20 games, seed 1)
//
// Run it through scripts/majiang_mjai_check.sh (npm packages, NODE_PATH). For each game:
//  1. Play it: four @kobalab/majiang-ai 1.0.13 players at a Majiang.Game on majiang-core's default
//     rules (東南戦), synchronous, Math.random seeded from (SEED, game) exactly as
//     scripts/majiang_paipu.js seeds it, so `majiang_paipu.sh DIR N SEED` writes the same games.
//     Every reply each player gives through its callback is recorded (the message type and the
//     reply). Math.random calls made while a player is deciding are counted: majiang-ai makes
//     none, so no randomness has to be shared with the adapter.
//  2. Cross-check the record against the paipu: every move in the paipu (dapai, fulou, gang,
//     hule, 九種九牌) is the reply its player gave to the message before it.
//  3. Write the game as mjai (mjai seat s = player id (qijia + s) mod 4, so seat 0 deals first;
//     majiang's l = (s - oya) mod 4), one event per line, with the conventions of a server:
//     `reach` before the riichi discard and `reach_accepted` after it (not when it was ronned);
//     a closed kan's new dora as `ankan, dora, tsumo`; an open or added kan's, which majiang
//     reveals with the kan player's next discard (or next kan), in the same line as that
//     `dahai` (or `kakan`), after it: [dahai, dora]. That is when majiang's players learn it.
//  4. For each seat: its stream as a server sends it (the other seats' draws and start hands
//     `?`, start_game with `id`), fed line by line to a fresh adapter process
//     (scripts/majiang_mjai.sh --seat S, or $MAJIANG_MJAI_CMD), each answer read before the
//     next line is written, and timed. Each answer is compared with the seat's recorded reply to
//     the line's decisive event (the last event that is not a dora or a reach_accepted),
//     translated to mjai here: its own tsumo -> dahai / reach / hora / ankan / kakan / ryukyoku,
//     its own reach -> the riichi discard, its own chi / pon -> dahai, another seat's dahai ->
//     hora / chi / pon / daiminkan / none, another seat's kakan -> hora / none; every other line
//     must be answered none.
// Prints decisions compared, equal, different by kind (discard, riichi, call, kan, tsumo/ron,
// kyushu, none), lines answered wrongly outside decisions, lines the adapter complained about
// (its stderr), and the answer times. Exit status 0 when everything agreed.
// MAJIANG_MJAI_KEEP=DIR also writes each seat's stream (game-G-seat-S.jsonl) and a listing of the
// decisions with expected and actual answers (game-G-seat-S.answers.jsonl).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');

const GAMES = process.argv[2] === undefined ? 20 : parseInt(process.argv[2], 10);
const SEED = process.argv[3] === undefined ? 1 : parseInt(process.argv[3], 10);
if (!(GAMES >= 1) || !(SEED >= 0)) {
    console.error('usage: node majiang_mjai_check.js [GAMES] [SEED]');
    process.exit(2);
}
const KEEP = process.env.MAJIANG_MJAI_KEEP || '';
const CMD = process.env.MAJIANG_MJAI_CMD
    ? process.env.MAJIANG_MJAI_CMD.split(' ').filter((x) => x)
    : [path.join(__dirname, 'majiang_mjai.sh')];

// The same generator and per-game state as scripts/majiang_paipu.js (same seed, same games).
const { mulberry32, gameState } = require(path.join(__dirname, 'majiang_seed.js'));

// ---- the game, with every reply recorded -------------------------------------------------------

const randomBefore = Math.random;
let randomInPlayer = 0;

function playGame(index) {
    const rng = mulberry32(gameState(SEED, index));
    let deciding = 0;
    Math.random = () => { if (deciding) randomInPlayer++; return rng(); };
    const rec = [[], [], [], []]; // by player id: {type, reply}
    const players = [0, 1, 2, 3].map((id) => {
        const pl = new Player();
        const action = pl.action.bind(pl);
        pl.action = (msg, callback) => {
            const type = Object.keys(msg)[0];
            deciding++;
            try {
                if (!callback) return action(msg);
                return action(msg, (reply) => {
                    rec[id].push({ type, reply: reply ? JSON.parse(JSON.stringify(reply)) : null });
                    callback(reply);
                });
            } finally {
                deciding--;
            }
        };
        return pl;
    });
    let paipu = null;
    const title = `電脳麻将\nmajiang-ai 1.0.13 self-play, seed ${SEED}, game ${index}`;
    new Majiang.Game(players, (p) => { paipu = p; }, Majiang.rule(), title).do_sync();
    Math.random = randomBefore;
    if (!paipu) throw new Error(`game ${index}: no paipu`);
    return { paipu, rec };
}

// ---- majiang -> mjai ---------------------------------------------------------------------------

const HONOR = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];
function tile(p) { // 'm0_*' -> '5mr'
    if (p[0] === 'z') return HONOR[+p[1] - 1];
    return p[1] === '0' ? `5${p[0]}r` : p[1] + p[0];
}
function handTiles(str) { // '13-tile' hand string -> mjai tiles
    const out = [];
    for (const part of str.split(',')[0].match(/[mpsz]\d+/g) || []) {
        for (const d of part.slice(1)) out.push(tile(part[0] + d));
    }
    return out;
}
// A meld string's tiles: [called tile or null, the others].
function meldParts(m) {
    let called = null;
    const rest = [];
    const body = m.slice(1);
    for (let i = 0; i < body.length; i++) {
        if (!/\d/.test(body[i])) continue;
        if (/[+=\-]/.test(body[i + 1] || '')) called = tile(m[0] + body[i]);
        else rest.push(tile(m[0] + body[i]));
    }
    return [called, rest];
}
// An added kan's consumed: the three tiles of the pon it extends ('p505=0' -> 5p 5pr 5p).
function ponTiles(m) {
    return m.slice(1, -1).replace(/[+=\-]/, '').split('').map((d) => tile(m[0] + d));
}
const MARK = { '+': 1, '=': 2, '-': 3 };
const REASON = { '九種九牌': 'kyushukyuhai', '四風連打': 'sufonrenda', '四家立直': 'suuchariichi',
                 '四開槓': 'suukaikan', '三家和': 'sanchaho', '流し満貫': 'nagashimangan', '荒牌平局': 'fanpai' };

// The game as mjai lines. Each item: {ev, r: index of the majiang message the event stands for
// in every player's record (null: none), join: goes into the previous line, zimoR: for a
// reach, the record index of the draw it answers}. Also the paipu cross-check.
function toMjai(paipu, rec) {
    const qijia = paipu.qijia;
    const recBySeat = [0, 1, 2, 3].map((s) => rec[(qijia + s) % 4]);
    const items = [];
    let r = 0;
    const cross = { checked: 0, bad: [] };
    items.push({ ev: { type: 'start_game', names: [0, 1, 2, 3].map((s) => paipu.player[(qijia + s) % 4]) }, r: r++, mtype: 'kaiju' });
    let scores = [0, 1, 2, 3].map(() => 25000);
    for (const round of paipu.log) {
        let jushu = 0;
        const seat = (l) => (jushu + l) % 4;
        let lastDraw = null, ronTile = null, pendingRA = null;
        let prev = null; // {key, v, r} of the previous non-kaigang event
        const expectReply = (l, at, want, what) => { // cross-check one paipu move
            const got = recBySeat[seat(l)][at];
            cross.checked++;
            if (!got || !want(got.reply || {})) cross.bad.push(`${what}: recorded ${JSON.stringify(got)}`);
        };
        for (const e of round) {
            const key = Object.keys(e)[0], v = e[key];
            if (key !== 'kaigang' && pendingRA !== null) {
                const ronned = key === 'hule' || (key === 'pingju' && /^三家和/.test(v.name));
                if (!ronned) items.push({ ev: { type: 'reach_accepted', actor: pendingRA }, r: null });
                pendingRA = null;
            }
            switch (key) {
            case 'qipai': {
                jushu = v.jushu;
                scores = [0, 1, 2, 3].map((s) => v.defen[(s - jushu + 4) % 4]);
                items.push({ r: r++, mtype: key, ev: {
                    type: 'start_kyoku', bakaze: 'ESWN'[v.zhuangfeng], kyoku: jushu + 1, honba: v.changbang,
                    kyotaku: v.lizhibang, oya: jushu, dora_marker: tile(v.baopai), scores,
                    tehais: [0, 1, 2, 3].map((s) => handTiles(v.shoupai[(s - jushu + 4) % 4])) } });
                break;
            }
            case 'zimo': case 'gangzimo':
                lastDraw = v.p;
                items.push({ r: r, mtype: key, ev: { type: 'tsumo', actor: seat(v.l), pai: tile(v.p) } });
                prev = { key, v, r: r++ };
                break;
            case 'dapai': {
                const actor = seat(v.l);
                if (prev && prev.v.l === v.l) {
                    expectReply(v.l, prev.r, (x) => x.dapai === v.p, `${key} ${v.p}`);
                }
                if (v.p.slice(-1) === '*') {
                    items.push({ r: null, zimoR: prev.r, ev: { type: 'reach', actor } });
                    pendingRA = actor;
                }
                ronTile = v.p.slice(0, 2);
                items.push({ r: r, mtype: key, ev: { type: 'dahai', actor, pai: tile(v.p), tsumogiri: v.p.includes('_') } });
                prev = { key, v, r: r++ };
                break;
            }
            case 'fulou': {
                const actor = seat(v.l);
                const [called, rest] = meldParts(v.m);
                const target = seat((v.l + MARK[v.m.match(/[+=\-]/)[0]]) % 4);
                const type = /^[mpsz]\d{4}/.test(v.m) ? 'daiminkan'
                    : /^[mpsz](\d)\1\1/.test(v.m.replace(/0/g, '5')) ? 'pon' : 'chi';
                expectReply(v.l, prev.r, (x) => x.fulou === v.m, `${key} ${v.m}`);
                items.push({ r: r, mtype: key, ev: { type, actor, target, pai: called, consumed: rest } });
                prev = { key, v, r: r++ };
                break;
            }
            case 'gang': {
                const actor = seat(v.l);
                expectReply(v.l, prev.r, (x) => x.gang === v.m, `${key} ${v.m}`);
                let ev;
                if (/^[mpsz]\d{4}$/.test(v.m)) ev = { type: 'ankan', actor, consumed: meldParts(v.m)[1] };
                else {
                    ev = { type: 'kakan', actor, pai: tile(v.m[0] + v.m.slice(-1)), consumed: ponTiles(v.m) };
                    ronTile = v.m[0] + v.m.slice(-1);
                }
                items.push({ r: r, mtype: key, ev });
                prev = { key, v, r: r++ };
                break;
            }
            case 'kaigang': {
                // The players got it before the previous event's message (game.js): before a
                // rinshan draw (closed kan: its own line before the tsumo), else in the line of
                // that dahai / kan, after it.
                const dora = { type: 'dora', dora_marker: tile(v.baopai) };
                if (prev && prev.key === 'gangzimo') items.splice(items.length - 1, 0, { r: null, ev: dora });
                else items.push({ r: null, join: true, ev: dora });
                break;
            }
            case 'hule': {
                const actor = seat(v.l);
                const ron = v.baojia !== null && v.baojia !== undefined;
                const at = prev.key === 'hule' ? prev.askedR : prev.r;
                expectReply(v.l, at, (x) => !!x.hule, `${key} of l ${v.l}`);
                const deltas = [0, 1, 2, 3].map((s) => v.fenpei[(s - jushu + 4) % 4]);
                scores = scores.map((x, s) => x + deltas[s]);
                items.push({ r: r, mtype: key, ev: {
                    type: 'hora', actor, target: ron ? seat(v.baojia) : actor, pai: tile(ron ? ronTile : lastDraw),
                    deltas, ura_markers: (v.fubaopai || []).map(tile), scores: scores.slice() } });
                prev = { key, v, r: r++, askedR: at };
                break;
            }
            case 'pingju': {
                if (v.name === '九種九牌') {
                    const l = prev.v.l;
                    expectReply(l, prev.r, (x) => !!x.daopai, key);
                }
                const deltas = [0, 1, 2, 3].map((s) => v.fenpei[(s - jushu + 4) % 4]);
                scores = scores.map((x, s) => x + deltas[s]);
                const ev = { type: 'ryukyoku', reason: REASON[v.name] || v.name, deltas, scores: scores.slice() };
                if (v.name === '九種九牌') ev.actor = seat(prev.v.l);
                items.push({ r: r, mtype: key, ev });
                prev = { key, v, r: r++ };
                break;
            }
            default:
                throw new Error(`unknown paipu event ${key}`);
            }
        }
        items.push({ r: null, ev: { type: 'end_kyoku' } });
    }
    items.push({ r: r++, mtype: 'jieju', ev: { type: 'end_game', scores: [0, 1, 2, 3].map((s) => paipu.defen[(qijia + s) % 4]) } });
    for (let s = 0; s < 4; s++) {
        if (recBySeat[s].length !== r) throw new Error(`seat ${s}: ${recBySeat[s].length} replies for ${r} messages`);
    }
    return { items, recBySeat, cross };
}

// One seat's lines, each {events (as sent), item (the decisive one), text}.
function seatLines(items, S) {
    const lines = [];
    for (const [index, it] of items.entries()) {
        let ev = it.ev;
        if (ev.type === 'start_game') ev = Object.assign({ type: 'start_game', id: S }, ev, { type: 'start_game' });
        if (ev.type === 'tsumo' && ev.actor !== S) ev = Object.assign({}, ev, { pai: '?' });
        if (ev.type === 'start_kyoku') {
            ev = Object.assign({}, ev, { tehais: ev.tehais.map((h, s) => (s === S ? h : h.map(() => '?'))) });
        }
        const x = { ev, it };
        if (it.join && lines.length) lines[lines.length - 1].parts.push(x);
        else lines.push({ parts: [x] });
        lines[lines.length - 1].end = index;
    }
    for (const line of lines) {
        const evs = line.parts.map((x) => x.ev);
        line.text = JSON.stringify(evs.length === 1 ? evs[0] : evs);
        let k = line.parts.length - 1;
        while (k > 0 && ['dora', 'reach_accepted'].includes(line.parts[k].ev.type)) k--;
        line.decisive = line.parts[k];
    }
    return lines;
}

// The seat's move in the log right after a line (dora and reach_accepted skipped), if any.
function nextMove(items, line, S) {
    for (let i = line.end + 1; i < items.length; i++) {
        const ev = items[i].ev;
        if (ev.type === 'dora' || ev.type === 'reach_accepted') continue;
        if (ev.actor !== S) return null;
        return ['dahai', 'reach', 'chi', 'pon', 'daiminkan', 'ankan', 'kakan', 'hora', 'ryukyoku'].includes(ev.type) ? ev : null;
    }
    return null;
}

// ---- expected answers --------------------------------------------------------------------------

function replyToMjai(reply, ev, S) {
    if (!reply) return { type: 'none' };
    if (reply.hule) return { type: 'hora', actor: S, target: ev.actor, pai: ev.pai };
    if (reply.daopai) return ev.type === 'tsumo' ? { type: 'ryukyoku', actor: S } : { type: 'none' };
    if (reply.dapai) {
        if (reply.dapai.slice(-1) === '*') return { type: 'reach', actor: S };
        return { type: 'dahai', actor: S, pai: tile(reply.dapai), tsumogiri: reply.dapai.includes('_') };
    }
    if (reply.gang) {
        const m = reply.gang;
        if (/^[mpsz]\d{4}$/.test(m)) return { type: 'ankan', actor: S, consumed: meldParts(m)[1] };
        return { type: 'kakan', actor: S, pai: tile(m[0] + m.slice(-1)), consumed: ponTiles(m) };
    }
    if (reply.fulou) {
        const m = reply.fulou;
        const type = /^[mpsz]\d{4}/.test(m) ? 'daiminkan' : /^[mpsz](\d)\1\1/.test(m.replace(/0/g, '5')) ? 'pon' : 'chi';
        const [called, rest] = meldParts(m);
        return { type, actor: S, target: ev.actor, pai: called, consumed: rest };
    }
    return { type: 'none' };
}

// Is the decisive event a choice of seat S?
function isDecision(ev, S) {
    if (ev.actor === S) return ['tsumo', 'reach', 'chi', 'pon'].includes(ev.type);
    return ev.type === 'dahai' || ev.type === 'kakan';
}

function expected(line, recS, S) {
    const { ev, it } = line.decisive;
    if (ev.type === 'reach') {
        if (ev.actor !== S) return { type: 'none' };
        const rep = recS[it.zimoR].reply;
        return { type: 'dahai', actor: S, pai: tile(rep.dapai), tsumogiri: rep.dapai.includes('_') };
    }
    if (it.r === null || it.r === undefined) return { type: 'none' };
    const got = recS[it.r];
    if (got.type !== it.mtype) throw new Error(`record out of step: ${got.type} for ${it.mtype}`);
    if (!isDecision(ev, S)) {
        // Outside decisions majiang-ai answers nothing (no ノーテン宣言 under the default rules).
        return { type: 'none' };
    }
    return replyToMjai(got.reply, ev, S);
}

const KINDS = { dahai: 'discard', reach: 'riichi', chi: 'call', pon: 'call', daiminkan: 'call', ankan: 'kan',
                kakan: 'kan', hora: 'tsumo/ron', ryukyoku: 'kyushu', none: 'none' };
function kindOf(a) { return KINDS[a && a.type] || 'other'; }

function canon(a) {
    const out = { type: a.type };
    for (const k of ['actor', 'target', 'pai', 'tsumogiri']) if (a[k] !== undefined) out[k] = a[k];
    if (Array.isArray(a.consumed)) out.consumed = a.consumed.slice().sort();
    return JSON.stringify(out);
}

// ---- the adapter process -----------------------------------------------------------------------

function runSeat(lines, S) {
    return new Promise((resolve) => {
        const child = spawn(CMD[0], CMD.slice(1).concat(['--seat', String(S)]), { stdio: ['pipe', 'pipe', 'pipe'] });
        let buf = '', stderr = '', waiting = null, dead = null;
        const answers = [], times = [];
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk) => {
            buf += chunk;
            let i;
            while ((i = buf.indexOf('\n')) >= 0) {
                const text = buf.slice(0, i);
                buf = buf.slice(i + 1);
                if (waiting) { const w = waiting; waiting = null; w(text); }
                else answers.push({ text, late: true });
            }
        });
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (c) => { stderr += c; });
        child.on('exit', (code, sig) => {
            dead = `adapter exited (${sig || code})`;
            if (waiting) { const w = waiting; waiting = null; w(null); }
        });
        child.stdin.on('error', () => {});
        let n = 0;
        const next = () => {
            if (n === lines.length || dead) {
                child.stdin.end();
                const finish = () => resolve({ answers, times, stderr, dead: n < lines.length ? dead : null });
                if (dead) finish(); else child.on('close', finish);
                return;
            }
            const t0 = process.hrtime.bigint();
            const timer = setTimeout(() => { if (waiting) { dead = 'no answer within 120 s'; child.kill(); } }, 120000);
            waiting = (text) => {
                clearTimeout(timer);
                times.push(Number(process.hrtime.bigint() - t0) / 1e6);
                answers.push({ text });
                n++;
                setImmediate(next);
            };
            child.stdin.write(lines[n].text + '\n');
        };
        next();
    });
}

function quantile(xs, q) {
    if (!xs.length) return NaN;
    const s = xs.slice().sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function main() {
    if (KEEP) fs.mkdirSync(KEEP, { recursive: true });
    const total = { decisions: 0, equal: 0, lines: 0, spurious: 0, complaints: 0, dead: 0, crossChecked: 0, crossBad: 0,
                    moves: 0, movesEqual: 0 };
    const byKind = {}, diffByKind = {};
    const samples = [];
    const timesAll = [], timesDecision = [], timesOwn = [];
    const t0 = Date.now();
    let gameMs = 0;
    for (let g = 0; g < GAMES; g++) {
        const tg = Date.now();
        const { paipu, rec } = playGame(g);
        gameMs += Date.now() - tg;
        const { items, recBySeat, cross } = toMjai(paipu, rec);
        total.crossChecked += cross.checked;
        total.crossBad += cross.bad.length;
        for (const b of cross.bad.slice(0, 3)) samples.push(`game ${g}: paipu move not the recorded reply: ${b}`);
        for (let S = 0; S < 4; S++) {
            const lines = seatLines(items, S);
            const res = await runSeat(lines, S);
            const keep = [];
            if (res.dead) {
                total.dead++;
                samples.push(`game ${g} seat ${S}: ${res.dead} after ${res.answers.length} of ${lines.length} lines`);
            }
            if (res.stderr) {
                const msgs = res.stderr.split('\n').filter((x) => x);
                total.complaints += msgs.length;
                for (const m of msgs.slice(0, 3)) samples.push(`game ${g} seat ${S}: stderr: ${m}`);
            }
            for (let i = 0; i < res.answers.length && i < lines.length; i++) {
                const line = lines[i];
                const want = expected(line, recBySeat[S], S);
                let got;
                try { got = JSON.parse(res.answers[i].text); } catch (e) { got = { type: `not JSON: ${res.answers[i].text}` }; }
                const ms = res.times[i];
                total.lines++;
                timesAll.push(ms);
                const dev = line.decisive.ev;
                if (isDecision(dev, S)) {
                    timesDecision.push(ms);
                    if (dev.actor === S) timesOwn.push(ms);
                    total.decisions++;
                    const kind = kindOf(want);
                    byKind[kind] = (byKind[kind] || 0) + 1;
                    const same = canon(want) === canon(got);
                    if (same) total.equal++;
                    else {
                        diffByKind[kind] = (diffByKind[kind] || 0) + 1;
                        if (samples.length < 40) samples.push(`game ${g} seat ${S} line ${i + 1}: ${line.text.slice(0, 200)} -> expected ${canon(want)}, got ${canon(got)}`);
                    }
                    const move = nextMove(items, line, S);
                    if (move) {
                        total.moves++;
                        if (canon(move) === canon(got)) total.movesEqual++;
                        else if (samples.length < 40) samples.push(`game ${g} seat ${S} line ${i + 1}: the log's next move ${canon(move)}, answered ${canon(got)}`);
                    }
                    if (KEEP) keep.push(JSON.stringify({ line: i + 1, event: dev, expected: want, got, ms: +ms.toFixed(3), same }));
                }
                else if (got.type !== 'none') {
                    total.spurious++;
                    if (samples.length < 40) samples.push(`game ${g} seat ${S} line ${i + 1}: not a decision, answered ${canon(got)}`);
                }
            }
            if (KEEP) {
                fs.writeFileSync(path.join(KEEP, `game-${g}-seat-${S}.jsonl`), lines.map((l) => l.text).join('\n') + '\n');
                fs.writeFileSync(path.join(KEEP, `game-${g}-seat-${S}.answers.jsonl`), keep.join('\n') + '\n');
            }
        }
        const rounds = paipu.log.length;
        console.error(`game ${g + 1}/${GAMES}: ${rounds} rounds, ${total.decisions} decisions so far, `
                      + `${total.decisions - total.equal} different, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    const diffs = total.decisions - total.equal;
    const kinds = ['discard', 'riichi', 'call', 'kan', 'tsumo/ron', 'kyushu', 'none'];
    const fmt = (xs) => `median ${quantile(xs, 0.5).toFixed(3)} ms, p99 ${quantile(xs, 0.99).toFixed(3)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length})`;
    const version = (name) => { // majiang-core's package.json is not among its exports
        const main = require.resolve(name);
        return JSON.parse(fs.readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')).version;
    };
    const core = version('@kobalab/majiang-core'), ai = version('@kobalab/majiang-ai');
    console.log(`majiang_mjai self-test: majiang-ai ${ai}, majiang-core ${core}, ${GAMES} game${GAMES > 1 ? 's' : ''}, seed ${SEED}`);
    console.log(`paipu cross-check: ${total.crossChecked} moves, ${total.crossBad} not the recorded reply`);
    console.log(`Math.random calls while a player decided: ${randomInPlayer}`);
    console.log(`lines fed: ${total.lines} (4 seats); decisions compared: ${total.decisions}, equal: ${total.equal}, different: ${diffs}`);
    console.log(`  by kind of the expected answer (compared, different): ${kinds.map((k) => `${k} ${byKind[k] || 0} (${diffByKind[k] || 0})`).join(', ')}`);
    console.log(`answers that are the seat's next move in the mjai log: ${total.movesEqual} of ${total.moves}`);
    console.log(`non-decision lines not answered none: ${total.spurious}`);
    console.log(`adapter stderr lines: ${total.complaints}; adapters that died or stalled: ${total.dead}`);
    console.log(`answer time, all lines:      ${fmt(timesAll)}`);
    console.log(`answer time, decisions:      ${fmt(timesDecision)}`);
    console.log(`answer time, own turns:      ${fmt(timesOwn)}`);
    console.log(`playing the games: ${(gameMs / 1000).toFixed(1)} s; all: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const s of samples.slice(0, 40)) console.log(`  ${s}`);
    const ok = diffs === 0 && total.spurious === 0 && total.complaints === 0 && total.dead === 0 && total.crossBad === 0
        && total.movesEqual === total.moves;
    console.log(ok ? 'OK' : 'FAILED');
    process.exitCode = ok ? 0 : 1;
}

main().catch((e) => { console.error(e && e.stack || e); process.exit(2); });
