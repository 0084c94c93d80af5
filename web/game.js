// game.js: the game screen, whatever the game: who sits where and whose
// turn it is, the game's own board (aa.js, quantum.js), and the caller's
// legal actions as buttons, each with the label the server gives it.
// Choosing one posts it back unchanged. The screen follows the game's
// event stream (events.js) and redraws on every event.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { gameInfo, act, go, status, showError, clearOffline } from "./ui.js";
import { follow } from "./events.js";
import { agentAvenue } from "./aa.js";
import { quantum } from "./quantum.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").ActionList} ActionList */

/**
 * A board view: draws the game's view; `pick` narrows the action list to
 * the actions of one thing the player clicked (a ship), or null for all.
 * @typedef {(g: Game, pick: (f: ((a: Action) => boolean) | null, what?: string) => void) => Node} Board
 */

/** @type {Record<string, Board>} the board of each game id */
const BOARDS = { "agent-avenue": agentAvenue, quantum };

/**
 * Who holds a seat, in words: the player's name, a bot, or an open seat.
 * @param {Game["players"][number] | undefined} p
 */
function seatName(p) {
  if (!p) return "?";
  return (
    p.player?.name ?? (p.bot ? `bot (${p.bot.bot})` : p.invited ? "invited" : p.open ? "open" : "seat token")
  );
}

/**
 * Leaves waiting game `id`: its creator cancels it (DELETE, so it is not
 * left empty in everyone's open seats); anyone else, refused that as not
 * the creator (403), gives up the seat (POST …/leave). The Game does not
 * say who created it, so the server decides.
 * @param {string} id @returns {Promise<null>}
 */
async function leaveOrCancel(id) {
  try {
    return await api.cancelGame(id);
  } catch (e) {
    if (e instanceof api.ApiError && e.status === 403) return api.leaveGame(id);
    throw e;
  }
}

/** Above this many actions the list is grouped by action type. */
const GROUP_AT = 12;

/**
 * Draws game `id` into `main` and keeps it live.
 * @param {HTMLElement} main @param {string} id
 * @returns {Promise<() => void>} the cleanup to call when leaving
 */
export async function gameScreen(main, id) {
  const head = h("section", { class: "card game-top", "aria-labelledby": "game-h" });
  const board = h("section", { class: "board", "aria-label": "Board" });
  const acts = h("section", { class: "card actions", "aria-labelledby": "actions-h" });
  const link = h("span", { class: "link-state", "aria-live": "polite" }, "connecting");
  mount(main, h("p", { class: "row" }, h("a", { href: "#/" }, "← Lobby"), link), head, board, acts);

  /** @type {Game | null} */
  let g = null;
  /** @type {ActionList | null} */
  let list = null;
  /** @type {((a: Action) => boolean) | null} */
  let filter = null;
  let filterWhat = "";
  let busy = false;
  let drawn = ""; // what the screen shows, to skip redrawing the same
  let again = false;
  /** @type {Map<string, boolean>} action groups the player opened or closed */
  const opened = new Map();
  /** @type {{stop: () => void, end: () => void} | null} the event stream, once open */
  let stream = null;
  /** @type {Element | null} the control of the board or actions that last had the focus */
  let lastFocus = null;
  for (const section of [board, acts])
    section.addEventListener("focusin", (ev) => {
      lastFocus = /** @type {Element} */ (ev.target);
    });
  main.addEventListener("focusin", (ev) => {
    const t = /** @type {Node} */ (ev.target);
    if (!board.contains(t) && !acts.contains(t)) lastFocus = null;
  });

  const pick = (/** @type {((a: Action) => boolean) | null} */ f, what = "") => {
    filter = f;
    filterWhat = what;
    drawActions();
  };

  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const ng = await api.game(id);
      const nl = ng.you !== null && ng.status !== "finished" ? await api.actions(id) : null;
      clearOffline();
      // Nothing new (our own move's event after its answer): keep the
      // screen as it is, so a button under the finger stays put.
      const key = JSON.stringify([ng, nl]);
      if (key === drawn) return;
      drawn = key;
      g = ng;
      list = nl;
      draw();
      if (g.status === "finished") stream?.end();
    } catch (e) {
      showError(e);
    } finally {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  function draw() {
    if (!g) return;
    const gm = g;
    const info = gameInfo(g.game);
    const me = session.identity();
    const canJoin =
      g.status === "waiting" &&
      g.you === null &&
      me &&
      g.players.some((p) => p.open && (p.invited === null || p.invited === me.id));
    mount(
      head,
      h(
        "h2",
        { id: "game-h" },
        info?.title ?? g.game,
        " ",
        h("span", { class: `badge ${g.status}` }, g.status),
      ),
      h(
        "ol",
        { class: "players", start: 0 },
        g.players.map((p) =>
          h(
            "li",
            {
              class: [gm.to_act.includes(p.seat) ? "acting" : "", p.seat === gm.you ? "you" : ""].join(" "),
              "data-seat": p.seat,
            },
            h("span", { class: `dot seat${p.seat}`, "aria-hidden": "true" }),
            `Seat ${p.seat}: `,
            seatName(p),
            p.seat === gm.you ? " (you)" : "",
            p.resigned ? " — resigned" : "",
            gm.to_act.includes(p.seat) && gm.status === "active"
              ? h("strong", { class: "to-act" }, " — to act")
              : null,
          ),
        ),
      ),
      g.result
        ? h(
            "p",
            { class: "result", role: "status" },
            "Game over: ",
            g.result.winners.length
              ? `${g.result.winners.map((w) => `${seatName(gm.players[w])} (seat ${w})`).join(", ")} won`
              : "nobody won",
            ` (${g.result.reason})`,
            g.you !== null && g.result.winners.includes(g.you) ? h("strong", {}, " — you won!") : null,
          )
        : null,
      h(
        "p",
        { class: "row" },
        canJoin
          ? h(
              "button",
              {
                type: "button",
                onclick: async (ev) => {
                  if (await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => api.joinGame(id)))
                    refresh();
                },
              },
              "Join this game",
            )
          : null,
        g.status === "waiting" && g.you !== null
          ? h(
              "button",
              {
                type: "button",
                class: "secondary",
                onclick: async (ev) => {
                  if (
                    (await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                      leaveOrCancel(id),
                    )) !== undefined
                  )
                    go("#/");
                },
              },
              "Leave",
            )
          : null,
        g.status === "active" && g.you !== null && !g.players[g.you]?.resigned
          ? h(
              "button",
              {
                type: "button",
                class: "secondary danger",
                onclick: async (ev) => {
                  if (confirm("Resign this game?")) {
                    await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () => api.resign(id));
                    refresh();
                  }
                },
              },
              "Resign",
            )
          : null,
      ),
    );
    const drawBoard = BOARDS[g.game];
    keepFocus(() => {
      mount(board, drawBoard ? drawBoard(gm, pick) : h("pre", {}, JSON.stringify(gm.view, null, 2)));
      drawActions();
    });
  }

  /**
   * Redraws with `fn` without dropping the keyboard focus to <body>: a
   * control that had it and was redrawn gets it back when one with the
   * same text is drawn again, else the first action button, else the
   * actions' heading (made focusable for this).
   * @param {() => void} fn
   */
  function keepFocus(fn) {
    const active = document.activeElement;
    // A button disabled while its move is posted lost the focus to <body>.
    const had = active === null || active === document.body ? lastFocus : active;
    const inside = had instanceof HTMLElement && (board.contains(had) || acts.contains(had));
    const text = inside ? had.textContent : null;
    fn();
    if (!inside || (had.isConnected && document.activeElement === had)) return;
    const buttons = [...acts.querySelectorAll("button"), ...board.querySelectorAll("button")];
    const same = buttons.find((b) => b.textContent === text);
    const first = /** @type {HTMLElement | null} */ (acts.querySelector("button.action"));
    const heading = /** @type {HTMLElement | null} */ (acts.querySelector("h2"));
    heading?.setAttribute("tabindex", "-1");
    (same ?? first ?? heading)?.focus();
  }

  function drawActions() {
    if (!g) return;
    if (g.status === "waiting") {
      mount(acts, h("h2", { id: "actions-h" }, "Waiting for players"));
      return;
    }
    if (!list || !list.actions.length) {
      mount(
        acts,
        h(
          "h2",
          { id: "actions-h" },
          g.status === "finished" ? "Finished" : g.you === null ? "Watching" : "Not your turn",
        ),
      );
      return;
    }
    const seq = list.seq;
    const shown = filter ? list.actions.filter(filter) : list.actions;
    const button = (/** @type {Action} */ a) =>
      h(
        "button",
        {
          type: "button",
          class: "action",
          "data-type": a.type,
          onclick: async (ev) => {
            const b = /** @type {HTMLButtonElement} */ (ev.currentTarget);
            b.disabled = true;
            try {
              await api.move(id, a, seq);
              filter = null;
              status(`Played: ${a.label ?? a.type}`);
            } catch (e) {
              // The game moved on since this list was drawn (412 stale-state,
              // 409 not your turn any more): say why, and show the game now.
              if (e instanceof api.ApiError && (e.status === 412 || e.status === 409)) status(e.message);
              else showError(e);
            } finally {
              b.disabled = false;
              if (document.activeElement === document.body && b.isConnected) b.focus();
              refresh();
            }
          },
        },
        a.label ?? a.type,
      );
    /** @type {Map<string, Action[]>} */
    const groups = new Map();
    for (const a of shown) groups.set(a.type, [...(groups.get(a.type) ?? []), a]);
    mount(
      acts,
      h("h2", { id: "actions-h" }, "Your move ", h("span", { class: "count" }, `(${shown.length})`)),
      filter
        ? h(
            "p",
            { class: "row" },
            `Only: ${filterWhat} `,
            h(
              "button",
              { type: "button", class: "link", onclick: () => keepFocus(() => pick(null)) },
              "show all",
            ),
          )
        : null,
      shown.length <= GROUP_AT
        ? h("div", { class: "action-list" }, shown.map(button))
        : [...groups].map(([type, as]) =>
            h(
              "details",
              {
                class: "group",
                open: opened.get(type) ?? (groups.size <= 3 || as.length <= 4),
                ontoggle: (ev) => opened.set(type, /** @type {HTMLDetailsElement} */ (ev.currentTarget).open),
              },
              h("summary", {}, `${type} (${as.length})`),
              h("div", { class: "action-list" }, as.map(button)),
            ),
          ),
    );
  }

  await refresh();
  const events = follow(
    id,
    () => refresh(),
    (s) => {
      link.textContent = s;
      link.dataset.state = s;
      if (s === "live") refresh(); // back after a cut: what the screen missed
    },
  );
  stream = events;
  // A game over already: its state and end events may come, or, asked
  // again after them, nothing (204): either way, nothing more to follow.
  if (g && /** @type {Game} */ (g).status === "finished") events.end();
  return () => events.stop();
}
