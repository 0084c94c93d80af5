// aa.js: the Agent Avenue board: the 14-space track with both teams'
// meeples, the agents each team has in play, the cards played this turn,
// the caller's hand, and in advanced mode the black market. Card names
// and texts come from the catalog (in the chosen language).
import { h } from "./dom.js";
import { card, gameInfo } from "./ui.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").AgentAvenueView} View */

const GAME = "agent-avenue";
const SPACES = 14;

/** A card face: its name, its text as a tooltip. @param {string} id @param {string} [cls] */
function agent(id, cls = "") {
  const c = card(GAME, id);
  return h("span", { class: `agent ${cls}`, title: c.text, "data-card": id }, c.name);
}

/** A black-market card: name and text from the catalog. @param {string} id */
function market(id) {
  /** @type {{id: string, name: string, text: string}[]} */
  const all = /** @type {any} */ (gameInfo(GAME))?.black_market ?? [];
  const c = all.find((x) => x.id === id);
  return h(
    "span",
    { class: "agent market", title: c?.text ?? "", "data-card": id },
    c?.name ?? id,
    c?.text ? h("small", {}, c.text) : null,
  );
}

/** The agents of an `in_play` map, with their counts. @param {Record<string, number>} inPlay */
function inPlayList(inPlay) {
  const e = Object.entries(inPlay).filter(([, n]) => n > 0);
  return e.length
    ? h(
        "div",
        { class: "cards" },
        e.map(([id, n]) => h("span", { class: "stack" }, agent(id), n > 1 ? ` ×${n}` : "")),
      )
    : h("span", { class: "empty" }, "none");
}

/**
 * The track: 14 spaces in a loop, 0 (team 0's home) to 13; two rows of 7
 * so that it fits a phone: 0–6 left to right, then 7–13 right to left.
 * @param {View} v
 */
function track(v) {
  const cells = [];
  for (let i = 0; i < SPACES; i++) {
    const here = v.teams.filter((t) => t.space === i);
    const home = i === 0 ? 0 : i === 7 ? 1 : -1;
    const row = i < 7 ? 1 : 2;
    const col = i < 7 ? i + 1 : SPACES - i;
    const cell = h(
      "li",
      {
        class: `space ${home >= 0 ? `home team${home}` : ""}`,
        "data-space": i,
        "aria-label": `Space ${i}${home >= 0 ? `, team ${home}'s home` : ""}${here.length ? `: team ${here.map((t) => t.team).join(" and ")}` : ""}`,
      },
      h("span", { class: "n" }, i),
      here.map((t) => h("span", { class: `meeple team${t.team}`, "aria-hidden": "true" }, `T${t.team}`)),
    );
    // Through the CSSOM: the server's Content-Security-Policy
    // (style-src 'self') blocks a style attribute.
    cell.style.gridRow = String(row);
    cell.style.gridColumn = String(col);
    cells.push(cell);
  }
  return h("ol", { class: "track", "aria-label": "Track" }, cells);
}

/** @type {import("./game.js").Board} */
export function agentAvenue(g) {
  const v = /** @type {View} */ (g.view);
  const you = g.you;
  const p = v.played;
  return h(
    "div",
    { class: "aa" },
    h(
      "div",
      { class: "card" },
      h(
        "h3",
        {},
        `Turn ${v.turn} · ${v.phase}`,
        v.acting ? ` · seat ${v.acting.seat} (${v.acting.why})` : "",
      ),
      track(v),
      h("p", { class: "small" }, `Deck: ${v.deck_size}`),
    ),
    h(
      "div",
      { class: "card" },
      h("h3", {}, "Played this turn"),
      p
        ? h(
            "div",
            { class: "cards played" },
            p.face_up ? h("span", {}, "face up: ", agent(p.face_up)) : null,
            p.face_down_seat !== null
              ? h(
                  "span",
                  {},
                  "face down: ",
                  p.face_down ? agent(p.face_down, "down") : h("span", { class: "agent back" }, "?"),
                )
              : null,
          )
        : h("p", { class: "empty" }, "nothing yet"),
      v.last_turn?.recruited?.length
        ? h(
            "p",
            { class: "small" },
            "Last turn: ",
            v.last_turn.recruited.map((r) =>
              h(
                "span",
                {},
                `team ${r.team} recruited `,
                agent(r.card),
                ` (${r.moved >= 0 ? "+" : ""}${r.moved}) `,
              ),
            ),
          )
        : null,
    ),
    v.teams.map((t) =>
      h(
        "div",
        { class: `card team team${t.team}`, "data-team": t.team },
        h(
          "h3",
          {},
          `Team ${t.team}`,
          ` (seat ${t.seats.join(", ")})`,
          you !== null && t.seats.includes(you) ? " — you" : "",
        ),
        h(
          "p",
          { class: "small" },
          `space ${t.space} · progress ${t.progress} · ${t.distance_to_catch} to catch`,
        ),
        h("div", {}, "In play: ", inPlayList(/** @type {Record<string, number>} */ (t.in_play))),
        v.mode === "advanced"
          ? h(
              "div",
              {},
              "Black market: ",
              t.black_market?.length ? t.black_market.map(market) : h("span", { class: "empty" }, "none"),
            )
          : null,
        h(
          "ul",
          { class: "small seats" },
          v.players
            .filter((x) => x.team === t.team)
            .map((x) =>
              h(
                "li",
                {},
                `seat ${x.seat}: ${x.hand_size} in hand, ${x.discards} discarded (${x.discards_left} left)`,
              ),
            ),
        ),
      ),
    ),
    v.hand
      ? h(
          "div",
          { class: "card hand" },
          h("h3", {}, "Your hand"),
          h(
            "div",
            { class: "cards" },
            v.hand.map((c) => agent(c)),
          ),
          h(
            "p",
            { class: "small" },
            [...new Set(v.hand)].map((c) => `${card(GAME, c).name}: ${card(GAME, c).text}`).join(" · "),
          ),
        )
      : null,
    v.black_market
      ? h(
          "div",
          { class: "card" },
          h("h3", {}, "Black market"),
          h("div", { class: "cards" }, v.black_market.supply.map(market)),
          h(
            "p",
            { class: "small" },
            `Deck: ${v.black_market.deck_size} · discard: ${v.black_market.discard.length}`,
          ),
          v.pending
            ? h(
                "p",
                {},
                `Pending: ${v.pending.decision} (seat ${v.pending.seat})`,
                v.pending.card ? [" — ", market(v.pending.card)] : null,
              )
            : null,
        )
      : null,
  );
}
