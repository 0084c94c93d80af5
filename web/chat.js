// chat.js: a game's chat panel (docs/matchmaking.md, "Chat", "Blocks and
// reports"). The seats' holders read and write the players' channel;
// everyone else reads the spectators' channel, and writes it with a
// player's token. Messages come from GET …/chat/{channel} (when the panel
// opens, when the stream is back after a cut, and every 5 s once the game
// is over: its stream has ended) and live from the game's event stream
// (`chat` events, handed over by game.js). Beside each message of another
// player: Block (PUT /v1/players/me/blocks/{id}) and Report (a reason,
// POST /v1/reports). The server leaves blocked players' messages out of
// the listings and the stream: the client filters nothing itself.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { act, status, showError } from "./ui.js";

/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/** @typedef {"players" | "spectators"} Channel */

/** The longest message the API takes (ChatText: 500 code points). */
const MAX_TEXT = 500;

/**
 * The chat panel of game `id`, its channel `channel` (the players' for a
 * seat's holder, the spectators' for everyone else).
 * @param {string} id the game's id
 * @param {Channel} channel
 * @returns {{channel: Channel, el: HTMLElement, add: (m: ChatMessage) => void, load: () => Promise<void>, reload: () => Promise<void>}}
 *   `channel` as given; `el` the panel (a section), to mount once; `add(m)` shows message `m`
 *   (a stream's `chat` event, or the answer of a POST), once, in order;
 *   `load()` reads the messages after the last one shown; `reload()`
 *   forgets them and reads the channel again (after a block: the server
 *   now leaves the blocked player's out). Refusals of reads go to the
 *   error banner.
 */
export function chatPanel(id, channel) {
  const el = h("section", { class: "card chat", "aria-labelledby": "chat-h" });
  // The live region around the list (role log is not allowed on an <ol>).
  const list = h("ol", { class: "chat-log", "aria-label": "Messages", tabindex: 0 });
  /** @type {ChatMessage[]} the messages shown, in `n` order */
  const shown = [];
  const me = session.identity();
  const path = `/v1/games/${encodeURIComponent(id)}/chat/${channel}`;

  /** @param {ChatMessage} m */
  function add(m) {
    if (m.channel !== channel || shown.some((x) => x.n === m.n)) return;
    let at = shown.length;
    while (at > 0 && shown[at - 1].n > m.n) at--;
    shown.splice(at, 0, m);
    const li = line(m);
    const next = list.children[at] ?? null;
    list.insertBefore(li, next);
    list.querySelector(".empty")?.remove();
    list.scrollTop = list.scrollHeight; // the newest in view
  }

  async function load() {
    let after = shown.length ? shown[shown.length - 1].n : 0;
    for (;;) {
      const page = await api.chat(path, after);
      for (const m of page.messages) add(m);
      if (page.next_after === null || page.next_after === undefined || page.next_after <= after) break;
      after = page.next_after;
    }
  }

  async function reload() {
    shown.length = 0;
    list.replaceChildren();
    await load();
    if (!shown.length) list.append(h("li", { class: "empty" }, "No messages yet."));
  }

  /** One message: who, when, the text, and Block and Report for another player's. @param {ChatMessage} m */
  function line(m) {
    const who = m.player?.name ?? (m.seat !== null ? `Seat ${m.seat}` : "a spectator");
    const other = me && m.player && m.player.id !== me.id ? m.player : null;
    return h(
      "li",
      { class: "chat-message", "data-n": m.n, "data-player": m.player?.id },
      h("span", { class: "chat-who" }, who),
      h("time", { datetime: m.time }, ` ${new Date(m.time).toLocaleTimeString()} `),
      h("span", { class: "chat-text" }, m.text),
      other
        ? h(
            "span",
            { class: "chat-tools row" },
            h(
              "button",
              {
                type: "button",
                class: "link",
                "aria-label": `Block ${other.name}`,
                onclick: async (ev) => {
                  if (!confirm(`Block ${other.name}? You will no longer see their messages.`)) return;
                  const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                    api.blockPlayer(other.id),
                  );
                  if (r === undefined) return;
                  status(`${other.name} is blocked.`);
                  await reload().catch(showError);
                  input.focus(); // the button left with the message: the focus stays in the panel
                },
              },
              "Block",
            ),
            reportForm(m),
          )
        : null,
    );
  }

  /** Report message `m`: a reason, sent with POST /v1/reports. @param {ChatMessage} m */
  function reportForm(m) {
    const fid = `chat-report-${channel}-${m.n}`;
    const reason = /** @type {HTMLInputElement} */ (
      h("input", { id: fid, required: true, maxlength: MAX_TEXT, autocomplete: "off" })
    );
    const details = /** @type {HTMLDetailsElement} */ (
      h(
        "details",
        { class: "chat-report" },
        h("summary", { "aria-label": `Report message ${m.n}` }, "Report"),
        h(
          "form",
          {
            onsubmit: async (ev) => {
              ev.preventDefault();
              const b = /** @type {HTMLButtonElement} */ (
                /** @type {HTMLFormElement} */ (ev.currentTarget).querySelector("button")
              );
              const r = await act(b, () =>
                api.report({ game: id, channel, n: m.n, reason: reason.value.trim() }),
              );
              if (r === undefined) return;
              details.open = false;
              reason.value = "";
              /** @type {HTMLElement} */ (details.querySelector("summary")).focus();
              status(`Report ${r.report} sent to the operators.`);
            },
          },
          h("label", { for: fid }, "Reason"),
          reason,
          h("button", { type: "submit" }, "Send report"),
        ),
      )
    );
    return details;
  }

  const input = /** @type {HTMLInputElement} */ (
    h("input", { id: `chat-text-${channel}`, required: true, maxlength: MAX_TEXT, autocomplete: "off" })
  );
  // A spectator without a player's token reads only; the server decides
  // the rest (a seat's holder in the spectators' channel: 403, shown).
  const form = me
    ? h(
        "form",
        {
          class: "chat-form row",
          onsubmit: async (ev) => {
            ev.preventDefault();
            const b = /** @type {HTMLButtonElement} */ (
              /** @type {HTMLFormElement} */ (ev.currentTarget).querySelector("button")
            );
            const m = await act(b, () => api.postChat(path, input.value));
            if (m === undefined) return;
            input.value = "";
            add(m);
            input.focus();
          },
        },
        h("label", { for: `chat-text-${channel}` }, "Message"),
        input,
        h("button", { type: "submit" }, "Send"),
      )
    : null;
  mount(
    el,
    h("h2", { id: "chat-h" }, channel === "players" ? "Chat (players)" : "Chat (spectators)"),
    h("div", { role: "log", "aria-label": "Chat messages" }, list),
    form,
  );
  list.append(h("li", { class: "empty" }, "No messages yet."));
  return { channel, el, add, load, reload };
}
