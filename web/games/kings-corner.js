// Kings in the Corner renderer: your hand, the cross and the corners, the stock, the other
// players' card counts, whose turn, penalty totals per round.  Moves come only from the view's
// legal_moves ({label, command}): click a card then a highlighted pile, a pile then a pile, or any
// move in the list; the page sends the listed command as it is and knows no rules.
import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";

const GRID = [["NW", "N", "NE"], ["W", null, "E"], ["SW", "S", "SE"]];
const ACTIONS = new Set(["kc_ready.v1", "kc_draw.v1", "kc_end_turn.v1"]);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

// What a listed move does, in words (from the command's fields; the label is its notation).
function moveText(move) {
  const c = move.command;
  switch (c.type) {
    case "kc_ready.v1": return "Ready for the deal";
    case "kc_draw.v1": return "Draw";
    case "kc_end_turn.v1": return "End turn";
    case "kc_play_card.v1": return `${cardLabel(c.card)}${c.as_card ? ` as ${cardLabel(c.as_card)}` : ""} → ${c.slot}`;
    case "kc_play_run.v1": return `${c.cards.map(cardLabel).join(" ")} → ${c.slot}`;
    case "kc_move_pile.v1": return `Pile ${c.from_slot} → ${c.to_slot}`;
    case "kc_move_king_pile.v1": return `King pile ${c.from_slot} → ${c.to_slot}`;
    default: return move.label;
  }
}

export function create(root, ctx) {
  let view = null;
  let selected = null; // {kind: "card"|"slot", id}
  let choices = []; // several listed moves for one click (a joker's identities): pick one
  let changed = new Set(); // piles that changed with the last decision: the last move, highlighted
  const el = document.createElement("div");
  el.className = "kc";
  root.appendChild(el);

  const legal = () => (ctx.interactive ? view.legal_moves || [] : []);
  function play(move) {
    selected = null;
    choices = [];
    ctx.send(move.command);
    ctx.say(`You play: ${moveText(move)}…`);
    draw();
  }

  // slot -> the listed moves that put the selection there
  function targetsOf(sel) {
    const out = new Map();
    if (!sel) return out;
    for (const m of legal()) {
      const c = m.command;
      let dest = null;
      if (sel.kind === "card" && c.type === "kc_play_card.v1" && c.card === sel.id) dest = c.slot;
      if (sel.kind === "slot" && (c.type === "kc_move_pile.v1" || c.type === "kc_move_king_pile.v1") && c.from_slot === sel.id) dest = c.to_slot;
      if (dest) out.set(dest, [...(out.get(dest) || []), m]);
    }
    return out;
  }

  function clickCard(id) {
    if (!legal().length) { ctx.say("It is not your turn.", "error"); return; }
    choices = [];
    selected = selected && selected.kind === "card" && selected.id === id ? null : { kind: "card", id };
    if (selected && !targetsOf(selected).size) ctx.say(`${cardLabel(id)} cannot be played anywhere now.`, "error");
    draw();
  }

  function clickSlot(slot) {
    const targets = targetsOf(selected);
    if (selected && targets.has(slot)) {
      const options = targets.get(slot);
      if (options.length === 1) { play(options[0]); return; }
      choices = options;
      ctx.say(`Choose how to play it on ${slot}.`);
      draw();
      return;
    }
    if (selected && selected.kind === "card") { ctx.say(`${cardLabel(selected.id)} does not go on ${slot}.`, "error"); return; }
    if (!legal().length) { ctx.say("It is not your turn.", "error"); return; }
    choices = [];
    selected = selected && selected.id === slot ? null : { kind: "slot", id: slot };
    if (selected && !targetsOf(selected).size) { ctx.say(`The ${slot} pile cannot move now.`, "error"); selected = null; }
    draw();
  }

  function pileHtml(slot, pile, target) {
    const cls = ["pile", slot.length === 2 ? "corner" : "cross"];
    if (target) cls.push("target");
    if (selected && selected.kind === "slot" && selected.id === slot) cls.push("selected");
    if (changed.has(slot)) cls.push("last");
    const inner = pile.length
      ? `${pile.length > 1 ? cardHtml(pile[0], "base") : ""}${cardHtml(pile[pile.length - 1], "top")}<span class="count">${pile.length}</span>`
      : `<span class="empty">${slot}</span>`;
    return `<div class="${cls.join(" ")}" data-slot="${slot}" title="${slot}: ${pile.map(cardLabel).join(" ") || "empty"}">${inner}</div>`;
  }

  const moveButton = (m, i, cls) =>
    `<button data-move="${i}" data-type="${esc(m.command.type)}" data-label="${esc(m.label)}" class="${cls}" title="${esc(m.label)}">${esc(moveText(m))}</button>`;

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const moves = legal();
    const targets = targetsOf(selected);
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const others = view.seats.filter((s) => s !== ctx.seat);
    const turnOf = g.current ? `${esc(names[g.current])} (${g.current})` : "—";
    const grid = GRID.map((row) => row.map((slot) => slot
      ? pileHtml(slot, g.layout[slot] || [], targets.has(slot))
      : `<div class="stock" title="stock"><span class="card back"></span><span class="count">${g.stock_size}</span><small>stock</small></div>`).join("")).join("");
    const rounds = g.rounds || [];
    const scoreRows = view.seats.map((s) =>
      `<tr class="${g.current === s ? "to-move" : ""}"><th>${esc(names[s])}</th>${rounds.map((r) => `<td>${r.points[s] ?? "–"}</td>`).join("")}<td class="total">${g.totals[s] ?? 0}</td></tr>`).join("");
    const actions = moves.map((m, i) => [m, i]).filter(([m]) => ACTIONS.has(m.command.type));
    const picks = choices.map((m) => [m, moves.indexOf(m)]);
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="kc-status">Round ${g.round_no || "—"} · ${esc(g.status.replace("_", " "))} · turn: <b id="kc-turn">${turnOf}</b>${g.dealer ? ` · dealer ${esc(names[g.dealer])}` : ""}${g.pot ? ` · pot ${g.pot}` : ""}</div>
      <div class="opponents">${others.map((s) => `
        <div class="opponent ${g.current === s ? "to-move" : ""} ${g.eliminated.includes(s) ? "out" : ""}" data-seat="${s}">
          <b>${esc(names[s])}</b> <small>${s}</small><br>
          <span class="backs">${'<span class="mini-back"></span>'.repeat(Math.min(g.hand_sizes[s] || 0, 14))}</span>
          <span class="n">${g.hand_sizes[s] ?? 0} cards</span>
          ${g.revealed_hands[s] ? `<div class="revealed">${g.revealed_hands[s].map((c) => cardHtml(c)).join("")}</div>` : ""}
        </div>`).join("")}
      </div>
      <div class="table-grid">${grid}</div>
      ${g.pending_card ? `<p class="notice">Place your drawn card ${cardLabel(g.pending_card)} on an empty pile.</p>` : ""}
      ${picks.length ? `<div class="choices">${picks.map(([m, i]) => moveButton(m, i, "primary")).join("")}</div>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((c) => cardHtml(c, selected && selected.kind === "card" && selected.id === c ? "selected" : "")).join("") || '<span class="muted">no cards in hand</span>'}</div>
        <div class="kc-actions">${actions.map(([m, i]) => moveButton(m, i, "primary")).join("")}</div>
      </div>
      ${moves.length ? `<details class="legal" ${moves.length < 8 ? "open" : ""}><summary>All legal moves (${moves.length})</summary>
        <div class="legal-list">${moves.map((m, i) => moveButton(m, i, "small")).join("")}</div></details>` : ""}
      <table class="scores kc-sheet" id="kc-sheet"><caption>Score sheet: each round's points and the running total</caption><tr><th>player</th>${rounds.map((r) => `<th>R${r.round_no}</th>`).join("")}<th>total</th></tr>${scoreRows}</table>`;
    el.querySelectorAll("#hand [data-card]").forEach((c) => { c.onclick = () => clickCard(c.dataset.card); });
    el.querySelectorAll("[data-slot]").forEach((p) => { p.onclick = () => clickSlot(p.dataset.slot); });
    el.querySelectorAll("[data-move]").forEach((b) => { b.onclick = () => play(moves[Number(b.dataset.move)]); });
    accessible(el, focused);
  }

  return {
    update(v) {
      if (!view || v.seq !== view.seq) { selected = null; choices = []; }
      if (view && v.seq !== view.seq) {
        const before = view.game_view.layout, after = v.game_view.layout;
        changed = new Set(Object.keys(after).filter((slot) => (before[slot] || []).join() !== (after[slot] || []).join()));
      }
      view = v;
      draw();
    },
    rejected() { selected = null; choices = []; draw(); },
  };
}

// A stored event in words, for the replay (null: the page's default wording).
export function eventText(e) {
  switch (e.type) {
    case "kc_card_played.v1": return `${e.seat} plays ${cardLabel(e.card)} on ${e.slot}`;
    case "kc_run_played.v1": return `${e.seat} plays ${e.cards.map(cardLabel).join(" ")} on ${e.slot}`;
    case "kc_pile_moved.v1": return `${e.seat} moves ${e.from_slot} onto ${e.to_slot}`;
    case "kc_cards_drawn.v1": return `${e.seat} draws ${e.count}`;
    case "kc_turn_ended.v1": return `${e.seat} ends the turn`;
    case "kc_round_dealt.v1": return `round ${e.round_no} dealt`;
    case "kc_round_ended.v1": return `round ${e.round_no} over (${e.result}${e.winner ? `, ${e.winner} out` : ""})`;
    default: return null;
  }
}
