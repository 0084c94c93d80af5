// quantum.js: the Quantum board, drawn from the view alone: the map as
// SVG (tiles, the Void, planets with their numbers and cubes, ships as
// dice of their owner's colour), the battle under way, each player's
// dominance, research, cubes and command cards, the card row, and the
// decisions the game waits for. A move is chosen on the map: tap one of
// your ships (on the map, or off it in your reserve or scrapyard) and the
// squares its listed actions name (moves, deploys, attack targets…) are
// highlighted; tapping one acts, its other abilities become the choices.
// With no ship tapped, the squares of the other listed actions (choose a
// planet, construct, infamy) are highlighted; a starting arrangement is
// tapped square by square (ship 0, 1, then 2); a relocation starts by a
// tap on the planet whose cube moves. Rows and columns are numbered along
// the map's edges, as the labels name squares [row,col]. A card of the
// row to take, a command card to discard, or one whose power is listed
// (CEREBRAL, or a CRUEL re-roll asked in a battle) is tapped. The rest
// is on the board too: "End turn" by the actions left, "Research" by the
// research track, "Refresh" on the card row, the starting ships' keep or
// re-roll on the player's dice, the decision of a ship the view's first
// pending decision names (advance or stay, a re-roll) on that ship, and a
// REORGANIZATION's ships tapped one by one. Every action is the server's
// (GET …/actions), whole: the list is only filtered by what was tapped.
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

/**
 * A lit square of the map, at row `r`, column `c` (map coordinates): a
 * CELL-sized rect of class `hl <kind>` ("to", "target", "planet") named
 * `label`, `fn` run by a click, Enter or Space (board.js tapAttrs).
 * @param {number} r @param {number} c @param {string} kind @param {string} label @param {() => void} fn
 */
function litSquare(r, c, kind, label, fn) {
  return s("rect", {
    class: `hl ${kind}`,
    x: c * CELL,
    y: r * CELL,
    width: CELL,
    height: CELL,
    rx: 4,
    "data-square": `${r},${c}`,
    ...tapAttrs(label, fn),
  });
}
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
 * The ship action `a` is about: its `ship`, or, for a decision that names
 * none (advance, stay, a re-roll), the ship of the view's first pending
 * decision when it is the caller's (the decision the list answers); else
 * undefined. Read from the view, not worked out.
 * @param {Action} a @param {View | null} v @param {number | null} you
 * @returns {number | undefined}
 */
function shipOf(a, v, you) {
  const x = /** @type {any} */ (a);
  if ("ship" in x) return x.ship;
  const p = v?.pending[0];
  if (p && p.seat === you && p.ship !== undefined && !aim(a) && !("card" in x) && !("ships" in x))
    return p.ship;
  return undefined;
}

/** The view and seat the board was last drawn for (shipOf reads them). @type {{v: View | null, you: number | null}} */
let drawn = { v: null, you: null };

/** Action types the board has a control of their own for (below). */
const CONTROLS = [
  "setup_keep",
  "setup_reroll",
  "arrange",
  "research",
  "end_turn",
  "refresh_cards",
  "reorganize",
];

/** 1 if action `a` is a command card's power: its type is a card's id (the catalog's). @param {Action} a */
function isPower(a) {
  /** @type {{id: string}[]} */
  const cards = /** @type {any} */ (gameInfo(GAME))?.cards ?? [];
  return cards.some((c) => c.id === a.type);
}

/**
 * A control of the board for listed actions `matching` (none: nothing
 * drawn): a tap offers them, or posts the only one.
 * @param {string} text what it shows @param {Action[]} matching @param {string} label its name
 * @param {BoardUi} ui
 */
function control(text, matching, label, ui) {
  return matching.length
    ? // (its name starts with the words shown, as speech input needs)
      tapCard(h("span", { class: "agent" }, text), matching, `${text}: ${label}`, ui, "control")
    : null;
}

/**
 * What was tapped, kept for the action list of seq `seq` only: one of the
 * caller's ships (`ship`), or a planet relocations start from (`from`),
 * or nothing; the squares tapped so far for a starting arrangement
 * (`arrange`, ship 0's first), the ships tapped for a REORGANIZATION
 * (`reorg`).
 * @type {{seq: number, ship: number | null, from: number[] | null, arrange: number[][], reorg: number[]}}
 */
let sel = { seq: -1, ship: null, from: null, arrange: [], reorg: [] };

/** The listed actions of what is selected (all those of no ship when nothing is). @param {BoardUi} ui */
function selected(ui) {
  if (sel.seq !== ui.seq) sel = { seq: ui.seq, ship: null, from: null, arrange: [], reorg: [] };
  const f = sel.from;
  return ui.actions.filter((a) => {
    const x = /** @type {any} */ (a);
    const ship = shipOf(a, drawn.v, drawn.you);
    if (sel.ship !== null) return ship === sel.ship && !("owner" in x);
    if (f) return isSquare(x.from) && x.from[0] === f[0] && x.from[1] === f[1] && "owner" in x;
    return ship === undefined && !("owner" in x);
  });
}

/**
 * The listed arrangements (§3.6) that start with the squares tapped so
 * far, by the square they give the next ship: [row,col] key → actions.
 * @param {BoardUi} ui @returns {Map<string, Action[]>}
 */
function arrangeAims(ui) {
  const k = sel.arrange.length;
  /** @type {Map<string, Action[]>} */
  const by = new Map();
  for (const a of ui.actions) {
    if (a.type !== "arrange") continue;
    const sqs = /** @type {number[][]} */ (/** @type {any} */ (a).ships);
    if (!sel.arrange.every((t, i) => t[0] === sqs[i][0] && t[1] === sqs[i][1]) || k >= sqs.length) continue;
    const key = `${sqs[k][0]},${sqs[k][1]}`;
    by.set(key, [...(by.get(key) ?? []), a]);
  }
  return by;
}

/** The listed REORGANIZATION (§9.3) of exactly the ships tapped. @param {BoardUi} ui */
function reorgMatch(ui) {
  const want = [...sel.reorg].sort((x, y) => x - y).join(",");
  return ui.actions.filter(
    (a) =>
      a.type === "reorganize" &&
      [.../** @type {number[]} */ (/** @type {any} */ (a).ships)].sort((x, y) => x - y).join(",") === want,
  );
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
  drawn = { v, you };
  const reorganizing = ui.actions.some((a) => a.type === "reorganize");
  /** The listed actions of type `t`. @param {string} t */
  const listed = (t) => ui.actions.filter((a) => a.type === t);
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
    // A starting arrangement: the squares the next ship may take.
    const arranging = sel.ship === null && !sel.from ? arrangeAims(ui) : new Map();
    svg.querySelectorAll(".hl").forEach((el) => el.remove());
    svg.querySelectorAll(".ship.chosen, .ship.aimed").forEach((el) => el.classList.remove("chosen", "aimed"));
    const layer = svg.querySelector(".hl-layer");
    for (const [k, as] of aimed) {
      const [r, c] = k.split(",").map(Number);
      const kind = as.some((a) => "target" in a) ? "target" : as.some((a) => "planet" in a) ? "planet" : "to";
      const label = `Square [${r},${c}]${at.has(k) ? ` (${at.get(k)})` : ""}: ${as.map((a) => a.label ?? a.type).join("; ")}`;
      layer?.append(litSquare(r, c, kind, label, () => offer(ui, as, `square [${r},${c}]`)));
      svg.querySelector(`.ship[data-at="${k}"]`)?.classList.add("aimed");
    }
    const next = sel.arrange.length;
    for (const [k, as] of arranging) {
      const [r, c] = k.split(",").map(Number);
      const what = `ship ${next} (${shipType(v.players[you ?? 0]?.ships[next]?.value ?? null).name}) at [${r},${c}]`;
      layer?.append(
        litSquare(r, c, "to", `Square [${r},${c}]: put your ${what}`, () => {
          if (as.length === 1) return ui.act(as[0]);
          sel.arrange.push([r, c]);
          highlight(svg);
          ui.pick(only(as), `your ${sel.arrange.map((t, i) => `ship ${i} at [${t[0]},${t[1]}]`).join(", ")}`);
        }),
      );
    }
    if (sel.ship !== null)
      svg.querySelector(`.ship[data-ship="${you}-${sel.ship}"]`)?.classList.add("chosen");
    for (const n of sel.reorg) svg.querySelector(`.ship[data-ship="${you}-${n}"]`)?.classList.add("chosen");
  };

  /**
   * Adds ship `ship` to the ships a REORGANIZATION rerolls, or takes it
   * out; the listed reorganization of exactly those becomes the choice.
   * @param {number} ship
   */
  const toggleReorg = (ship) => {
    selected(ui); // (drops a selection of another list)
    sel.reorg = sel.reorg.includes(ship) ? sel.reorg.filter((n) => n !== ship) : [...sel.reorg, ship];
    highlight(/** @type {Element} */ (frame.querySelector("svg")));
    frame.parentElement?.parentElement
      ?.querySelectorAll("button.offmap")
      .forEach((b) =>
        b.setAttribute(
          "aria-pressed",
          String(sel.reorg.includes(Number(/** @type {HTMLElement} */ (b).dataset.ship?.split("-")[1]))),
        ),
      );
    const names = sel.reorg.length ? `ships ${[...sel.reorg].sort().join(", ")}` : "no ship";
    ui.pick(only(reorgMatch(ui)), `reroll ${names}`);
  };

  /**
   * Selects ship `ship` of the caller (null: none): its aimed squares
   * highlighted, its other actions the choices, and the ship scrolled into
   * view in the map's frame.
   * @param {number | null} ship @param {string} what
   */
  const choose = (ship, what) => {
    selected(ui); // (drops a selection of another list)
    sel = { ...sel, ship, from: null };
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
    sel = { ...sel, ship: null, from: sq };
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
    // A relocation (§9.3) moves a cube from this planet: tap it first.
    const relocations = ui.actions.filter((a) => {
      const f = /** @type {any} */ (a).from;
      return a.type === "relocate" && isSquare(f) && f[0] === r && f[1] === c;
    });
    return s(
      "g",
      {
        class: `planet ${p.start ? "start" : ""}`,
        "data-planet": `${r},${c}`,
        ...(relocations.length
          ? tapAttrs(`Planet ${p.number} at [${r},${c}]: move a cube from it`, () => chooseFrom([r, c]))
          : {}),
      },
      // (the whole square, a 44 px target)
      relocations.length
        ? s("rect", { class: "sq", x: c * CELL, y: r * CELL, width: CELL, height: CELL })
        : null,
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
          if (hl) hl.dispatchEvent(new MouseEvent("click"));
          else if (mine && reorganizing) toggleReorg(x.ship);
          else if (mine) choose(x.ship, `ship ${x.ship} (${t.name}, ${x.value}) at [${r},${c}]`);
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
        const mine = pl.seat === you;
        // (a REORGANIZATION rerolls scrapyard ships too, never reserve ones)
        if (mine && reorganizing && x.at === "scrapyard")
          return h(
            "button",
            {
              type: "button",
              class: "tap offmap",
              "data-pick": "",
              "data-ship": `${pl.seat}-${x.ship}`,
              "aria-pressed": String(sel.reorg.includes(x.ship)),
              onclick: () => toggleReorg(x.ship),
            },
            text,
          );
        return mine && ui.actions.some((a) => shipOf(a, v, you) === x.ship && !("owner" in a))
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
      listed("end_turn").length
        ? h("p", { class: "row" }, control("End turn", listed("end_turn"), "end your turn", ui))
        : null,
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
          h(
            "dd",
            {},
            h("meter", { min: 0, max: 6, value: pl.research }),
            ` ${pl.research} `,
            pl.seat === you
              ? control("Research +1", listed("research"), "raise your research by 1", ui)
              : null,
          ),
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
        pl.seat === you
          ? h(
              "p",
              { class: "row" },
              // §3.3: the starting ships, kept or all three re-rolled
              control(
                `Your starting ships: ${pl.ships
                  .slice(0, 3)
                  .map((x) => x.value)
                  .join(" ")}`,
                [...listed("setup_keep"), ...listed("setup_reroll")],
                "keep them or reroll all three",
                ui,
              ),
              // §9.3 REORGANIZATION: the ships tapped (none at first)
              reorganizing
                ? h(
                    "button",
                    {
                      type: "button",
                      class: "tap control",
                      "data-pick": "",
                      onclick: () => ui.pick(only(reorgMatch(ui)), "the ships tapped"),
                    },
                    "Reorganize the ships tapped",
                  )
                : null,
            )
          : null,
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
      h(
        "p",
        { class: "small row" },
        `Decks: ${v.decks.command} command, ${v.decks.gambit} gambit `,
        control("Refresh the row", listed("refresh_cards"), "discard the six cards and deal new ones", ui),
      ),
    ),
  );
}

/** In words, what to tap. @param {Action[]} actions */
function hint(actions) {
  const has = (/** @type {string} */ t) => actions.some((a) => a.type === t);
  if (has("arrange")) return "Tap the lit squares for your ships 0, 1 and 2, in that order.";
  if (has("reorganize")) return "Tap the ships to reroll, then “Reorganize the ships tapped”.";
  if (has("setup_keep")) return "Tap your starting ships to keep or reroll them.";
  if (has("take_card")) return "Tap a card of the row to take it.";
  if (has("relocate")) return "Tap the planet of the cube to move, then a lit square.";
  if (actions.some((a) => shipOf(a, drawn.v, drawn.you) !== undefined && !("ship" in a)))
    return "Tap your ship for its decision.";
  if (actions.some(isPower) && !actions.some((a) => "ship" in a || aim(a)))
    return "Tap your command card for its decision.";
  if (!actions.some((a) => "ship" in a || aim(a))) return "";
  return "Tap your ship, then a lit square. Squares are [row,column].";
}

/** @type {import("./game.js").Board} */
export const quantum = {
  draw,
  options,
  // A ship's actions and those aimed at a square are chosen on the map,
  // a card's on the card, the others on a control of their own.
  onBoard: (a) =>
    "ship" in a ||
    "owner" in a ||
    "card" in a ||
    aim(a) !== null ||
    CONTROLS.includes(a.type) ||
    isPower(a) ||
    shipOf(a, drawn.v, drawn.you) !== undefined,
  hint,
  clear: () => {
    sel = { seq: -1, ship: null, from: null, arrange: [], reorg: [] };
  },
};
