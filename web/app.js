// app.js: the reference web client's entry point. Routes by the URL's
// hash (#/ the lobby, #/game/<id> a game, #/play quick match,
// #/leaderboards/<category> a leaderboard, #/player/<id> a profile,
// #/settings notifications, #/link?code= a link code's QR code opened on
// another device) and draws the header.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { ui, showError, clearError, status } from "./ui.js";
import { lobby, linkScreen } from "./lobby.js";
// The other screens' modules are imported when their screen opens: a first
// load (the lobby) fetches only what the lobby needs (issue 31 goal 8).

/**
 * `s` percent-decoded, or as it is when its encoding is malformed (a
 * hand-typed `%E0%A4%A`): decodeURIComponent would throw a URIError and
 * leave, for a link code, the code in the address bar.
 * @param {string} s
 */
function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The screen of the URL's hash.
 * @param {HTMLElement} main @param {string} hash
 * @returns {Promise<() => void>} the screen's cleanup
 */
async function screen(main, hash) {
  const m = hash.match(/^#\/game\/([^/?]+)(?:\?at=(\d+))?/);
  if (m)
    return (await import("./game.js")).gameScreen(
      main,
      decode(m[1]),
      m[2] === undefined ? null : Number(m[2]),
    );
  const l = hash.match(/^#\/link\?code=([^&]+)/);
  if (l) return linkScreen(main, decode(l[1]));
  if (hash === "#/play") return (await import("./matchmaking.js")).quickMatch(main);
  if (hash === "#/settings") return (await import("./settings.js")).settings(main);
  const p = hash.match(/^#\/player\/([^/?]+)/);
  if (p) return (await import("./ratings.js")).profileScreen(main, decode(p[1]));
  const b = hash.match(/^#\/leaderboards(?:\/([^/?]+))?(?:\?after=([^&]*)&back=(.*))?$/);
  if (b) {
    const back = b[3] ? b[3].split(",").filter(Boolean).map(decode) : [];
    const { leaderboardScreen, CATEGORIES } = await import("./ratings.js");
    return leaderboardScreen(main, b[1] ? decode(b[1]) : CATEGORIES[0][0], b[2] ? decode(b[2]) : null, back);
  }
  return lobby(main);
}

/** @type {(() => void) | null} the current screen's cleanup */
let leave = null;

async function route() {
  leave?.();
  leave = null;
  clearError();
  status("");
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  try {
    if (!ui.catalog) ui.catalog = await api.catalog();
    main.lang = ui.catalog.language; // the game texts' language
    // A game's screen needs the whole height for its board (it links back
    // to the lobby): the navigation is shown on the other screens.
    /** @type {HTMLElement} */ (document.getElementById("nav")).hidden = location.hash.startsWith("#/game/");
    leave = await screen(main, location.hash);
  } catch (e) {
    showError(e);
  }
}

function header() {
  const who = /** @type {HTMLElement} */ (document.getElementById("who"));
  const id = session.identity();
  const lang = h(
    "select",
    {
      "aria-label": "Language of game texts",
      onchange: (ev) => {
        session.setLanguage(/** @type {HTMLSelectElement} */ (ev.target).value);
        ui.catalog = null;
        route();
      },
    },
    [
      ["", "Browser language"],
      ["en", "English"],
      ["fr", "Français"],
    ].map(([v, t]) => h("option", { value: v, selected: api.config.language === v }, t)),
  );
  mount(
    who,
    id ? h("span", { class: "me", "data-player": id.id }, id.name) : h("span", {}, "Spectator"),
    lang,
  );
}

ui.header = header;
session.restore();
header();
window.addEventListener("hashchange", route);
route();
