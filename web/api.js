// The public API, as any client uses it: HTTP for reads and creation, a WebSocket per match.
import { lang } from "./i18n.js";

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!r.ok) {
    const err = new Error((data && (data.detail || data.code)) || `HTTP ${r.status}`);
    err.status = r.status;
    err.code = data && data.code;
    err.data = data;
    throw err;
  }
  return data;
}

// Seat tokens stay in this browser (localStorage), so a reload resumes the seat.
export const tokens = {
  get: (matchId) => localStorage.getItem(`gh.token.${matchId}`),
  set: (matchId, token) => localStorage.setItem(`gh.token.${matchId}`, token),
};

// The player's account (name + API token from POST /api/accounts) stays in this browser like
// the seat tokens; quick match sends it as the credential.
export const account = {
  get: () => { try { return JSON.parse(localStorage.getItem("gh.account") || "null"); } catch { return null; } },
  set: (name, token) => localStorage.setItem("gh.account", JSON.stringify({ name, token })),
  clear: () => localStorage.removeItem("gh.account"),
};

// The API token of the player named `name`: the stored one, or a new account signed up now.
export async function accountToken(name) {
  const held = account.get();
  if (held && held.name === name && held.token) return held.token;
  const made = await api("/api/accounts", { method: "POST", body: { name } });
  account.set(made.player, made.token);
  return made.token;
}

export const prefs = {
  get: (key, fallback) => {
    const v = localStorage.getItem(`gh.pref.${key}`);
    return v === null ? fallback : JSON.parse(v);
  },
  set: (key, value) => localStorage.setItem(`gh.pref.${key}`, JSON.stringify(value)),
};

// A live match: the view now and after every stored decision (and the decisions' events),
// reconnecting with ?since=<last seq>.
export class MatchSocket {
  constructor(matchId, token, { onView, onEvents, onReply, onState, onError }) {
    this.matchId = matchId;
    this.token = token;
    this.handlers = { onView, onEvents, onReply, onState, onError };
    this.seq = 0;
    this.closed = false;
    this.backoff = 250;
    this.pending = new Map();
    this.open();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // The views' sentences (end reason, warnings) in the page's language; the page opens a new
    // socket when the language switch changes it.
    const q = new URLSearchParams({ since: String(this.seq), lang: lang() });
    if (this.token) q.set("token", this.token);
    return `${proto}://${location.host}/ws/matches/${encodeURIComponent(this.matchId)}?${q}`;
  }

  open() {
    this.handlers.onState?.("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => { this.backoff = 250; this.handlers.onState?.("live"); };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") {
        this.seq = Math.max(this.seq, msg.view.seq);
        this.handlers.onView?.(msg.view);
      } else if (msg.type === "events") {
        this.handlers.onEvents?.(msg.events); // the stored decisions since ?since=, redacted for the seat
      } else if (msg.type === "reply") {
        this.handlers.onReply?.(msg.reply, msg.command_id);
      } else if (msg.type === "error") {
        this.fatal = msg;
        this.handlers.onError?.(msg);
      }
    };
    ws.onclose = () => {
      if (this.closed || this.fatal) { this.handlers.onState?.("closed"); return; }
      this.handlers.onState?.("reconnecting");
      setTimeout(() => { if (!this.closed) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 5000);
    };
  }

  // Send a command; its id, which its reply (onReply) carries.
  send(command) {
    const commandId = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "command", command, command_id: commandId }));
      return commandId;
    }
    // Not connected right now: the same command over HTTP (the command id makes a retry harmless).
    api(`/api/matches/${this.matchId}/commands`, { method: "POST", token: this.token, body: { command, command_id: commandId } })
      .then((reply) => this.handlers.onReply?.(reply, commandId))
      .catch((err) => this.handlers.onReply?.({ type: "rejected.v1", code: err.code || "error", detail: err.message }, commandId));
    return commandId;
  }

  close() {
    this.closed = true;
    this.handlers = {}; // the page that listened is gone
    this.ws?.close();
  }
}
