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
const { player: setUp } = require('./majiang_player.js');
const readline = require('readline');

function player(pos) {
    return setUp(pos, () => null);
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
