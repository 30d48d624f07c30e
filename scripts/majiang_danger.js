// Golden danger scores of 電脳麻将 for `haifu`'s `rank::danger`: reads the positions of
// `cargo run --example majiang_danger_positions` (one JSON object per line) and prints each
// again with, per kind (34, m p s z):
// - `relative`: @kobalab/majiang-ai 1.0.13's `SuanPai.suan_weixian_all` (player 0504);
// - `level` (when MAJIANG_AI_LEGACY names majiang-ai's `legacy/suanpai-0305.js`, the danger of
//   players 0101 to 0402, seed 000): the highest `suan_weixian(p, l)` over the riichi players.
// The SuanPai state is set from the line: unseen copies (`_paishu`), and per riichi player `l`
// its `_dapai[l]` (the genbutsu kinds) and `_lizhi[l]`. Needs the npm packages
// @kobalab/majiang-ai@1.0.13 and @kobalab/majiang-core (MIT, Satoshi Kobayashi); run through
// scripts/majiang_golden.sh --danger, which installs them outside the repository.
//
//   node scripts/majiang_danger.js < positions.jsonl > golden.jsonl
'use strict';
const SuanPai = require('@kobalab/majiang-ai/lib/suanpai');
const Legacy = process.env.MAJIANG_AI_LEGACY ? require(process.env.MAJIANG_AI_LEGACY) : null;
const readline = require('readline');

const SUITS = ['m', 'p', 's', 'z'];
const name = (k) => SUITS[Math.floor(k / 9)] + (k % 9 + 1);

function state(Class, pos) {
    const sp = new Class({ m: 1, p: 1, s: 1 });
    for (let k = 0; k < 34; k++) sp._paishu[name(k)[0]][k % 9 + 1] = pos.unseen[k];
    for (const r of pos.riichi) {
        sp._lizhi[r.l] = true;
        for (const k of r.genbutsu) sp._dapai[r.l][name(k)] = true;
    }
    return sp;
}

async function main() {
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
        if (!line.trim()) continue;
        const pos = JSON.parse(line);
        const bingpai = { m: [0], p: [0], s: [0], z: [0] };
        for (let k = 0; k < 34; k++) bingpai[name(k)[0]].push(pos.held[k]);
        const all = state(SuanPai, pos).suan_weixian_all(bingpai);
        pos.relative = [...Array(34).keys()].map((k) => all(name(k)));
        if (Legacy) {
            const old = state(Legacy, pos);
            pos.level = [...Array(34).keys()].map((k) =>
                Math.max(...pos.riichi.map((r) => old.suan_weixian(name(k), r.l))));
        }
        console.log(JSON.stringify(pos));
    }
}
main();
