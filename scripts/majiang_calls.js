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
const { player: setUp } = require('./majiang_player.js');
const readline = require('readline');

function player(pos) {
    return setUp(pos, (l) => ({ lizhi: pos.lizhi.includes(l) }));
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
