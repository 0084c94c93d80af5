// aa.js: the Agent Avenue board: the 14-space track with both teams'
// meeples, the agents each team has in play, the cards played this turn,
// the caller's hand, and in advanced mode the black market. Card names
// and texts come from the catalog (in the chosen language). A move is
// chosen on the board: the cards of a play tapped in the hand (the first
// face up, the second face down), a played card tapped to recruit it, a
// black-market card to take it, an agent in play or in hand for a card's
// decision, the partner's seat to hand it the face-up card (team
// variant). Each tap narrows the server's listed actions (board.js).
// Each card has an "i" button beside it that shows its text (sheet.js).
import { h } from "./dom.js";
import { card, gameInfo } from "./ui.js";
import { offer, tapCard } from "./board.js";
import { infoButton, withInfo } from "./sheet.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").AgentAvenueView} View */
/** @typedef {import("./game.js").BoardUi} BoardUi */

const GAME = "agent-avenue";
const SPACES = 14;

/** A card face: its name, its text as a tooltip. @param {string} id @param {string} [cls] */
function agent(id, cls = "") {
  const c = card(GAME, id);
  return h("span", { class: `agent ${cls}`, title: c.text, "data-card": id }, c.name);
}

/** A black-market card of the catalog (name, text, effect in the chosen language). @param {string} id */
function marketCard(id) {
  /** @type {{id: string, name: string, text: string, effect?: string}[]} */
  const all = /** @type {any} */ (gameInfo(GAME))?.black_market ?? [];
  return all.find((x) => x.id === id);
}

/**
 * Card `face` (agent `id`) drawn at `key` with its "i" button: the agent's
 * text from the catalog.
 * @param {Node} face @param {string} key @param {string} id
 */
function agentWithInfo(face, key, id) {
  const c = card(GAME, id);
  return withInfo(face, infoButton(key, c.name, [c.text]));
}

/**
 * Black-market card `face` (card `id`) drawn at `key` with its "i"
 * button: the card's text and its precise effect, from the catalog.
 * @param {Node} face @param {string} key @param {string} id
 */
function marketWithInfo(face, key, id) {
  const c = marketCard(id);
  const body = [c?.text ?? "", c?.effect ? h("p", { class: "small" }, c.effect) : ""].filter(Boolean);
  return withInfo(face, infoButton(key, c?.name ?? id, body));
}

/** A black-market card: name and text from the catalog. @param {string} id */
function market(id) {
  const c = marketCard(id);
  return h(
    "span",
    { class: "agent market", title: c?.text ?? "", "data-card": id },
    c?.name ?? id,
    c?.text ? h("small", {}, c.text) : null,
  );
}

/**
 * What was tapped in the hand for a play: indexes into the hand (-1:
 * none), kept for the action list of seq `seq` only.
 */
let sel = { seq: -1, up: -1, down: -1 };

/** Types of the actions that name one card of the caller's hand in `card`. */
const HAND_CARD = ["discard", "double_trouble", "secret_recruit"];
/** Types of the actions that name an agent in play in `card`. */
const IN_PLAY = ["mind_control", "spycation"];

/**
 * The hand: each card a button when a listed action names it. The first
 * card tapped is the face-up one of a play (or the card of a discard or a
 * decision), the second the face-down one; a play is posted once the cards
 * it names are all tapped and only one listed play matches.
 * @param {string[]} hand @param {BoardUi} ui
 */
function handCards(hand, ui) {
  if (sel.seq !== ui.seq) sel = { seq: ui.seq, up: -1, down: -1 };
  const plays = ui.actions.filter((a) => a.type === "play");
  const up = (/** @type {Action} */ a) => /** @type {any} */ (a).face_up;
  const down = (/** @type {Action} */ a) => /** @type {any} */ (a).face_down;
  const names = (/** @type {string} */ c) =>
    ui.actions.some(
      (a) =>
        up(a) === c || down(a) === c || (HAND_CARD.includes(a.type) && /** @type {any} */ (a).card === c),
    );
  /** @param {number} i */
  const tap = (i) => {
    const c = hand[i];
    if (sel.up === i) sel.up = -1;
    else if (sel.down === i) sel.down = -1;
    else if (sel.up < 0 && plays.some((a) => up(a) === c && (sel.down < 0 || down(a) === hand[sel.down])))
      sel.up = i;
    else if (
      sel.down < 0 &&
      plays.some((a) => down(a) === c && (sel.up < 0 ? up(a) === undefined : up(a) === hand[sel.up]))
    )
      sel.down = i;
    else sel = { seq: ui.seq, up: plays.some((a) => up(a) === c) ? i : -1, down: -1 };
    const U = sel.up >= 0 ? hand[sel.up] : undefined,
      D = sel.down >= 0 ? hand[sel.down] : undefined;
    // A play with the cards tapped; with one card tapped, also what else names it.
    const one = sel.up < 0 && sel.down < 0 ? c : sel.down < 0 ? U : sel.up < 0 ? D : undefined;
    const matching = ui.actions.filter((a) =>
      a.type === "play"
        ? (U !== undefined || D !== undefined) &&
          (U === undefined || up(a) === U) &&
          (D === undefined || down(a) === D)
        : one !== undefined && HAND_CARD.includes(a.type) && /** @type {any} */ (a).card === one,
    );
    const done =
      matching.length === 1 &&
      (matching[0].type !== "play" ||
        ((up(matching[0]) === undefined || U !== undefined) &&
          (down(matching[0]) === undefined || D !== undefined)));
    const what = [
      U !== undefined ? `${card(GAME, U).name} face up` : "",
      D !== undefined ? `${card(GAME, D).name} face down` : "",
      U === undefined && D === undefined ? card(GAME, c).name : "",
    ]
      .filter(Boolean)
      .join(", ");
    mark(row);
    offer(ui, matching, what, done);
  };
  /** Shows on each card what it was tapped as. @param {HTMLElement} el */
  const mark = (el) => {
    el.querySelectorAll("button[data-hand]").forEach((b) => {
      const i = Number(/** @type {HTMLElement} */ (b).dataset.hand);
      const as = i === sel.up ? "face up" : i === sel.down ? "face down" : "";
      b.setAttribute("aria-pressed", String(as !== ""));
      b.classList.toggle("up", i === sel.up);
      b.classList.toggle("down", i === sel.down);
      const tag = /** @type {HTMLElement} */ (b.querySelector(".as"));
      tag.textContent = as;
    });
  };
  const row = h(
    "div",
    { class: "cards", role: "group", "aria-label": "Your hand" },
    hand.map((c, i) => {
      const face = agent(c);
      if (!names(c)) return agentWithInfo(face, `hand-${i}`, c);
      const x = card(GAME, c);
      return agentWithInfo(
        h(
          "button",
          {
            type: "button",
            class: "tap hand-card",
            "data-hand": i,
            "data-pick": "",
            "aria-label": `${x.name}, in your hand: ${x.text}`,
            onclick: () => tap(i),
          },
          face,
          h("span", { class: "as" }),
        ),
        `hand-${i}`,
        c,
      );
    }),
  );
  mark(row);
  return row;
}

/**
 * The agents of an `in_play` map, with their counts; an agent a listed
 * decision names (Mind Control, Spycation) is a button.
 * @param {Record<string, number>} inPlay @param {BoardUi} ui @param {string} key where it is drawn ("team-0")
 */
function inPlayList(inPlay, ui, key) {
  const e = Object.entries(inPlay).filter(([, n]) => n > 0);
  return e.length
    ? h(
        "div",
        { class: "cards" },
        e.map(([id, n]) =>
          h(
            "span",
            { class: "stack" },
            agentWithInfo(
              tapCard(
                agent(id),
                ui.actions.filter((a) => IN_PLAY.includes(a.type) && /** @type {any} */ (a).card === id),
                `${card(GAME, id).name}, in play`,
                ui,
              ),
              `${key}-${id}`,
              id,
            ),
            n > 1 ? ` ×${n}` : "",
          ),
        ),
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

/**
 * The played cards of this turn; each one a button when a listed recruit
 * picks it (rules §4 Step 2).
 * @param {View} v @param {BoardUi} ui
 */
function playedCards(v, ui) {
  const p = v.played;
  if (!p) return h("p", { class: "empty" }, "nothing yet");
  const recruit = (/** @type {string} */ pick) =>
    ui.actions.filter((a) => a.type === "recruit" && /** @type {any} */ (a).pick === pick);
  return h(
    "div",
    { class: "cards played" },
    p.face_up
      ? h(
          "span",
          {},
          "face up: ",
          agentWithInfo(
            tapCard(
              agent(p.face_up),
              recruit("face_up"),
              `Recruit ${card(GAME, p.face_up).name}, face up`,
              ui,
            ),
            "played-up",
            p.face_up,
          ),
        )
      : null,
    p.face_down_seat !== null
      ? h(
          "span",
          {},
          "face down: ",
          ((face) => (p.face_down ? agentWithInfo(face, "played-down", p.face_down) : face))(
            tapCard(
              p.face_down ? agent(p.face_down, "down") : h("span", { class: "agent back" }, "?"),
              recruit("face_down"),
              `Recruit the face-down card${p.face_down ? ` (${card(GAME, p.face_down).name})` : ""}`,
              ui,
            ),
          ),
        )
      : null,
  );
}

/** @param {Game} g @param {BoardUi} ui */
function draw(g, ui) {
  const v = /** @type {View} */ (g.view);
  const you = g.you;
  const take = (/** @type {string} */ id) =>
    ui.actions.filter((a) => a.type === "take" && /** @type {any} */ (a).card === id);
  const marketName = (/** @type {string} */ id) => marketCard(id)?.name ?? id;
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
    v.hand
      ? h(
          "div",
          { class: "card hand" },
          h("h3", {}, "Your hand"),
          handCards(v.hand, ui),
          h(
            "p",
            { class: "small" },
            [...new Set(v.hand)].map((c) => `${card(GAME, c).name}: ${card(GAME, c).text}`).join(" · "),
          ),
        )
      : null,
    h(
      "div",
      { class: "card" },
      h("h3", {}, "Played this turn"),
      playedCards(v, ui),
      v.last_turn?.recruited?.length
        ? h(
            "p",
            { class: "small" },
            "Last turn: ",
            v.last_turn.recruited.map((r, i) =>
              h(
                "span",
                {},
                `team ${r.team} recruited `,
                agentWithInfo(agent(r.card), `last-${i}`, r.card),
                ` (${r.moved >= 0 ? "+" : ""}${r.moved}) `,
              ),
            ),
          )
        : null,
    ),
    v.black_market
      ? h(
          "div",
          { class: "card market-supply" },
          h("h3", {}, "Black market"),
          h(
            "div",
            { class: "cards" },
            v.black_market.supply.map((id) =>
              marketWithInfo(tapCard(market(id), take(id), `Take ${marketName(id)}`, ui), `market-${id}`, id),
            ),
          ),
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
        h(
          "div",
          {},
          "In play: ",
          inPlayList(/** @type {Record<string, number>} */ (t.in_play), ui, `team-${t.team}`),
        ),
        v.mode === "advanced"
          ? h(
              "div",
              {},
              "Black market: ",
              t.black_market?.length
                ? t.black_market.map((id) => marketWithInfo(market(id), `team-${t.team}-bm-${id}`, id))
                : h("span", { class: "empty" }, "none"),
            )
          : null,
        h(
          "ul",
          { class: "small seats" },
          v.players
            .filter((x) => x.team === t.team)
            .map((x) => {
              const words = `seat ${x.seat}: ${x.hand_size} in hand, ${x.discards} discarded (${x.discards_left} left)`;
              // §9.4: the lead hands the face-up card to its partner by a tap on the partner
              const handOver = x.seat !== you ? ui.actions.filter((a) => a.type === "hand_over") : [];
              return h(
                "li",
                {},
                handOver.length
                  ? tapCard(
                      h("span", {}, words),
                      handOver,
                      `${words}: hand the face-up card to seat ${x.seat}`,
                      ui,
                      "partner",
                    )
                  : words,
              );
            }),
        ),
      ),
    ),
  );
}

/** Actions chosen by tapping a card of the board. */
const ON_BOARD = ["play", "recruit", "take", "hand_over", ...HAND_CARD, ...IN_PLAY];

/** In words, what to tap for the listed actions. @param {Action[]} actions */
function hint(actions) {
  const has = (/** @type {string} */ t) => actions.some((a) => a.type === t);
  if (has("hand_over")) return "Tap a card in your hand to play it face up, or your partner to let them.";
  if (has("play")) return "Tap your play in your hand: face up first, then face down.";
  if (has("recruit")) return "Tap the played card to recruit.";
  if (has("take")) return "Tap a black-market card to take it.";
  if (actions.some((a) => IN_PLAY.includes(a.type))) return "Tap an agent in play.";
  if (actions.some((a) => HAND_CARD.includes(a.type))) return "Tap a card in your hand.";
  return "";
}

/** @type {import("./game.js").Board} */
export const agentAvenue = {
  draw,
  // (the game's one option, rules §7: its view says it)
  options: (g) => {
    const mode = /** @type {View | null} */ (g.view)?.mode;
    return mode ? { mode } : {};
  },
  onBoard: (a) => ON_BOARD.includes(a.type),
  hint,
  clear: () => {
    sel = { seq: -1, up: -1, down: -1 };
  },
};
