// 1000 (Thousand) renderer: your hand, the bidding box (the listed bids only), the talon, the two
// cards to give away, marriage announcements, the trick and the last trick, and the score sheet
// with barrel and bolt marks per player and deal.  Moves come only from the view's legal_moves
// ({label, command}); the page sends the listed command as it is and knows no rules.
import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const MARKS = {
  bolt: "⊘", bolt_penalty: "−bolt", barrel_on: "🛢", barrel_attempt: "🛢·", barrel_made: "🛢✓", fall: "↓",
  frozen: "❄", write_off: "W", samosval: "555→0", knocked_off: "↓k", simultaneous_climb: "↓2",
  attempts_exhausted: "↓3", falls_reset: "0", third_write_off: "W3", golden_restart: "↺",
};
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const T = (c) => c.type.replace(/^thousand_/, "").replace(/\.v\d+$/, "");

function moveText(move, names) {
  const c = move.command;
  switch (T(c)) {
    case "ready": return "Deal";
    case "declare_blind": return "Play blind (120)";
    case "decline_blind": return "Look at my cards";
    case "keep_hand": return "Keep my hand";
    case "claim_redeal": return `Claim a redeal (${c.reason.replace("_", " ")})`;
    case "bid": return String(c.amount);
    case "pass": return "Pass";
    case "set_contract": return `Contract ${c.amount}`;
    case "write_off": return "Write off the deal";
    case "give_cards": return `${Object.entries(c.gifts).map(([s, x]) => `${cardLabel(x)} → ${names[s] || s}`).join(", ")}${c.face_up ? " (face up)" : ""}`;
    case "play": return c.announce === "marriage" ? `${cardLabel(c.card)} + marriage` : c.announce === "aces" ? `${cardLabel(c.card)} + four aces` : cardLabel(c.card);
    default: return move.label;
  }
}

export function eventText(e) {
  const t = (e.type || "").replace(/^thousand_/, "").replace(/\.v\d+$/, "");
  if (t === "deal_dealt") return `deal ${e.deal_no + 1} dealt by ${e.dealer}`;
  if (t === "bid_made") return `${e.seat} bids ${e.amount}`;
  if (t === "passed") return `${e.seat} passes`;
  if (t === "declarer") return `${e.seat} declares at ${e.bid}`;
  if (t === "contract_set") return `${e.declarer} plays ${e.amount}`;
  if (t === "card_played") return `${e.seat} plays ${cardLabel(e.card)}${e.announce !== "none" ? ` (${e.announce} ${e.value})` : ""}`;
  if (t === "trick_taken") return `trick ${e.trick_no} to ${e.winner} (${e.points})`;
  if (t === "deal_scored") return `deal ${e.deal_no}: ${e.declarer} ${e.contract} ${e.result.replace("_", " ")}`;
  if (t === "redeal") return `redeal (${e.reason.replace("_", " ")})`;
  if (t === "blind_answered") return `${e.seat} ${e.blind ? "plays blind" : "looks at the cards"}`;
  if (t === "hand_shown") return `${e.seat} shows the hand`;
  if (t === "hand_kept") return `${e.seat} keeps the hand`;
  if (t === "auction_opened") return `auction opens at ${e.standing_bid} (${e.high_seat})`;
  if (t === "talon_revealed") return `the talon: ${e.cards.map(cardLabel).join(" ")}`;
  if (t === "talon_taken") return `${e.declarer} takes the talon`;
  if (t === "cards_given") return `${e.declarer} gives ${e.to.map((s, i) => `${cardLabel(e.cards[i])} to ${s}`).join(", ")}`;
  if (t === "written_off") return `${e.declarer} writes the deal off (${e.amount})`;
  return null;
}

export function create(root, ctx) {
  let view = null;
  let chosen = []; // cards picked to give away
  const el = document.createElement("div");
  el.className = "kc thousand";
  root.appendChild(el);

  const legal = () => (ctx.interactive ? view.legal_moves || [] : []);
  const names = () => Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
  function send(move) { chosen = []; ctx.send(move.command); ctx.say(`You: ${moveText(move, names())}…`); draw(); }

  function clickCard(card) {
    if (legal().some((m) => T(m.command) === "give_cards")) {
      chosen = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card].slice(-2);
      draw();
      return;
    }
    const plain = legal().find((m) => T(m.command) === "play" && m.command.card === card && m.command.announce === "none");
    if (plain) send(plain);
    else if (legal().length) ctx.say(`${cardLabel(card)} cannot be played now.`, "error");
    else ctx.say("It is not your turn.", "error");
  }

  function sheet(g, nm) {
    const seats = view.seats;
    const head = `<tr><th>deal</th><th>declarer</th>${seats.map((s) => `<th>${esc(nm[s])}</th>`).join("")}</tr>`;
    const rows = g.sheet.map((d) => `<tr><td>${d.deal_no}</td><td>${esc(nm[d.declarer])} ${d.contract} <small>${d.result.replace("_", " ")}</small></td>${seats.map((s) =>
      `<td title="${(d.marks[s] || []).join(", ")}">${d.scores[s]} <small>(${d.deltas[s] >= 0 ? "+" : ""}${d.deltas[s]})</small> ${(d.marks[s] || []).map((m) => `<span class="mark" data-mark="${m}">${MARKS[m] || m}</span>`).join("")}</td>`).join("")}</tr>`).join("");
    const now = `<tr><th colspan="2">now</th>${seats.map((s) => {
      const b = g.barrel[s];
      return `<td><b>${g.scores[s]}</b>${b.on ? ` 🛢${b.attempts}` : ""}${b.falls ? ` ↓${b.falls}` : ""}${g.bolts[s] ? ` ⊘${g.bolts[s]}` : ""}${g.writeoffs[s] ? ` W${g.writeoffs[s]}` : ""}</td>`;
    }).join("")}</tr>`;
    return `<table class="scores sheet" id="sheet">${head}${rows}${now}</table>`;
  }

  function buttons(moves, nm, cls = "") {
    return moves.map((m) => `<button data-move="${esc(m.label)}" class="${cls}">${esc(moveText(m, nm))}</button>`).join("");
  }

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const nm = names();
    const moves = legal();
    const of = (...types) => moves.filter((m) => types.includes(T(m.command)));
    const bids = of("bid", "pass");
    const contract = of("set_contract", "write_off");
    const announce = of("play").filter((m) => m.command.announce !== "none");
    const simple = of("ready", "declare_blind", "decline_blind", "keep_hand", "claim_redeal");
    const gives = of("give_cards");
    let passBox = "";
    if (gives.length) {
      const fits = chosen.length === 2 ? gives.filter((m) => { const v = Object.values(m.command.gifts); return v.includes(chosen[0]) && v.includes(chosen[1]); }) : [];
      passBox = `<div class="pass-box" id="pass-box"><b>Give two cards away</b> — pick two cards in your hand. ${buttons(fits, nm)} ${buttons(of("write_off"), nm)}</div>`;
    }
    const others = view.seats.filter((s) => s !== ctx.seat);
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="kc-status">Deal ${g.deal_no || "—"} · ${g.phase.replaceAll("_", " ")}${g.golden ? " · golden" : ""}${g.dealer ? ` · dealer ${esc(nm[g.dealer])}` : ""}${g.sitout ? ` · ${esc(nm[g.sitout])} sits out` : ""}${g.high_bid != null && g.phase === "auction" ? ` · high bid <b>${g.high_bid}</b> (${esc(nm[g.high_seat])})` : ""}${g.declarer ? ` · declarer <b>${esc(nm[g.declarer])}</b> ${g.contract}${g.blind ? " blind" : ""}` : ""}${g.trump ? ` · trump <b class="trump">${SUIT[g.trump]}</b>` : ""}</div>
      <div class="opponents">${others.map((s) => `
        <div class="opponent ${view.to_move.includes(s) ? "to-move" : ""}" data-seat="${s}">
          <b>${esc(nm[s])}</b> <small>${s}</small><br>
          <span class="backs">${'<span class="mini-back"></span>'.repeat(Math.min(g.hand_sizes[s] || 0, 10))}</span>
          <span class="n">${g.hand_sizes[s] ?? 0} cards · ${g.tricks_won[s] ?? 0} tricks</span>
          ${g.given[s] ? `<div>got ${cardHtml(g.given[s])}</div>` : ""}
        </div>`).join("")}
      </div>
      <div class="table-row">
        <div class="talon" id="talon">${g.talon.length ? `<small>talon</small> ${g.talon.map((c) => cardHtml(c)).join("")}` : ""}</div>
        <div class="trick" id="trick">${g.trick.map(([s, c]) => `<div class="played"><small>${esc(nm[s])}</small>${cardHtml(c)}</div>`).join("")}</div>
        ${g.last_trick.length ? `<div class="last-trick"><small>last trick</small> ${g.last_trick.map(([, c]) => cardHtml(c)).join("")}</div>` : ""}
      </div>
      ${g.announcements.length ? `<div class="announcements">${g.announcements.map(([s, k, v]) => `${esc(nm[s])}: ${k === "aces" ? "four aces" : `${SUIT[k]} marriage`} ${v}`).join(" · ")}</div>` : ""}
      ${bids.length ? `<div class="bid-box" id="bid-box"><b>Bid</b> ${buttons(bids, nm, "primary")}</div>` : ""}
      ${contract.length && !gives.length ? `<div class="bid-box" id="contract-box"><b>Contract</b> ${buttons(contract, nm)}</div>` : ""}
      ${passBox}
      ${announce.length ? `<div class="announce-box" id="announce-box"><b>Announce</b> ${buttons(announce, nm)}</div>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((c) => cardHtml(c, chosen.includes(c) ? "selected" : "")).join("") || '<span class="muted">no cards in hand</span>'}</div>
        <div class="kc-actions">${buttons(simple, nm, "primary")}</div>
      </div>
      ${sheet(g, nm)}`;
    el.querySelectorAll("#hand [data-card]").forEach((c) => { c.onclick = () => clickCard(c.dataset.card); });
    el.querySelectorAll("[data-move]").forEach((b) => {
      b.onclick = () => { const m = moves.find((x) => x.label === b.dataset.move); if (m) send(m); };
    });
    accessible(el, focused);
  }

  return {
    update(v) {
      chosen = chosen.filter((c) => (v.game_view.hand || []).includes(c));
      view = v;
      draw();
    },
    rejected() { chosen = []; draw(); },
  };
}
