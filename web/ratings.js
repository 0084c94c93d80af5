// ratings.js: ratings on screen (docs/ratings.md). The leaderboard of a
// rating category (#/leaderboards/<category>), paged as the API pages it
// (next_after: a "Next page" link; the pages seen before are kept for
// "Previous page"), and a player's public profile (#/player/<id>): their
// ratings with rank, rated games and wins, current and finished games,
// and their rating history.
import * as api from "./api.js";
import { h, mount } from "./dom.js";
import { gameInfo, go } from "./ui.js";

/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").Rating} Rating */

/** The rating categories (the path parameter of GET /v1/leaderboards/{category}), with their names. */
export const CATEGORIES = [
  ["agent-avenue-base", "Agent Avenue, base game"],
  ["agent-avenue-advanced", "Agent Avenue, advanced mode"],
  ["agent-avenue-team", "Agent Avenue, teams (3 or 4 seats)"],
  ["quantum-2p", "Quantum, 2 players"],
  ["quantum-3p", "Quantum, 3 players"],
  ["quantum-4p", "Quantum, 4 players"],
];

/**
 * The rating category of a game (docs/ratings.md, "Categories"): Agent
 * Avenue's by its mode with two seats, its team category with three or
 * four; any other game's `<game>-<seats>p`.
 * @param {string} game @param {number} seats @param {Record<string, unknown>} options
 */
export function categoryOf(game, seats, options) {
  if (game === "agent-avenue")
    return seats === 2 ? `agent-avenue-${options.mode ?? "base"}` : "agent-avenue-team";
  return `${game}-${seats}p`;
}

/**
 * The ratings of game `id`'s players in the game's category, by player id,
 * as their public profiles give them (GET /v1/players/{id}; the game's
 * options, which name Agent Avenue's mode, from the profile's listing of
 * the game). A player without a rating there is left out; a profile that
 * cannot be read too (the ratings are a courtesy: no error is shown).
 * @param {string} id the game's id @param {string} game @param {{player: {id: string} | null}[]} players its seats
 * @returns {Promise<Map<string, Rating>>}
 */
export async function seatRatings(id, game, players) {
  /** @type {Map<string, Rating>} */
  const out = new Map();
  const ids = [...new Set(players.flatMap((p) => (p.player ? [p.player.id] : [])))];
  const profiles = await Promise.all(ids.map((pid) => api.profile(pid).catch(() => null)));
  const listed = profiles.flatMap((p) => (p ? [...p.current, ...p.finished] : [])).find((g) => g.id === id);
  if (!listed) return out;
  const category = categoryOf(game, listed.seats, listed.options ?? {});
  profiles.forEach((p, i) => {
    const r = p?.ratings.find((x) => x.category === category);
    if (r) out.set(ids[i], r);
  });
  return out;
}

/** Players a leaderboard page holds. */
const PAGE = 25;

/** A category's name for people; an unknown one as it is. @param {string} c */
export function categoryName(c) {
  return CATEGORIES.find(([id]) => id === c)?.[1] ?? c;
}

/** A shown rating: whole points (Glicko-2) or one decimal (Weng-Lin's small numbers). @param {number} r @param {string} [system] */
export function points(r, system) {
  return system === "weng-lin" || Math.abs(r) < 100 ? r.toFixed(1) : String(Math.round(r));
}

/**
 * Draws a leaderboard page into `main`.
 * @param {HTMLElement} main
 * @param {string} category
 * @param {string | null} after the previous page's next_after; null for the top
 * @param {string[]} back the `after` of each page before this one (for "Previous page")
 * @returns {Promise<() => void>}
 */
export async function leaderboardScreen(main, category, after, back) {
  const board = await api.leaderboard(category, after, PAGE);
  const pick = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      {
        id: "board-category",
        onchange: (ev) => go(`#/leaderboards/${/** @type {HTMLSelectElement} */ (ev.target).value}`),
      },
      CATEGORIES.map(([id, name]) => h("option", { value: id, selected: id === category }, name)),
    )
  );
  const link = (/** @type {string | null} */ a, /** @type {string[]} */ b) =>
    `#/leaderboards/${encodeURIComponent(category)}` +
    (a ? `?after=${encodeURIComponent(a)}&back=${b.map(encodeURIComponent).join(",")}` : "");
  const prev = back.length ? back[back.length - 1] : null;
  mount(
    main,
    h(
      "section",
      { class: "card", "aria-labelledby": "board-h" },
      h("h2", { id: "board-h" }, `Leaderboard: ${categoryName(category)}`),
      h("div", { class: "field" }, h("label", { for: "board-category" }, "Category"), pick),
      h(
        "p",
        { class: "hint" },
        `Players with an established rating and a rated game in the last ${board.active_days} days.`,
      ),
      board.players.length
        ? h(
            "table",
            { class: "board" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Rank", "Player", "Rating", "Games", "Wins"].map((t) => h("th", { scope: "col" }, t)),
              ),
            ),
            h(
              "tbody",
              {},
              board.players.map((p) =>
                h(
                  "tr",
                  { "data-rank": p.rank },
                  h("td", {}, p.rank),
                  h(
                    "th",
                    { scope: "row" },
                    p.player
                      ? h("a", { href: `#/player/${p.player.id}` }, p.player.name)
                      : `bot (${/** @type {any} */ (p.bot)?.bot ?? "?"})`,
                  ),
                  h("td", { class: "rating" }, points(p.rating)),
                  h("td", {}, p.games),
                  h("td", {}, p.wins),
                ),
              ),
            ),
          )
        : h("p", { class: "empty" }, "Nobody on this leaderboard yet."),
      h(
        "nav",
        { class: "row pages", "aria-label": "Leaderboard pages" },
        back.length || after ? h("a", { href: link(prev, back.slice(0, -1)) }, "Previous page") : null,
        board.next_after
          ? h("a", { href: link(board.next_after, after ? [...back, after] : back) }, "Next page")
          : null,
      ),
    ),
  );
  return () => {};
}

/**
 * Draws player `id`'s public profile into `main`.
 * @param {HTMLElement} main @param {string} id
 * @returns {Promise<() => void>}
 */
export async function profileScreen(main, id) {
  const [p, history] = await Promise.all([api.profile(id), api.ratingHistory(id)]);
  mount(
    main,
    h(
      "section",
      { class: "card", "aria-labelledby": "profile-h" },
      h("h2", { id: "profile-h" }, p.name),
      h(
        "p",
        {},
        "Rated games: ",
        h("strong", { class: "rated-played" }, p.rated_games.played),
        " · won: ",
        h("strong", { class: "rated-won" }, p.rated_games.won),
      ),
      ratingTable(p.ratings),
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "history-h" },
      h("h2", { id: "history-h" }, "Rating history"),
      history.changes.length
        ? h(
            "ol",
            { class: "history" },
            history.changes.map((c) =>
              h(
                "li",
                { "data-game": c.game },
                h("time", { datetime: c.time }, new Date(c.time).toLocaleDateString()),
                " ",
                categoryName(c.category),
                ": ",
                h("a", { href: `#/game/${c.game}` }, c.place === 1 ? "won" : "lost"),
                " → ",
                h("strong", {}, points(c.rating)),
              ),
            ),
          )
        : h("p", { class: "empty" }, "No rated game yet."),
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "pgames-h" },
      h("h2", { id: "pgames-h" }, "Games"),
      p.current.length || p.finished.length
        ? h(
            "ul",
            { class: "history" },
            [...p.current, ...p.finished].map((g) =>
              h(
                "li",
                { "data-game": g.id },
                h("a", { href: `#/game/${g.id}` }, gameInfo(g.game)?.title ?? g.game),
                ` · ${g.status}`,
              ),
            ),
          )
        : h("p", { class: "empty" }, "No games."),
    ),
  );
  return () => {};
}

/** A player's ratings, one row per category. @param {Rating[]} ratings */
function ratingTable(ratings) {
  if (!ratings.length) return h("p", { class: "empty" }, "No rating yet.");
  return h(
    "table",
    { class: "board ratings" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["Category", "Rating", "Rank", "Games", "Wins"].map((t) => h("th", { scope: "col" }, t)),
      ),
    ),
    h(
      "tbody",
      {},
      ratings.map((r) =>
        h(
          "tr",
          { "data-category": r.category },
          h(
            "th",
            { scope: "row" },
            h("a", { href: `#/leaderboards/${r.category}` }, categoryName(r.category)),
          ),
          h(
            "td",
            { class: "rating" },
            points(r.rating, r.system),
            r.provisional ? h("span", { class: "provisional", title: "provisional" }, "?") : null,
          ),
          h("td", {}, r.rank === null ? "–" : `#${r.rank}`),
          h("td", {}, r.games),
          h("td", {}, r.wins),
        ),
      ),
    ),
  );
}
