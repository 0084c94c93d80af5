// lobby.js: the lobby screen. Getting an identity (a player and its
// token), creating a game of any game the catalog offers with its
// options and seating, the caller's games (whose turn, invitations) and
// the games with an open seat to join.
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
  resultWords,
  optionWords,
  rulesLink,
} from "./ui.js";

/** @typedef {import("./types.js").GameSummary} GameSummary */
/** @typedef {import("./types.js").MyGame} MyGame */
/** @typedef {import("./types.js").CatalogGame} CatalogGame */
/** @typedef {import("./types.js").CreateGame} CreateGame */

const POLL_MS = 5000;

/**
 * Draws the lobby into `main`; refreshes the lists every few seconds.
 * @param {HTMLElement} main
 * @returns {Promise<() => void>} the cleanup to call when leaving
 */
export async function lobby(main) {
  const id = session.identity();
  if (!id) {
    // A visitor: become a player, or watch the games waiting for players.
    const open = h("section", { class: "card", "aria-labelledby": "open-h" });
    mount(main, identityForm(), open);
    try {
      const waiting = await api.openGames();
      mount(open, h("h2", { id: "open-h" }, "Open seats"), gameList(waiting.games, null, false));
    } catch (e) {
      showError(e);
    }
    return () => {};
  }
  // What a returning player looks for first: their games, then open seats.
  const mine = h("section", { class: "card", "aria-labelledby": "mine-h" });
  const open = h("section", { class: "card", "aria-labelledby": "open-h" });
  mount(main, mine, open, createForm(), account(id));
  let shown = ""; // what the lists show, to skip redrawing the same
  const refresh = async () => {
    try {
      const [my, waiting] = await Promise.all([api.myGames(), api.openGames()]);
      clearOffline(); // the server answers again: "did not answer" is over
      const key = JSON.stringify([my.games, waiting.games]);
      if (key === shown) return;
      shown = key;
      const myIds = new Set(my.games.map((g) => g.id));
      mount(mine, h("h2", { id: "mine-h" }, "Your games"), gameList(my.games, id.id, true));
      mount(
        open,
        h("h2", { id: "open-h" }, "Open seats"),
        gameList(
          waiting.games.filter((g) => !myIds.has(g.id)),
          id.id,
          false,
        ),
      );
    } catch (e) {
      showError(e);
    }
  };
  await refresh();
  const timer = setInterval(refresh, POLL_MS);
  return () => clearInterval(timer);
}

/** The form to become a player, or to use a token from another device. */
function identityForm() {
  const name = /** @type {HTMLInputElement} */ (
    h("input", { id: "name", name: "name", required: true, maxlength: 64, autocomplete: "nickname" })
  );
  const token = /** @type {HTMLInputElement} */ (
    h("input", { id: "token", name: "token", required: true, autocomplete: "off" })
  );
  return h(
    "section",
    { class: "card" },
    h("h2", {}, "Play"),
    h(
      "form",
      {
        onsubmit: async (ev) => {
          ev.preventDefault();
          const b = /** @type {HTMLButtonElement} */ (
            /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
          );
          if (await act(b, () => session.signUp(name.value.trim()))) {
            ui.header();
            go("#/");
          }
        },
      },
      h("label", { for: "name" }, "Your name"),
      name,
      h("button", { type: "submit" }, "Become a player"),
    ),
    h(
      "details",
      {},
      h("summary", {}, "I have a token from another device"),
      h(
        "form",
        {
          onsubmit: async (ev) => {
            ev.preventDefault();
            const b = /** @type {HTMLButtonElement} */ (
              /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
            );
            if (await act(b, () => session.useToken(token.value.trim()))) {
              ui.header();
              go("#/");
            }
          },
        },
        h("label", { for: "token" }, "Player token"),
        token,
        h("button", { type: "submit" }, "Use this token"),
      ),
    ),
    linkCodeForm(),
  );
}

/** "I have a link code": signs this device in as the player who made it. */
function linkCodeForm() {
  const code = /** @type {HTMLInputElement} */ (
    h("input", { id: "link-code", name: "link-code", required: true, autocomplete: "off", maxlength: 64 })
  );
  return h(
    "form",
    {
      class: "link-code-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const b = /** @type {HTMLButtonElement} */ (
          /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
        );
        if (await act(b, () => session.useLinkCode(code.value.trim()))) {
          ui.header();
          go("#/");
        }
      },
    },
    h("label", { for: "link-code" }, "Link code from your other device"),
    code,
    h("button", { type: "submit" }, "Sign in with this code"),
  );
}

/**
 * Sign-out, after a warning: this device's token is its only copy, so
 * the dialog offers a link code first (to sign in again elsewhere).
 * @param {HTMLElement} out where a made code is shown
 */
function signOutDialog(out) {
  const dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "sign-out-dialog", "aria-labelledby": "sign-out-title" },
      h("h2", { id: "sign-out-title" }, "Sign out on this device?"),
      h(
        "p",
        {},
        "This device forgets your token. Without another signed-in device or a link code you cannot come back as this player.",
      ),
      h(
        "p",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            onclick: async (ev) => {
              dialog.close();
              await showLinkCode(/** @type {HTMLButtonElement} */ (ev.currentTarget), out);
            },
          },
          "Make a link code first",
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => {
              dialog.close();
              session.signOut();
              ui.header();
              go("#/");
            },
          },
          "Sign out on this device",
        ),
        h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, "Cancel"),
      ),
    )
  );
  return dialog;
}

/**
 * Makes a link code and shows it with its expiry, and beside it the QR
 * code of its claim URL (the server's SVG, as an image: a `data:` URL,
 * which the page's Content-Security-Policy allows for images) for the
 * other device's camera.
 * @param {HTMLButtonElement} b @param {HTMLElement} out
 */
async function showLinkCode(b, out) {
  const c = await act(b, () => api.createLinkCode());
  if (c)
    mount(
      out,
      h(
        "span",
        {},
        "On your other device, scan this QR code, or open this page and type the link code ",
        h("code", { class: "link-code" }, c.code),
        ` (valid once, until ${new Date(c.expires_at).toLocaleTimeString()}).`,
      ),
      c.qr_svg
        ? h("img", {
            class: "link-qr",
            src: `data:image/svg+xml,${encodeURIComponent(c.qr_svg)}`,
            alt: `QR code of the link that signs your other device in (code ${c.code})`,
          })
        : null,
    );
}

/**
 * The screen of a link code's claim URL (`#/link?code=XXXX-XXXX`, what
 * the QR code of showLinkCode opens): claims the code and signs this
 * device in as its player, then shows the lobby. A device already signed
 * in is asked first (it would change player). The code leaves the
 * address bar and the history at once (it is in the fragment, which no
 * request carries).
 * @param {HTMLElement} main @param {string} code
 * @returns {Promise<() => void>}
 */
export async function linkScreen(main, code) {
  history.replaceState(null, "", "#/link");
  const signIn = async (/** @type {HTMLButtonElement} */ b) => {
    if (await act(b, () => session.useLinkCode(code))) {
      ui.header();
      go("#/");
    }
  };
  const b = /** @type {HTMLButtonElement} */ (
    h("button", { type: "button", onclick: () => signIn(b) }, "Sign in with this code")
  );
  const me = session.identity();
  mount(
    main,
    h(
      "section",
      { class: "card link-claim" },
      h("h2", {}, "Link this device"),
      me
        ? h(
            "p",
            {},
            `This device is signed in as ${me.name}. Sign in as the player who made the code instead?`,
          )
        : h("p", {}, "Signing in with the code from your other device…"),
      b,
      h("p", {}, h("a", { href: "#/" }, "Lobby")),
    ),
  );
  if (!me) await signIn(b);
  return () => {};
}

/** The caller's identity: id to share for invitations, a token for another device. @param {session.Identity} id */
function account(id) {
  const out = h("p", { class: "token-out", "aria-live": "polite" });
  const dialog = signOutDialog(out);
  return h(
    "section",
    { class: "card" },
    h("h2", {}, "You"),
    h(
      "p",
      {},
      "Name: ",
      h("strong", {}, id.name),
      " · player id (for invitations): ",
      h("code", { class: "player-id" }, id.id),
      " · ",
      h("a", { href: `#/player/${id.id}` }, "your profile and ratings"),
    ),
    h(
      "p",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          onclick: async (ev) => {
            const t = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
              api.createToken("another device"),
            );
            if (t) mount(out, "Token for another device (shown once): ", h("code", {}, t.token));
          },
        },
        "Token for another device",
      ),
      h(
        "button",
        {
          type: "button",
          onclick: (ev) => showLinkCode(/** @type {HTMLButtonElement} */ (ev.currentTarget), out),
        },
        "Link another device",
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => dialog.showModal(),
        },
        "Sign out",
      ),
    ),
    out,
    dialog,
  );
}

/**
 * The game, seats and options fields of a form, drawn from the catalog,
 * with a link to the chosen game's rules: choosing another game or seat
 * count redraws the seat counts, the options and the link, then calls
 * `also` with the seat count.
 * @param {string} prefix the fields' id prefix ("new": #new-game, #new-seats)
 * @param {(seats: number) => void} [also]
 * @returns {{game: HTMLSelectElement, seats: HTMLSelectElement, options: HTMLElement, fields: HTMLElement[]}}
 */
export function gameFields(prefix, also = () => {}) {
  const games = ui.catalog?.games ?? [];
  const game = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: `${prefix}-game`, name: "game" },
      games.map((g) => h("option", { value: g.id }, g.title)),
    )
  );
  const seats = /** @type {HTMLSelectElement} */ (h("select", { id: `${prefix}-seats`, name: "seats" }));
  const options = h("div", { class: "options" });
  const rules = h("span", { class: "small" });
  const redraw = () => {
    const info = gameInfo(game.value);
    if (!info) return;
    mount(rules, rulesLink(info.id));
    const n = Number(seats.value) || info.min_seats;
    mount(
      seats,
      range(info.min_seats, info.max_seats).map((k) => h("option", { value: k, selected: k === n }, k)),
    );
    mount(options, optionFields(info, Number(seats.value)));
    also(Number(seats.value));
  };
  game.addEventListener("change", () => {
    seats.value = "";
    redraw();
  });
  seats.addEventListener("change", redraw);
  redraw();
  const fields = [
    h("div", { class: "field" }, h("label", { for: `${prefix}-game` }, "Game"), game, rules),
    h("div", { class: "field" }, h("label", { for: `${prefix}-seats` }, "Seats"), seats),
    options,
  ];
  return { game, seats, options, fields };
}

/**
 * What the player chose in the create form, by control id (a checkbox's
 * `checked`, else its `value`), until a game is made with it: the lobby
 * is drawn again whenever its route runs (the language changed, so the
 * catalog came again; the lobby opened again), and a new form starts
 * from these instead of the catalog's defaults.
 * @type {Map<string, string | boolean>}
 */
const draft = new Map();

/**
 * Records each change of the form's controls into `draft`. A new game or
 * seat count draws new options (their defaults): the options chosen for
 * the old ones are forgotten.
 * @param {HTMLElement} form
 */
function keepDraft(form) {
  const save = (/** @type {Event} */ ev) => {
    const el = /** @type {HTMLInputElement} */ (ev.target);
    if (!el.id) return;
    if (el.id === "new-game" || el.id === "new-seats")
      for (const k of [...draft.keys()]) if (k.startsWith("opt-")) draft.delete(k);
    draft.set(el.id, el.type === "checkbox" ? el.checked : el.value);
  };
  form.addEventListener("change", save);
  form.addEventListener("input", save);
}

/**
 * Puts `draft` back into a new create form: the game, then the seat count
 * (each draws the fields that depend on it, as a player's choice does),
 * then the options, the seats and the clock. A value the new form does
 * not offer (a game gone from the catalog) is left at its default.
 * @param {HTMLElement} form @param {HTMLSelectElement} game @param {HTMLSelectElement} seats
 */
function restoreDraft(form, game, seats) {
  const saved = draft; // keepDraft listens only once this is done
  const put = (/** @type {string} */ id) => {
    const el = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (
      form.querySelector(`#${CSS.escape(id)}`)
    );
    const v = saved.get(id);
    if (!el || v === undefined) return;
    if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = v === true;
    else if (!(el instanceof HTMLSelectElement) || [...el.options].some((o) => o.value === v))
      el.value = String(v);
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  if (saved.get("new-game") !== undefined && saved.get("new-game") !== game.value) put("new-game");
  if (saved.get("new-seats") !== undefined && saved.get("new-seats") !== seats.value) put("new-seats");
  for (const id of saved.keys()) if (id !== "new-game" && id !== "new-seats") put(id);
}

/** The create-a-game form, drawn from the catalog: games, seat counts, options, seating, clock; the player's choices kept (draft). */
function createForm() {
  const seating = h("div", { class: "seating" });
  const g = gameFields("new", (n) => mount(seating, seatFields(n)));
  const clock = clockFields();
  const form = h(
    "form",
    {
      class: "card",
      "aria-labelledby": "create-h",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const body = readForm(g.game.value, Number(g.seats.value), g.options, seating, clock);
        const b = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
        const made = await act(b, () => api.createGame(body));
        if (made) {
          draft.clear(); // made: the next form starts from the defaults
          go(`#/game/${made.id}`);
        }
      },
    },
    h("h2", { id: "create-h" }, "New game"),
    g.fields,
    seating,
    clock,
    h("button", { type: "submit" }, "Create game"),
  );
  restoreDraft(form, g.game, g.seats);
  keepDraft(form);
  return form;
}

/**
 * One field per option of the catalog: a choice of its values, a checkbox
 * for a boolean, Quantum's map from the maps for that seat count; each
 * option and value named in words as the catalog names them.
 * @param {CatalogGame} info @param {number} seats
 */
export function optionFields(info, seats) {
  /** @type {Record<string, any>} */
  const opts = info.options;
  /** @type {Record<string, {name: string}[]> | undefined} */
  const maps = /** @type {any} */ (info).maps;
  return Object.entries(opts).map(([name, o]) => {
    const fid = `opt-${name}`;
    if (o.type === "boolean")
      return h(
        "div",
        { class: "field check" },
        h("input", {
          type: "checkbox",
          id: fid,
          "data-option": name,
          "data-kind": "boolean",
          checked: o.default === true,
        }),
        h("label", { for: fid }, o.name ?? name),
      );
    /** @type {string[]} */
    let values = o.values ?? [];
    let def = o.default;
    if (name === "map" && maps) {
      values = (maps[String(seats)] ?? []).map((m) => m.name);
      def = typeof def === "object" ? def[String(seats)] : def;
    }
    return h(
      "div",
      { class: "field" },
      h("label", { for: fid }, o.name ?? name),
      h(
        "select",
        { id: fid, "data-option": name },
        values.map((v) => h("option", { value: v, selected: v === def }, o.value_names?.[v] ?? v)),
      ),
    );
  });
}

/** Seconds fields of the clock: [field name of ClockSpec, label, hint]. */
const CLOCK_FIELDS = [
  ["move_seconds", "Seconds per move", "free time each decision"],
  ["bank_seconds", "Bank (seconds)", "spent past the move's time"],
  ["increment_seconds", "Increment (seconds)", "added to the bank by each move"],
];

/**
 * The clock of the create form (ClockSpec, as the API takes it): seconds
 * per move, a bank and its increment, and what a timeout does. All empty:
 * an untimed game. The server checks the values (422 with its detail).
 */
export function clockFields() {
  return h(
    "fieldset",
    { class: "clock-fields" },
    h("legend", {}, "Clock (leave empty for none)"),
    CLOCK_FIELDS.map(([name, label, hint]) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: `clock-${name}` }, label),
        h("input", {
          id: `clock-${name}`,
          "data-clock": name,
          type: "number",
          min: name === "increment_seconds" ? 0 : 1,
          max: 2592000,
          step: 1,
          inputmode: "numeric",
          placeholder: hint,
        }),
      ),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "clock-on-timeout" }, "When time runs out"),
      h(
        "select",
        { id: "clock-on-timeout" },
        h("option", { value: "bot" }, "a bot plays that move"),
        h("option", { value: "forfeit" }, "the seat resigns"),
      ),
    ),
  );
}

/**
 * A name field with a list of the players whose name starts with what is
 * typed (GET /v1/players?name=): choosing one fills the player id field.
 * @param {number} i the seat @param {HTMLInputElement} who its player id field
 */
function inviteByName(i, who) {
  const list = h("datalist", { id: `invite-list-${i}` });
  const name = /** @type {HTMLInputElement} */ (
    h("input", {
      id: `invite-name-${i}`,
      list: `invite-list-${i}`,
      placeholder: "player name",
      hidden: true,
      autocomplete: "off",
      "aria-label": `Name of the player to invite to seat ${i}`,
    })
  );
  let asked = "";
  name.addEventListener("input", async () => {
    const v = name.value;
    const chosen = /#([0-9a-f]{16})$/.exec(v);
    if (chosen) {
      who.value = chosen[1];
      return;
    }
    const prefix = v.trim();
    if (!prefix || prefix === asked) return;
    asked = prefix;
    try {
      const r = await api.findPlayers(prefix);
      if (asked !== prefix) return; /* a newer search went out */
      mount(
        list,
        r.players.map((p) => h("option", { value: `${p.name} #${p.id}` })),
      );
    } catch {
      /* no matches shown; the id field still takes an id */
    }
  });
  return { name, list };
}

/** The seats after the caller's (seat 0): open, invited, or a bot. @param {number} seats */
function seatFields(seats) {
  return range(1, seats - 1).map((i) => {
    const kind = /** @type {HTMLSelectElement} */ (
      h(
        "select",
        { id: `seat-${i}`, "data-seat": i },
        [
          ["open", "Open (anyone joins)"],
          ["invite", "Invite a player"],
          ["random", "Bot (random)"],
          ["mcts", "Bot (mcts)"],
        ].map(([v, t]) => h("option", { value: v }, t)),
      )
    );
    const who = /** @type {HTMLInputElement} */ (
      h("input", {
        id: `invite-${i}`,
        placeholder: "player id",
        hidden: true,
        pattern: "[0-9a-f]{16}",
        "aria-label": `Player id for seat ${i}`,
      })
    );
    const { name, list } = inviteByName(i, who);
    kind.addEventListener("change", () => {
      who.hidden = kind.value !== "invite";
      who.required = !who.hidden;
      name.hidden = who.hidden;
    });
    return h("div", { class: "field" }, h("label", { for: `seat-${i}` }, `Seat ${i}`), kind, name, list, who);
  });
}

/**
 * The options of an options block (optionFields) as the API takes them.
 * @param {HTMLElement} options @returns {Record<string, string | boolean>}
 */
export function readOptions(options) {
  /** @type {Record<string, string | boolean>} */
  const opts = {};
  for (const el of options.querySelectorAll("[data-option]")) {
    const i = /** @type {HTMLInputElement} */ (el);
    opts[/** @type {string} */ (i.dataset.option)] = i.dataset.kind === "boolean" ? i.checked : i.value;
  }
  return opts;
}

/**
 * The clock of clockFields as the API takes it: `{clock, on_timeout}`, or
 * {} when every field is empty (an untimed game).
 * @param {HTMLElement} clock
 * @returns {{clock?: Record<string, number>, on_timeout?: "bot" | "forfeit"}}
 */
export function readClock(clock) {
  /** @type {Record<string, number>} */
  const spec = {};
  for (const el of clock.querySelectorAll("input[data-clock]")) {
    const i = /** @type {HTMLInputElement} */ (el);
    if (i.value.trim() !== "") spec[/** @type {string} */ (i.dataset.clock)] = Number(i.value);
  }
  const onTimeout = /** @type {"bot" | "forfeit"} */ (
    /** @type {HTMLSelectElement} */ (clock.querySelector("#clock-on-timeout")).value
  );
  return Object.keys(spec).length > 0 ? { clock: spec, on_timeout: onTimeout } : {};
}

/**
 * The request body of the create form.
 * @param {string} game @param {number} seats @param {HTMLElement} options @param {HTMLElement} seating
 * @param {HTMLElement} clock the clock's fields (clockFields)
 * @returns {CreateGame}
 */
function readForm(game, seats, options, seating, clock) {
  /** @type {any[]} */
  const seatList = ["me"];
  for (const el of seating.querySelectorAll("select[data-seat]")) {
    const s = /** @type {HTMLSelectElement} */ (el);
    const who = /** @type {HTMLInputElement} */ (seating.querySelector(`#invite-${s.dataset.seat}`));
    seatList.push(
      s.value === "invite"
        ? { invite: who.value.trim() }
        : s.value === "random"
          ? { bot: "random" }
          : s.value === "mcts"
            ? { bot: "mcts" }
            : "open",
    );
  }
  return /** @type {CreateGame} */ ({
    game,
    seats,
    options: readOptions(options),
    seating: seatList,
    ...readClock(clock),
  });
}

/**
 * A list of games: each with its players, whose turn, and what the caller may do.
 * @param {(GameSummary | MyGame)[]} games
 * @param {string | null} me the caller's player id; null for a visitor (who cannot join)
 * @param {boolean} mine the caller's own games (no Join but for invitations)
 */
function gameList(games, me, mine) {
  if (!games.length) return h("p", { class: "empty" }, mine ? "No games yet." : "No open seats right now.");
  return h(
    "ul",
    { class: "games" },
    games.map((g) => {
      const info = gameInfo(g.game);
      const mySeats = g.players.filter((p) => p.player?.id === me).map((p) => p.seat);
      const invitation = "invitation" in g && g.invitation === true;
      const myTurn = g.status === "active" && g.to_act.some((s) => mySeats.includes(s));
      const join = h(
        "button",
        {
          type: "button",
          onclick: async (ev) => {
            const seat = invitation && "seat" in g ? /** @type {number} */ (g.seat) : undefined;
            const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
              api.joinGame(g.id, seat),
            );
            if (r) {
              status("Joined.");
              go(`#/game/${g.id}`);
            }
          },
        },
        invitation ? "Accept invitation" : "Join",
      );
      return h(
        "li",
        { class: `game ${myTurn ? "turn" : ""}`, "data-game": g.id },
        h(
          "div",
          { class: "game-head" },
          h("a", { href: `#/game/${g.id}` }, info?.title ?? g.game),
          h(
            "span",
            { class: `badge ${g.status}` },
            myTurn ? "your turn" : invitation ? "invitation" : g.status,
          ),
        ),
        h(
          "div",
          { class: "game-players" },
          g.players.map((p) =>
            h(
              "span",
              { class: "seat" },
              `${p.seat}: `,
              p.player?.name ??
                (p.bot ? `bot ${p.bot.bot}` : p.invited ? "invited" : p.open ? "open" : "seat token"),
            ),
          ),
        ),
        g.result ? finishedLine(g.result, g) : null,
        Object.keys(g.options || {}).length
          ? h("div", { class: "game-options" }, optionWords(g.game, g.options).join(" · "))
          : null,
        me !== null && (!mine || invitation) ? join : null,
      );
    }),
  );
}

/**
 * A finished game's line in a list: who won, why, and when it ended (its
 * `updated`, the time of its last move), as the listing's `result` says.
 * @param {{winners: number[], reason: string}} result
 * @param {GameSummary} g
 */
function finishedLine(result, g) {
  const words = resultWords(result, g.players);
  return h(
    "div",
    { class: "game-result" },
    h("span", { class: "winners" }, words.winners),
    " · ",
    h("span", { class: "reason", "data-reason": result.reason }, words.reason),
    " · ",
    h("time", { datetime: g.updated }, new Date(g.updated).toLocaleString()),
  );
}

/** @param {number} a @param {number} b @returns {number[]} a..b */
export function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}
