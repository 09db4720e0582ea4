// Around every game's table: the rules in words (from the server), a log of every seat's actions
// with the latest moves of the others as a hint, and what to do once the match is over.  Every
// rule sentence comes from the server (GET /api/matches/{id}/rules, the catalogue's per-preset
// help, the view's outcome_text); this module only lays them out.
import { api, tokens, prefs } from "./api.js";
import { t, addStrings, lang, failure, seatWord } from "./i18n.js";

// This module's words (the rules, end reasons and warnings themselves are the server's sentences).
addStrings({
  en: {
    "help.lobby_summary": "How this game is won and lost",
    "help.rules": "Rules: {title} — {preset}",
    "help.win": "How to win",
    "help.lose": "How a game is lost or drawn",
    "help.special": "Rules of this table",
    "help.log": "Log of every seat's actions",
    "help.since_your_move": "Since your move",
    "help.last_moves": "Last moves",
    "after.rematch": "Rematch",
    "after.new_game": "New game",
    "after.rematch_failed": "Could not start a rematch: {detail}",
    "table.last_move": "last: {move}",
  },
  ru: {
    "help.lobby_summary": "Как в этой игре выигрывают и проигрывают",
    "help.rules": "Правила: {title} — {preset}",
    "help.win": "Как выиграть",
    "help.lose": "Как проигрывают или делят ничью",
    "help.special": "Правила этого стола",
    "help.log": "Ходы всех игроков",
    "help.since_your_move": "После вашего хода",
    "help.last_moves": "Последние ходы",
    "after.rematch": "Реванш",
    "after.new_game": "Новая игра",
    "after.rematch_failed": "Не удалось начать реванш: {detail}",
    "table.last_move": "последний ход: {move}",
  },
});

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// A RulesHelp ({goal, win, lose, special}) as HTML.
export function rulesHelpHtml(help) {
  if (!help) return "";
  const list = (title, lines, cls) => (lines && lines.length ? `<h4>${title}</h4><ul class="${cls}">${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : "");
  return `<p class="goal">${esc(help.goal)}</p>${list(t("help.win"), help.win, "win")}${list(t("help.lose"), help.lose, "lose")}${list(t("help.special"), help.special, "special")}`;
}

// The match's rules in words, in a <details> the player opens when needed (open on the first visit),
// headed by the game's and the preset's titles in the page's language.
export async function showRulesHelp(target, matchId) {
  try {
    const help = await api(`/api/matches/${encodeURIComponent(matchId)}/rules?lang=${lang()}`);
    const seen = prefs.get(`rules-seen.${help.game}.${help.preset}`, false);
    target.innerHTML = `<details class="rules-help" id="rules-help" ${seen ? "" : "open"}><summary>${esc(t("help.rules", { title: help.title, preset: help.preset_title || help.preset }))}</summary>${rulesHelpHtml(help)}</details>`;
    prefs.set(`rules-seen.${help.game}.${help.preset}`, true);
  } catch (e) {
    target.textContent = "";
  }
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// A text of the server's (a move's label, a line of the log) as the page draws it: card ids with
// suit signs ("7H" -> "7♥", "RJ1" -> "🃏R", "??" -> "?") and seat ids as the players' names.
export function shownText(text, names = {}) {
  const cards = String(text ?? "")
    .replace(/(^|[^\w])(10|[2-9AJQK])([SHDC])\d?(?!\w)/g, (_, pre, r, s) => `${pre}${r}${SUITS[s]}`)
    .replace(/(^|[^\w])([RB])J\d?(?!\w)/g, (_, pre, j) => `${pre}🃏${j}`)
    .replace(/\?\?/g, "?");
  return Object.entries(names).reduce((t, [seat, name]) => t.replace(new RegExp(`(^|[^\\w(])${seat}(?![\\w)])`, "g"), `$1${name}`), cards);
}

// A seat as a sheet's column or a seat box heads it: the player's name and the seat ("ann · p1"),
// so two computer players of the same strength are still told apart.
export function seatTitle(view, seat) {
  const name = view.players[view.seats.indexOf(seat)];
  return name && name !== seat ? `${name} · ${seatWord(seat)}` : seatWord(seat);
}

// The seats a table marks as to act: none once the match is over (a resignation, a timeout or a
// ruling ends the match while the game's own view still names whose turn it was).
export function toAct(view, seats) {
  return view.status === "finished" ? [] : (seats || []).filter(Boolean);
}

// The last move of every seat, from the log (the first line of the seat's latest decision, its
// seat id left out): a renderer puts <span data-last-of="p2"> in a seat's box and the log fills
// it, now and whenever a decision arrives.
const lastOf = {}; // seat -> text
export function lastMoveHtml(seat) {
  const text = lastOf[seat];
  return `<span class="last-move" data-last-of="${esc(seat)}">${text ? esc(t("table.last_move", { move: text })) : ""}</span>`;
}
function fillLastMoves() {
  document.querySelectorAll("[data-last-of]").forEach((el) => {
    const text = lastOf[el.dataset.lastOf];
    el.textContent = text ? t("table.last_move", { move: text }) : "";
  });
}

// The log of a match: every stored decision's lines as the server words them for this viewer
// (each decision's texts, in the page's language), newest last, and a hint line with what the
// other seats did since the viewer's own last decision.
export class TableLog {
  constructor(logEl, hintEl) {
    this.logEl = logEl;
    this.hintEl = hintEl;
    this.lines = []; // {seq, seat, text}
    this.names = {};
    this.seat = null;
    for (const key of Object.keys(lastOf)) delete lastOf[key];
  }

  setPlayers(view) {
    this.seat = view.viewer;
    this.names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i] && view.players[i] !== s ? `${view.players[i]} (${seatWord(s)})` : seatWord(s)]));
  }

  add(decisions) {
    for (const d of decisions) {
      if (this.lines.some((l) => l.seq === d.seq)) continue;
      const texts = (d.texts || []).filter(Boolean);
      if (texts.length) this.lines.push({ seq: d.seq, seat: d.seat, text: texts.join("; "), first: texts.find((x) => d.seat && x.startsWith(`${d.seat} `)) || texts[0] });
    }
    this.lines.sort((a, b) => a.seq - b.seq);
    this.draw();
  }

  draw() {
    for (const key of Object.keys(lastOf)) delete lastOf[key];
    for (const l of this.lines) {
      if (!l.seat || !(l.seat in this.names)) continue;
      const own = l.first.startsWith(`${l.seat} `) ? l.first.slice(l.seat.length + 1) : l.first;
      lastOf[l.seat] = shownText(own, this.names);
    }
    fillLastMoves();
    const shown = this.lines.slice(-200);
    this.logEl.innerHTML = shown.map((l) => `<li data-seq="${l.seq}" data-seat="${esc(l.seat || "")}" class="${l.seat && l.seat === this.seat ? "mine" : ""}">${esc(shownText(l.text, this.names))}</li>`).join("");
    this.logEl.scrollTop = this.logEl.scrollHeight;
    if (!this.hintEl) return;
    // What the others did since the viewer's own last decision (a spectator: the last few).
    const own = this.seat ? this.lines.map((l) => l.seat).lastIndexOf(this.seat) : -1;
    const since = this.seat ? this.lines.slice(own + 1) : this.lines.slice(-4);
    const recent = since.filter((l) => l.seat && l.seat !== this.seat).slice(-6);
    this.hintEl.innerHTML = recent.length ? `<b>${t(this.seat ? "help.since_your_move" : "help.last_moves")}:</b> ${recent.map((l) => esc(shownText(l.text, this.names))).join(" · ")}` : "";
  }
}

// After the match: the result in words, a rematch of the same table (when this browser created
// it) and a new game of the same kind from the lobby.
export function showAfterGame(target, view) {
  if (view.status !== "finished") { target.innerHTML = ""; return; }
  const table = JSON.parse(localStorage.getItem(`gh.table.${view.match_id}`) || "null");
  target.innerHTML = `<div class="after-game" id="after-game"><p class="end-reason" id="end-reason">${esc(view.outcome_text || "")}</p>
    <div class="buttons">${table ? `<button class="primary" id="rematch">${t("after.rematch")}</button>` : ""}<button id="new-game">${t("after.new_game")}</button></div>
    <p class="muted" id="after-message" role="status"></p></div>`;
  const rematch = target.querySelector("#rematch");
  if (rematch) {
    rematch.onclick = async () => {
      rematch.disabled = true;
      try {
        location.hash = `#/play/${await createTable(table)}`;
      } catch (e) {
        target.querySelector("#after-message").textContent = t("after.rematch_failed", { detail: failure(e) });
        rematch.disabled = false;
      }
    };
  }
  target.querySelector("#new-game").onclick = () => {
    prefs.set("game", view.game);
    prefs.set(`preset.${view.game}`, view.preset);
    location.hash = "#/";
  };
}

// Create a table (the body of POST /api/matches), keep the first seat's token, the invite links
// and the body itself (for a rematch); the new match's id.
export async function createTable(body) {
  const created = await api("/api/matches", { method: "POST", body });
  const mine = created.seats[0];
  tokens.set(created.match_id, mine.token);
  localStorage.setItem(`gh.table.${created.match_id}`, JSON.stringify(body));
  const invites = (created.invites || []).filter((i) => i.seat !== mine.seat);
  if (invites.length) localStorage.setItem(`gh.invites.${created.match_id}`, JSON.stringify(invites));
  const missing = (created.bots || []).filter((b) => b.status !== "seated");
  if (missing.length) alert(t("lobby.bots_missing", { list: missing.map((b) => `${b.seat}: ${b.detail || b.status}`).join("; ") }));
  return created.match_id;
}
