// oracle.mjs RATING_CLI: src/rating against implementations nobody here
// wrote (issue 33's testing): npm's glicko2 1.2.2 (Glickman's paper, the
// "newprocedure" of step 5) and openskill 5.0.1 (Weng-Lin, Plackett-Luce,
// its default options), both pinned in this folder's package-lock.json.
// Thousands of random cases, seeded (the run repeats), are written to the
// C program's stdin; each answer must agree with the oracle's to 1e-6
// (absolute, or relative for figures above 1).  Prints
// "rating-oracle: N passed, N failed".
import { spawnSync } from "node:child_process";
import glicko2pkg from "glicko2";
import { rate } from "openskill";

const { Glicko2 } = glicko2pkg;
const cli = process.argv[2];
const TOL = 1e-6;
const CASES = Number(process.env.RATING_ORACLE_CASES || 4000);
let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++;
  else {
    failed++;
    if (failed <= 10) console.log(`rating-oracle: ${name} FAILED ${detail || ""}`);
  }
}

// mulberry32: a seeded generator, so a failure can be run again
let seed = Number(process.env.RATING_ORACLE_SEED || 20261205) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const uniform = (lo, hi) => lo + (hi - lo) * random();
const pick = (xs) => xs[Math.floor(random() * xs.length)];

// Idle growth is ours (Lichess's formula, docs/ratings.md), written here
// again from the document; the rating period itself is the package's.
const SCALE = 173.7178;
function idleRd(rd, vol, days) {
  const phi = rd / SCALE;
  const grown = Math.sqrt(phi * phi + days * 0.21436 * vol * vol) * SCALE;
  return Math.min(grown, 500);
}
const clampRd = (rd) => Math.min(500, Math.max(30, rd));

function glickoSystem() {
  return new Glicko2({ tau: 0.5, rating: 1500, rd: 350, vol: 0.06 });
}

const cases = [];
const expected = [];
for (let i = 0; i < CASES; i++) {
  const kind = i % 3;
  if (kind === 0) {
    // one game, two players, each its own idle time
    const a = [uniform(600, 2700), uniform(30, 500), uniform(0.03, 0.1), pick([0, 0, uniform(0, 30), uniform(0, 2000)])];
    const b = [uniform(600, 2700), uniform(30, 500), uniform(0.03, 0.1), pick([0, 0, uniform(0, 30), uniform(0, 2000)])];
    const score = pick([0, 0.5, 1]);
    cases.push(`game ${a.join(" ")} ${b.join(" ")} ${score}`);
    const g = glickoSystem();
    const pa = g.makePlayer(a[0], idleRd(a[1], a[2], a[3]), a[2]);
    const pb = g.makePlayer(b[0], idleRd(b[1], b[2], b[3]), b[2]);
    g.updateRatings([[pa, pb, score]]);
    expected.push(["game", [pa.getRating(), clampRd(pa.getRd()), pa.getVol(), pb.getRating(), clampRd(pb.getRd()), pb.getVol()]]);
  } else if (kind === 1) {
    // a rating period of 1 to 8 games (the paper's general case)
    const p = [uniform(600, 2700), uniform(30, 500), uniform(0.03, 0.1)];
    const n = 1 + Math.floor(random() * 8);
    const g = glickoSystem();
    const pp = g.makePlayer(...p);
    const games = [];
    const matches = [];
    for (let j = 0; j < n; j++) {
      const o = [uniform(600, 2700), uniform(30, 500)];
      const s = pick([0, 0.5, 1]);
      games.push(`${o[0]} ${o[1]} ${s}`);
      matches.push([pp, g.makePlayer(o[0], o[1], 0.06), s]);
    }
    cases.push(`period ${p.join(" ")} ${n} ${games.join(" ")}`);
    g.updateRatings(matches);
    expected.push(["period", [pp.getRating(), pp.getRd(), pp.getVol()]]);
  } else {
    // Weng-Lin: 2 to 4 sides of 1 or 2 players, places with ties
    const nTeams = 2 + Math.floor(random() * 3);
    const sizes = [];
    for (let t = 0; t < nTeams; t++) sizes.push(nTeams === 2 ? pick([1, 2]) : pick([1, 1, 2]));
    const ranks = sizes.map(() => 1 + Math.floor(random() * nTeams));
    const teams = sizes.map((s) => Array.from({ length: s }, () => ({ mu: uniform(0, 50), sigma: uniform(0.5, 25 / 3) })));
    const flat = teams.flat().map((r) => `${r.mu} ${r.sigma}`);
    cases.push(`wl ${nTeams} ${sizes.join(" ")} ${ranks.join(" ")} ${flat.join(" ")}`);
    const out = rate(teams, { rank: ranks });
    expected.push(["wl", out.flat().flatMap((r) => [r.mu, r.sigma])]);
  }
}
// The package's worked example first: Glickman's three games.
{
  const g = glickoSystem();
  const p = g.makePlayer(1500, 200, 0.06);
  g.updateRatings([
    [p, g.makePlayer(1400, 30, 0.06), 1],
    [p, g.makePlayer(1550, 100, 0.06), 0],
    [p, g.makePlayer(1700, 300, 0.06), 0],
  ]);
  cases.push("period 1500 200 0.06 3 1400 30 1 1550 100 0 1700 300 0");
  expected.push(["glickman", [p.getRating(), p.getRd(), p.getVol()]]);
}

const run = spawnSync(cli, [], { input: cases.join("\n") + "\n", encoding: "utf8", maxBuffer: 1 << 28 });
check("rating_cli ran", run.status === 0, `exit ${run.status} ${run.stderr}`);
const lines = (run.stdout || "").trim().split("\n");
check("one answer per case", lines.length === cases.length, `${lines.length} answers to ${cases.length} cases`);
const agree = (x, y) => Math.abs(x - y) <= TOL * Math.max(1, Math.abs(y));
const counts = {};
for (let i = 0; i < Math.min(lines.length, cases.length); i++) {
  const [kind, want] = expected[i];
  const got = lines[i].split(" ").map(Number);
  const ok = got.length === want.length && got.every((x, k) => agree(x, want[k]));
  check(`${kind} case ${i}`, ok, `\n    case: ${cases[i]}\n    C:      ${lines[i]}\n    oracle: ${want.join(" ")}`);
  counts[kind] = (counts[kind] || 0) + 1;
}
console.log(`rating-oracle: compared ${JSON.stringify(counts)} to ${TOL}`);
console.log(`rating-oracle: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
