// Kings in the Corner table, drawn from the view: your hand, the cross and the corners, the stock,
// the other players' card counts, whose turn, penalty totals per round.  Every command the view
// lists as legal can be played: click a card then a pile, a pile then a pile, or use the move list.

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const GRID = [["NW", "N", "NE"], ["W", null, "E"], ["SW", "S", "SE"]];
const SLOTS = new Set(["N", "E", "S", "W", "NE", "SE", "SW", "NW"]);

export function cardLabel(id) {
  if (!id) return "?";
  if (id.startsWith("RJ")) return "🃏R";
  if (id.startsWith("BJ")) return "🃏B";
  const m = id.match(/^(10|[2-9AJQK])([SHDC])\d?$/);
  return m ? `${m[1]}${SUIT[m[2]]}` : id;
}

export function cardHtml(id, extra = "") {
  const red = /[HD]\d?$/.test(id) || id.startsWith("RJ");
  return `<span class="card ${red ? "red" : ""} ${extra}" data-card="${id}">${cardLabel(id)}</span>`;
}

// A command of the game from the short notation its view lists ("QS>N", "9H,8S>E", "E>N", "N>>NE").
export function parseCommand(text) {
  if (text === "ready") return { type: "kc_ready.v1" };
  if (text === "draw") return { type: "kc_draw.v1" };
  if (text === "end") return { type: "kc_end_turn.v1" };
  if (text.includes(">>")) {
    const [a, b] = text.split(">>");
    return { type: "kc_move_king_pile.v1", from_slot: a, to_slot: b };
  }
  const [src, slot] = text.split(">");
  if (SLOTS.has(src)) return { type: "kc_move_pile.v1", from_slot: src, to_slot: slot };
  if (src.includes(",")) return { type: "kc_play_run.v1", cards: src.split(","), slot };
  const [card, asCard] = src.split("=");
  return asCard ? { type: "kc_play_card.v1", card, slot, as_card: asCard } : { type: "kc_play_card.v1", card, slot };
}

function describe(text) {
  if (text === "ready") return "Ready for the deal";
  if (text === "draw") return "Draw";
  if (text === "end") return "End turn";
  if (text.includes(">>")) { const [a, b] = text.split(">>"); return `King pile ${a} → ${b}`; }
  const [src, slot] = text.split(">");
  if (SLOTS.has(src)) return `Pile ${src} → ${slot}`;
  return `${src.split(",").map((c) => cardLabel(c.split("=")[0])).join(" ")} → ${slot}`;
}

export function createKingsCorner(root, ctx) {
  let view = null;
  let selected = null; // {kind: "card"|"slot", id}
  const el = document.createElement("div");
  el.className = "kc";
  root.appendChild(el);

  const legal = () => (ctx.interactive ? view.game_view.legal || [] : []);
  function play(text) { selected = null; ctx.send(parseCommand(text)); ctx.say(`You play: ${describe(text)}…`); draw(); }

  function targetsOf(sel) {
    if (!sel) return new Map();
    const out = new Map();
    for (const t of legal()) {
      if (t === "ready" || t === "draw" || t === "end") continue;
      const king = t.includes(">>");
      const [src, dst] = king ? t.split(">>") : t.split(">");
      if (sel.kind === "card" && !SLOTS.has(src) && !src.includes(",") && src.split("=")[0] === sel.id) out.set(dst, t);
      if (sel.kind === "slot" && src === sel.id) out.set(dst, t);
    }
    return out;
  }

  function clickCard(id) {
    if (!legal().length) { ctx.say("It is not your turn.", "error"); return; }
    selected = selected && selected.kind === "card" && selected.id === id ? null : { kind: "card", id };
    if (selected && !targetsOf(selected).size) ctx.say(`${cardLabel(id)} cannot be played anywhere now.`, "error");
    draw();
  }

  function clickSlot(slot) {
    const targets = targetsOf(selected);
    if (selected && targets.has(slot)) { play(targets.get(slot)); return; }
    if (selected && selected.kind === "card") { ctx.say(`${cardLabel(selected.id)} does not go on ${slot}.`, "error"); return; }
    if (!legal().length) { ctx.say("It is not your turn.", "error"); return; }
    selected = selected && selected.id === slot ? null : { kind: "slot", id: slot };
    if (selected && !targetsOf(selected).size) { ctx.say(`The ${slot} pile cannot move now.`, "error"); selected = null; }
    draw();
  }

  function pileHtml(slot, pile, target) {
    const cls = ["pile", slot.length === 2 ? "corner" : "cross"];
    if (target) cls.push("target");
    if (selected && selected.kind === "slot" && selected.id === slot) cls.push("selected");
    const inner = pile.length
      ? `${pile.length > 1 ? cardHtml(pile[0], "base") : ""}${cardHtml(pile[pile.length - 1], "top")}<span class="count">${pile.length}</span>`
      : `<span class="empty">${slot}</span>`;
    return `<div class="${cls.join(" ")}" data-slot="${slot}" title="${slot}: ${pile.map(cardLabel).join(" ") || "empty"}">${inner}</div>`;
  }

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const targets = targetsOf(selected);
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const others = view.seats.filter((s) => s !== ctx.seat);
    const turnOf = g.current ? `${names[g.current]} (${g.current})` : "—";
    const grid = GRID.map((row) => row.map((slot) => slot
      ? pileHtml(slot, g.layout[slot] || [], targets.has(slot))
      : `<div class="stock" title="stock"><span class="card back"></span><span class="count">${g.stock_size}</span><small>stock</small></div>`).join("")).join("");
    const rounds = g.rounds || [];
    const scoreRows = view.seats.map((s) =>
      `<tr class="${g.current === s ? "to-move" : ""}"><th>${names[s]}</th>${rounds.map((r) => `<td>${r.points[s] ?? "–"}</td>`).join("")}<td class="total">${g.totals[s] ?? 0}</td></tr>`).join("");
    const extra = legal().filter((t) => ["ready", "draw", "end"].includes(t));
    el.innerHTML = `
      <div class="kc-status">Round ${g.round_no || "—"} · ${g.status.replace("_", " ")} · turn: <b id="kc-turn">${turnOf}</b>${g.dealer ? ` · dealer ${names[g.dealer]}` : ""}${g.pot ? ` · pot ${g.pot}` : ""}</div>
      <div class="opponents">${others.map((s) => `
        <div class="opponent ${g.current === s ? "to-move" : ""} ${g.eliminated.includes(s) ? "out" : ""}" data-seat="${s}">
          <b>${names[s]}</b> <small>${s}</small><br>
          <span class="backs">${'<span class="mini-back"></span>'.repeat(Math.min(g.hand_sizes[s] || 0, 14))}</span>
          <span class="n">${g.hand_sizes[s] ?? 0} cards</span>
          ${g.revealed_hands[s] ? `<div class="revealed">${g.revealed_hands[s].map((c) => cardHtml(c)).join("")}</div>` : ""}
        </div>`).join("")}
      </div>
      <div class="table-grid">${grid}</div>
      ${g.pending_card ? `<p class="notice">Place your drawn card ${cardLabel(g.pending_card)} on an empty pile.</p>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((c) => cardHtml(c, selected && selected.kind === "card" && selected.id === c ? "selected" : "")).join("") || '<span class="muted">no cards in hand</span>'}</div>
        <div class="kc-actions">${extra.map((t) => `<button data-cmd="${t}" class="primary">${describe(t)}</button>`).join("")}</div>
      </div>
      ${ctx.interactive && legal().length ? `<details class="legal" ${legal().length < 8 ? "open" : ""}><summary>All legal moves (${legal().length})</summary>
        <div class="legal-list">${legal().map((t) => `<button data-cmd="${t}" class="small">${describe(t)}</button>`).join("")}</div></details>` : ""}
      <table class="scores"><tr><th>penalty</th>${rounds.map((r) => `<th>R${r.round_no}</th>`).join("")}<th>total</th></tr>${scoreRows}</table>`;
    el.querySelectorAll("[data-card]").forEach((c) => {
      if (c.closest("#hand")) c.onclick = () => clickCard(c.dataset.card);
    });
    el.querySelectorAll("[data-slot]").forEach((p) => { p.onclick = () => clickSlot(p.dataset.slot); });
    el.querySelectorAll("[data-cmd]").forEach((b) => { b.onclick = () => play(b.dataset.cmd); });
  }

  return {
    update(v) {
      if (!view || v.seq !== view.seq) selected = null;
      view = v;
      draw();
    },
    rejected() { selected = null; draw(); },
  };
}
