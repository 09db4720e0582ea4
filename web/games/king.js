// King (Кинг) table, drawn from the view: your hand, the trick in the middle, whose lead, the
// contract of this deal and what it costs, the declarer's choices, the score sheet (one row per
// deal, one column per player, running totals and the zero-sum check) and a log of what every
// seat played.  Every command comes from the view's legal moves ({label, command}): click a card
// to play it, or a button for the other moves.  No rule is re-implemented here.

import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PHASE = {
  waiting: "waiting for every seat to be ready",
  ordering: "ordering a game",
  buyout: "buy-out offers",
  buyout_answer: "the declarer answers the best offer",
  declaring: "the declarer names the contract",
  auction: "trading auction",
  naming: "the high bidder names trumps",
  discard: "the orderer discards two cards",
  playing: "playing",
  scored: "deal scored — ready for the next one",
  finished: "match over",
};

// A move's label for people: card ids written with suit signs ("play QS" -> "play Q♠").
const label = (text) => String(text ?? "").replace(/\b(10|[2-9AJQK])([SHDC])\b/g, (_, r, s) => r + SUIT[s]);

export function create(root, ctx) {
  let view = null;
  const log = new Map(); // deal number -> completed tricks seen (the view keeps the current deal's)
  const el = document.createElement("div");
  el.className = "king";
  root.appendChild(el);

  const moves = () => (ctx.interactive ? view.legal_moves || [] : []);
  function send(move) { ctx.send(move.command); ctx.say(`You: ${label(move.label)}…`); }

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
        <b>Deal ${g.deal_no}/${g.deals_total}: ${c.game} — ${c.name}</b> · ${c.cost}
        ${c.trump ? ` · trumps <b class="${/[HD]/.test(c.trump) ? "red" : ""}">${SUIT[c.trump]}</b>` : ""}
        ${c.misere ? " · misère (7 high)" : ""}${c.raspis ? " · raspis" : ""}
        ${c.by_last_card ? ` · by the last card ${cardHtml(c.by_last_card)}` : ""}
        ${c.declarer ? ` · declarer ${who(c.declarer)}` : ""}${c.orderer ? ` · ordered by ${who(c.orderer)}` : ""}
        ${c.bid !== null && c.bid !== undefined ? ` · bid ${c.bid}` : ""}
        ${c.buyout ? ` · bought by ${who(c.buyout[0])} from ${who(c.buyout[1])} for ${c.buyout[2]}` : ""}
        <br><small>${[c.hearts_lead_ban ? "no hearts lead while you hold another suit" : "", c.king_discard ? "void holder of K♥ must discard it" : "", c.trump_lead_restriction ? "only the declarer leads trumps" : ""].filter(Boolean).join(" · ")}</small>
      </div>` : "";
    const trick = g.trick;
    const inTrick = trick ? Object.fromEntries(trick.plays) : {};
    const seatsHtml = view.seats.map((s) => `
      <div class="king-seat ${g.to_act === s ? "to-move" : ""} ${s === ctx.seat ? "me" : ""}" data-seat="${s}">
        <b>${names[s]}</b> <small>${s}${g.dealer === s ? " · dealer" : ""}${trick && trick.leader === s ? " · leads" : ""}</small><br>
        <span class="n">${g.hand_sizes[s] ?? 0} cards${g.pending_sizes[s] ? ` (+${g.pending_sizes[s]} to come)` : ""} · ${g.tricks_won[s] ?? 0} tricks</span>
        <div class="played">${inTrick[s] ? cardHtml(inTrick[s]) : ""}</div>
      </div>`).join("");
    const auction = (g.auction || []).map((a) => `${names[a.seat]}: ${a.action.replace("_", " ")}${a.value ? " " + label(a.value) : ""}`).join(" · ");
    const sheetHead = view.seats.map((s) => `<th>${names[s]}</th>`).join("");
    const comp = view.seats.some((s) => g.compensation[s]) ? `<tr class="comp"><td>—</td><td>compensation</td>${view.seats.map((s) => `<td>${g.compensation[s]}</td>`).join("")}<td></td></tr>` : "";
    const rows = g.sheet.map((r) => `
      <tr${r.ended_early ? ' class="early"' : ""}><td>${r.deal_no}</td><td title="${r.detail}">${r.game}${r.declarer ? ` <small>${r.declarer}</small>` : ""}</td>
      ${r.points.map((p, i) => `<td><span class="pts">${p > 0 ? "+" : ""}${p}</span><small> ${r.totals[i]}</small></td>`).join("")}
      <td class="${r.row_sum === r.expected_sum ? "ok" : "bad"}">${r.row_sum}${r.row_sum === r.expected_sum ? " ✓" : ` ≠ ${r.expected_sum}`}</td></tr>`).join("");
    const totals = view.seats.map((s) => `<td class="total">${g.totals[s]}</td>`).join("");
    const balance = g.zero_sum ? (g.balance === 0 ? "Σ 0 ✓" : `Σ ${g.balance}`) : `Σ ${g.balance} (not zero-sum)`;
    const logHtml = [...log.entries()].sort((a, b) => b[0] - a[0]).map(([deal, tricks]) => tricks.length ? `
      <tr><th colspan="${view.seats.length + 2}">deal ${deal}</th></tr>
      ${tricks.map((t) => { const by = Object.fromEntries(t.plays); return `<tr><td>${t.trick_no}</td>${view.seats.map((s) => `<td class="${t.leader === s ? "lead" : ""}">${by[s] ? cardHtml(by[s]) : ""}</td>`).join("")}<td>${names[t.winner]}</td></tr>`; }).join("")}` : "").join("");
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="king-status">${PHASE[g.phase] || g.phase} · to act: <b id="king-turn">${g.to_act ? who(g.to_act) : (g.to_move || []).map(who).join(", ") || "—"}</b></div>
      ${contract}
      <div class="king-table">${seatsHtml}</div>
      ${auction ? `<p class="king-auction"><small>${auction}</small></p>` : ""}
      ${g.talon && g.talon.length ? `<p>Talon: ${g.talon.map((x) => cardHtml(x)).join("")}</p>` : ""}
      ${g.my_discards && g.my_discards.length ? `<p>Your discards: ${g.my_discards.map((x) => cardHtml(x)).join("")}</p>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((x) => cardHtml(x, cardMoves.has(x) ? "playable" : "")).join("") || '<span class="muted">no cards in hand</span>'}</div>
        <div class="king-actions">${other.map((m, i) => `<button data-move="${i}" class="${other.length < 6 ? "primary" : "small"}">${label(m.label)}</button>`).join("")}</div>
      </div>
      <table class="scores king-sheet"><tr><th>#</th><th>game</th>${sheetHead}<th>Σ row</th></tr>${comp}${rows}
        <tr class="totals"><td></td><td>total</td>${totals}<td>${balance}</td></tr></table>
      ${logHtml ? `<details class="king-log"><summary>What every seat played</summary><table><tr><th>trick</th>${sheetHead}<th>won by</th></tr>${logHtml}</table></details>` : ""}`;
    el.querySelectorAll("#hand [data-card]").forEach((x) => {
      x.onclick = () => {
        const m = cardMoves.get(x.dataset.card);
        if (m) send(m);
        else ctx.say(plays.length ? `${cardLabel(x.dataset.card)} may not be played now.` : "It is not your turn.", "error");
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

// A stored event in words, for the replay (null: the page's default wording).
export function eventText(e) {
  switch (e.type) {
    case "king_dealt.v1": return `deal ${e.deal_no}${e.game ? ` (${e.game})` : ""}, dealer ${e.dealer}`;
    case "king_contract_chosen.v1": return `${e.seat} orders ${e.game}${e.trump ? ` ${SUIT[e.trump]}` : ""}`;
    case "king_order_passed.v1": return `${e.seat} passes`;
    case "king_talon_shown.v1": return `talon ${e.cards.map(cardLabel).join(" ")} to ${e.seat}`;
    case "king_buyout_offered.v1": return `${e.seat} offers ${e.tricks} for the declaration`;
    case "king_buyout_passed.v1": return `${e.seat} passes`;
    case "king_buyout_decided.v1": return `${e.seat} ${e.accepted ? "sells" : "keeps"} the declaration`;
    case "king_declared.v1": return `${e.seat} declares ${e.option}${e.trump ? ` ${SUIT[e.trump]}` : ""}${e.last_card ? ` (${cardLabel(e.last_card)})` : ""}`;
    case "king_bid_made.v1": return `${e.seat} bids ${e.tricks}`;
    case "king_bid_passed.v1": return `${e.seat} passes`;
    case "king_discarded.v1": return `${e.seat} discards two cards`;
    case "king_card_played.v1": return `${e.seat} plays ${cardLabel(e.card)}`;
    case "king_trick_taken.v1": return `trick ${e.trick_no} to ${e.winner}`;
    case "king_deal_scored.v1": return `deal ${e.row.deal_no} (${e.row.game}): ${e.row.points.join(" ")}`;
    case "king_rest_dealt.v1": return `the rest of the deal${e.shown ? `, the last card ${cardLabel(e.shown)}` : ""}`;
    case "king_match_scored.v1": return `final totals ${e.totals.join(" ")}`;
    default: return null;
  }
}
