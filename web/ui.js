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

/**
 * A card of game `game` by id: its name and text, as the catalog gives
 * them. With a game's `options`, the text of the printing an option named
 * after the card chooses (Quantum's curious, strategic and relocation,
 * rules §9.4), from the catalog's `printings`.
 * @param {string} game @param {string} id @param {Record<string, unknown>} [options]
 */
export function card(game, id, options) {
  const c = gameInfo(game)?.cards?.find((x) => x.id === id);
  const printing = options?.[id];
  const text = (typeof printing === "string" && c?.printings?.[printing]) || c?.text || "";
  return { name: c?.name ?? id, text };
}

/**
 * A game's options in words, in the catalog's language ("Mode: advanced
 * (black market)"): each option's `name` and its value's `value_names`
 * from the catalog; what the catalog does not name is shown as it is
 * (Quantum's map: the map's own name).
 * @param {string} game @param {Record<string, unknown> | null | undefined} options
 * @returns {string[]}
 */
export function optionWords(game, options) {
  /** @type {Record<string, import("./types.js").CatalogOption>} */
  const known = gameInfo(game)?.options ?? {};
  return Object.entries(options ?? {}).map(([k, v]) => {
    const o = known[k];
    return `${o?.name ?? k}: ${o?.value_names?.[String(v)] ?? String(v)}`;
  });
}

/**
 * The options of `options` that the catalog gives another default: those
 * a game's creator chose (Quantum's map: the default for `seats` seats).
 * @param {string} game @param {Record<string, unknown>} options @param {number} seats
 * @returns {Record<string, unknown>}
 */
export function chosenOptions(game, options, seats) {
  /** @type {Record<string, import("./types.js").CatalogOption>} */
  const known = gameInfo(game)?.options ?? {};
  return Object.fromEntries(
    Object.entries(options).filter(([k, v]) => {
      const d = known[k]?.default;
      return v !== (d !== null && typeof d === "object" ? /** @type {any} */ (d)[String(seats)] : d);
    }),
  );
}

/**
 * A link to game `game`'s rules page (boardd serves the project's rules
 * documents at /rules/<game>), opened in a new tab: the game or the form
 * the player is on stays as it is. `short`: "Rules" only on the screen
 * (its whole name for assistive technology).
 * @param {string} game @param {boolean} [short]
 */
export function rulesLink(game, short = false) {
  const of = ` of ${gameInfo(game)?.title ?? game}`;
  return h(
    "a",
    { class: "rules-link", href: `/rules/${encodeURIComponent(game)}`, target: "_blank", rel: "noopener" },
    "Rules",
    short ? null : of,
    h("span", { class: "sr-only" }, `${short ? of : ""} (opens in a new tab)`),
  );
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
