// ui.js: what every screen shares: the catalog (names and texts in the
// chosen language), the error banner (a refusal's problem detail), the
// status line, and navigation.
import { ApiError } from "./api.js";
import { h, mount } from "./dom.js";

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").CatalogGame} CatalogGame */

export const ui = {
  /** @type {Catalog | null} fetched by app.js before any screen draws */
  catalog: null,
  /** Redraws the header; set by app.js. */
  header: () => {},
};

/** The catalog entry of game `id` (title, options, cards…). @param {string} id @returns {CatalogGame | undefined} */
export function gameInfo(id) {
  return ui.catalog?.games.find((g) => g.id === id);
}

/** A card of game `game` by id: its name and text, as the catalog gives them. @param {string} game @param {string} id */
export function card(game, id) {
  const c = gameInfo(game)?.cards?.find((x) => x.id === id);
  return { name: c?.name ?? id, text: c?.text ?? "" };
}

/**
 * Who holds a seat, in words: the player's name, a bot, or an open seat.
 * @param {{player: {name: string} | null, bot: {bot: string} | null, invited: string | null, open: boolean} | undefined} p
 *   a seat of a game's or a listing's `players`
 */
export function seatName(p) {
  if (!p) return "?";
  return (
    p.player?.name ?? (p.bot ? `bot (${p.bot.bot})` : p.invited ? "invited" : p.open ? "open" : "seat token")
  );
}

/** A result's `reason` (openapi Game.result) in words; an unknown one as it is. */
const REASONS = /** @type {Record<string, string>} */ ({
  resignation: "every other seat resigned",
  catch: "caught the other side on the track",
  codebreakers: "three Codebreakers in play",
  daredevils: "the other side's third Daredevil",
  tie: "both sides won at once: the active side wins",
  out_of_cards: "out of cards: the side closer to catching wins",
  leader_of_the_pack: "three Daredevils with Leader of the Pack",
  masterplan: "Masterplan: seven agent names in play",
  security_system: "Security System",
  last_cube: "the last cube placed",
});

/**
 * A finished game's result in words: who won and why (the server's
 * result: the client judges nothing).
 * @param {{winners: number[], reason: string}} result
 * @param {Parameters<typeof seatName>[0][]} players the game's seats, in seat order
 * @returns {{winners: string, reason: string}}
 */
export function resultWords(result, players) {
  return {
    winners: result.winners.length
      ? `${result.winners.map((w) => `${seatName(players[w])} (seat ${w})`).join(", ")} won`
      : "nobody won",
    reason: REASONS[result.reason] ?? result.reason,
  };
}

/** @type {boolean} the banner shows that the server did not answer */
let offline = false;

/** Shows an error in the banner: an ApiError's detail, or any message. @param {unknown} e */
export function showError(e) {
  const banner = /** @type {HTMLElement} */ (document.getElementById("error"));
  offline = e instanceof ApiError && e.status === 0;
  const text = e instanceof Error ? e.message : String(e);
  mount(
    banner,
    h("span", { class: "detail" }, text),
    h(
      "button",
      {
        type: "button",
        class: "link",
        "aria-label": "Dismiss",
        onclick: () => {
          banner.hidden = true;
        },
      },
      "×",
    ),
  );
  banner.hidden = false;
}

/** Hides the banner if it only says that the server did not answer (it does now). */
export function clearOffline() {
  if (offline) clearError();
}

/** Hides the error banner. */
export function clearError() {
  offline = false;
  /** @type {HTMLElement} */ (document.getElementById("error")).hidden = true;
}

/** Shows (and announces, aria-live) a short status. @param {string} text */
export function status(text) {
  /** @type {HTMLElement} */ (document.getElementById("status")).textContent = text;
}

/** Goes to a screen: "#/" the lobby, "#/game/<id>" a game. @param {string} hash */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

/**
 * Runs an API call for a button: disables it meanwhile, shows a refusal's
 * detail. Resolves to the call's result, or undefined when it failed.
 * @template T
 * @param {HTMLButtonElement | null} button
 * @param {() => Promise<T>} fn
 * @returns {Promise<T | undefined>}
 */
export async function act(button, fn) {
  if (button) button.disabled = true;
  try {
    clearError();
    return await fn();
  } catch (e) {
    showError(e);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

/** A screen for players only, seen by a visitor: says so, with a link to the lobby. @param {HTMLElement} main @param {string} title */
export function needPlayer(main, title) {
  mount(
    main,
    h(
      "section",
      { class: "card" },
      h("h2", {}, title),
      h("p", {}, "Become a player in the ", h("a", { href: "#/" }, "lobby"), " first."),
    ),
  );
}
