// matchmaking.js: the quick-match screen (#/play, docs/matchmaking.md
// "Quick match"). A form posts a seek (POST /v1/seeks: game, seats,
// options and clock as the create form has them, rated or casual, the
// opponents' rating range around the caller's own); the caller's open
// seeks, each with Cancel; the others' open seeks, each with "Play this",
// which posts a seek of the very same game (the API has no way to answer
// a seek but a matching one: the server pairs the two). The screen looks
// at the open seeks every 1.5 s; a seek of the caller's that left the
// list is read (GET /v1/seeks/{id}), and once it is matched the screen
// opens its game.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { gameInfo, act, go, status, showError, clearOffline, needPlayer, optionWords } from "./ui.js";
import { gameFields, clockFields, readOptions, readClock } from "./lobby.js";

/** @typedef {import("./types.js").Seek} Seek */
/** @typedef {import("./types.js").CreateSeek} CreateSeek */

const POLL_MS = 1500;

/**
 * Draws the quick-match screen into `main`.
 * @param {HTMLElement} main
 * @returns {Promise<() => void>} the cleanup to call when leaving
 */
export async function quickMatch(main) {
  const id = session.identity();
  if (!id) {
    needPlayer(main, "Quick match");
    return () => {};
  }
  const mine = h("section", { class: "card", "aria-labelledby": "my-seeks-h" });
  const others = h("section", { class: "card", "aria-labelledby": "seeks-h" });
  /** @type {Set<string>} the caller's seeks seen open: read again once they leave the list */
  const watching = new Set();
  let left = false;

  /** A seek the caller posted: opens its game when matched at once, else watches it. @param {Seek} s */
  const posted = (s) => {
    if (s.state === "matched" && s.game_id) {
      status("Matched: the game starts.");
      go(`#/game/${s.game_id}`);
      return;
    }
    watching.add(s.id);
    status("Seeking a game…");
    refresh();
  };

  let shown = "";
  const refresh = async () => {
    try {
      /** @type {Seek[]} */
      const open = [];
      let after = null;
      do {
        const page = await api.seeks(after);
        open.push(...page.seeks);
        after = page.next_after;
      } while (after && open.length < 500);
      clearOffline();
      if (left) return;
      const openIds = new Set(open.map((s) => s.id));
      for (const sid of [...watching]) {
        if (openIds.has(sid)) continue;
        watching.delete(sid);
        const s = await api.seek(sid);
        if (left) return;
        if (s.state === "matched" && s.game_id) {
          status("Matched: the game starts.");
          go(`#/game/${s.game_id}`);
          return;
        }
      }
      const my = open.filter((s) => s.player.id === id.id);
      for (const s of my) watching.add(s.id);
      const key = JSON.stringify(open);
      if (key === shown) return;
      shown = key;
      mount(mine, h("h2", { id: "my-seeks-h" }, "Your seeks"), seekList(my, true, posted, refresh));
      mount(
        others,
        h("h2", { id: "seeks-h" }, "Players seeking a game"),
        seekList(
          open.filter((s) => s.player.id !== id.id),
          false,
          posted,
          refresh,
        ),
      );
    } catch (e) {
      showError(e);
    }
  };
  mount(main, seekForm(posted), mine, others);
  await refresh();
  const timer = setInterval(refresh, POLL_MS);
  return () => {
    left = true;
    clearInterval(timer);
  };
}

/**
 * The seek form: the create form's game, seats, options and clock, with
 * rated or casual and the opponents' rating range.
 * @param {(s: Seek) => void} posted called with the seek the server made
 */
function seekForm(posted) {
  const g = gameFields("seek");
  const clock = clockFields();
  const rated = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", id: "seek-rated", checked: true })
  );
  /** @param {string} fid @param {string} label @param {string} hint */
  const points = (fid, label, hint) =>
    h(
      "div",
      { class: "field" },
      h("label", { for: fid }, label),
      h("input", {
        id: fid,
        type: "number",
        min: 0,
        max: 100000,
        step: 1,
        inputmode: "numeric",
        placeholder: hint,
      }),
    );
  const below = points("seek-below", "Points below your rating", "any");
  const above = points("seek-above", "Points above your rating", "any");
  const form = h(
    "form",
    {
      class: "card",
      "aria-labelledby": "seek-h",
      onsubmit: async (ev) => {
        ev.preventDefault();
        // (a cast, as lobby.js's readForm: the generated ClockSpec has
        // `vacation` required, for its default; the server fills it in)
        const body = /** @type {CreateSeek} */ ({
          game: g.game.value,
          seats: Number(g.seats.value),
          options: /** @type {CreateSeek["options"]} */ (readOptions(g.options)),
          rated: rated.checked,
          ...readClock(clock),
        });
        const lo = /** @type {HTMLInputElement} */ (below.querySelector("input")).value.trim();
        const hi = /** @type {HTMLInputElement} */ (above.querySelector("input")).value.trim();
        // Either bound left empty: as wide as the API takes.
        if (lo !== "" || hi !== "")
          body.rating_range = [lo === "" ? -100000 : -Number(lo), hi === "" ? 100000 : Number(hi)];
        const b = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
        const s = await act(b, () => api.createSeek(body));
        if (s) posted(s);
      },
    },
    h("h2", { id: "seek-h" }, "Quick match"),
    h("p", { class: "hint" }, "The server pairs you with players seeking the very same game."),
    g.fields,
    clock,
    h("div", { class: "field check" }, rated, h("label", { for: "seek-rated" }, "Rated")),
    h("fieldset", {}, h("legend", {}, "Opponents' rating (empty: any)"), below, above),
    h("button", { type: "submit" }, "Seek a game"),
  );
  return form;
}

/** A seek's game in words: title, seats, options, clock, rated. @param {Seek} s */
function seekWords(s) {
  const parts = [`${s.seats} seats`];
  parts.push(...optionWords(s.game, s.options));
  /** @type {Record<string, unknown> | null} */
  const c = /** @type {any} */ (s.clock);
  if (c)
    parts.push(
      "clock " +
        ["move_seconds", "bank_seconds", "increment_seconds"]
          .filter((k) => typeof c[k] === "number")
          .map((k) => `${k.replace("_seconds", "")} ${c[k]} s`)
          .join(", "),
    );
  else parts.push("no clock");
  parts.push(s.rated ? "rated" : "casual");
  return parts.join(" · ");
}

/**
 * A list of seeks: the caller's (each with Cancel) or the others' (each
 * with "Play this": a seek of the very same game).
 * @param {Seek[]} seeks @param {boolean} mine
 * @param {(s: Seek) => void} posted @param {() => void} changed
 */
function seekList(seeks, mine, posted, changed) {
  if (!seeks.length)
    return h("p", { class: "empty" }, mine ? "You are seeking no game." : "Nobody else is seeking a game.");
  return h(
    "ul",
    { class: "games seeks" },
    seeks.map((s) => {
      const title = gameInfo(s.game)?.title ?? s.game;
      const button = mine
        ? h(
            "button",
            {
              type: "button",
              class: "secondary",
              "aria-label": `Cancel the seek for ${title}`,
              onclick: async (ev) => {
                const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                  api.cancelSeek(s.id),
                );
                if (r !== undefined) {
                  status("Seek cancelled.");
                  changed();
                }
              },
            },
            "Cancel",
          )
        : h(
            "button",
            {
              type: "button",
              "aria-label": `Play ${title} with ${s.player.name}`,
              onclick: async (ev) => {
                /** @type {CreateSeek} */
                const body = { game: s.game, seats: s.seats, options: s.options, rated: s.rated };
                /** @type {any} */
                const c = s.clock;
                if (c) {
                  const { on_timeout, ...spec } = c;
                  body.clock = spec;
                  if (on_timeout) body.on_timeout = on_timeout;
                }
                const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                  api.createSeek(body),
                );
                if (r) posted(r);
              },
            },
            "Play this",
          );
      return h(
        "li",
        { class: "game seek", "data-seek": s.id },
        h(
          "div",
          { class: "game-head" },
          h("strong", {}, title),
          h(
            "span",
            { class: "seeker" },
            h("a", { href: `#/player/${s.player.id}` }, s.player.name),
            ` (${s.rating})`,
          ),
        ),
        h(
          "div",
          { class: "game-options" },
          seekWords(s),
          // The widest range the API takes is any rating.
          s.rating_max - s.rating_min >= 200000
            ? " · any opponent"
            : ` · opponents rated ${s.rating_min} to ${s.rating_max}`,
        ),
        button,
      );
    }),
  );
}
