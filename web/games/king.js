// King (Кинг) table, drawn from the view: your hand, the trick in the middle, whose lead, the
// contract of this deal and what it costs, the declarer's choices, the score sheet (one row per
// deal, one column per player, running totals and the zero-sum check) and a log of what every
// seat played.  Every command comes from the view's legal moves ({label, command}): click a card
// to play it, or a button for the other moves.  No rule is re-implemented here.

import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";
import { shownText, seatTitle, toAct, lastMoveHtml } from "../table.js";
import { t, addStrings } from "../i18n.js";

// This renderer's words (the games' names and costs, the phase, the auction's entries and the
// deal's restrictions are the server's, in the page's language; the Russian terms are rules/king.md's: сдача, взятка, козырь, хвалёнка, роспись, прикуп).
addStrings({
  en: {
    "king.you": "You: {move}…",
    "king.deal": "Deal {n}/{total}: {game} — {name}",
    "king.trumps": " · trumps {suit}",
    "king.misere": " · misère (7 high)", "king.raspis": " · raspis",
    "king.by_last": " · by the last card {card}",
    "king.declarer": " · declarer {who}", "king.ordered_by": " · ordered by {who}",
    "king.bid": " · bid {n}",
    "king.bought": " · bought by {buyer} from {seller} for {n}",
    "king.dealer": " · dealer", "king.leads": " · leads",
    "king.cards": { one: "{n} card", other: "{n} cards" },
    "king.to_come": " (+{n} to come)",
    "king.tricks": { one: "{n} trick", other: "{n} tricks" },
    "king.compensation": "compensation",
    "king.not_zero_sum": "Σ {n} (not zero-sum)",
    "king.deal_row": "deal {n}",
    "king.status": "{phase} · to act: {who}",
    "king.talon": "Talon:", "king.your_discards": "Your discards:",
    "king.no_cards": "no cards in hand",
    "king.game": "game", "king.row_sum": "Σ row", "king.total": "total",
    "king.log": "What every seat played", "king.trick": "trick", "king.won_by": "won by",
    "king.not_now": "{card} may not be played now.",
    "king.not_your_turn": "It is not your turn.",
    "king.over": "the match is over",
    "king.legend_ok": "✓ the row adds up to the deal's total",
    "king.legend_bad": "≠ n: the row should add up to n",
    "king.legend_declarer": "a seat after the game: the deal's declarer",
    "king.legend_early": "italic row: the deal ended early",
    "king.legend_cells": "in each cell: the deal's points, then the running total",
  },
  ru: {
    "king.you": "Вы: {move}…",
    "king.deal": "Сдача {n}/{total}: {game} — {name}",
    "king.trumps": " · козырь {suit}",
    "king.misere": " · мизер (7 старшая)", "king.raspis": " · роспись",
    "king.by_last": " · по последней карте {card}",
    "king.declarer": " · объявляет {who}", "king.ordered_by": " · заказ игрока {who}",
    "king.bid": " · заказ {n}",
    "king.bought": " · перекуплено: {buyer} у {seller} за {n}",
    "king.dealer": " · сдаёт", "king.leads": " · ходит первым",
    "king.cards": { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    "king.to_come": " (+{n} ещё придут)",
    "king.tricks": { one: "{n} взятка", few: "{n} взятки", many: "{n} взяток", other: "{n} взятки" },
    "king.compensation": "компенсация",
    "king.not_zero_sum": "Σ {n} (сумма не нулевая)",
    "king.deal_row": "сдача {n}",
    "king.status": "{phase} · ходит: {who}",
    "king.talon": "Прикуп:", "king.your_discards": "Ваш снос:",
    "king.no_cards": "на руке нет карт",
    "king.game": "игра", "king.row_sum": "Σ строки", "king.total": "итого",
    "king.log": "Что сыграл каждый", "king.trick": "взятка", "king.won_by": "чья взятка",
    "king.not_now": "{card} сейчас ходить нельзя.",
    "king.not_your_turn": "Сейчас не ваш ход.",
    "king.over": "партия окончена",
    "king.legend_ok": "✓ сумма строки равна итогу сдачи",
    "king.legend_bad": "≠ число: сумма строки должна быть равна этому числу",
    "king.legend_declarer": "место после игры: кто объявлял игру в этой сдаче",
    "king.legend_early": "строка курсивом: сдача окончена досрочно",
    "king.legend_cells": "в клетке: очки за сдачу, затем сумма",
  },
});

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const esc = (x) => String(x ?? "").replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));

// A move's label for people: card ids written with suit signs ("play QS" -> "play Q♠").
const label = (text) => String(text ?? "").replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (_, r, s) => r + SUIT[s]);

export function create(root, ctx) {
  let view = null;
  const log = new Map(); // deal number -> completed tricks seen (the view keeps the current deal's)
  const el = document.createElement("div");
  el.className = "king";
  root.appendChild(el);

  const moves = () => (ctx.interactive ? view.legal_moves || [] : []);
  function send(move) { ctx.send(move.command); ctx.say(t("king.you", { move: shownText(move.label) })); }

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const who = (s) => (s ? `${names[s]} (${s})` : "—");
    const acting = toAct(view, g.to_act ? [g.to_act] : g.to_move);
    const c = g.contract;
    const plays = moves();
    const cardMoves = new Map(plays.filter((m) => m.command.type === "king_play.v1").map((m) => [m.command.card, m]));
    const other = plays.filter((m) => m.command.type !== "king_play.v1");
    if (g.deal_no && g.tricks) log.set(g.deal_no, g.tricks);
    const contract = c ? `
      <div class="king-contract">
        <b>${t("king.deal", { n: g.deal_no, total: g.deals_total, game: c.game, name: c.name })}</b> · ${c.cost}
        ${c.trump ? t("king.trumps", { suit: `<b class="${/[HD]/.test(c.trump) ? "red" : ""}">${SUIT[c.trump]}</b>` }) : ""}
        ${c.misere ? t("king.misere") : ""}${c.raspis ? t("king.raspis") : ""}
        ${c.by_last_card ? t("king.by_last", { card: cardHtml(c.by_last_card) }) : ""}
        ${c.declarer ? t("king.declarer", { who: who(c.declarer) }) : ""}${c.orderer ? t("king.ordered_by", { who: who(c.orderer) }) : ""}
        ${c.bid !== null && c.bid !== undefined ? t("king.bid", { n: c.bid }) : ""}
        ${c.buyout ? t("king.bought", { buyer: who(c.buyout[0]), seller: who(c.buyout[1]), n: c.buyout[2] }) : ""}
        <br><small>${(c.notes || []).map(esc).join(" · ")}</small>
      </div>` : "";
    const trick = g.trick;
    const inTrick = trick ? Object.fromEntries(trick.plays) : {};
    const seatsHtml = view.seats.map((s) => `
      <div class="king-seat ${acting.includes(s) ? "to-move" : ""} ${s === ctx.seat ? "me" : ""}" data-seat="${s}">
        <b>${names[s]}</b> <small>${s}${g.dealer === s ? t("king.dealer") : ""}${trick && trick.leader === s ? t("king.leads") : ""}</small><br>
        <span class="n">${t("king.cards", { n: g.hand_sizes[s] ?? 0 })}${g.pending_sizes[s] ? t("king.to_come", { n: g.pending_sizes[s] }) : ""} · ${t("king.tricks", { n: g.tricks_won[s] ?? 0 })}</span>
        <div class="played">${inTrick[s] ? cardHtml(inTrick[s]) : ""}</div>
        ${lastMoveHtml(s)}
      </div>`).join("");
    const auction = (g.auction || []).map((a) => `${names[a.seat]}: ${label(a.text)}`).join(" · ");
    const sheetHead = view.seats.map((s) => `<th class="seat">${esc(seatTitle(view, s))}</th>`).join("");
    const comp = view.seats.some((s) => g.compensation[s]) ? `<tr class="comp"><td class="deal-no">—</td><td class="declarer">${t("king.compensation")}</td>${view.seats.map((s) => `<td class="seat">${g.compensation[s]}</td>`).join("")}<td class="sum"></td></tr>` : "";
    const rows = g.sheet.map((r) => `
      <tr${r.ended_early ? ' class="early"' : ""}><td class="deal-no">${r.deal_no}</td><td class="declarer" title="${r.detail}">${r.game}${r.declarer ? ` <small>${r.declarer}</small>` : ""}</td>
      ${r.points.map((p, i) => `<td class="seat"><span class="pts">${p > 0 ? "+" : ""}${p}</span><small> ${r.totals[i]}</small></td>`).join("")}
      <td class="sum ${r.row_sum === r.expected_sum ? "ok" : "bad"}">${r.row_sum}${r.row_sum === r.expected_sum ? " ✓" : ` ≠ ${r.expected_sum}`}</td></tr>`).join("");
    const totals = view.seats.map((s) => `<td class="seat total">${g.totals[s]}</td>`).join("");
    const balance = g.zero_sum ? (g.balance === 0 ? "Σ 0 ✓" : `Σ ${g.balance}`) : t("king.not_zero_sum", { n: g.balance });
    const logHtml = [...log.entries()].sort((a, b) => b[0] - a[0]).map(([deal, tricks]) => tricks.length ? `
      <tr><th colspan="${view.seats.length + 2}">${t("king.deal_row", { n: deal })}</th></tr>
      ${tricks.map((tr) => { const by = Object.fromEntries(tr.plays); return `<tr><td>${tr.trick_no}</td>${view.seats.map((s) => `<td class="${tr.leader === s ? "lead" : ""}">${by[s] ? cardHtml(by[s]) : ""}</td>`).join("")}<td>${names[tr.winner]}</td></tr>`; }).join("")}` : "").join("");
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="king-status">${view.status === "finished" ? t("king.over") : t("king.status", { phase: esc(g.phase_text), who: `<b id="king-turn">${acting.map(who).join(", ") || "—"}</b>` })}</div>
      ${contract}
      <div class="king-table">${seatsHtml}</div>
      ${auction ? `<p class="king-auction"><small>${auction}</small></p>` : ""}
      ${g.talon && g.talon.length ? `<p>${t("king.talon")} ${g.talon.map((x) => cardHtml(x)).join("")}</p>` : ""}
      ${g.my_discards && g.my_discards.length ? `<p>${t("king.your_discards")} ${g.my_discards.map((x) => cardHtml(x)).join("")}</p>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((x) => cardHtml(x, cardMoves.has(x) ? "playable" : "")).join("") || `<span class="muted">${t("king.no_cards")}</span>`}</div>
        <div class="king-actions">${other.map((m, i) => `<button data-move="${i}" data-label="${esc(m.label)}" title="${esc(m.label)}" class="${other.length < 6 ? "primary" : "small"}">${esc(shownText(m.label))}</button>`).join("")}</div>
      </div>
      <table class="scores king-sheet stacked" style="--seats: ${view.seats.length}"><tr class="head"><th class="deal-no">#</th><th class="declarer">${t("king.game")}</th>${sheetHead}<th class="sum">${t("king.row_sum")}</th></tr>${comp}${rows}
        <tr class="totals"><td class="deal-no"></td><td class="declarer">${t("king.total")}</td>${totals}<td class="sum">${balance}</td></tr></table>
      <p class="legend" id="king-legend"><small>${["king.legend_cells", "king.legend_ok", "king.legend_bad", "king.legend_declarer", "king.legend_early"].map((k) => t(k)).join(" · ")}</small></p>
      ${logHtml ? `<details class="king-log"><summary>${t("king.log")}</summary><table><tr><th>${t("king.trick")}</th>${sheetHead}<th>${t("king.won_by")}</th></tr>${logHtml}</table></details>` : ""}`;
    el.querySelectorAll("#hand [data-card]").forEach((x) => {
      x.onclick = () => {
        const m = cardMoves.get(x.dataset.card);
        if (m) send(m);
        else ctx.say(plays.length ? t("king.not_now", { card: cardLabel(x.dataset.card) }) : t("king.not_your_turn"), "error");
      };
    });
    el.querySelectorAll("[data-move]").forEach((b) => { b.onclick = () => send(other[Number(b.dataset.move)]); });
    accessible(el, focused);
  }

  return {
    update(v) { view = v; draw(); },
    rejected() { draw(); },
  };
}
