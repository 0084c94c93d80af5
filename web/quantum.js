// quantum.js: the Quantum board, drawn from the view alone: the map as
// SVG (tiles, the Void, planets with their numbers and cubes, ships as
// dice of their owner's colour), the battle under way, each player's
// dominance, research, cubes and command cards, the card row, and the
// decisions the game waits for. Clicking a ship or a square narrows the
// action list to the actions about it. Names and texts from the catalog.
import { h, s } from "./dom.js";
import { card, gameInfo } from "./ui.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").QuantumView} View */
/** @typedef {View["players"][number]["ships"][number]} Ship */

const GAME = "quantum";
const CELL = 36; // px per square in the SVG's own units (it scales to the screen)

/** The ship type of a die value (1 battlestation … 6 scout), from the catalog. @param {number | null} value */
function shipType(value) {
  /** @type {{value: number, name: string, ability: string}[]} */
  const ships = /** @type {any} */ (gameInfo(GAME))?.ships ?? [];
  return ships.find((x) => x.value === value) ?? { value, name: "", ability: "" };
}

/** @param {unknown} x @returns {x is number[]} */
const isSquare = (x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "number";

/** 1 if action `a` names square [r, c] in any field (to, target, planet, from, drop). @param {Action} a @param {number} r @param {number} c */
function mentions(a, r, c) {
  return Object.values(a).some((v) => isSquare(v) && v[0] === r && v[1] === c);
}

/** A command or gambit card by id: name, with its text as a tooltip. @param {string | null} id */
function cardChip(id) {
  if (!id) return h("span", { class: "agent back" }, "—");
  const c = card(GAME, id);
  return h("span", { class: "agent", title: c.text, "data-card": id }, c.name);
}

/** @type {import("./game.js").Board} */
export function quantum(g, pick) {
  const v = /** @type {View} */ (g.view);
  const m = v.map;
  const you = g.you;
  const W = m.cols * CELL,
    H = m.rows * CELL;
  const tr = m.tile_rows ?? m.rows / 3,
    tc = m.tile_cols ?? m.cols / 3;
  const key = (/** @type {number[]} */ t) => `${t[0]},${t[1]}`;
  const voids = new Set((m.void_tiles ?? []).map(key));
  const gaps = new Set((m.gap_tiles ?? []).map(key));

  const tiles = [];
  for (let i = 0; i < tr; i++)
    for (let j = 0; j < tc; j++) {
      if (gaps.has(`${i},${j}`)) continue;
      tiles.push(
        s("rect", {
          x: j * 3 * CELL,
          y: i * 3 * CELL,
          width: 3 * CELL,
          height: 3 * CELL,
          class: voids.has(`${i},${j}`) ? "tile void" : "tile",
        }),
      );
    }
  const squares = [];
  for (let r = 0; r < m.rows; r++)
    for (let c = 0; c < m.cols; c++) {
      if (gaps.has(`${Math.floor(r / 3)},${Math.floor(c / 3)}`)) continue;
      squares.push(
        s("rect", {
          x: c * CELL,
          y: r * CELL,
          width: CELL,
          height: CELL,
          class: "sq",
          "data-square": `${r},${c}`,
          onclick: () => pick((a) => mentions(a, r, c), `square [${r},${c}]`),
        }),
      );
    }
  const planets = m.planets.map((p) => {
    const [r, c] = p.at;
    const cx = c * CELL + CELL / 2,
      cy = r * CELL + CELL / 2;
    return s(
      "g",
      { class: `planet ${p.start ? "start" : ""}`, "data-planet": `${r},${c}` },
      s(
        "title",
        {},
        `Planet ${p.number} at [${r},${c}]${p.start ? ", a starting planet" : ""}; cubes: ${p.cubes.length}/${p.cube_spaces}`,
      ),
      s("circle", { cx, cy, r: CELL * 0.42 }),
      s("text", { x: cx, y: cy + 5, "text-anchor": "middle" }, p.number),
      p.cubes.map((seat, k) =>
        s("rect", {
          class: `cube seat${seat}`,
          x: cx - CELL / 2 + 2 + k * 9,
          y: cy - CELL / 2 + 1,
          width: 8,
          height: 8,
        }),
      ),
    );
  });
  const battle = v.battle
    ? [v.battle.from, v.battle.target].map((sq, k) =>
        s("rect", {
          class: k ? "battle target" : "battle from",
          x: sq[1] * CELL + 1,
          y: sq[0] * CELL + 1,
          width: CELL - 2,
          height: CELL - 2,
        }),
      )
    : [];
  const ships = v.players.flatMap((pl) =>
    pl.ships
      .filter((x) => isSquare(x.at))
      .map((x) => {
        const [r, c] = /** @type {number[]} */ (x.at);
        const t = shipType(x.value);
        const mine = pl.seat === you;
        // My ship: its own actions; another's: the actions aimed at its square.
        const choose = () =>
          mine
            ? pick(
                (a) => "ship" in a && a.ship === x.ship && !("owner" in a),
                `ship ${x.ship} (${t.name}, ${x.value})`,
              )
            : pick((a) => mentions(a, r, c), `the ship at [${r},${c}]`);
        return s(
          "g",
          {
            class: `ship seat${pl.seat} ${mine ? "mine" : ""} ${x.moved ? "moved" : ""}`,
            "data-ship": `${pl.seat}-${x.ship}`,
            tabindex: 0,
            role: "button",
            "aria-label": `Seat ${pl.seat} ship ${x.ship}: ${t.name} (${x.value}) at [${r},${c}]`,
            onclick: () => choose(),
            onkeydown: (/** @type {Event} */ ev) => {
              const k = /** @type {KeyboardEvent} */ (ev).key;
              if (k === "Enter" || k === " ") {
                ev.preventDefault();
                choose();
              }
            },
          },
          s("title", {}, `Seat ${pl.seat}, ship ${x.ship}: ${t.name} (${x.value}) — ${t.ability}`),
          s("rect", { x: c * CELL + 5, y: r * CELL + 5, width: CELL - 10, height: CELL - 10, rx: 5 }),
          s(
            "text",
            { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 + 5, "text-anchor": "middle" },
            x.value ?? "?",
          ),
        );
      }),
  );

  const map = s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "qmap", role: "img", "aria-label": `Map: ${m.name}` },
    s("title", {}, m.name),
    tiles,
    squares,
    planets,
    battle,
    ships,
  );

  return h(
    "div",
    { class: "quantum" },
    h(
      "div",
      { class: "card" },
      h(
        "h3",
        {},
        `${m.name} · ${v.phase}`,
        v.phase === "actions" ? ` · seat ${v.active}, ${v.actions_left} actions left` : "",
        v.bonus_turn ? " · bonus turn" : "",
      ),
      map,
      v.last_dice.length ? h("p", { class: "small" }, "Last dice: ", v.last_dice.join(" ")) : null,
      v.battle
        ? h(
            "p",
            { class: "battle-text", role: "status" },
            `Battle: seat ${v.battle.attacker} ship ${v.battle.attacker_ship} attacks seat ${v.battle.defender} ship ${v.battle.defender_ship} — rolls ${v.battle.attack_roll ?? "?"} vs ${v.battle.defense_roll ?? "?"}`,
          )
        : null,
      v.pending.length
        ? h(
            "ul",
            { class: "pending" },
            v.pending.map((p) =>
              h(
                "li",
                {},
                `Waiting for seat ${p.seat}: ${p.kind}`,
                p.ship !== undefined ? ` (ship ${p.ship})` : "",
              ),
            ),
          )
        : null,
    ),
    v.players.map((pl) =>
      h(
        "div",
        { class: `card qplayer seat${pl.seat}`, "data-seat": pl.seat },
        h(
          "h3",
          {},
          h("span", { class: `dot seat${pl.seat}`, "aria-hidden": "true" }),
          `Seat ${pl.seat}`,
          pl.seat === you ? " — you" : "",
        ),
        h(
          "dl",
          { class: "stats" },
          h("dt", {}, "Dominance"),
          h("dd", {}, h("meter", { min: 0, max: 6, value: pl.dominance }), ` ${pl.dominance}`),
          h("dt", {}, "Research"),
          h("dd", {}, h("meter", { min: 0, max: 6, value: pl.research }), ` ${pl.research}`),
          h("dt", {}, "Cubes"),
          h("dd", {}, `${pl.cubes_placed} placed, ${pl.cubes_left} left`),
        ),
        h(
          "div",
          {},
          "Commands: ",
          pl.commands.length ? pl.commands.map(cardChip) : h("span", { class: "empty" }, "none"),
          pl.commands_waking.length
            ? h("small", {}, " (waking: ", pl.commands_waking.map((c) => card(GAME, c).name).join(", "), ")")
            : null,
        ),
        h(
          "div",
          { class: "small" },
          "Off the map: ",
          pl.ships
            .filter((x) => !isSquare(x.at))
            .map((x) =>
              h(
                "span",
                { class: "offmap" },
                `ship ${x.ship} ${x.value === null ? "" : `${shipType(x.value).name} (${x.value})`} in ${x.at}`,
                " ",
              ),
            ),
        ),
      ),
    ),
    h(
      "div",
      { class: "card" },
      h("h3", {}, "Card row"),
      h("div", {}, "Command: ", (v.row.command ?? []).map(cardChip)),
      h("div", {}, "Gambit: ", (v.row.gambit ?? []).map(cardChip)),
      h("p", { class: "small" }, `Decks: ${v.decks.command} command, ${v.decks.gambit} gambit`),
    ),
  );
}
