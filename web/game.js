// game.js: the game screen, whatever the game: who sits where and whose
// turn it is, the game's own board (aa.js, quantum.js), where a move is
// chosen by tapping cards, ships and squares, and the current choices
// under it; the caller's whole list of legal actions stays as a collapsed
// fallback, each with the label the server gives it. Every move posted is
// one of the server's listed actions, unchanged: the board only filters
// the list by what was tapped (the client computes no rules). The screen
// follows the game's event stream (events.js) and redraws on every event.
// Under the history, the game's chat (chat.js): the players' channel for
// its seats, the spectators' for everyone else. Once the game is over its players may offer, accept or decline a
// rematch (the page then looks at the game every 2 s until the rematch
// starts, and links to it).
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import {
  ui,
  gameInfo,
  act,
  go,
  status,
  showError,
  clearOffline,
  seatName,
  resultWords,
  optionWords,
  chosenOptions,
  rulesLink,
} from "./ui.js";
import { follow } from "./events.js";
import { agentAvenue } from "./aa.js";
import { quantum } from "./quantum.js";
import { seatRatings, points } from "./ratings.js";
import { chatPanel } from "./chat.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").ActionList} ActionList */
/** @typedef {import("./types.js").LoggedMove} LoggedMove */

/**
 * What a board may do with the caller's legal actions: `actions`, the
 * server's list (empty when the caller has no move, or in a replay);
 * `seq`, the list's seq (a selection kept for it is dropped when it
 * changes); `pick(f, what)` shows as the current choices the listed
 * actions `f` accepts, `what` saying in words what was tapped (null f:
 * nothing picked); `act(a)` posts listed action `a` unchanged.
 * @typedef {{actions: Action[], seq: number, pick: (f: ((a: Action) => boolean) | null, what?: string) => void, act: (a: Action) => void}} BoardUi
 */

/**
 * A board: `draw` draws the game's view, its tappable things those that
 * name a listed action; `onBoard(a)` says that action `a` is chosen on the
 * board (the choices show the others until something is tapped); `hint`
 * tells the player, in words, what to tap; `clear()` forgets what was
 * tapped; `options(g)` the game's options, read from its view (the Game
 * does not list them).
 * @typedef {{draw: (g: Game, ui: BoardUi) => Node, onBoard: (a: Action) => boolean, hint: (actions: Action[]) => string, clear: () => void, options: (g: Game) => Record<string, unknown>}} Board
 */

/** @type {Record<string, Board>} the board of each game id */
const BOARDS = { "agent-avenue": agentAvenue, quantum };

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

/** Under this much time left a seat's clock shows a warning, ms. */
const LOW_MS = 10000;

/** A duration for people: "1:05", "2:03:04", or "3 d 4:00:00". @param {number} ms */
function duration(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(t / 86400),
    hh = Math.floor((t % 86400) / 3600),
    mm = Math.floor((t % 3600) / 60),
    ss = t % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const hms = hh || d ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
  return d ? `${d} d ${hms}` : hms;
}

/**
 * Seat `seat`'s clock as the server gives it: a live countdown to its
 * deadline (tick() redraws it every second), else what is left of its
 * bank; null for an untimed game or a seat with neither.
 * @param {Game} g @param {number} seat
 */
function seatClock(g, seat) {
  const c = g.clock?.seats.find((x) => x.seat === seat);
  if (!c) return null;
  if (c.deadline)
    return h("span", { class: "clock running", "data-deadline": c.deadline, "data-seat": seat });
  if (c.bank_ms === undefined || g.status === "finished") return null;
  return h("span", { class: "clock", "data-seat": seat }, ` · bank ${duration(c.bank_ms)}`);
}

/**
 * Seat `seat`'s vacation as the server gives it (`clock.seats[].vacation`,
 * docs/notifications.md "Vacation"): " · on vacation until <date>" while
 * it lasts (its clock is stopped), else null.
 * @param {Game} g @param {number} seat
 */
function seatVacation(g, seat) {
  const v = g.clock?.seats.find((x) => x.seat === seat)?.vacation;
  if (!v || g.status !== "active" || Date.parse(v.until) <= Date.now()) return null;
  const until = new Date(v.until);
  return h(
    "span",
    { class: "vacation", "data-seat": seat },
    " · on vacation until ",
    h("time", { datetime: v.until }, until.toLocaleString()),
  );
}

/** Redraws every running clock in `el`: time left, and the low-time warning. @param {HTMLElement} el */
function tick(el) {
  for (const c of el.querySelectorAll(".clock[data-deadline]")) {
    const span = /** @type {HTMLElement} */ (c);
    const left = Date.parse(/** @type {string} */ (span.dataset.deadline)) - Date.now();
    const low = left < LOW_MS;
    const text = ` · ${duration(left)} left${low ? " — low time!" : ""}`;
    if (span.textContent !== text) span.textContent = text;
    span.classList.toggle("low", low);
  }
}

/** Above this many actions the list is grouped by action type. */
const GROUP_AT = 12;

/**
 * Draws game `id` into `main` and keeps it live.
 * @param {HTMLElement} main @param {string} id
 * @param {number | null} [at] a past position to open at (the page's
 *   `#/game/<id>?at=N`: the replay after move N), or null: the game now
 * @returns {Promise<() => void>} the cleanup to call when leaving
 */
export async function gameScreen(main, id, at = null) {
  const head = h("section", { class: "card game-top", "aria-labelledby": "game-h" });
  const board = h("section", { class: "board", "aria-label": "Board" });
  const acts = h("section", { class: "card actions", "aria-labelledby": "actions-h" });
  const link = h("span", { class: "link-state", "aria-live": "polite" }, "connecting");
  const history = h("section", { class: "card history", "aria-labelledby": "history-h" });
  mount(main, h("p", { class: "row" }, h("a", { href: "#/" }, "← Lobby"), link), head, board, acts, history);
  /** @type {LoggedMove[]} the move log read so far, in seq order */
  const log = [];
  /** @type {Game | null} the past position shown by the replay (GET ?at=), or null: the game now */
  let past = null;

  /**
   * Shows the position after move `n` (the replay), or the game now when
   * n is its seq or more. The server gives the past view (?at=): the
   * client replays nothing itself.
   * @param {number} n
   */
  async function replay(n) {
    if (!g) return;
    if (n >= g.seq) past = null;
    else {
      try {
        past = await api.gameAt(id, Math.max(0, n));
      } catch (e) {
        showError(e);
        return;
      }
    }
    // The page's address names the position shown, so it can be shared
    // or reloaded (replaceState: no new screen, no history entry).
    const here = `#/game/${encodeURIComponent(id)}` + (past ? `?at=${past.seq}` : "");
    if (location.hash !== here) window.history.replaceState(null, "", here);
    draw();
  }

  /** @type {Game | null} */
  let g = null;
  /** @type {ReturnType<typeof chatPanel> | null} the chat panel, once the game is read */
  let chat = null;
  const readChat = () => chat?.load().catch(showError);
  /**
   * The chat of the caller's channel: a seat's holder reads the players',
   * anyone else the spectators' (docs/matchmaking.md, "Chat"); a panel
   * made anew when that changes (a spectator who took a seat).
   */
  function ensureChat() {
    if (!g) return;
    const want = g.you !== null ? "players" : "spectators";
    if (chat?.channel === want) return;
    const next = chatPanel(id, want);
    if (chat) chat.el.replaceWith(next.el);
    else main.append(next.el);
    chat = next;
    readChat();
  }
  /** @type {ActionList | null} */
  let list = null;
  /** @type {((a: Action) => boolean) | null} */
  let filter = null;
  let filterWhat = "";
  let filterSeq = -1; // the list's seq the filter was picked for
  let busy = false;
  let drawn = ""; // what the screen shows, to skip redrawing the same
  let again = false;
  /** @type {Map<string, boolean>} action groups the player opened or closed */
  const opened = new Map();
  /** @type {{stop: () => void, end: () => void} | null} the event stream, once open */
  let stream = null;
  /** @type {Element | null} the control of the board or actions that last had the focus */
  let lastFocus = null;
  /** @type {Element | null} the board's control tapped last (to keep it in view over the choices) */
  let tapped = null;
  board.addEventListener(
    "click",
    (ev) => {
      tapped = /** @type {Element} */ (ev.target).closest("[data-pick]");
    },
    true,
  );
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
    filterSeq = list?.seq ?? -1;
    keepFocus(drawActions);
    // The choices sit at the bottom of a phone's screen (sticky): keep the
    // control tapped in view above them.
    if (tapped?.isConnected) tapped.scrollIntoView({ block: "nearest", inline: "nearest" });
  };

  /**
   * Posts listed action `a` (from the list of seq `seq`), then redraws;
   * `b`, the button that chose it, is disabled meanwhile.
   * @param {Action} a @param {number} seq @param {HTMLButtonElement | null} [b]
   */
  async function post(a, seq, b = null) {
    if (b) b.disabled = true;
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
      if (b) {
        b.disabled = false;
        if (document.activeElement === document.body && b.isConnected) b.focus();
      }
      refresh();
    }
  }

  /** @type {BoardUi} what the board may do: nothing in a replay or without a move */
  const boardUi = {
    get actions() {
      return !past && list ? list.actions : [];
    },
    get seq() {
      return list?.seq ?? -1;
    },
    pick: (f, what) => {
      if (!past) pick(f, what);
    },
    act: (a) => {
      if (!past && list) post(a, list.seq);
    },
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
      await readLog(ng.seq);
      clearOffline();
      // Nothing new (our own move's event after its answer): keep the
      // screen as it is, so a button under the finger stays put.
      const key = JSON.stringify([ng, nl]);
      if (key === drawn) return;
      drawn = key;
      g = ng;
      list = nl;
      draw();
      ensureChat();
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

  /**
   * Reads the moves after those in `log` up to seq `upTo` (the log's
   * pages, GET …/moves?after=), so each refresh asks only for the new ones.
   * @param {number} upTo
   */
  async function readLog(upTo) {
    let after = log.length ? log[log.length - 1].seq : 0;
    while (after < upTo) {
      const page = await api.moves(id, after);
      for (const m of page.moves) if (m.seq > after) log.push(m);
      after = log.length ? log[log.length - 1].seq : after;
      if (page.next_after === undefined) break;
    }
  }

  /**
   * The replay's slider and step buttons, over positions 0..seq (the
   * slider at seq: the game now).
   * @param {number} seq
   */
  function replayControls(seq) {
    const at = past ? past.seq : seq;
    return h(
      "div",
      { class: "replay row" },
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "aria-label": "Previous move",
          disabled: at <= 0,
          onclick: () => replay(at - 1),
        },
        "◀",
      ),
      h("input", {
        type: "range",
        class: "replay-at",
        min: 0,
        max: seq,
        value: at,
        "aria-label": "Position to view (move number)",
        onchange: (/** @type {Event} */ ev) =>
          replay(Number(/** @type {HTMLInputElement} */ (ev.target).value)),
      }),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "aria-label": "Next move",
          disabled: at >= seq,
          onclick: () => replay(at + 1),
        },
        "▶",
      ),
      h("span", { class: "replay-where" }, at >= seq ? "now" : `move ${at} of ${seq}`),
    );
  }

  /** The move log, newest first: who moved, what, when; moves the server made marked. */
  function drawHistory() {
    if (!g) return;
    const players = g.players;
    mount(
      history,
      h("h2", { id: "history-h" }, "Moves ", h("span", { class: "count" }, `(${log.length})`)),
      g.seq > 0 ? replayControls(g.seq) : null,
      log.length
        ? h(
            "ol",
            { class: "moves", reversed: true },
            [...log].reverse().map((m) =>
              h(
                "li",
                { class: `move${m.by ? " by-" + m.by : ""}`, "data-seq": m.seq, value: m.seq },
                h(
                  "button",
                  {
                    type: "button",
                    class: "link at",
                    "aria-label": `View the game after move ${m.seq}`,
                    "aria-current": past?.seq === m.seq ? "true" : undefined,
                    onclick: () => replay(m.seq),
                  },
                  `${m.seq}.`,
                ),
                " ",
                h("span", { class: `dot seat${m.seat}`, "aria-hidden": "true" }),
                `${seatName(players[m.seat])}: ${m.action.type}`,
                m.by === "timeout"
                  ? h("strong", { class: "timeout" }, " — timed out")
                  : m.by === "bot"
                    ? " (bot)"
                    : m.by === "resigned"
                      ? " (resigned seat)"
                      : null,
                h("time", { datetime: m.time }, ` ${new Date(m.time).toLocaleTimeString()}`),
              ),
            ),
          )
        : h("p", { class: "empty" }, "No moves yet."),
    );
  }

  /**
   * The rematch of a finished game (docs/matchmaking.md, "Rematch"): its
   * players offer it, accept or decline the one offered, and everyone
   * gets a link to the new game once it started; a rematch links back.
   * @param {Game} gm
   */
  function rematchRow(gm) {
    const r = gm.rematch;
    const me = gm.you;
    /** @param {string} label @param {() => Promise<unknown>} fn @param {string} [cls] */
    const button = (label, fn, cls = "") =>
      h(
        "button",
        {
          type: "button",
          class: cls,
          onclick: async (ev) => {
            if ((await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), fn)) !== undefined) refresh();
          },
        },
        label,
      );
    const back = gm.rematch_of
      ? h(
          "p",
          { class: "rematch-of" },
          "A rematch of ",
          h("a", { href: `#/game/${encodeURIComponent(gm.rematch_of)}` }, "the previous game"),
        )
      : null;
    if (gm.status !== "finished") return back;
    let row = null;
    if (r && r.game) {
      row = h(
        "p",
        { class: "rematch row", role: "status" },
        "Rematch started: ",
        h("a", { href: `#/game/${encodeURIComponent(r.game)}` }, "Play the rematch"),
      );
    } else if (r) {
      const by = r.offered_by === null ? "A player" : seatName(gm.players[r.offered_by]);
      const mine = me !== null && r.accepted.includes(me);
      row = h(
        "p",
        { class: "rematch row", role: "status" },
        mine ? "Rematch offered: waiting for the others " : `${by} offers a rematch `,
        me === null
          ? null
          : mine
            ? button("Withdraw", () => api.declineRematch(id), "secondary")
            : [
                button("Accept rematch", () => api.rematch(id)),
                button("Decline", () => api.declineRematch(id), "secondary"),
              ],
      );
    } else if (me !== null && gm.players.every((p) => p.player || p.bot)) {
      // (a seat held by a seat token alone cannot be carried into a rematch)
      row = h(
        "p",
        { class: "rematch row" },
        button("Rematch", () => api.rematch(id)),
      );
    }
    return [back, row];
  }

  /** @type {Map<string, import("./types.js").Rating> | null} the players' ratings, once read */
  let ratings = null;
  /** A seated player's rating, shown beside their name. @param {string | undefined} pid */
  const ratingOf = (pid) => {
    const r = pid ? ratings?.get(pid) : undefined;
    return r
      ? h(
          "span",
          { class: "seat-rating", title: r.provisional ? "rating (provisional)" : "rating" },
          ` (${points(r.rating, r.system)}${r.provisional ? "?" : ""})`,
        )
      : null;
  };
  /** @type {string} the game's status when the ratings were read */
  let ratingsAt = "";
  /** Reads the players' ratings once every seat is held (and again once the game ended: it rated them), then redraws. */
  const readRatings = () => {
    if (!g || g.status === "waiting" || ratingsAt === g.status) return;
    ratingsAt = g.status;
    seatRatings(id, g.game, g.players).then((m) => {
      ratings = m;
      draw();
    });
  };

  function draw() {
    if (!g) return;
    readRatings();
    const gm = g;
    const info = gameInfo(g.game);
    const me = session.identity();
    const canJoin =
      g.status === "waiting" &&
      g.you === null &&
      me &&
      g.players.some((p) => p.open && (p.invited === null || p.invited === me.id));
    /* A visitor on a shared link: become a player and join in one step. */
    const visitorJoins = g.status === "waiting" && !me && g.players.some((p) => p.open && p.invited === null);
    mount(
      head,
      h(
        "h2",
        { id: "game-h" },
        info?.title ?? g.game,
        " ",
        h("span", { class: `badge ${g.status}` }, g.status),
      ),
      // The options its creator chose, in words (the defaults left out:
      // a phone's screen keeps room for the board), and its rules.
      h(
        "p",
        { class: "game-options" },
        optionWords(g.game, chosenOptions(g.game, BOARDS[g.game]?.options(g) ?? {}, g.seats)).join(" · "),
        rulesLink(g.game, true),
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
            p.player
              ? h("a", { href: `#/player/${p.player.id}`, class: "seat-player" }, seatName(p))
              : seatName(p),
            p.seat === gm.you ? " (you)" : "",
            ratingOf(p.player?.id),
            p.resigned ? " — resigned" : "",
            seatClock(gm, p.seat),
            seatVacation(gm, p.seat),
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
            resultWords(g.result, gm.players).winners,
            " (",
            h(
              "span",
              { class: "reason", "data-reason": g.result.reason },
              resultWords(g.result, gm.players).reason,
            ),
            ")",
            g.you !== null && g.result.winners.includes(g.you) ? h("strong", {}, " — you won!") : null,
          )
        : null,
      rematchRow(gm),
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
        visitorJoins ? visitorJoin(id, refresh) : null,
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
    const shown = past ?? gm; // a past position is only looked at: no picking
    keepFocus(() => {
      mount(
        board,
        drawBoard ? drawBoard.draw(shown, boardUi) : h("pre", {}, JSON.stringify(shown.view, null, 2)),
      );
      drawActions();
    });
    tick(head);
    drawHistory();
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
    // lastFocus was in the board or the actions when it had the focus;
    // a redraw may have taken it out of the page since (then it is no
    // longer inside either, but its focus is still owed).
    const inside =
      (had instanceof HTMLElement || had instanceof SVGElement) &&
      (had === lastFocus || board.contains(had) || acts.contains(had));
    const name = (/** @type {Element} */ el) => el.getAttribute("aria-label") ?? el.textContent;
    const text = inside ? name(had) : null;
    fn();
    if (!inside || (had.isConnected && document.activeElement === had)) return;
    const buttons = [
      ...acts.querySelectorAll("button"),
      .../** @type {NodeListOf<HTMLElement | SVGElement>} */ (board.querySelectorAll("button, [data-pick]")),
    ];
    // Only a control that takes the focus now (a board's card may be drawn
    // without being one when it is not this player's turn).
    const focusable = (/** @type {Element} */ el) =>
      !el.hasAttribute("disabled") && (el.tagName === "BUTTON" || el.getAttribute("tabindex") === "0");
    const same = buttons.find((b) => focusable(b) && name(b) === text);
    const first = /** @type {HTMLElement | SVGElement | undefined} */ (
      [...acts.querySelectorAll("button.choice"), ...board.querySelectorAll("button, [data-pick]")].find(
        focusable,
      )
    );
    const heading = /** @type {HTMLElement | null} */ (acts.querySelector("h2"));
    heading?.setAttribute("tabindex", "-1");
    (same ?? first ?? heading)?.focus();
    if (document.activeElement === document.body) heading?.focus();
  }

  function drawActions() {
    if (!g) return;
    if (past) {
      mount(
        acts,
        h("h2", { id: "actions-h" }, `Replay: after move ${past.seq} of ${g.seq}`),
        h("button", { type: "button", onclick: () => replay(Infinity) }, "Back to the game now"),
      );
      return;
    }
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
    if (filterSeq !== seq) filter = null; // picked on a list the game has left
    const gboard = BOARDS[g.game];
    // The current choices: what was tapped on the board narrowed the list
    // to these; before that, the actions the board has no place for.
    const choices = filter
      ? list.actions.filter(filter)
      : list.actions.filter((a) => !gboard || !gboard.onBoard(a));
    const button = (/** @type {Action} */ a, /** @type {string} */ cls) =>
      h(
        "button",
        {
          type: "button",
          class: cls,
          "data-type": a.type,
          onclick: (ev) => post(a, seq, /** @type {HTMLButtonElement} */ (ev.currentTarget)),
        },
        a.label ?? a.type,
      );
    /** @type {Map<string, Action[]>} */
    const groups = new Map();
    for (const a of list.actions) groups.set(a.type, [...(groups.get(a.type) ?? []), a]);
    const all = list.actions;
    mount(
      acts,
      h("h2", { id: "actions-h" }, "Your move ", h("span", { class: "count" }, `(${all.length})`)),
      filter
        ? h(
            "p",
            { class: "row picked" },
            h("span", {}, `Chosen: ${filterWhat} `),
            h(
              "button",
              {
                type: "button",
                class: "link",
                onclick: () => {
                  gboard?.clear();
                  filter = null;
                  draw();
                },
              },
              "clear",
            ),
          )
        : gboard
          ? h("p", { class: "hint" }, gboard.hint(all))
          : null,
      choices.length
        ? h(
            "div",
            { class: "action-list choices", role: "group", "aria-label": "Choices" },
            choices.map((a) => button(a, "choice")),
          )
        : null,
      h(
        "details",
        {
          class: "all-actions",
          open: opened.get("") ?? false,
          ontoggle: (ev) => opened.set("", /** @type {HTMLDetailsElement} */ (ev.currentTarget).open),
        },
        h("summary", {}, `All moves as a list (${all.length})`),
        all.length <= GROUP_AT
          ? h(
              "div",
              { class: "action-list" },
              all.map((a) => button(a, "action")),
            )
          : [...groups].map(([type, as]) =>
              h(
                "details",
                {
                  class: "group",
                  open: opened.get(type) ?? (groups.size <= 3 || as.length <= 4),
                  ontoggle: (ev) =>
                    opened.set(type, /** @type {HTMLDetailsElement} */ (ev.currentTarget).open),
                },
                h("summary", {}, `${type} (${as.length})`),
                h(
                  "div",
                  { class: "action-list" },
                  as.map((a) => button(a, "action")),
                ),
              ),
            ),
      ),
    );
    // What scrolls into view (a tapped card or ship, a focused control)
    // stops above the choices, which stay at the bottom of the screen.
    document.documentElement.style.scrollPaddingBottom = `${acts.offsetHeight + 8}px`;
  }

  await refresh();
  if (at !== null) await replay(at);
  const events = follow(
    id,
    (e) => {
      if (e.event === "chat")
        chat?.add(/** @type {import("./types.js").ChatMessage} */ (/** @type {unknown} */ (e)));
      else refresh();
    },
    (s) => {
      link.textContent = s;
      link.dataset.state = s;
      if (s === "live") {
        refresh(); // back after a cut: what the screen missed
        readChat();
      }
    },
  );
  stream = events;
  // A game over already: its state and end events may come, or, asked
  // again after them, nothing (204): either way, nothing more to follow.
  if (g && /** @type {Game} */ (g).status === "finished") events.end();
  const ticker = setInterval(() => tick(head), 1000);
  // A finished game's rematch is decided by the other players: look
  // again until it starts (the game's stream ended with the game).
  const rematchWatch = setInterval(() => {
    if (g && g.status === "finished" && g.you !== null && !g.rematch?.game && !document.hidden) refresh();
  }, 2000);
  // Once the game is over its stream has ended: post-game chat is read.
  const chatWatch = setInterval(() => {
    if (g && g.status === "finished" && !document.hidden) readChat();
  }, 5000);
  return () => {
    clearInterval(ticker);
    clearInterval(rematchWatch);
    clearInterval(chatWatch);
    document.documentElement.style.scrollPaddingBottom = "";
    events.stop();
  };
}

/**
 * The form a visitor gets on a waiting game's shared link: a name, and one
 * button that signs up (POST /v1/players) and takes the open seat (POST
 * …/join).
 * @param {string} id the game @param {() => void} refresh redraws the game
 */
function visitorJoin(id, refresh) {
  const name = /** @type {HTMLInputElement} */ (
    h("input", { id: "visitor-name", name: "name", required: true, maxlength: 64, autocomplete: "nickname" })
  );
  return h(
    "form",
    {
      class: "visitor-join",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const b = /** @type {HTMLButtonElement} */ (
          /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
        );
        const joined = await act(b, async () => {
          await session.signUp(name.value.trim());
          ui.header();
          return api.joinGame(id);
        });
        if (joined) refresh();
      },
    },
    h("label", { for: "visitor-name" }, "Your name"),
    name,
    h("button", { type: "submit" }, "Become a player and join"),
  );
}
