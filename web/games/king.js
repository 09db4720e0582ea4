// King (Кинг) table, drawn from the view: your hand, the trick in the middle, whose lead, the
// contract of this deal and what it costs, the declarer's choices, the score sheet (one row per
// deal, one column per player, running totals and the zero-sum check) and a log of what every
// seat played.  Every command comes from the view's legal moves ({label, command}): click a card
// to play it, or a button for the other moves.  No rule is re-implemented here.

import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";
import { shownText } from "../table.js";
import { t, addStrings } from "../i18n.js";

// This renderer's words (the games' names and costs are the server's, in the page's language;
// the Russian terms are rules/king.md's: сдача, взятка, козырь, хвалёнка, роспись, прикуп).
addStrings({
  en: {
    "king.phase.waiting": "waiting for every seat to be ready",
    "king.phase.ordering": "ordering a game",
    "king.phase.buyout": "buy-out offers",
    "king.phase.buyout_answer": "the declarer answers the best offer",
    "king.phase.declaring": "the declarer names the contract",
    "king.phase.auction": "trading auction",
    "king.phase.naming": "the high bidder names trumps",
    "king.phase.discard": "the orderer discards two cards",
    "king.phase.playing": "playing",
    "king.phase.scored": "deal scored — ready for the next one",
    "king.phase.finished": "match over",
    "king.you": "You: {move}…",
    "king.deal": "Deal {n}/{total}: {game} — {name}",
    "king.trumps": " · trumps {suit}",
    "king.misere": " · misère (7 high)", "king.raspis": " · raspis",
    "king.by_last": " · by the last card {card}",
    "king.declarer": " · declarer {who}", "king.ordered_by": " · ordered by {who}",
    "king.bid": " · bid {n}",
    "king.bought": " · bought by {buyer} from {seller} for {n}",
    "king.no_hearts_lead": "no hearts lead while you hold another suit",
    "king.must_discard_king": "void holder of K♥ must discard it",
    "king.declarer_leads_trumps": "only the declarer leads trumps",
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
    "king.mv.ready": "ready", "king.mv.order": "order {game}", "king.mv.pass": "pass",
    "king.mv.pass_auto": "pass (automatic)", "king.mv.buy_for": "buy for {n}",
    "king.mv.accept": "accept", "king.mv.accepted": "accept ({n})", "king.mv.refuse": "refuse",
    "king.mv.trumps": "trumps {suit}", "king.mv.no_trump": "no trumps", "king.mv.by_last": "by the last",
    "king.mv.misere": "misère", "king.mv.raspis": "raspis", "king.mv.decline": "decline (by the last)",
    "king.mv.bid": "bid {n}", "king.mv.discard": "discard {cards}",
  },
  ru: {
    "king.phase.waiting": "ждём готовности всех игроков",
    "king.phase.ordering": "заказ игры",
    "king.phase.buyout": "предложения перекупить",
    "king.phase.buyout_answer": "объявляющий отвечает на лучшее предложение",
    "king.phase.declaring": "объявляющий называет игру",
    "king.phase.auction": "торговля",
    "king.phase.naming": "выигравший торговлю называет козырь",
    "king.phase.discard": "заказавший сносит две карты",
    "king.phase.playing": "розыгрыш",
    "king.phase.scored": "сдача записана — готовы к следующей",
    "king.phase.finished": "партия окончена",
    "king.you": "Вы: {move}…",
    "king.deal": "Сдача {n}/{total}: {game} — {name}",
    "king.trumps": " · козырь {suit}",
    "king.misere": " · мизер (7 старшая)", "king.raspis": " · роспись",
    "king.by_last": " · по последней карте {card}",
    "king.declarer": " · объявляет {who}", "king.ordered_by": " · заказ игрока {who}",
    "king.bid": " · заказ {n}",
    "king.bought": " · перекуплено: {buyer} у {seller} за {n}",
    "king.no_hearts_lead": "нельзя ходить с червей, пока есть другие масти",
    "king.must_discard_king": "у кого нет масти хода, обязан сбросить K♥",
    "king.declarer_leads_trumps": "с козыря ходит только объявляющий",
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
    "king.mv.ready": "готов", "king.mv.order": "заказать {game}", "king.mv.pass": "пас",
    "king.mv.pass_auto": "пас (автоматически)", "king.mv.buy_for": "перекупить за {n}",
    "king.mv.accept": "уступить", "king.mv.accepted": "уступает ({n})", "king.mv.refuse": "оставить себе",
    "king.mv.trumps": "козырь {suit}", "king.mv.no_trump": "бескозырка", "king.mv.by_last": "по последней",
    "king.mv.misere": "мизер", "king.mv.raspis": "роспись", "king.mv.decline": "отказаться (по последней)",
    "king.mv.bid": "заказ {n}", "king.mv.discard": "снести {cards}",
  },
});

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const esc = (x) => String(x ?? "").replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));

// A move's label for people: card ids written with suit signs ("play QS" -> "play Q♠").
const label = (text) => String(text ?? "").replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (_, r, s) => r + SUIT[s]);

// A hvalenka's option (DECLARE, rules/king.md §12.3) in the page's language; games keep their ids.
const OPTION = { NO_TRUMP: "king.mv.no_trump", BY_LAST: "king.mv.by_last", MISERE: "king.mv.misere", RASPIS: "king.mv.raspis" };
const option = (opt, suit) => (opt === "SUIT" || (!opt && suit) ? t("king.mv.trumps", { suit: SUIT[suit] || suit }) : OPTION[opt] ? t(OPTION[opt]) : String(opt ?? ""));

// One entry of the deal's auction (the view's {seat, action, value}) in the page's language: the
// action by its code, the value as the game writes it (a game id, a number), a declared option
// looked up whole ("NO_TRUMP", "SUIT S").
const DECLARED = { ...Object.fromEntries(Object.keys(SUIT).map((k) => [`SUIT ${k}`, ["SUIT", k]])), NO_TRUMP: ["NO_TRUMP"], BY_LAST: ["BY_LAST"], MISERE: ["MISERE"], RASPIS: ["RASPIS"] };
function auctionText(a) {
  switch (a.action) {
    case "order": return t("king.mv.order", { game: label(a.value) });
    case "pass_order": return t(a.value === "automatic" ? "king.mv.pass_auto" : "king.mv.pass");
    case "pass_buyout": case "pass_bid": return t("king.mv.pass");
    case "offer_buyout": return t("king.mv.buy_for", { n: a.value });
    case "accept": return t("king.mv.accepted", { n: a.value });
    case "refuse": return t("king.mv.refuse");
    case "bid": return t("king.mv.bid", { n: a.value });
    case "declare": return DECLARED[a.value] ? option(...DECLARED[a.value]) : label(a.value);
    default: return `${a.action}${a.value ? ` ${label(a.value)}` : ""}`;
  }
}

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
        <br><small>${[c.hearts_lead_ban ? t("king.no_hearts_lead") : "", c.king_discard ? t("king.must_discard_king") : "", c.trump_lead_restriction ? t("king.declarer_leads_trumps") : ""].filter(Boolean).join(" · ")}</small>
      </div>` : "";
    const trick = g.trick;
    const inTrick = trick ? Object.fromEntries(trick.plays) : {};
    const seatsHtml = view.seats.map((s) => `
      <div class="king-seat ${g.to_act === s ? "to-move" : ""} ${s === ctx.seat ? "me" : ""}" data-seat="${s}">
        <b>${names[s]}</b> <small>${s}${g.dealer === s ? t("king.dealer") : ""}${trick && trick.leader === s ? t("king.leads") : ""}</small><br>
        <span class="n">${t("king.cards", { n: g.hand_sizes[s] ?? 0 })}${g.pending_sizes[s] ? t("king.to_come", { n: g.pending_sizes[s] }) : ""} · ${t("king.tricks", { n: g.tricks_won[s] ?? 0 })}</span>
        <div class="played">${inTrick[s] ? cardHtml(inTrick[s]) : ""}</div>
      </div>`).join("");
    const auction = (g.auction || []).map((a) => `${names[a.seat]}: ${auctionText(a)}`).join(" · ");
    const sheetHead = view.seats.map((s) => `<th>${names[s]}</th>`).join("");
    const comp = view.seats.some((s) => g.compensation[s]) ? `<tr class="comp"><td>—</td><td>${t("king.compensation")}</td>${view.seats.map((s) => `<td>${g.compensation[s]}</td>`).join("")}<td></td></tr>` : "";
    const rows = g.sheet.map((r) => `
      <tr${r.ended_early ? ' class="early"' : ""}><td>${r.deal_no}</td><td title="${r.detail}">${r.game}${r.declarer ? ` <small>${r.declarer}</small>` : ""}</td>
      ${r.points.map((p, i) => `<td><span class="pts">${p > 0 ? "+" : ""}${p}</span><small> ${r.totals[i]}</small></td>`).join("")}
      <td class="${r.row_sum === r.expected_sum ? "ok" : "bad"}">${r.row_sum}${r.row_sum === r.expected_sum ? " ✓" : ` ≠ ${r.expected_sum}`}</td></tr>`).join("");
    const totals = view.seats.map((s) => `<td class="total">${g.totals[s]}</td>`).join("");
    const balance = g.zero_sum ? (g.balance === 0 ? "Σ 0 ✓" : `Σ ${g.balance}`) : t("king.not_zero_sum", { n: g.balance });
    const logHtml = [...log.entries()].sort((a, b) => b[0] - a[0]).map(([deal, tricks]) => tricks.length ? `
      <tr><th colspan="${view.seats.length + 2}">${t("king.deal_row", { n: deal })}</th></tr>
      ${tricks.map((tr) => { const by = Object.fromEntries(tr.plays); return `<tr><td>${tr.trick_no}</td>${view.seats.map((s) => `<td class="${tr.leader === s ? "lead" : ""}">${by[s] ? cardHtml(by[s]) : ""}</td>`).join("")}<td>${names[tr.winner]}</td></tr>`; }).join("")}` : "").join("");
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="king-status">${t("king.status", { phase: t(`king.phase.${g.phase}`), who: `<b id="king-turn">${g.to_act ? who(g.to_act) : (g.to_move || []).map(who).join(", ") || "—"}</b>` })}</div>
      ${contract}
      <div class="king-table">${seatsHtml}</div>
      ${auction ? `<p class="king-auction"><small>${auction}</small></p>` : ""}
      ${g.talon && g.talon.length ? `<p>${t("king.talon")} ${g.talon.map((x) => cardHtml(x)).join("")}</p>` : ""}
      ${g.my_discards && g.my_discards.length ? `<p>${t("king.your_discards")} ${g.my_discards.map((x) => cardHtml(x)).join("")}</p>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((x) => cardHtml(x, cardMoves.has(x) ? "playable" : "")).join("") || `<span class="muted">${t("king.no_cards")}</span>`}</div>
        <div class="king-actions">${other.map((m, i) => `<button data-move="${i}" data-label="${esc(m.label)}" title="${esc(m.label)}" class="${other.length < 6 ? "primary" : "small"}">${esc(shownText(m.label))}</button>`).join("")}</div>
      </div>
      <table class="scores king-sheet"><tr><th>#</th><th>${t("king.game")}</th>${sheetHead}<th>${t("king.row_sum")}</th></tr>${comp}${rows}
        <tr class="totals"><td></td><td>${t("king.total")}</td>${totals}<td>${balance}</td></tr></table>
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
