// The seeded randomness of the 電脳麻将 referee scripts (majiang_paipu.js plays the games,
// majiang_mjai_check.js plays the same games again): one generator, so the same SEED gives the
// same games in both.
'use strict';

// mulberry32: a 32-bit state, floats in [0, 1) as Math.random gives.
function mulberry32(a) {
    return function () {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// The game's state: SEED and INDEX mixed by murmur3-style multiply-xorshift steps.
function gameState(seed, index) {
    let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
    return (h ^ (h >>> 16)) >>> 0;
}

module.exports = { mulberry32, gameState };
