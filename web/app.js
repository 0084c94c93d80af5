// app.js: the reference web client's entry point. Routes by the URL's
// hash (#/ the lobby, #/game/<id> a game) and draws the header.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { ui, showError, clearError, status } from "./ui.js";
import { lobby } from "./lobby.js";
import { gameScreen } from "./game.js";

/** @type {(() => void) | null} the current screen's cleanup */
let leave = null;

async function route() {
  leave?.();
  leave = null;
  clearError();
  status("");
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const m = location.hash.match(/^#\/game\/([^/?]+)(?:\?at=(\d+))?/);
  try {
    if (!ui.catalog) ui.catalog = await api.catalog();
    main.lang = ui.catalog.language; // the game texts' language
    leave = m
      ? await gameScreen(main, decodeURIComponent(m[1]), m[2] === undefined ? null : Number(m[2]))
      : await lobby(main);
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
