// Kings Cup table helper (rules/king.md §15.1), drawn from the view: the cup and the cards left
// around it, the drawn card's rule, the standing roles (question master, mates, the rules made
// with Kings) and the notice.  Moves are the view's legal moves ({label, command}).

import { cardHtml, cardLabel } from "../cards.js";

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

export function create(root, ctx) {
  let view = null;
  const el = document.createElement("div");
  el.className = "kcup";
  root.appendChild(el);
  const moves = () => (ctx.interactive && view ? view.legal_moves || [] : []);

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const mv = moves();
    // A King's rule is said aloud at the table; the listed move records that it was made (a client
    // of the API may send the rule's text instead).
    const others = mv;
    const last = g.last;
    el.innerHTML = `
      <p class="notice">${esc(g.notice)}</p>
      <div class="kc-status">Table helper — nothing here is judged or rated · ${esc(g.rule_set)} rules · turn: <b>${g.current ? esc(names[g.current]) : "—"}</b></div>
      <div class="kcup-table">
        <div class="kcup-cup" title="the cup">🍺 <b>${g.cup}</b>/3 poured · Kings ${g.kings}/4 · ${g.cards_left} cards around the cup</div>
        ${last ? `<div class="kcup-last">${cardHtml(last.card)}
          <div><b>${esc(last.title)}</b> — ${esc(last.text)}<br><small>drawn by ${esc(names[last.seat])}</small></div></div>` : ""}
      </div>
      <div class="kcup-roles">
        <div><b>Question master:</b> ${g.question_master ? esc(names[g.question_master]) : "nobody"}</div>
        <div><b>Mates:</b> ${Object.entries(g.drinks_with).map(([s, ms]) => `${esc(names[s])} → ${ms.map((m) => esc(names[m])).join(", ")}`).join("; ") || "none"}</div>
        <div><b>Rules:</b> ${g.rules.length ? `<ol>${g.rules.map((r) => `<li>${esc(r.text)} <small>(${esc(names[r.seat])})</small></li>`).join("")}</ol>` : "none"}</div>
      </div>
      <div class="kc-actions">
        ${others.map((m, i) => `<button class="primary" data-move="${i}">${esc(m.label)}</button>`).join("")}
      </div>
      ${g.status === "finished" ? `<p><b>${esc(g.result === "fourth_king" ? "The fourth King: the cup is theirs." : "Every card has been drawn.")}</b></p>` : ""}
      <details class="rules"><summary>The card rules</summary><table>${Object.entries(g.card_rules).map(([r, c]) => `<tr><th>${r}</th><td><b>${esc(c.title)}</b> ${esc(c.text)}</td></tr>`).join("")}</table></details>`;
    el.querySelectorAll("[data-move]").forEach((b) => { b.onclick = () => { const m = others[Number(b.dataset.move)]; ctx.send(m.command); ctx.say(`You: ${m.label}`); }; });
  }

  return { update(v) { view = v; draw(); }, rejected() { draw(); } };
}

export function eventText(e) {
  switch (e.type) {
    case "kcup_dealt.v1": return `${e.size} cards around the cup; ${e.first_seat} draws first`;
    case "kcup_card_drawn.v1": return `${e.seat} draws ${cardLabel(e.card)}: ${e.title}`;
    case "kcup_seat_chosen.v1": return `${e.seat} chooses ${e.target}${e.effect === "mate" ? " as mate" : ""}`;
    case "kcup_rule_made.v1": return e.text ? `${e.seat} makes a rule: ${e.text}` : `${e.seat} cancels a rule`;
    case "kcup_ended.v1": return e.reason === "fourth_king" ? `${e.seat} draws the fourth King` : "every card drawn";
    default: return null;
  }
}
