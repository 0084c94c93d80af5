// settings.js: the notifications screen (#/settings, docs/notifications.md).
// Web Push on this device: a switch that registers the service worker
// (sw.js), asks the browser's permission, subscribes with the server's
// VAPID key (GET /v1/push/key) and posts the subscription's toJSON()
// (POST /v1/players/me/push-subscriptions); off deletes it from the
// server and unsubscribes. Email: an address, the code mailed to it to
// confirm it, then one mail per event, a daily digest or none. Vacation
// (docs/notifications.md, "Vacation"): the time left, the vacation being
// taken and until when, automatic vacation on or off, take N days or end
// it now.
import * as api from "./api.js";
import * as session from "./session.js";
import { h, mount } from "./dom.js";
import { act, status, showError, needPlayer } from "./ui.js";

/** @typedef {import("./types.js").EmailAddress} EmailAddress */
/** @typedef {import("./types.js").Vacation} Vacation */

/**
 * Draws the settings screen into `main`.
 * @param {HTMLElement} main
 * @returns {Promise<() => void>}
 */
export async function settings(main) {
  if (!session.identity()) {
    needPlayer(main, "Notifications");
    return () => {};
  }
  const push = h("section", { class: "card", "aria-labelledby": "push-h" });
  const mail = h("section", { class: "card", "aria-labelledby": "mail-h" });
  const away = h("section", { class: "card vacation", "aria-labelledby": "vacation-h" });
  mount(main, push, mail, away);
  await Promise.all([drawPush(push), drawMail(mail), drawVacation(away)]);
  return () => {};
}

/** The messages' language: the one chosen for the API's texts, else English. @returns {"en" | "fr"} */
function lang() {
  return (api.config.language || navigator.language || "en").startsWith("fr") ? "fr" : "en";
}

/** base64url (RFC 4648 §5) to bytes, as applicationServerKey takes them. @param {string} s */
function unb64u(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/** The Web Push section. @param {HTMLElement} sec */
async function drawPush(sec) {
  const head = h("h2", { id: "push-h" }, "Notifications on this device");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    mount(sec, head, h("p", { class: "empty" }, "This browser cannot receive Web Push."));
    return;
  }
  /** @type {string} */
  let key;
  try {
    key = (await api.pushKey()).key;
  } catch (e) {
    if (!(e instanceof api.ApiError && e.status === 404)) throw e;
    mount(sec, head, h("p", { class: "empty" }, "This server sends no Web Push."));
    return;
  }
  const reg = await navigator.serviceWorker.register("sw.js");
  await navigator.serviceWorker.ready;
  const mine = await reg.pushManager.getSubscription();
  const listed = (await api.pushSubscriptions()).subscriptions;
  const on = !!mine && listed.some((s) => s.endpoint === mine.endpoint);
  const toggle = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", role: "switch", id: "push-on", checked: on })
  );
  const low = /** @type {HTMLInputElement} */ (
    h("input", {
      id: "push-clock-low",
      type: "number",
      min: 0,
      max: 2592000,
      step: 1,
      inputmode: "numeric",
      value: 0,
      disabled: on,
    })
  );
  const state = h(
    "p",
    { class: "push-state", "aria-live": "polite" },
    on ? "On: your turns, invitations and results are pushed here." : "Off.",
  );
  toggle.addEventListener("change", async () => {
    const want = toggle.checked;
    const done = await act(/** @type {any} */ (toggle), () =>
      want ? subscribe(reg, key, low) : unsubscribe(reg),
    );
    if (done === undefined) {
      toggle.checked = !want; // refused: as it was
      return;
    }
    await drawPush(sec);
    status(want ? "Notifications on." : "Notifications off.");
  });
  mount(
    sec,
    head,
    h("div", { class: "field check" }, toggle, h("label", { for: "push-on" }, "Push notifications")),
    h(
      "div",
      { class: "field" },
      h(
        "label",
        { for: "push-clock-low" },
        "Also when my clock has this many seconds left (0: only the server's warning)",
      ),
      low,
    ),
    state,
  );
}

/**
 * Asks the permission, subscribes with the server's key and registers the
 * subscription with the server.
 * @param {ServiceWorkerRegistration} reg @param {string} key @param {HTMLInputElement} low
 */
async function subscribe(reg, key, low) {
  const perm = await Notification.requestPermission();
  if (perm !== "granted") throw new Error("The browser did not allow notifications for this site.");
  let sub = await reg.pushManager.getSubscription();
  if (!sub)
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: unb64u(key) });
  const j = sub.toJSON();
  return api.addPushSubscription({
    endpoint: /** @type {string} */ (j.endpoint),
    expirationTime: j.expirationTime ?? null,
    keys: { p256dh: j.keys?.p256dh ?? "", auth: j.keys?.auth ?? "" },
    lang: lang(),
    clock_low_seconds: Number(low.value) || 0,
  });
}

/** Deletes this device's subscription from the server, then from the browser. @param {ServiceWorkerRegistration} reg */
async function unsubscribe(reg) {
  const sub = await reg.pushManager.getSubscription();
  if (!sub) return null;
  const listed = (await api.pushSubscriptions()).subscriptions;
  for (const s of listed) if (s.endpoint === sub.endpoint) await api.deletePushSubscription(s.id);
  await sub.unsubscribe();
  return null;
}

/** The email section. @param {HTMLElement} sec */
async function drawMail(sec) {
  /** @type {EmailAddress | null} */
  let addr = null;
  try {
    addr = await api.email();
  } catch (e) {
    if (!(e instanceof api.ApiError && e.status === 404)) showError(e);
  }
  const redraw = () => drawMail(sec);
  mount(
    sec,
    h("h2", { id: "mail-h" }, "Email"),
    addr
      ? h(
          "p",
          { class: "mail-address" },
          addr.address,
          addr.confirmed ? " (confirmed)" : " (not confirmed yet)",
        )
      : null,
    addressForm(redraw),
    addr && !addr.confirmed ? codeForm(redraw) : null,
    addr && addr.confirmed ? mailSettings(addr, redraw) : null,
    addr
      ? h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: async (ev) => {
              const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                api.deleteEmail(),
              );
              if (r !== undefined) redraw();
            },
          },
          "Remove the address",
        )
      : null,
  );
}

/** A one-field form: label, input, button; `fn` gets the trimmed value. @param {string} fid @param {string} label @param {Record<string, string | number | boolean>} attrs @param {string} button @param {(v: string) => Promise<unknown>} fn @param {() => void} then */
function oneField(fid, label, attrs, button, fn, then) {
  const input = /** @type {HTMLInputElement} */ (h("input", { id: fid, required: true, ...attrs }));
  return h(
    "form",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        const b = /** @type {HTMLButtonElement} */ (
          /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
        );
        if ((await act(b, () => fn(input.value.trim()))) !== undefined) then();
      },
    },
    h("div", { class: "field" }, h("label", { for: fid }, label), input),
    h("button", { type: "submit" }, button),
  );
}

/** @param {() => void} then */
function addressForm(then) {
  return oneField(
    "mail-address",
    "Email address",
    { type: "email", maxlength: 254, autocomplete: "email" },
    "Send a confirmation code",
    (v) => api.setEmail(v, lang()),
    () => {
      status("A code is on its way to that address.");
      then();
    },
  );
}

/** @param {() => void} then */
function codeForm(then) {
  return oneField(
    "mail-code",
    "Code from the email",
    { inputmode: "numeric", pattern: "[0-9]{8}", maxlength: 8, autocomplete: "one-time-code" },
    "Confirm",
    (v) => api.confirmEmail(v),
    () => {
      status("Address confirmed.");
      then();
    },
  );
}

/** The mail mode, digest hour and time zone of a confirmed address. @param {EmailAddress} addr @param {() => void} then */
function mailSettings(addr, then) {
  const mode = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "mail-mode" },
      [
        ["event", "One mail per event"],
        ["digest", "A daily digest"],
        ["none", "No mail"],
      ].map(([v, t]) => h("option", { value: v, selected: addr.mode === v }, t)),
    )
  );
  const hour = /** @type {HTMLInputElement} */ (
    h("input", { id: "mail-hour", type: "number", min: 0, max: 23, step: 1, value: addr.digest_hour })
  );
  const zone = /** @type {HTMLInputElement} */ (
    h("input", { id: "mail-zone", maxlength: 64, value: addr.time_zone, placeholder: "Europe/Paris" })
  );
  return h(
    "form",
    {
      onsubmit: async (ev) => {
        ev.preventDefault();
        const b = /** @type {HTMLButtonElement} */ (
          /** @type {HTMLFormElement} */ (ev.target).querySelector("button")
        );
        const body = {
          mode: /** @type {"event" | "digest" | "none"} */ (mode.value),
          digest_hour: Number(hour.value),
          time_zone: zone.value.trim(),
        };
        if (await act(b, () => api.patchEmail(body))) {
          status("Mail settings saved.");
          then();
        }
      },
    },
    h("div", { class: "field" }, h("label", { for: "mail-mode" }, "Mail"), mode),
    h("div", { class: "field" }, h("label", { for: "mail-hour" }, "Digest hour"), hour),
    h("div", { class: "field" }, h("label", { for: "mail-zone" }, "Time zone"), zone),
    h("button", { type: "submit" }, "Save"),
  );
}

/** One day, seconds (vacation is taken by the day here; the API counts seconds). */
const DAY_S = 86400;

/** Seconds as days and hours for people: "3 d 4 h", "0 h". @param {number} sec */
function daysHours(sec) {
  const d = Math.floor(sec / DAY_S),
    hh = Math.floor((sec % DAY_S) / 3600);
  return d ? `${d} d ${hh} h` : `${hh} h`;
}

/** The vacation section. @param {HTMLElement} sec */
async function drawVacation(sec) {
  const head = h("h2", { id: "vacation-h" }, "Vacation");
  /** @type {Vacation} */
  let v;
  try {
    v = await api.vacation();
  } catch (e) {
    showError(e);
    mount(sec, head, h("p", { class: "empty" }, "The vacation could not be read."));
    return;
  }
  const redraw = () => drawVacation(sec);
  const auto = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", role: "switch", id: "vacation-auto", checked: v.auto })
  );
  auto.addEventListener("change", async () => {
    const want = auto.checked;
    if ((await act(/** @type {any} */ (auto), () => api.setVacationAuto(want))) === undefined) {
      auto.checked = !want; // refused: as it was
      return;
    }
    status(want ? "Automatic vacation on." : "Automatic vacation off.");
    redraw();
  });
  mount(
    sec,
    head,
    h(
      "p",
      { class: "vacation-state", "aria-live": "polite" },
      v.on_vacation && v.until
        ? [
            `On vacation until ${new Date(v.until).toLocaleString()}`,
            v.began_automatically ? " (begun by a clock running out)" : "",
            ". ",
          ]
        : "Not on vacation. ",
      h("span", { class: "vacation-left" }, `Left to take: ${daysHours(v.left_seconds)}.`),
      v.next_accrual ? ` One more day on ${new Date(v.next_accrual).toLocaleDateString()}.` : "",
    ),
    h(
      "div",
      { class: "field check" },
      auto,
      h("label", { for: "vacation-auto" }, "Automatic vacation when a correspondence clock would run out"),
    ),
    v.on_vacation
      ? h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: async (ev) => {
              const r = await act(/** @type {HTMLButtonElement} */ (ev.currentTarget), () =>
                api.endVacation(),
              );
              if (r === undefined) return;
              status("Vacation ended.");
              redraw();
            },
          },
          "End vacation now",
        )
      : oneField(
          "vacation-days",
          "Days to take",
          { type: "number", min: 1, max: 30, step: 1, inputmode: "numeric", value: 1 },
          "Take vacation",
          (d) => api.takeVacation(Number(d) * DAY_S),
          () => {
            status("Vacation begun.");
            redraw();
          },
        ),
  );
}
