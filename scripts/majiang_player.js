// One @kobalab/majiang-ai 1.0.13 player set up at a position of the golden files (the form the
// examples write: majiang hand, winds, dora indicators, red-five rule, unseen counts `paishu`),
// shared by majiang_golden.js and majiang_calls.js. `others(l)` is what the player knows of seat l's
// hand (null, or `{ lizhi }` for the riichi on the table).
'use strict';
const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');
const SuanPai = require('@kobalab/majiang-ai/lib/suanpai');

function player(pos, others) {
    const rule = Majiang.rule(pos.red ? {} : { '赤牌': { m: 0, p: 0, s: 0 } });
    const pl = new Player();
    pl._rule = rule;
    pl._id = 0;
    pl._menfeng = pos.menfeng;
    const shoupais = [0, 1, 2, 3].map(others);
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

module.exports = { player };
