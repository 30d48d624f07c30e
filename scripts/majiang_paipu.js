// Self-play games of 電脳麻将 in its own record format, the `paipu` of @kobalab/majiang-core:
// the outside referee for haifu's reader of that format (docs/paipu.md).
//
//   node scripts/majiang_paipu.js OUT_DIR [GAMES] [SEED]     (defaults GAMES=200, SEED=1)
//
// Run it through scripts/majiang_paipu.sh, which installs the npm packages in a temporary folder
// and points NODE_PATH there. Four @kobalab/majiang-ai 1.0.13 players sit at one Majiang.Game on
// majiang-core's default rules (Majiang.rule(): 東南戦, 赤牌 1 per suit, ...), played in the
// game's synchronous mode (Game#do_sync: every player answers inside `action`, no timers).
// Each game's paipu is written to OUT_DIR/majiang-SEED-INDEX.json (INDEX zero-padded to 4
// digits, from 0), as a temporary file renamed into place.
//
// majiang-core version: majiang-ai 1.0.13 declares "@kobalab/majiang-core": "^1.3.2", which
// resolved to 1.4.1 when this script was written; the wrapper pins 1.4.1 so the games stay the
// same (MAJIANG_CORE_VERSION overrides it). The version actually loaded is printed at the start.
//
// Reproducible: majiang-core draws its randomness from Math.random only (Shan's shuffle, and
// Game#kaiju's choice of the first dealer `qijia`), and majiang-ai uses none, so Math.random is
// replaced by a mulberry32 generator seeded from (SEED, INDEX) before each game, and the title,
// which majiang-core would stamp with the clock, is fixed. Same seed, same files.
'use strict';
const fs = require('fs');
const path = require('path');
const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');

const [outDir, gamesArg, seedArg] = process.argv.slice(2);
if (!outDir) {
    console.error('usage: node majiang_paipu.js OUT_DIR [GAMES] [SEED]');
    process.exit(2);
}
const GAMES = gamesArg === undefined ? 200 : parseInt(gamesArg, 10);
const SEED = seedArg === undefined ? 1 : parseInt(seedArg, 10);
if (!(GAMES >= 0) || !Number.isSafeInteger(SEED) || SEED < 0) {
    console.error('GAMES and SEED must be non-negative integers');
    process.exit(2);
}

// The seeded games: Math.random is replaced per game (scripts/majiang_seed.js).
const { mulberry32, gameState } = require(path.join(__dirname, 'majiang_seed.js'));

function coreVersion() {
    try {
        const main = require.resolve('@kobalab/majiang-core');
        const pkg = path.join(path.dirname(main), '..', 'package.json');
        return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
    } catch (e) {
        return 'unknown';
    }
}

function playOne(index) {
    Math.random = mulberry32(gameState(SEED, index));
    const players = [0, 1, 2, 3].map(() => new Player());
    let paipu = null;
    const title = `電脳麻将\nmajiang-ai 1.0.13 self-play, seed ${SEED}, game ${index}`;
    const game = new Majiang.Game(players, (p) => { paipu = p }, Majiang.rule(), title);
    game.do_sync();
    if (!paipu) throw new Error(`game ${index}: no paipu`);
    return paipu;
}

// Plays and writes game INDEX; returns its counts.
function writeOne(index) {
    const paipu = playOne(index);
    Math.random = randomBefore;
    const counts = { rounds: paipu.log.length, hule: 0, pingju: 0 };
    for (const round of paipu.log) {
        for (const ev of round) {
            if (ev.hule) counts.hule++;
            if (ev.pingju) counts.pingju++;
        }
    }
    const name = `majiang-${SEED}-${String(index).padStart(4, '0')}.json`;
    const tmp = path.join(outDir, `.${name}.${process.pid}.tmp`);
    fs.writeFileSync(tmp, JSON.stringify(paipu) + '\n');
    fs.renameSync(tmp, path.join(outDir, name));
    return counts;
}

const randomBefore = Math.random;
const worker = process.env.MAJIANG_PAIPU_WORKER;
if (worker) {
    // A worker of a parallel run: games WORKER, WORKER + JOBS, ...; counts go to the parent.
    const [k, n] = worker.split('/').map(Number);
    for (let i = k; i < GAMES; i += n) process.send(Object.assign({ index: i }, writeOne(i)));
    process.disconnect();
} else {
    fs.mkdirSync(outDir, { recursive: true });
    // MAJIANG_PAIPU_JOBS=N plays the games in N node processes (default 1); each game's file
    // depends only on (SEED, INDEX), so the files are the same whatever N is.
    const JOBS = Math.max(1, Math.min(GAMES || 1, parseInt(process.env.MAJIANG_PAIPU_JOBS || '1', 10) || 1));
    console.error(`majiang-core ${coreVersion()}, majiang-ai ${require('@kobalab/majiang-ai/package.json').version}: `
                  + `${GAMES} games, seed ${SEED}, ${JOBS} process${JOBS > 1 ? 'es' : ''}, into ${outDir}`);
    const t0 = Date.now();
    const total = { games: 0, rounds: 0, hule: 0, pingju: 0 };
    const add = (c) => {
        total.games++;
        total.rounds += c.rounds;
        total.hule += c.hule;
        total.pingju += c.pingju;
        if (total.games % 10 === 0 || total.games === GAMES) {
            const s = (Date.now() - t0) / 1000;
            console.error(`${total.games}/${GAMES} games, ${(total.games / s).toFixed(3)} games/s, ${s.toFixed(0)} s`);
        }
    };
    const summary = () => {
        const secs = (Date.now() - t0) / 1000;
        console.error(`wrote ${total.games} games (${total.rounds} rounds): ${total.hule} hule, `
                      + `${total.pingju} pingju, ${secs.toFixed(1)} s`);
    };
    if (JOBS === 1) {
        for (let i = 0; i < GAMES; i++) add(writeOne(i));
        summary();
    } else {
        const { fork } = require('child_process');
        let running = JOBS, failed = false;
        for (let k = 0; k < JOBS; k++) {
            const child = fork(__filename, process.argv.slice(2), {
                env: Object.assign({}, process.env, { MAJIANG_PAIPU_WORKER: `${k}/${JOBS}` }),
            });
            child.on('message', add);
            child.on('exit', (code, signal) => {
                if (code !== 0) {
                    failed = true;
                    console.error(`worker ${k}/${JOBS} failed: ${signal || code}`);
                }
                if (--running === 0) {
                    summary();
                    process.exitCode = failed ? 1 : 0;
                }
            });
        }
    }
}
