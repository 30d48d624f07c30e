// 電脳麻将 at an mjai table: one @kobalab/majiang-ai 1.0.13 player (on @kobalab/majiang-core
// 1.4.1, the pair scripts/majiang_paipu.sh pins) speaking the protocol of `haifu bot`
// (docs/bot.md): one mjai event, or a JSON array of events, per line on stdin; exactly one answer
// line per input line on stdout, `{"type":"none"}` when the seat has nothing to do.
//
//   node scripts/majiang_mjai.js --seat N [--rule JSON]
//
// Run it through scripts/majiang_mjai.sh, which installs the npm packages in a cache folder and
// points NODE_PATH there. The seat comes from `start_game`'s `id`, else --seat. `aka_flag: false`
// turns the red fives off. --rule overrides keys of majiang-core's default rules (Majiang.rule()),
// the rules the player believes the table plays, e.g. --rule '{"リーチ後暗槓許可レベル":1}'.
//
// How it works: the adapter keeps no game logic of its own. Each mjai event becomes the message
// majiang-core's Game would send to a player (docs/paipu.md explains the notation), handed to a
// majiang-ai Player through `action(msg, callback)`; the Player keeps the whole view (Board: seat
// winds, scores, its hand, the other hands as unknown tiles `_`, rivers, melds, dora; SuanPai: the
// unseen tiles) and answers through the callback, synchronously. Its answer to the line's decisive
// event becomes the mjai answer.
//
//   mjai event                         majiang-core message to the Player
//   start_game {id, names, aka_flag}   kaiju {id: seat, qijia: 0, rule}       (mjai seat = player id)
//   start_kyoku                        qipai {zhuangfeng, jushu: oya, changbang: honba,
//                                        lizhibang: kyotaku, defen by l, baopai, shoupai: own only}
//   tsumo {actor, pai}                 zimo {l, p} (p '' for another seat), or gangzimo after a kan
//   reach {actor}                      (none: the actor's next dahai gets the '*')
//   dahai {actor, pai, tsumogiri}      dapai {l, p + '_' if tsumogiri + '*' after a reach}
//   chi/pon/daiminkan                  fulou {l, m}: 'm4-06', 'z111=', 'p5505+' (the mark: target's
//     {actor, target, pai, consumed}     side, '-' previous seat, '=' across, '+' next seat)
//   ankan {actor, consumed}            gang {l, m: 'm5550'}
//   kakan {actor, pai, consumed}       gang {l, m: the pon + the added digit, 'z111=1'}
//   dora {dora_marker}                 kaigang {baopai}
//   reach_accepted                     (none: the Board takes the 1000 on the next draw or call)
//   hora {actor, target, pai, ...}     hule {l, shoupai, baojia, fubaopai: ura_markers, fenpei: deltas}
//                                        (others' hands unknown: '_'; no pai, as RiichiEnv: the last discard)
//   ryukyoku                           pingju {name, shoupai: ['','','',''], fenpei: deltas}
//   end_kyoku                          (none)
//   end_game                           jieju {defen: scores}
// l is the seat relative to the round's dealer: l = (seat - oya) mod 4.
//
//   the Player's reply               mjai answer
//   to its own zimo/gangzimo:
//     {dapai: 'm3_'}                 {"type":"dahai","pai":"3m","tsumogiri":true}  ('_': the drawn tile)
//     {dapai: 'm3*'}                 {"type":"reach"}, then to the echoed reach: the dahai
//     {hule: '-'}                    {"type":"hora","target":seat,"pai":drawn tile}
//     {gang: 'z1111'} / 'z111=1'     {"type":"ankan","consumed":[...]} / {"type":"kakan","pai","consumed"}
//     {daopai: '-'}                  {"type":"ryukyoku"} (九種九牌)
//   to its own chi/pon: {dapai}      dahai
//   to another seat's dapai:
//     {hule: '-'}                    {"type":"hora","target":discarder,"pai"}
//     {fulou: 'm34-0'}               {"type":"chi","target","pai":"5mr","consumed":["3m","4m"]} (pon, daiminkan)
//     nothing                        {"type":"none"}
//   to another seat's kakan {hule}   hora (chankan)
// Answers carry "actor": the seat.
//
// Which event a line answers: the last one that is not a `dora` or a `reach_accepted` (as
// `haifu bot`). A `dora` after it in the same line is handed to the Player before it, which is
// the order majiang-core's Game itself uses (it announces a kan's new indicator, kaigang, before
// the discard, the kan or the rinshan draw that revealed it), so a line [dahai, dora] is answered
// knowing the new dora. An `ankan, dora, tsumo` stream (mjai's order) needs no reordering.
//
// Randomness: majiang-ai 1.0.13 calls no Math.random (only majiang-core's Game and Shan do, for
// the wall and the first dealer), so the same stream gives the same answers.
//
// Bad input never stops it: an event it cannot follow gets a message on stderr naming the stdin
// line ("majiang_mjai: line N: ..."), and a legal answer anyway (a tsumogiri of the drawn tile on
// its own turn, else none); the rest of that round is played by tsumogiri, the next start_kyoku
// starts afresh.
'use strict';
const Majiang = require('@kobalab/majiang-core');
// MAJIANG_AI_PLAYER: another Player class file (e.g. a copy of majiang-ai's legacy/player-0402.js).
const Player = require(process.env.MAJIANG_AI_PLAYER || '@kobalab/majiang-ai');

const HONORS = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];
const NONE = { type: 'none' };

// mjai tile -> majiang tile: '5mr' -> 'm0', '3p' -> 'p3', 'E' -> 'z1', 'C' -> 'z7'.
function toMajiang(pai) {
    const i = HONORS.indexOf(pai);
    if (i >= 0) return 'z' + (i + 1);
    const m = typeof pai === 'string' && /^([1-9])([mps])(r?)$/.exec(pai);
    if (!m || (m[3] && m[1] !== '5')) throw new Error(`not a tile: ${JSON.stringify(pai)}`);
    return m[2] + (m[3] ? '0' : m[1]);
}

// majiang tile (suffixes ignored) -> mjai tile: 'm0_*' -> '5mr', 'z5' -> 'P'.
function toMjai(p) {
    const s = p[0], n = p[1];
    if (s === 'z' && n >= '1' && n <= '7') return HONORS[+n - 1];
    if ('mps'.includes(s) && n >= '0' && n <= '9') return n === '0' ? `5${s}r` : n + s;
    throw new Error(`not a majiang tile: ${p}`);
}

const unred = (pai) => (typeof pai === 'string' ? pai.replace(/^5([mps])r$/, '5$1') : pai);

// The tiles of a meld string's digits; with `hand`, the called one (the digit before the mark)
// left out.
function meldTiles(m, hand = true) {
    const s = m[0], out = [];
    const digits = m.slice(1);
    for (let i = 0; i < digits.length; i++) {
        if (!/\d/.test(digits[i])) continue;
        if (hand && /[+=\-]/.test(digits[i + 1] || '')) continue;
        out.push(toMjai(s + digits[i]));
    }
    return out;
}

const BAKAZE = { E: 0, S: 1, W: 2, N: 3 };
// mjai ryukyoku reasons (Tenhou's names as mjai writes them) and majiang-core's pingju names.
const PINGJU = {
    kyushukyuhai: '九種九牌', kyuushukyuuhai: '九種九牌', sufonrenda: '四風連打', suufonrenda: '四風連打',
    suuchariichi: '四家立直', sucharichi: '四家立直', suukaikan: '四開槓', sukaikan: '四開槓',
    sanchaho: '三家和', sanchahou: '三家和', nagashimangan: '流し満貫', fanpai: '荒牌平局',
    howanpai: '荒牌平局', exhaustive_draw: '荒牌平局',
};

class Adapter {
    constructor(seat, ruleOverrides) {
        this.seat = seat;
        this.ruleOverrides = ruleOverrides || {};
        this.line = 0;
        this.player = null;
        this.round = null;
        this.scores = [25000, 25000, 25000, 25000];
        this.names = ['', '', '', ''];
        this.red = true;
    }

    // One input line -> one answer line (JSON text).
    react(text) {
        this.line++;
        if (!text.trim()) return JSON.stringify(NONE);
        let events;
        try {
            const v = JSON.parse(text);
            events = Array.isArray(v) ? v : [v];
            if (!events.length) return JSON.stringify(NONE);
            for (const e of events) {
                if (!e || typeof e !== 'object' || typeof e.type !== 'string') throw new Error('not an mjai event');
            }
        } catch (e) {
            this.complain(`not an mjai event line (${e.message})`);
            return JSON.stringify(this.withActor(this.fallback(null)));
        }
        // The decisive event: the last that is not a dora or a reach_accepted. Doras after it
        // go to the Player before it (majiang-core's own order, see the header).
        let k = events.length - 1;
        while (k > 0 && (events[k].type === 'dora' || events[k].type === 'reach_accepted')) k--;
        const order = events.slice(0, k)
            .concat(events.slice(k + 1).filter((e) => e.type === 'dora'), [events[k]],
                    events.slice(k + 1).filter((e) => e.type !== 'dora'));
        let answer = NONE;
        for (const ev of order) {
            let a;
            try {
                a = this.step(ev);
            } catch (e) {
                this.complain(`${ev.type}: ${e && e.message ? e.message : e}`);
                if (this.round) this.round.broken = true;
                a = this.fallback(ev);
            }
            if (ev === events[k]) answer = a || NONE;
        }
        return JSON.stringify(this.withActor(answer));
    }

    complain(msg) {
        process.stderr.write(`majiang_mjai: line ${this.line}: ${msg}\n`);
    }

    withActor(a) {
        return a.type === 'none' ? a : Object.assign({ type: a.type, actor: this.seat }, a);
    }

    // Hands a message to the Player; returns its reply (undefined: nothing). Notifications
    // (kaigang) go without a callback, as the Game sends them.
    send(msg, ask = true) {
        let reply;
        this.player.action(msg, ask ? (r) => { reply = r; } : undefined);
        return reply;
    }

    rel(seat) { return (seat - this.round.oya + 4) % 4; }
    abs(l) { return (l + this.round.oya) % 4; }
    get model() { return this.player._model; }

    startGame(ev) {
        if (ev && Number.isInteger(ev.id)) this.seat = ((ev.id % 4) + 4) % 4;
        if (!Number.isInteger(this.seat)) throw new Error('no seat: give --seat N or start_game.id');
        this.red = !(ev && ev.aka_flag === false);
        const over = Object.assign({}, this.ruleOverrides);
        if (!this.red) over['赤牌'] = { m: 0, p: 0, s: 0 };
        this.rule = Majiang.rule(over);
        if (ev && Array.isArray(ev.names)) this.names = ev.names.map(String).slice(0, 4);
        this.scores = [0, 1, 2, 3].map(() => this.rule['配給原点']);
        this.player = new Player();
        this.round = null;
        this.send({ kaiju: { id: this.seat, rule: this.rule, title: 'mjai', player: this.names, qijia: 0 } });
    }

    step(ev) {
        const t = ev.type;
        if (t === 'start_game') { this.startGame(ev); return NONE; }
        if (t === 'none') return NONE;
        if (!this.player) this.startGame(null); // a stream that starts at start_kyoku
        if (t === 'start_kyoku') return this.startKyoku(ev);
        if (t === 'end_game') {
            if (Array.isArray(ev.scores)) this.scores = ev.scores.slice();
            this.round = null;
            this.send({ jieju: { title: 'mjai', player: this.names, qijia: 0, log: [], defen: this.scores.slice(),
                                 rank: [0, 0, 0, 0], point: ['0', '0', '0', '0'] } });
            return NONE;
        }
        const r = this.round;
        if (!r) {
            if (t === 'end_kyoku') return NONE;
            throw new Error('outside a round (no start_kyoku)');
        }
        if (t === 'end_kyoku') { this.round = null; return NONE; }
        this.track(ev);
        if (r.broken) return this.fallback(ev);
        const S = this.seat;
        const actor = ev.actor;
        if (['tsumo', 'dahai', 'chi', 'pon', 'daiminkan', 'ankan', 'kakan', 'reach', 'reach_accepted', 'hora'].includes(t)
            && !(Number.isInteger(actor) && actor >= 0 && actor < 4)) throw new Error(`${t} without an actor 0..3`);
        switch (t) {
        case 'tsumo': {
            const l = this.rel(actor);
            const p = actor === S ? toMajiang(ev.pai) : '';
            const gang = r.kan === actor;
            r.kan = null;
            if (this.model.shan.paishu <= 0) throw new Error('a draw from an empty wall');
            const reply = this.send(gang ? { gangzimo: { l, p } } : { zimo: { l, p } });
            return actor === S ? this.ownTurn(reply, ev) : NONE;
        }
        case 'reach':
            r.reach[actor] = true;
            if (actor !== S) return NONE;
            return r.riichiDahai || this.riichiFallback();
        case 'dahai': {
            r.lastTile = ev.pai;
            const l = this.rel(actor);
            const p = toMajiang(ev.pai) + (ev.tsumogiri ? '_' : '') + (r.reach[actor] ? '*' : '');
            r.reach[actor] = false;
            r.riichiDahai = null;
            const reply = this.send({ dapai: { l, p } });
            if (actor === S || !reply) return NONE;
            if (reply.hule) return { type: 'hora', target: actor, pai: ev.pai };
            if (reply.fulou) return this.callAnswer(reply.fulou, ev);
            return NONE;
        }
        case 'chi': case 'pon': case 'daiminkan': {
            const m = this.meld(ev);
            const reply = this.send({ fulou: { l: this.rel(actor), m } });
            if (t === 'daiminkan') r.kan = actor;
            if (actor !== S || t === 'daiminkan') return NONE;
            if (reply && reply.dapai) return this.dahai(reply.dapai);
            return this.fallback(ev);
        }
        case 'ankan': case 'kakan': {
            const m = t === 'ankan' ? this.ankanMeld(ev) : this.kakanMeld(ev);
            if (t === 'kakan') r.lastTile = ev.pai;
            const reply = this.send({ gang: { l: this.rel(actor), m } });
            r.kan = actor;
            if (t === 'kakan' && actor !== S && reply && reply.hule) {
                return { type: 'hora', target: actor, pai: ev.pai };
            }
            return NONE;
        }
        case 'dora':
            this.send({ kaigang: { baopai: toMajiang(ev.dora_marker) } }, false);
            return NONE;
        case 'reach_accepted':
            if (Array.isArray(ev.scores)) this.scores = ev.scores.slice();
            else this.scores[actor] -= 1000;
            return NONE;
        case 'hora':
            this.hule(ev);
            return NONE;
        case 'ryukyoku':
            this.pingju(ev);
            return NONE;
        default:
            return NONE; // unknown events are ignored
        }
    }

    startKyoku(ev) {
        const S = this.seat;
        if (!(ev.bakaze in BAKAZE)) throw new Error(`bakaze ${JSON.stringify(ev.bakaze)}`);
        const oya = Number.isInteger(ev.oya) ? ev.oya : (ev.kyoku - 1);
        if (!(oya >= 0 && oya < 4)) throw new Error('start_kyoku without oya');
        if (Array.isArray(ev.scores) && ev.scores.length === 4) this.scores = ev.scores.slice();
        const tehai = ev.tehais && ev.tehais[S];
        this.round = { oya, kan: null, reach: [false, false, false, false], riichiDahai: null, broken: false,
                       hand: [], drawn: null, lastTile: null };
        if (!Array.isArray(tehai) || tehai.length !== 13) throw new Error(`start_kyoku: no 13-tile hand for seat ${S}`);
        this.round.hand = tehai.slice();
        const shoupai = ['', '', '', ''];
        shoupai[this.rel(S)] = new Majiang.Shoupai(tehai.map(toMajiang)).toString();
        const defen = [0, 1, 2, 3].map((l) => this.scores[this.abs(l)]);
        this.send({ qipai: {
            zhuangfeng: BAKAZE[ev.bakaze], jushu: oya, changbang: ev.honba | 0, lizhibang: ev.kyotaku | 0,
            defen, baopai: toMajiang(ev.dora_marker), shoupai,
        } });
        return NONE;
    }

    // The seat's own hand as mjai tiles, kept apart from the Player for the fallback answers.
    track(ev) {
        const r = this.round, S = this.seat;
        if (ev.actor !== S) return;
        const drop = (pai) => {
            const i = r.hand.indexOf(pai);
            if (i >= 0) r.hand.splice(i, 1);
        };
        if (ev.type === 'tsumo') { r.hand.push(ev.pai); r.drawn = ev.pai; }
        else if (ev.type === 'dahai') { drop(ev.pai); r.drawn = null; }
        else if (['chi', 'pon', 'daiminkan', 'ankan'].includes(ev.type)) {
            (ev.consumed || []).forEach(drop);
            r.drawn = null;
            r.called = ev.type === 'ankan' ? null : ev;
        }
        else if (ev.type === 'kakan') { drop(ev.pai); r.drawn = null; }
    }

    ownTurn(reply, ev) {
        if (!reply) return this.fallback(ev);
        if (reply.hule) return { type: 'hora', target: this.seat, pai: ev.pai };
        if (reply.daopai) return { type: 'ryukyoku' };
        if (reply.gang) return this.gangAnswer(reply.gang);
        if (reply.dapai) {
            const d = this.dahai(reply.dapai);
            if (reply.dapai.slice(-1) === '*') {
                this.round.riichiDahai = d;
                return { type: 'reach' };
            }
            return d;
        }
        return this.fallback(ev);
    }

    dahai(p) {
        return { type: 'dahai', pai: toMjai(p), tsumogiri: p.includes('_') };
    }

    // Our own reach without a riichi discard on record: the Player's discard if it keeps the
    // hand ready, else the last of majiang-core's riichi discards.
    riichiFallback() {
        const pl = this.player;
        const ok = pl.allow_lizhi(pl.shoupai) || [];
        if (!ok.length) throw new Error('reach, but the hand cannot declare riichi');
        const pick = pl.select_dapai().replace(/\*$/, '');
        return this.dahai(ok.includes(pick) ? pick : ok[ok.length - 1]);
    }

    callAnswer(m, ev) {
        const type = /^[mpsz]\d{4}/.test(m) ? 'daiminkan'
            : /^[mpsz](\d)\1\1/.test(m.replace(/0/g, '5')) ? 'pon' : 'chi';
        return { type, target: ev.actor, pai: ev.pai, consumed: meldTiles(m) };
    }

    gangAnswer(m) {
        if (/^[mpsz]\d{4}$/.test(m)) return { type: 'ankan', consumed: meldTiles(m) };
        // consumed: the pon's three tiles, as mjai writes a kakan.
        return { type: 'kakan', pai: toMjai(m[0] + m.slice(-1)), consumed: meldTiles(m.slice(0, -1), false) };
    }

    // fulou m of an mjai chi / pon / daiminkan, in majiang-core's canonical form.
    meld(ev) {
        const d = ['', '+', '=', '-'][((ev.target - ev.actor) % 4 + 4) % 4];
        if (!d) throw new Error(`${ev.type}: target ${ev.target} is the actor`);
        const p = toMajiang(ev.pai), s = p[0];
        const hand = (ev.consumed || []).map(toMajiang);
        const want = ev.type === 'chi' ? 2 : ev.type === 'pon' ? 2 : 3;
        if (hand.length !== want || hand.some((h) => h[0] !== s)) throw new Error(`${ev.type}: consumed ${JSON.stringify(ev.consumed)}`);
        let raw;
        if (ev.type === 'chi') {
            const parts = hand.map((h) => ({ n: h[1], mark: '' })).concat([{ n: p[1], mark: d }]);
            parts.sort((a, b) => (+a.n || 5) - (+b.n || 5));
            raw = s + parts.map((x) => x.n + x.mark).join('');
        }
        else raw = s + hand.map((h) => h[1]).join('') + p[1] + d;
        const m = Majiang.Shoupai.valid_mianzi(raw);
        if (!m) throw new Error(`${ev.type}: no such meld ${raw}`);
        return m;
    }

    ankanMeld(ev) {
        const tiles = (ev.consumed || []).map(toMajiang);
        if (tiles.length !== 4) throw new Error(`ankan: consumed ${JSON.stringify(ev.consumed)}`);
        const m = Majiang.Shoupai.valid_mianzi(tiles[0][0] + tiles.map((p) => p[1]).join(''));
        if (!m || !/^[mpsz]\d{4}$/.test(m)) throw new Error(`ankan: no such meld ${tiles.join('')}`);
        return m;
    }

    kakanMeld(ev) {
        const p = toMajiang(ev.pai), s = p[0], n = +p[1] || 5;
        const fulou = this.model.shoupai[this.rel(ev.actor)]._fulou;
        const pon = fulou.find((m) => /^[mpsz]\d{3}[+=\-]$/.test(m) && m.replace(/0/g, '5').slice(0, 4) === s + n + n + n);
        if (!pon) throw new Error(`kakan ${ev.pai}: seat ${ev.actor} has no such pon`);
        return pon + p[1];
    }

    fenpei(deltas) {
        return [0, 1, 2, 3].map((l) => (Array.isArray(deltas) ? deltas[this.abs(l)] | 0 : 0));
    }

    hule(ev) {
        const l = this.rel(ev.actor);
        const ron = Number.isInteger(ev.target) && ev.target !== ev.actor;
        const shoupai = this.model.shoupai[l].clone();
        // The ron tile: RiichiEnv's hora has no pai; it is the last discard (or added kan).
        const pai = ev.pai || this.round.lastTile;
        if (ron && !shoupai._zimo) shoupai.zimo(pai ? toMajiang(pai) : '_', false);
        const ura = Array.isArray(ev.ura_markers) ? ev.ura_markers : ev.uradora_markers;
        if (Array.isArray(ev.scores)) this.scores = ev.scores.slice();
        else if (Array.isArray(ev.deltas)) this.scores = this.scores.map((x, i) => x + (ev.deltas[i] | 0));
        this.send({ hule: {
            l, shoupai: shoupai.toString(), baojia: ron ? this.rel(ev.target) : null,
            fubaopai: Array.isArray(ura) && ura.length ? ura.map(toMajiang) : null,
            fu: 0, fanshu: 0, defen: 0, hupai: [], fenpei: this.fenpei(ev.deltas),
        } });
    }

    pingju(ev) {
        if (Array.isArray(ev.scores)) this.scores = ev.scores.slice();
        else if (Array.isArray(ev.deltas)) this.scores = this.scores.map((x, i) => x + (ev.deltas[i] | 0));
        this.send({ pingju: { name: PINGJU[ev.reason] || String(ev.reason || '荒牌平局'),
                              shoupai: ['', '', '', ''], fenpei: this.fenpei(ev.deltas) } });
    }

    // A legal answer without the Player: a tsumogiri on the seat's own draw (or reach), a
    // discard after its own call, else none.
    fallback(ev) {
        const r = this.round, S = this.seat;
        if (!ev || !r || ev.actor !== S) return NONE;
        if ((ev.type === 'tsumo' || ev.type === 'reach') && r.drawn) return { type: 'dahai', pai: r.drawn, tsumogiri: true };
        if ((ev.type === 'chi' || ev.type === 'pon') && r.hand.length) {
            // Not the called kind (kuikae), nor the other end of a chi's run.
            const called = unred(ev.pai);
            const bad = new Set([called]);
            if (ev.type === 'chi' && /^\d[mps]$/.test(called)) {
                const n = +called[0], s = called[1];
                const c = (ev.consumed || []).map((x) => +unred(x)[0]).sort();
                if (c[0] === n + 1 && n + 3 <= 9) bad.add(`${n + 3}${s}`);
                if (c[1] === n - 1 && n - 3 >= 1) bad.add(`${n - 3}${s}`);
            }
            const pai = r.hand.find((x) => !bad.has(unred(x))) || r.hand[0];
            return { type: 'dahai', pai, tsumogiri: false };
        }
        return NONE;
    }
}

function main() {
    const argv = process.argv.slice(2);
    let seat, rule = {};
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--seat' && i + 1 < argv.length) seat = parseInt(argv[++i], 10);
        else if (argv[i] === '--rule' && i + 1 < argv.length) rule = JSON.parse(argv[++i]);
        else {
            process.stderr.write('usage: node majiang_mjai.js --seat N [--rule JSON]\n');
            process.exit(2);
        }
    }
    if (seat !== undefined && !(seat >= 0 && seat < 4)) {
        process.stderr.write('--seat must be 0..3\n');
        process.exit(2);
    }
    const adapter = new Adapter(seat, rule);
    const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
    rl.on('line', (text) => {
        // Pipes are written synchronously on Linux: the answer is out before the next line.
        process.stdout.write(adapter.react(text) + '\n');
    });
}

if (require.main === module) main();

module.exports = { Adapter, toMajiang, toMjai };
