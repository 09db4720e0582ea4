// Farkle Flip table, drawn from the view (rules/thousand-and-farkle-flip.md §3): every player's
// area with lost groups marked, the centre, the pending card and where it may go, banked scores,
// the entry mark and the scoring table's label.  Moves are the view's legal moves as the server
// lists them ({label, command}); this renderer knows no rules.

import { accessible, focusKey } from "../cards.js";
import { t, addStrings, has } from "../i18n.js";
import { seatTitle, toAct, lastMoveHtml } from "../table.js";

// This renderer's words (the status and the combinations' names are the server's, in the page's
// language; the Russian terms are seed 004's: «попасть на табло», «карта Фаркла»).
addStrings({
  en: {
    "ff.sheet": "Score sheet", "ff.round": "round", "ff.total": "total",
    "ff.banked": "banked",
    "ff.on_board_title": "on the board: the entry is made", "ff.on_board": "✓ on board",
    "ff.off_board_title": "needs {entry} in one turn", "ff.off_board": "not on board",
    "ff.held_title": "Farkle cards held: {value} each at the next bank",
    "ff.lost_title": "lost group {n}: add a new card before it is locked again", "ff.position": "position {n}",
    "ff.no_cards": "no cards", "ff.lost_group": "lost group {n}",
    "ff.place": "Place {card} here",
    "ff.from": "from {who}",
    "ff.status": "{status} · turn: {who} · to {target} · entry {entry} · draw pile {draw} · scored pile {scored}",
    "ff.set_aside": " · set aside {n}",
    "ff.final_round": " · <b>final round</b> ({who} reached {target}; still to play: {left})",
    "ff.centre": "Centre", "ff.this_turn": "({n} this turn)", "ff.empty": "empty",
    "ff.drawn": "Drawn: {card} — place it in any player's area ({targets}).",
    "ff.no_combination": "the picked cards make no combination that may be locked",
    "ff.locks": "Combinations you may lock ({n})",
    "ff.scoring_table": "Scoring table: {name}", "ff.placeholder": " (PLACEHOLDER)", "ff.table.placeholder": "placeholder",
    "ff.face": "{face}s {value}",
    "ff.farkle_at_bank": "Farkle card at a bank", "ff.each": "{value} each",
    "ff.you_play": "You play: {move}…",
    "ff.over": "the match is over",
  },
  ru: {
    "ff.sheet": "Таблица очков", "ff.round": "круг", "ff.total": "итого",
    "ff.banked": "в банке",
    "ff.on_board_title": "на табло: вход сделан", "ff.on_board": "✓ на табло",
    "ff.off_board_title": "нужно {entry} за один ход", "ff.off_board": "не на табло",
    "ff.held_title": "Карты Фаркла у игрока: по {value} при следующем банке",
    "ff.lost_title": "потерянная комбинация {n}: добавьте новую карту, прежде чем снова выкладывать её", "ff.position": "позиция {n}",
    "ff.no_cards": "нет карт", "ff.lost_group": "потерянная комбинация {n}",
    "ff.place": "Положить {card} сюда",
    "ff.from": "от {who}",
    "ff.status": "{status} · ходит: {who} · до {target} · вход {entry} · колода {draw} · отбой {scored}",
    "ff.set_aside": " · отложено {n}",
    "ff.final_round": " · <b>последний круг</b> ({who} достигает {target}; ещё ходят: {left})",
    "ff.centre": "Центр", "ff.this_turn": "({n} за этот ход)", "ff.empty": "пусто",
    "ff.drawn": "Вытянута карта {card} — положите её в зону любого игрока ({targets}).",
    "ff.no_combination": "выбранные карты не составляют комбинацию, которую можно выложить",
    "ff.locks": "Комбинации, которые можно выложить ({n})",
    "ff.scoring_table": "Таблица очков: {name}", "ff.placeholder": " (не официальная)", "ff.table.placeholder": "временная",
    "ff.face": "{face} — {value}",
    "ff.farkle_at_bank": "Карта Фаркла при банке", "ff.each": "по {value}",
    "ff.you_play": "Ваш ход: {move}…",
    "ff.over": "партия окончена",
  },
});

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

function cardHtml(value, extra = "") {
  const farkle = value === "F";
  return `<span class="ff-card ${farkle ? "farkle" : ""} ${extra}">${farkle ? "✗" : esc(value)}</span>`;
}

// The score sheet: one row per round of turns, per seat the points banked that turn (0 for a
// bust or a stop without a bank) and the banked total.
function sheet(g, view) {
  const seats = view.seats;
  const rows = g.sheet || [];
  if (!rows.length) return "";
  // More than three seats do not fit a phone's width a column each: there (style.css) the sheet
  // is a card a seat instead, its total and every round's points, the same numbers.
  const many = seats.length > 3 ? " many" : "";
  const cards = `<div class="ff-sheet-cards${many}" id="ff-sheet-cards"><b>${t("ff.sheet")}</b><ul>${seats.map((s) => `<li data-seat="${esc(s)}"><b>${esc(seatTitle(view, s))}</b>: ${t("ff.total")} <b>${rows[rows.length - 1].totals[s] ?? 0}</b><br><small>${rows.filter((r) => s in r.points).map((r) => `${t("ff.round")} ${r.round_no}: ${r.points[s] ? `+${r.points[s]}` : "0"}`).join(" · ")}</small></li>`).join("")}</ul></div>`;
  return cards + `<table class="scores ff-sheet${many}" id="ff-sheet"><caption>${t("ff.sheet")}</caption><tr><th>${t("ff.round")}</th>${seats.map((s) => `<th>${esc(seatTitle(view, s))}</th>`).join("")}</tr>${rows.map((r) =>
    `<tr><td>${r.round_no}</td>${seats.map((s) => (s in r.points ? `<td><span class="pts">${r.points[s] ? `+${r.points[s]}` : "0"}</span><small> ${r.totals[s]}</small></td>` : "<td></td>")).join("")}</tr>`).join("")}
    <tr class="totals"><td>${t("ff.total")}</td>${seats.map((s) => `<td class="total">${rows[rows.length - 1].totals[s] ?? 0}</td>`).join("")}</tr></table>`;
}

export function create(root, ctx) {
  let view = null;
  let chosen = new Set(); // positions picked in one area for a lock
  let chosenOwner = null;
  const el = document.createElement("div");
  el.className = "ff";
  root.appendChild(el);

  const moves = () => (ctx.interactive && view ? view.legal_moves || [] : []);
  const send = (m) => { chosen = new Set(); chosenOwner = null; ctx.send(m.command); ctx.say(t("ff.you_play", { move: m.label })); };
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
    const acting = toAct(view, [g.current]);
    // The cards some listed lock takes, outlined in their area.
    const lockable = new Set(locks.flatMap((m) => m.command.cards.map((k) => `${m.command.owner}/${k}`)));
    const areas = g.players.map((p) => {
      const groups = new Set(p.area.map((c) => c.lost_group).filter((x) => x));
      return `<div class="ff-area ${acting.includes(p.seat) ? "to-move" : ""} ${place.has(p.seat) ? "target" : ""}" data-seat="${p.seat}">
        <div class="ff-who"><b>${esc(names[p.seat])}</b> <small>${p.seat}</small>
          <span class="ff-banked" title="${t("ff.banked")}">${p.banked}</span>
          ${p.on_board ? `<span class="ff-entry" title="${t("ff.on_board_title")}">${t("ff.on_board")}</span>` : `<span class="ff-entry off" title="${t("ff.off_board_title", { entry: g.entry })}">${t("ff.off_board")}</span>`}
          ${p.farkle_held ? `<span class="ff-held" title="${t("ff.held_title", { value: g.farkle_value })}">${cardHtml("F")}×${p.farkle_held}</span>` : ""}
        </div>
        <div class="ff-cards">${p.area.map((c, k) => `<span data-owner="${p.seat}" data-pos="${k}" title="${c.lost_group ? t("ff.lost_title", { n: c.lost_group }) : t("ff.position", { n: k })}">${cardHtml(c.value, `${c.lost_group ? `lost g${c.lost_group % 6}` : ""} ${chosenOwner === p.seat && chosen.has(k) ? "selected" : ""} ${lockable.has(`${p.seat}/${k}`) ? "playable" : ""}`)}</span>`).join("") || `<span class="muted">${t("ff.no_cards")}</span>`}</div>
        ${groups.size ? `<small class="muted">${[...groups].map((x) => t("ff.lost_group", { n: x })).join(", ")}</small>` : ""}
        ${lastMoveHtml(p.seat)}
        ${place.has(p.seat) ? `<button class="primary small" data-place="${p.seat}">${t("ff.place", { card: esc(g.pending) })}</button>` : ""}
      </div>`;
    }).join("");
    const centre = g.centre.map((c) => `<div class="ff-combo">${c.cards.map((v) => cardHtml(v)).join("")}<small>${esc(g.pattern_names[c.pattern] ?? c.pattern)} · ${c.value} · ${t("ff.from", { who: esc(c.owner) })}</small></div>`).join("");
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="ff-header ${g.scoring_official ? "" : "placeholder"}" id="ff-scoring">${esc(g.scoring_note)}</div>
      <div class="kc-status">${t("ff.status", { status: view.status === "finished" ? t("ff.over") : esc(g.status_text), who: `<b id="ff-turn">${acting.length ? `${esc(names[g.current])} (${g.current})` : "—"}</b>`, target: g.target, entry: g.entry, draw: g.draw_pile, scored: g.scored_pile })}${g.set_aside.length ? t("ff.set_aside", { n: g.set_aside.length }) : ""}
        ${g.final_trigger ? t("ff.final_round", { who: esc(g.final_trigger), target: g.target, left: g.final_round.map(esc).join(", ") }) : ""}</div>
      <div class="ff-centre"><b>${t("ff.centre")}</b> ${g.turn_total ? t("ff.this_turn", { n: g.turn_total }) : ""}<div class="ff-combos">${centre || `<span class="muted">${t("ff.empty")}</span>`}</div></div>
      ${g.pending ? `<p class="notice">${t("ff.drawn", { card: cardHtml(g.pending), targets: g.pending_targets.map(esc).join(", ") })}</p>` : ""}
      <div class="ff-areas">${areas}</div>
      <div class="kc-actions">
        ${simple.map((m, i) => `<button class="primary" data-simple="${i}">${esc(m.label)}</button>`).join("")}
        ${exact.map((m, i) => `<button class="primary" data-exact="${i}">${esc(m.label)}</button>`).join("")}
        ${chosen.size && !exact.length ? `<span class="muted">${t("ff.no_combination")}</span>` : ""}
      </div>
      ${locks.length ? `<details class="legal"><summary>${t("ff.locks", { n: locks.length })}</summary><div class="legal-list">${locks.map((m, i) => `<button class="small" data-lock="${i}">${esc(m.label)}</button>`).join("")}</div></details>` : ""}
      ${sheet(g, view)}
      <details class="rules"><summary>${t("ff.scoring_table", { name: esc(has(`ff.table.${g.scoring_table}`) ? t(`ff.table.${g.scoring_table}`) : g.scoring_table) })}${g.scoring_official ? "" : t("ff.placeholder")}</summary>
        <table>${g.patterns.map((p) => `<tr><th>${esc(g.pattern_names[p.name] ?? p.name)}</th><td>${Object.keys(p.face_values).length ? Object.entries(p.face_values).map(([f, v]) => t("ff.face", { face: f, value: v })).join(", ") : p.value}</td></tr>`).join("")}
        <tr><th>${t("ff.farkle_at_bank")}</th><td>${t("ff.each", { value: g.farkle_value })}</td></tr></table></details>`;
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
