// Kings in the Corner renderer: your hand, the cross and the corners, the stock, the other
// players' card counts, whose turn, penalty totals per round.  Moves come only from the view's
// legal_moves ({label, command}): click a card then a highlighted pile, a pile then a pile, or any
// move in the list; the page sends the listed command as it is and knows no rules.
import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";
import { shownText, seatTitle, toAct, lastMoveHtml } from "../table.js";
import { t, addStrings } from "../i18n.js";

// This renderer's words (the Russian terms are seed 003's «Короли в углах»: колода, крест, угол,
// стопка, раунд).
addStrings({
  en: {
    "kc.you_play": "You play: {move}…",
    "kc.not_your_turn": "It is not your turn.",
    "kc.nowhere": "{card} cannot be played anywhere now.",
    "kc.choose": "Choose how to play it on {slot}.",
    "kc.not_on": "{card} does not go on {slot}.",
    "kc.pile_stuck": "The {slot} pile cannot move now.",
    "kc.empty": "empty", "kc.stock": "stock",
    "kc.status": "Round {n} · {status} · turn: {who}",
    "kc.dealer": " · dealer {who}", "kc.pot": " · pot {n}",
    "kc.cards": { one: "{n} card", other: "{n} cards" },
    "kc.place_drawn": "Place your drawn card {card} on an empty pile.",
    "kc.no_cards": "no cards in hand",
    "kc.all_moves": "All legal moves ({n})",
    "kc.sheet": "Score sheet: each round's points and the running total",
    "kc.player": "player", "kc.round_short": "R{n}", "kc.total": "total",
    "kc.over": "the match is over",
  },
  ru: {
    "kc.you_play": "Ваш ход: {move}…",
    "kc.not_your_turn": "Сейчас не ваш ход.",
    "kc.nowhere": "{card} сейчас некуда положить.",
    "kc.choose": "Выберите, как положить карту на {slot}.",
    "kc.not_on": "{card} нельзя положить на {slot}.",
    "kc.pile_stuck": "Стопку {slot} сейчас нельзя перенести.",
    "kc.empty": "пусто", "kc.stock": "колода",
    "kc.status": "Раунд {n} · {status} · ходит: {who}",
    "kc.dealer": " · сдаёт {who}", "kc.pot": " · банк {n}",
    "kc.cards": { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    "kc.place_drawn": "Положите взятую карту {card} на свободное место.",
    "kc.no_cards": "на руке нет карт",
    "kc.all_moves": "Все допустимые ходы ({n})",
    "kc.sheet": "Таблица очков: очки каждого раунда и сумма",
    "kc.player": "игрок", "kc.round_short": "Р{n}", "kc.total": "итого",
    "kc.over": "партия окончена",
  },
});

const GRID = [["NW", "N", "NE"], ["W", null, "E"], ["SW", "S", "SE"]];
const ACTIONS = new Set(["kc_ready.v1", "kc_draw.v1", "kc_end_turn.v1"]);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

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
    ctx.say(t("kc.you_play", { move: shownText(move.label) }));
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
    if (!legal().length) { ctx.say(t("kc.not_your_turn"), "error"); return; }
    choices = [];
    selected = selected && selected.kind === "card" && selected.id === id ? null : { kind: "card", id };
    if (selected && !targetsOf(selected).size) ctx.say(t("kc.nowhere", { card: cardLabel(id) }), "error");
    draw();
  }

  function clickSlot(slot) {
    const targets = targetsOf(selected);
    if (selected && targets.has(slot)) {
      const options = targets.get(slot);
      if (options.length === 1) { play(options[0]); return; }
      choices = options;
      ctx.say(t("kc.choose", { slot }));
      draw();
      return;
    }
    if (selected && selected.kind === "card") { ctx.say(t("kc.not_on", { card: cardLabel(selected.id), slot }), "error"); return; }
    if (!legal().length) { ctx.say(t("kc.not_your_turn"), "error"); return; }
    choices = [];
    selected = selected && selected.id === slot ? null : { kind: "slot", id: slot };
    if (selected && !targetsOf(selected).size) { ctx.say(t("kc.pile_stuck", { slot }), "error"); selected = null; }
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
    return `<div class="${cls.join(" ")}" data-slot="${slot}" title="${slot}: ${pile.map(cardLabel).join(" ") || t("kc.empty")}">${inner}</div>`;
  }

  const moveButton = (m, i, cls) =>
    `<button data-move="${i}" data-type="${esc(m.command.type)}" data-label="${esc(m.label)}" class="${cls}" title="${esc(m.label)}">${esc(shownText(m.label))}</button>`;

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const moves = legal();
    const targets = targetsOf(selected);
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const others = view.seats.filter((s) => s !== ctx.seat);
    const acting = toAct(view, [g.current]);
    const turnOf = acting.length ? `${esc(names[g.current])} (${g.current})` : "—";
    // The hand's cards that some listed move plays: outlined, so a click finds their piles.
    const playable = new Set(moves.filter((m) => m.command.type === "kc_play_card.v1").map((m) => m.command.card));
    const grid = GRID.map((row) => row.map((slot) => slot
      ? pileHtml(slot, g.layout[slot] || [], targets.has(slot))
      : `<div class="stock" title="${t("kc.stock")}"><span class="card back"></span><span class="count">${g.stock_size}</span><small>${t("kc.stock")}</small></div>`).join("")).join("");
    const rounds = g.rounds || [];
    const scoreRows = view.seats.map((s) =>
      `<tr class="${acting.includes(s) ? "to-move" : ""}"><th>${esc(seatTitle(view, s))}</th>${rounds.map((r) => `<td>${r.points[s] ?? "–"}</td>`).join("")}<td class="total">${g.totals[s] ?? 0}</td></tr>`).join("");
    const actions = moves.map((m, i) => [m, i]).filter(([m]) => ACTIONS.has(m.command.type));
    const picks = choices.map((m) => [m, moves.indexOf(m)]);
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="kc-status">${t("kc.status", { n: g.round_no || "—", status: view.status === "finished" ? t("kc.over") : esc(g.status_text), who: `<b id="kc-turn">${turnOf}</b>` })}${g.dealer ? t("kc.dealer", { who: esc(names[g.dealer]) }) : ""}${g.pot ? t("kc.pot", { n: g.pot }) : ""}</div>
      <div class="opponents">${others.map((s) => `
        <div class="opponent ${acting.includes(s) ? "to-move" : ""} ${g.eliminated.includes(s) ? "out" : ""}" data-seat="${s}">
          <b>${esc(names[s])}</b> <small>${s}</small><br>
          <span class="backs">${'<span class="mini-back"></span>'.repeat(Math.min(g.hand_sizes[s] || 0, 14))}</span>
          <span class="n">${t("kc.cards", { n: g.hand_sizes[s] ?? 0 })}</span>
          ${g.revealed_hands[s] ? `<div class="revealed">${g.revealed_hands[s].map((c) => cardHtml(c)).join("")}</div>` : ""}
          ${lastMoveHtml(s)}
        </div>`).join("")}
      </div>
      <div class="table-grid">${grid}</div>
      ${g.pending_card ? `<p class="notice">${t("kc.place_drawn", { card: cardLabel(g.pending_card) })}</p>` : ""}
      ${picks.length ? `<div class="choices">${picks.map(([m, i]) => moveButton(m, i, "primary")).join("")}</div>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((c) => cardHtml(c, `${selected && selected.kind === "card" && selected.id === c ? "selected" : ""} ${playable.has(c) ? "playable" : ""}`)).join("") || `<span class="muted">${t("kc.no_cards")}</span>`}</div>
        <div class="kc-actions">${actions.map(([m, i]) => moveButton(m, i, "primary")).join("")}</div>
      </div>
      ${moves.length ? `<details class="legal" ${moves.length < 8 ? "open" : ""}><summary>${t("kc.all_moves", { n: moves.length })}</summary>
        <div class="legal-list">${moves.map((m, i) => moveButton(m, i, "small")).join("")}</div></details>` : ""}
      <table class="scores kc-sheet" id="kc-sheet"><caption>${t("kc.sheet")}</caption><tr><th>${t("kc.player")}</th>${rounds.map((r) => `<th>${t("kc.round_short", { n: r.round_no })}</th>`).join("")}<th>${t("kc.total")}</th></tr>${scoreRows}</table>`;
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
