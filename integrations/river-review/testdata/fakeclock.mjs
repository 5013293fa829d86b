// A simulated clock for running upstream River Review's writers and
// readers as if time passed (plangate-gc test fixture; MIT, our own code).
//
// Load it before anything else with `node --import ./fakeclock.mjs`. It
// replaces `Date` so that `new Date()` and `Date.now()` answer the
// simulated instant, and `Math.random` with a seeded generator, so that a
// run is reproducible byte for byte. Every other use of `Date` (parsing,
// `new Date(ms)`, `Date.UTC`) behaves as usual.
//
// Environment:
//   SIM_NOW   the starting instant (RFC 3339); default 2026-01-01T00:00:00Z
//   SIM_SEED  the seed of Math.random (an unsigned 32-bit integer); default 1
//
// Programs move the clock through globalThis.__simClock: set(ms), get(),
// advance(ms); __simClock.random() is the same seeded generator.

const RealDate = globalThis.Date;
const start = RealDate.parse(process.env.SIM_NOW ?? '2026-01-01T00:00:00Z');
if (Number.isNaN(start)) {
  throw new Error(`fakeclock: SIM_NOW is not a date: ${process.env.SIM_NOW}`);
}
let nowMs = start;

class SimDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) {
      super(nowMs);
    } else {
      super(...args);
    }
  }

  static now() {
    return nowMs;
  }
}
globalThis.Date = SimDate;

// mulberry32: small, fast, good enough for fixtures.
let state = Number(process.env.SIM_SEED ?? 1) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
Math.random = random;

globalThis.__simClock = {
  set(ms) {
    if (!Number.isFinite(ms)) throw new Error(`fakeclock: not an instant: ${ms}`);
    nowMs = ms;
  },
  get() {
    return nowMs;
  },
  advance(ms) {
    nowMs += ms;
  },
  random,
};
