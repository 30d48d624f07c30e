// Golden push/fold picks of 電脳麻将's players 0400, 0401 and 0402 (kobalab's
// 押し引きアルゴリズムの改善 posts, seed 000) for `haifu`'s `push_fold::majiang_choice`: reads the
// positions of `cargo run --example majiang_riichi_positions` and prints each again with
// `pick_0400`, `pick_0401` and `pick_0402`, what `select_dapai` of `legacy/player-NNNN.js` discards
// there. The players are not in the npm package: MAJIANG_AI_LEGACY_DIR names the `legacy/` folder
// of a kobalab/majiang-ai clone (v1.0.13, commit 54434f3). Needs @kobalab/majiang-core (MIT,
// Satoshi Kobayashi) on NODE_PATH; run through scripts/majiang_golden.sh --riichi.
//
//   node scripts/majiang_riichi.js < positions.jsonl > golden.jsonl
'use strict';
const Majiang = require('@kobalab/majiang-core');
const readline = require('readline');
const dir = process.env.MAJIANG_AI_LEGACY_DIR;
const SuanPai = require(dir + '/suanpai-0305.js');
const SUITS = ['m', 'p', 's', 'z'];
const name = (k) => SUITS[Math.floor(k / 9)] + (k % 9 + 1);

function player(Player, pos) {
    const rule = Majiang.rule(pos.red ? {} : { '赤牌': { m: 0, p: 0, s: 0 } });
    const pl = new Player();
    pl._rule = rule;
    pl._id = 0;
    pl._menfeng = pos.menfeng;
    const shoupais = [0, 1, 2, 3].map((l) => ({ lizhi: pos.riichi.some((r) => r.l == l) }));
    shoupais[pos.menfeng] = Majiang.Shoupai.fromString(pos.shoupai);
    pl._model = {
        zhuangfeng: pos.zhuangfeng, shoupai: shoupais,
        shan: { baopai: pos.baopai, paishu: 60 }, defen: [25000, 25000, 25000, 25000],
    };
    const sp = new SuanPai(rule['赤牌']);
    sp._paishu = pos.paishu;
    sp._zhuangfeng = pos.zhuangfeng;
    sp._menfeng = pos.menfeng;
    sp._baopai = pos.baopai;
    for (const r of pos.riichi) {
        sp._lizhi[r.l] = true;
        for (const k of r.genbutsu) sp._dapai[r.l][name(k)] = true;
    }
    pl._suanpai = sp;
    pl._defen_cache = {};
    pl._eval_cache = {};
    return pl;
}

async function main() {
    const players = ['0400', '0401', '0402'].map((n) => [n, require(`${dir}/player-${n}.js`)]);
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) {
        if (!line.trim()) continue;
        const pos = JSON.parse(line);
        for (const [n, Player] of players) {
            pos['pick_' + n] = player(Player, pos).select_dapai().replace(/[\*_]/g, '');
        }
        console.log(JSON.stringify(pos));
    }
}
main();
