// quantum.js: the Quantum board, drawn from the view alone: the map as
// SVG (tiles, the Void, planets with their numbers and cubes, ships as
// dice of their owner's colour), the battle under way, each player's
// dominance, research, cubes and command cards, the card row, and the
// decisions the game waits for. A move is chosen on the map: tap one of
// your ships (on the map, or off it in your reserve or scrapyard) and the
// squares its listed actions name (moves, deploys, attack targets…) are
// highlighted; tapping one acts, its other abilities become the choices.
// With no ship tapped, the squares of the other listed actions (choose a
// planet, construct, infamy, relocation) are highlighted. Rows and columns
// are numbered along the map's edges, as the labels name squares [row,col].
// A card of the row to take, or a command card to discard, is tapped.
// Names and texts from the catalog; each card, and the ship types, with
// an "i" button that shows the text (sheet.js).
import { h, s } from "./dom.js";
import { card, gameInfo } from "./ui.js";
import { offer, only, tapAttrs, tapCard } from "./board.js";
import { infoButton, withInfo } from "./sheet.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").QuantumView} View */
/** @typedef {View["players"][number]["ships"][number]} Ship */
/** @typedef {import("./game.js").BoardUi} BoardUi */

const GAME = "quantum";
const CELL = 44; // px per square: a touch target (the map scrolls in its frame when wider than the screen)
const EDGE = 18; // px of the row and column numbers along the top and left edges

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

/** The square action `a` is aimed at (to, target, planet), or null. @param {Action} a @returns {number[] | null} */
function aim(a) {
  const x = /** @type {any} */ (a);
  for (const v of [x.to, x.target, x.planet]) if (isSquare(v)) return v;
  return null;
}

/**
 * What was tapped, kept for the action list of seq `seq` only: one of the
 * caller's ships (`ship`), or a square some actions start from (`from`, a
 * relocation's), or nothing.
 * @type {{seq: number, ship: number | null, from: number[] | null}}
 */
let sel = { seq: -1, ship: null, from: null };

/** The listed actions of what is selected (all those of no ship when nothing is). @param {BoardUi} ui */
function selected(ui) {
  if (sel.seq !== ui.seq) sel = { seq: ui.seq, ship: null, from: null };
  const f = sel.from;
  return ui.actions.filter((a) => {
    const x = /** @type {any} */ (a);
    if (sel.ship !== null) return x.ship === sel.ship && !("owner" in x);
    if (f) return isSquare(x.from) && x.from[0] === f[0] && x.from[1] === f[1] && "owner" in x;
    return !("ship" in x) && !("owner" in x);
  });
}

/**
 * A command or gambit card by id: name, with its text as a tooltip and
 * in the sheet of its "i" button (the printing the game's options chose);
 * a button when a listed action names it (take it from the row, discard
 * it) or is its power (an action whose type is the card's id): a tap
 * offers those actions as the choices, or posts the only one.
 * @param {string | null} id @param {Game} g @param {BoardUi} ui
 * @param {string} key where it is drawn ("seat-0", "row-command")
 */
function cardChip(id, g, ui, key) {
  if (!id) return h("span", { class: "agent back" }, "—");
  const c = gameCard(id, g);
  const face = h("span", { class: "agent", title: c.text, "data-card": id }, c.name);
  return withInfo(
    tapCard(
      face,
      // (a command card's power: the listed actions of its type, e.g. cerebral)
      ui.actions.filter((a) => /** @type {any} */ (a).card === id || a.type === id),
      `${c.name}: ${c.text}`,
      ui,
    ),
    cardInfo(id, g, key),
  );
}

/** Card `id` of game `g`: its name, and its text in the printing the game's options (in its view) chose. @param {string} id @param {Game} g */
const gameCard = (id, g) => card(GAME, id, options(g));

/** The options of game `g`, as its view gives them all. @param {Game} g @returns {Record<string, unknown>} */
const options = (g) => /** @type {View | null} */ (g.view)?.options ?? {};

/** The "i" button of card `id` of game `g` drawn at `key`. @param {string} id @param {Game} g @param {string} key */
function cardInfo(id, g, key) {
  const c = gameCard(id, g);
  return infoButton(`${key}-${id}`, c.name, [c.text]);
}

/** The "i" button of the six ship types: each one's name, die value and ability, from the catalog. */
function shipsInfo() {
  const types = [1, 2, 3, 4, 5, 6].map(shipType);
  return infoButton(
    "ships",
    "Ships",
    types.map((t) => h("p", {}, h("strong", {}, `${t.value} ${t.name}`), ` — ${t.ability}`)),
  );
}

/** @param {Game} g @param {BoardUi} ui */
function draw(g, ui) {
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
  /** @type {Map<string, string>} the words for what is at each square (planet, ship) */
  const at = new Map();
  for (const p of m.planets) at.set(key(p.at), `planet ${p.number}`);
  for (const pl of v.players)
    for (const x of pl.ships)
      if (isSquare(x.at))
        at.set(
          key(x.at),
          `${at.has(key(x.at)) ? at.get(key(x.at)) + ", " : ""}seat ${pl.seat}'s ${shipType(x.value).name} (${x.value})`,
        );

  /**
   * Highlights the squares the selection's actions are aimed at, each a
   * control that offers them; its other actions (no square) become the
   * choices. Run at each draw and on each tap, on the map drawn.
   * @param {Element} svg
   */
  const highlight = (svg) => {
    const mine = selected(ui);
    /** @type {Map<string, Action[]>} */
    const aimed = new Map();
    for (const a of mine) {
      const sq = aim(a);
      if (sq) aimed.set(key(sq), [...(aimed.get(key(sq)) ?? []), a]);
    }
    svg.querySelectorAll(".hl").forEach((el) => el.remove());
    svg.querySelectorAll(".ship.chosen, .ship.aimed").forEach((el) => el.classList.remove("chosen", "aimed"));
    const layer = svg.querySelector(".hl-layer");
    for (const [k, as] of aimed) {
      const [r, c] = k.split(",").map(Number);
      const kind = as.some((a) => "target" in a) ? "target" : as.some((a) => "planet" in a) ? "planet" : "to";
      const label = `Square [${r},${c}]${at.has(k) ? ` (${at.get(k)})` : ""}: ${as.map((a) => a.label ?? a.type).join("; ")}`;
      layer?.append(
        s("rect", {
          class: `hl ${kind}`,
          x: c * CELL,
          y: r * CELL,
          width: CELL,
          height: CELL,
          rx: 4,
          "data-square": k,
          ...tapAttrs(label, () => offer(ui, as, `square [${r},${c}]`)),
        }),
      );
      svg.querySelector(`.ship[data-at="${k}"]`)?.classList.add("aimed");
    }
    if (sel.ship !== null)
      svg.querySelector(`.ship[data-ship="${you}-${sel.ship}"]`)?.classList.add("chosen");
  };

  /**
   * Selects ship `ship` of the caller (null: none): its aimed squares
   * highlighted, its other actions the choices, and the ship scrolled into
   * view in the map's frame.
   * @param {number | null} ship @param {string} what
   */
  const choose = (ship, what) => {
    selected(ui); // (drops a selection of another list)
    sel = { seq: ui.seq, ship, from: null };
    // A ship with nothing listed: no selection, the choices as they were.
    if (ship !== null && !selected(ui).length) ship = sel.ship = null;
    const svg = /** @type {Element} */ (frame.querySelector("svg"));
    highlight(svg);
    const rest = selected(ui).filter((a) => !aim(a));
    ui.pick(ship === null ? null : only(rest), what);
    svg
      .querySelector(`.ship[data-ship="${you}-${ship}"]`)
      ?.scrollIntoView({ block: "nearest", inline: "center" });
  };

  /** Selects the square relocations start from (the revised rules' relocation). @param {number[]} sq */
  const chooseFrom = (sq) => {
    sel = { seq: ui.seq, ship: null, from: sq };
    highlight(/** @type {Element} */ (frame.querySelector("svg")));
    ui.pick(() => false, `the ship at [${sq[0]},${sq[1]}]`);
  };

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
        }),
      );
    }
  // The row and column numbers, the [row,col] of the action labels.
  const edges = [];
  for (let c = 0; c < m.cols; c++)
    edges.push(s("text", { class: "coord", x: c * CELL + CELL / 2, y: -5, "text-anchor": "middle" }, c));
  for (let r = 0; r < m.rows; r++)
    edges.push(
      s("text", { class: "coord", x: -EDGE / 2, y: r * CELL + CELL / 2 + 4, "text-anchor": "middle" }, r),
    );
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
        // A highlighted square under it: the square's actions; my ship:
        // select it; another's that relocations start from: select that.
        const tap = () => {
          const hl = /** @type {SVGElement | null} */ (frame.querySelector(`.hl[data-square="${r},${c}"]`));
          const own = ui.actions.some((a) => /** @type {any} */ (a).ship === x.ship && !("owner" in a));
          const from = ui.actions.some((a) => {
            const f = /** @type {any} */ (a).from;
            return "owner" in a && isSquare(f) && f[0] === r && f[1] === c;
          });
          if (hl) hl.dispatchEvent(new MouseEvent("click"));
          else if (mine && (own || !from))
            choose(x.ship, `ship ${x.ship} (${t.name}, ${x.value}) at [${r},${c}]`);
          else if (from) chooseFrom([r, c]);
        };
        return s(
          "g",
          {
            class: `ship seat${pl.seat} ${mine ? "mine" : ""} ${x.moved ? "moved" : ""}`,
            "data-ship": `${pl.seat}-${x.ship}`,
            "data-at": `${r},${c}`,
            ...tapAttrs(`Seat ${pl.seat} ship ${x.ship}: ${t.name} (${x.value}) at [${r},${c}]`, tap),
          },
          s("title", {}, `Seat ${pl.seat}, ship ${x.ship}: ${t.name} (${x.value}) — ${t.ability}`),
          s("rect", { x: c * CELL + 6, y: r * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 5 }),
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
    {
      viewBox: `${-EDGE} ${-EDGE} ${W + EDGE} ${H + EDGE}`,
      width: W + EDGE,
      height: H + EDGE,
      class: "qmap",
      role: "group",
      "aria-label": `Map: ${m.name} (squares by [row,column])`,
    },
    s("title", {}, m.name),
    tiles,
    squares,
    edges,
    planets,
    battle,
    s("g", { class: "hl-layer" }),
    ships,
  );
  // Scrolls on a phone: focusable, so that the keyboard scrolls it too.
  const frame = h("div", { class: "qmap-frame", tabindex: 0, role: "region", "aria-label": "Map" }, map);
  highlight(map);
  /** My ships off the map (reserve, scrapyard): buttons that select them when a listed action names them. */
  const offMap = (/** @type {View["players"][number]} */ pl) =>
    pl.ships
      .filter((x) => !isSquare(x.at))
      .map((x) => {
        const text = `ship ${x.ship} ${x.value === null ? "" : `${shipType(x.value).name} (${x.value})`} in ${x.at}`;
        return pl.seat === you &&
          ui.actions.some((a) => /** @type {any} */ (a).ship === x.ship && !("owner" in a))
          ? h(
              "button",
              {
                type: "button",
                class: "tap offmap",
                "data-pick": "",
                "data-ship": `${pl.seat}-${x.ship}`,
                onclick: () => choose(x.ship, text),
              },
              text,
            )
          : h("span", { class: "offmap" }, text, " ");
      });

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
      frame,
      h(
        "p",
        { class: "small row" },
        v.last_dice.length ? `Last dice: ${v.last_dice.join(" ")}` : null,
        h("span", {}, "Ship types ", shipsInfo()),
      ),
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
          pl.commands.length
            ? pl.commands.map((id) => cardChip(id, g, ui, `seat-${pl.seat}`))
            : h("span", { class: "empty" }, "none"),
          pl.commands_waking.length
            ? h(
                "small",
                {},
                " (waking: ",
                pl.commands_waking.map((id) =>
                  withInfo(
                    h("span", { class: "agent", "data-card": id }, gameCard(id, g).name),
                    cardInfo(id, g, `waking-${pl.seat}`),
                  ),
                ),
                ")",
              )
            : null,
        ),
        h("div", { class: "small" }, "Off the map: ", offMap(pl)),
      ),
    ),
    h(
      "div",
      { class: "card" },
      h("h3", {}, "Card row"),
      h(
        "div",
        {},
        "Command: ",
        (v.row.command ?? []).map((id) => cardChip(id, g, ui, "row-command")),
      ),
      h(
        "div",
        {},
        "Gambit: ",
        (v.row.gambit ?? []).map((id) => cardChip(id, g, ui, "row-gambit")),
      ),
      h("p", { class: "small" }, `Decks: ${v.decks.command} command, ${v.decks.gambit} gambit`),
    ),
  );
}

/** In words, what to tap. @param {Action[]} actions */
function hint(actions) {
  if (!actions.some((a) => "ship" in a || aim(a))) return "";
  return "Tap your ship, then a lit square. Squares are [row,column].";
}

/** @type {import("./game.js").Board} */
export const quantum = {
  draw,
  options,
  // A ship's actions and those aimed at a square are chosen on the map.
  onBoard: (a) => "ship" in a || "owner" in a || "card" in a || aim(a) !== null,
  hint,
  clear: () => {
    sel = { seq: -1, ship: null, from: null };
  },
};
