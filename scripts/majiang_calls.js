// Golden calls of 電脳麻将 for `haifu`'s `rank::calls`: reads the call offers of
// `cargo run --example majiang_call_positions` (one JSON object per line) and prints each again
// with what @kobalab/majiang-ai 1.0.13's `select_fulou` does with the offered tile (`pick`: the
// meld in majiang notation, or null for a pass). The riichi declared on the table are the
// `lizhi` seats. Needs the npm packages @kobalab/majiang-ai@1.0.13 and @kobalab/majiang-core
// (MIT, Satoshi Kobayashi); run through scripts/majiang_golden.sh --calls, which installs them
// outside the repository.
//
//   node scripts/majiang_calls.js < calls.jsonl > golden.jsonl
'use strict';
const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');
const SuanPai = require('@kobalab/majiang-ai/lib/suanpai');
const readline = require('readline');

function player(pos) {
    const rule = Majiang.rule(pos.red ? {} : { '赤牌': { m: 0, p: 0, s: 0 } });
    const pl = new Player();
    pl._rule = rule;
    pl._id = 0;
    pl._menfeng = pos.menfeng;
    const shoupais = [0, 1, 2, 3].map((l) => ({ lizhi: pos.lizhi.includes(l) }));
    shoupais[pos.menfeng] = Majiang.Shoupai.fromString(pos.shoupai);
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
        const pick = player(pos).select_fulou(pos.dapai);
        pos.pick = pick || null;
        console.log(JSON.stringify(pos));
    }
}
main();
