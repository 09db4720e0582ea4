// Farkle Flip table, drawn from the view (rules/thousand-and-farkle-flip.md §3): every player's
// area with lost groups marked, the centre, the pending card and where it may go, banked scores,
// the entry mark and the scoring table's label.  Moves are the view's legal moves as the server
// lists them ({label, command}); this renderer knows no rules.

import { accessible, focusKey } from "../cards.js";

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

function cardHtml(value, extra = "") {
  const farkle = value === "F";
  return `<span class="ff-card ${farkle ? "farkle" : ""} ${extra}">${farkle ? "✗" : esc(value)}</span>`;
}

// The score sheet: one row per round of turns, per seat the points banked that turn (0 for a
// bust or a stop without a bank) and the banked total.
function sheet(g, seats, names) {
  const rows = g.sheet || [];
  if (!rows.length) return "";
  return `<table class="scores ff-sheet" id="ff-sheet"><caption>Score sheet</caption><tr><th>round</th>${seats.map((s) => `<th>${esc(names[s])}</th>`).join("")}</tr>${rows.map((r) =>
    `<tr><td>${r.round_no}</td>${seats.map((s) => (s in r.points ? `<td><span class="pts">${r.points[s] ? `+${r.points[s]}` : "0"}</span><small> ${r.totals[s]}</small></td>` : "<td></td>")).join("")}</tr>`).join("")}
    <tr class="totals"><td>total</td>${seats.map((s) => `<td class="total">${rows[rows.length - 1].totals[s] ?? 0}</td>`).join("")}</tr></table>`;
}

export function create(root, ctx) {
  let view = null;
  let chosen = new Set(); // positions picked in one area for a lock
  let chosenOwner = null;
  const el = document.createElement("div");
  el.className = "ff";
  root.appendChild(el);

  const moves = () => (ctx.interactive && view ? view.legal_moves || [] : []);
  const send = (m) => { chosen = new Set(); chosenOwner = null; ctx.send(m.command); ctx.say(`You play: ${m.label}…`); };
  const key = (cards) => [...cards].sort((a, b) => a - b).join(",");

  function clickCard(owner, pos) {
    if (!moves().some((m) => m.command.type === "ff_lock.v1")) return;
    if (chosenOwner !== owner) { chosen = new Set(); chosenOwner = owner; }
    chosen.has(pos) ? chosen.delete(pos) : chosen.add(pos);
    draw();
  }

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const mv = moves();
    const place = new Map(mv.filter((m) => m.command.type === "ff_place.v1").map((m) => [m.command.target, m]));
    const simple = mv.filter((m) => ["ff_draw.v1", "ff_stop.v1", "ff_ready.v1"].includes(m.command.type));
    const locks = mv.filter((m) => m.command.type === "ff_lock.v1");
    const exact = chosenOwner ? locks.filter((m) => m.command.owner === chosenOwner && key(m.command.cards) === key(chosen)) : [];
    const areas = g.players.map((p) => {
      const groups = new Set(p.area.map((c) => c.lost_group).filter((x) => x));
      return `<div class="ff-area ${g.current === p.seat ? "to-move" : ""} ${place.has(p.seat) ? "target" : ""}" data-seat="${p.seat}">
        <div class="ff-who"><b>${esc(names[p.seat])}</b> <small>${p.seat}</small>
          <span class="ff-banked" title="banked">${p.banked}</span>
          ${p.on_board ? '<span class="ff-entry" title="on the board: the entry is made">✓ on board</span>' : `<span class="ff-entry off" title="needs ${g.entry} in one turn">not on board</span>`}
          ${p.farkle_held ? `<span class="ff-held" title="Farkle cards held: ${g.farkle_value} each at the next bank">${cardHtml("F")}×${p.farkle_held}</span>` : ""}
        </div>
        <div class="ff-cards">${p.area.map((c, k) => `<span data-owner="${p.seat}" data-pos="${k}" title="${c.lost_group ? `lost group ${c.lost_group}: add a new card before it is locked again` : `position ${k}`}">${cardHtml(c.value, `${c.lost_group ? `lost g${c.lost_group % 6}` : ""} ${chosenOwner === p.seat && chosen.has(k) ? "selected" : ""}`)}</span>`).join("") || '<span class="muted">no cards</span>'}</div>
        ${groups.size ? `<small class="muted">${[...groups].map((x) => `lost group ${x}`).join(", ")}</small>` : ""}
        ${place.has(p.seat) ? `<button class="primary small" data-place="${p.seat}">Place ${esc(g.pending)} here</button>` : ""}
      </div>`;
    }).join("");
    const centre = g.centre.map((c) => `<div class="ff-combo">${c.cards.map((v) => cardHtml(v)).join("")}<small>${esc(c.pattern.replaceAll("_", " "))} · ${c.value} · from ${esc(c.owner)}</small></div>`).join("");
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="ff-header ${g.scoring_official ? "" : "placeholder"}" id="ff-scoring">${esc(g.scoring_note)}</div>
      <div class="kc-status">${esc(g.status)} · turn: <b id="ff-turn">${g.current ? `${esc(names[g.current])} (${g.current})` : "—"}</b>
        · to ${g.target} · entry ${g.entry} · draw pile ${g.draw_pile} · scored pile ${g.scored_pile}${g.set_aside.length ? ` · set aside ${g.set_aside.length}` : ""}
        ${g.final_trigger ? ` · <b>final round</b> (${esc(g.final_trigger)} reached ${g.target}; still to play: ${g.final_round.map(esc).join(", ")})` : ""}</div>
      <div class="ff-centre"><b>Centre</b> ${g.turn_total ? `(${g.turn_total} this turn)` : ""}<div class="ff-combos">${centre || '<span class="muted">empty</span>'}</div></div>
      ${g.pending ? `<p class="notice">Drawn: ${cardHtml(g.pending)} — place it in any player's area (${g.pending_targets.map(esc).join(", ")}).</p>` : ""}
      <div class="ff-areas">${areas}</div>
      <div class="kc-actions">
        ${simple.map((m, i) => `<button class="primary" data-simple="${i}">${esc(m.label)}</button>`).join("")}
        ${exact.map((m, i) => `<button class="primary" data-exact="${i}">${esc(m.label)}</button>`).join("")}
        ${chosen.size && !exact.length ? '<span class="muted">the picked cards make no combination that may be locked</span>' : ""}
      </div>
      ${locks.length ? `<details class="legal"><summary>Combinations you may lock (${locks.length})</summary><div class="legal-list">${locks.map((m, i) => `<button class="small" data-lock="${i}">${esc(m.label)}</button>`).join("")}</div></details>` : ""}
      ${sheet(g, view.seats, names)}
      <details class="rules"><summary>Scoring table: ${esc(g.scoring_table)}${g.scoring_official ? "" : " (PLACEHOLDER)"}</summary>
        <table>${g.patterns.map((p) => `<tr><th>${esc(p.name.replaceAll("_", " "))}</th><td>${Object.keys(p.face_values).length ? Object.entries(p.face_values).map(([f, v]) => `${f}s ${v}`).join(", ") : p.value}</td></tr>`).join("")}
        <tr><th>Farkle card at a bank</th><td>${g.farkle_value} each</td></tr></table></details>`;
    el.querySelectorAll("[data-pos]").forEach((c) => { c.onclick = () => clickCard(c.dataset.owner, Number(c.dataset.pos)); });
    el.querySelectorAll("[data-place]").forEach((b) => { b.onclick = () => send(place.get(b.dataset.place)); });
    el.querySelectorAll("[data-simple]").forEach((b) => { b.onclick = () => send(simple[Number(b.dataset.simple)]); });
    el.querySelectorAll("[data-exact]").forEach((b) => { b.onclick = () => send(exact[Number(b.dataset.exact)]); });
    el.querySelectorAll("[data-lock]").forEach((b) => { b.onclick = () => send(locks[Number(b.dataset.lock)]); });
    accessible(el, focused);
  }

  return {
    update(v) { if (!view || v.seq !== view.seq) { chosen = new Set(); chosenOwner = null; } view = v; draw(); },
    rejected() { chosen = new Set(); chosenOwner = null; draw(); },
  };
}

// One line of the replay for an event of this game.
export function eventText(e) {
  switch (e.type) {
    case "ff_game_dealt.v1": return `set-up: ${e.dealer} deals; ${e.first_seat} draws first`;
    case "ff_card_drawn.v1": return `${e.seat} draws ${e.card === "F" ? "a Farkle card" : e.card}`;
    case "ff_card_placed.v1": return `${e.seat} places ${e.card} in ${e.target}'s area`;
    case "ff_locked.v1": return `${e.seat} locks ${e.cards.join(" ")} of ${e.owner}: ${e.pattern.replaceAll("_", " ")} ${e.value}`;
    case "ff_busted.v1": return `${e.seat} busts${e.lost.length ? `: ${e.lost.length} combination(s) lost` : ""}`;
    case "ff_stopped.v1": return e.result === "banked" ? `${e.seat} banks ${e.points} (${e.banked})` : e.result === "forfeit" ? `${e.seat} stops below the entry: the centre is lost` : `${e.seat} stops with nothing to score`;
    case "ff_pile_reshuffled.v1": return `the scored pile (${e.size}) becomes the draw pile`;
    case "ff_final_round.v1": return `${e.trigger} reached the target: final round`;
    case "ff_game_ended.v1": return `game over (${e.reason.replace("_", " ")})`;
    default: return null;
  }
}
