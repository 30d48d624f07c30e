// Golden picks of 電脳麻将 for `haifu`'s `ev` evaluator: reads the positions of
// `cargo run --example majiang_positions` (one JSON object per line) and prints, per position,
// the position again with what @kobalab/majiang-ai's `select_dapai` discards there (`pick`) and,
// per candidate, its paijia (isolated-tile value) and the expected value it gave the discards
// that keep shanten. Nobody is in riichi in these
// positions, so its danger logic stays out of it. Needs the npm packages
// @kobalab/majiang-ai@1.0.13 and @kobalab/majiang-core (MIT, Satoshi Kobayashi); run through
// scripts/majiang_golden.sh, which installs them outside the repository.
//
//   node scripts/majiang_golden.js < positions.jsonl > golden.jsonl
'use strict';
const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');
const SuanPai = require('@kobalab/majiang-ai/lib/suanpai');
const readline = require('readline');

function player(pos) {
    const shoupai = Majiang.Shoupai.fromString(pos.shoupai);
    const rule = Majiang.rule(pos.red ? {} : { '赤牌': { m: 0, p: 0, s: 0 } });
    const pl = new Player();
    pl._rule = rule;
    pl._id = 0;
    pl._menfeng = pos.menfeng;
    const shoupais = [null, null, null, null];
    shoupais[pos.menfeng] = shoupai;
    pl._model = {
        zhuangfeng: pos.zhuangfeng,
        shoupai: shoupais,
        shan: { baopai: pos.baopai, paishu: 60 },
        defen: [25000, 25000, 25000, 25000],
    };
    const suanpai = new SuanPai(rule['赤牌']);
    suanpai._paishu = pos.paishu;
    suanpai._zhuangfeng = pos.zhuangfeng;
    suanpai._menfeng = pos.menfeng;
    suanpai._baopai = pos.baopai;
    pl._suanpai = suanpai;
    pl._defen_cache = {};
    pl._eval_cache = {};
    return pl;
}

async function main() {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
        if (!line.trim()) continue;
        const pos = JSON.parse(line);
        const pl = player(pos);
        const info = [];
        const pick = pl.select_dapai(info).replace(/[\*_]/g, '');
        const paijia = pl._suanpai.make_paijia(pl.shoupai);
        const candidates = {};
        for (const p of pl.get_dapai(pl.shoupai)) {
            const key = p.slice(0, 2);
            candidates[key] = { paijia: paijia(key) };
        }
        for (const i of info) {
            if (i.p && !i.m && candidates[i.p]) candidates[i.p].ev = i.ev;
        }
        pos.pick = pick;
        pos.candidates = candidates;
        console.log(JSON.stringify(pos));
    }
}
main();
