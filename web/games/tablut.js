// Tablut renderer: the 9×9 board, the server's status line, check and warnings, and the move
// list, drawn from the view.  Moves come only from the view: its plays ({move, from, to,
// captured}: every legal move of the viewer with what it takes) to mark where a piece may go,
// and its legal_moves ({label, command}) to send the one chosen.  Click one of your pieces, then
// a marked square; hovering a marked square shows what the move would take.  The throne, the
// special corners (only when the view lists them), the king's escape routes (the view's
// king_routes) and the last move with the squares it took are marked.  Rank 9 is at the top for
// every seat.  The page knows no rules: every square it marks is in the view.

import { t, addStrings } from "../i18n.js";

addStrings({
  en: {
    "tb.board": "Tablut board",
    "tb.moves": "Moves",
    "tb.cancelled": "Move cancelled.",
    "tb.not_legal": "{sq} is not a square this piece can move to.",
    "tb.pick_piece": "{sq}: click one of your pieces first.",
    "tb.no_move": "The piece on {sq} has no legal move.",
    "tb.choose": "Click a marked square.",
    "tb.unknown_move": "{move} is not among the legal moves of this view.",
    "tb.check": "Check: the king can escape to {squares}.",
    "tb.routes": "The king can reach {squares} in one move.",
    "tb.attacker": "attacker",
    "tb.defender": "defender",
    "tb.king": "king",
    "tb.empty": "empty",
    "tb.throne": "throne",
    "tb.corner": "corner",
    "tb.escape": "escape square",
    "tb.route": "the king's escape route",
    "tb.in_check": "check",
    "tb.selected": "selected",
    "tb.target": "move here",
    "tb.would_take": "this move takes it",
    "tb.taken": "taken in the last move",
    "tb.last": "last move",
  },
  ru: {
    "tb.board": "Доска для таблута",
    "tb.moves": "Ходы",
    "tb.cancelled": "Ход отменён.",
    "tb.not_legal": "На поле {sq} эта фигура пойти не может.",
    "tb.pick_piece": "{sq}: сначала выберите свою фигуру.",
    "tb.no_move": "У фигуры на {sq} нет хода.",
    "tb.choose": "Выберите отмеченное поле.",
    "tb.unknown_move": "Хода {move} нет среди разрешённых.",
    "tb.check": "Шах: король может уйти на {squares}.",
    "tb.routes": "Король может за один ход дойти до {squares}.",
    "tb.attacker": "нападающий",
    "tb.defender": "защитник",
    "tb.king": "король",
    "tb.empty": "пусто",
    "tb.throne": "трон",
    "tb.corner": "угол",
    "tb.escape": "поле ухода",
    "tb.route": "путь короля к уходу",
    "tb.in_check": "шах",
    "tb.selected": "выбрана",
    "tb.target": "пойти сюда",
    "tb.would_take": "этот ход её берёт",
    "tb.taken": "взята последним ходом",
    "tb.last": "последний ход",
  },
});

const FILES = "abcdefghi";
const N = 9;
const sq = (x, y) => `${FILES[x]}${y + 1}`;
const PIECES = { t: "attacker", T: "defender", K: "king" };
const SIDE = { t: "attackers", T: "defenders", K: "defenders" };

// The Tablut-only marks, added once to the page (the board itself is style.css's .board / .sq).
const STYLE = `
.tablut { display: flex; gap: 1.5rem; flex-wrap: wrap; }
.tablut .board { --n: 9; border-color: #5b3d22; }
.tablut .sq { background: #e8d3a4; box-shadow: inset 0 0 0 .5px rgba(91, 61, 34, .45); }
.tablut .sq.escape:not(.corner) { background: #efdcb4; }
.tablut .sq.throne { background: #b98a4e repeating-linear-gradient(45deg, transparent 0 5px, rgba(255, 255, 255, .18) 5px 7px); }
.tablut .sq.corner { background: #7a4a2a repeating-linear-gradient(-45deg, transparent 0 5px, rgba(255, 255, 255, .16) 5px 7px); }
.tablut .sq.throne::before, .tablut .sq.corner::before { content: ""; position: absolute; inset: 12%; border: 2px solid rgba(255, 246, 220, .75); pointer-events: none; }
.tablut .sq.corner .coord, .tablut .sq.throne .coord { color: rgba(255, 246, 220, .9); }
.tablut .sq.last { background-image: linear-gradient(var(--last), var(--last)); }
.tablut .sq.route { box-shadow: inset 0 0 0 3px #1f7a3a; }
.tablut .sq.route::before { content: ""; position: absolute; inset: 18%; border: 2px dashed #1f7a3a; border-radius: 50%; pointer-events: none; }
.tablut .piece { display: flex; align-items: center; justify-content: center; width: 70%; height: 70%; font-size: min(5vw, 28px); line-height: 1; }
.tablut .piece.attacker { background: radial-gradient(circle at 35% 30%, #5a5550, #141210); border: 1px solid #000; }
.tablut .piece.defender, .tablut .piece.king { background: radial-gradient(circle at 35% 30%, #fff, #d8d3c8); border: 1px solid #8b857a; }
.tablut .piece.king::after { content: "\\265A"; color: #8a5a12; }
.tablut .sq.check .piece.king { box-shadow: 0 0 0 3px #1f7a3a, 0 2px 3px rgba(0, 0, 0, .45); }
.tablut .sq.would-take .piece { opacity: .5; }
.tablut .sq.taken:not(.dest)::after { content: "\\2715"; position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; font-size: min(5vw, 28px); font-weight: 700; color: #b3261e; opacity: .6; pointer-events: none; }
.tablut .tb-status { font-weight: 600; margin: 0 0 .5rem; }
.tablut .tb-check { margin: 0 0 .5rem; padding: .25rem .5rem; border-left: 4px solid #1f7a3a; background: #e3f3e6; font-weight: 600; }
.tablut .tb-check:empty, .tablut .tb-hint:empty { display: none; }
.tablut .tb-hint { margin: 0 0 .5rem; font-size: .9rem; color: var(--muted); }
@media (max-width: 640px) { .tablut { gap: .8rem; } .tablut .piece { font-size: 5vw; } }
`;

function addStyle() {
  if (document.getElementById("tablut-style")) return;
  const style = document.createElement("style");
  style.id = "tablut-style";
  style.textContent = STYLE;
  document.head.appendChild(style);
}

export function create(root, ctx) {
  // ctx: {seat, send(command), say(text, kind), interactive}
  addStyle();
  let view = null;
  let from = null; // the selected piece's square
  let sent = null; // the play sent, drawn until the next view (or a refusal) ends it
  let cursor = null; // the square that takes the keyboard focus (one tab stop for the board)
  let keyboard = false; // the board is being played with the keyboard: keep its focus on redraws

  const el = document.createElement("div");
  el.className = "tablut";
  el.innerHTML = `
    <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="${t("tb.board")}"></div></div>
    <aside class="side">
      <p class="tb-status" id="tb-status" aria-live="polite"></p>
      <p class="tb-check" id="tb-check" aria-live="polite"></p>
      <p class="tb-hint" id="tb-hint"></p>
      <ul class="warnings" id="warnings" aria-live="polite"></ul>
      <h3>${t("tb.moves")}</h3>
      <ol class="movelist" id="movelist"></ol>
    </aside>`;
  root.appendChild(el);
  const board = el.querySelector("#board");
  board.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", () => { keyboard = false; }, { capture: true });

  const g = () => view.game_view;
  const plays = () => (ctx.interactive ? g().plays || [] : []);
  const legal = () => (ctx.interactive ? view.legal_moves || [] : []);
  const playsFrom = (s) => plays().filter((p) => p.from === s);
  const myTurn = () => ctx.interactive && view.status === "running" && (view.to_move || []).includes(ctx.seat);
  const mine = (s) => SIDE[g().pieces[s]] === ctx.seat;

  function play(p) {
    const move = legal().find((m) => m.command.move === p.move);
    if (!move) { ctx.say(t("tb.unknown_move", { move: p.move }), "error"); from = null; draw(); return; }
    ctx.send(move.command);
    ctx.say(t("match.you_play_move", { move: move.label }));
    sent = p;
    from = null;
    draw();
  }

  function click(s) {
    if (!view) return;
    cursor = s;
    if (!myTurn()) {
      ctx.say(view.status === "finished" ? t("match.over") : t("match.not_your_turn"), "error");
      return;
    }
    if (from !== null) {
      const p = playsFrom(from).find((x) => x.to === s);
      if (p) { play(p); return; }
      if (s === from) { from = null; draw(); ctx.say(t("tb.cancelled")); return; }
      if (!mine(s)) { ctx.say(t("tb.not_legal", { sq: s }), "error"); return; }
    }
    if (!mine(s)) { ctx.say(t("tb.pick_piece", { sq: s }), "error"); return; }
    if (!playsFrom(s).length) { ctx.say(t("tb.no_move", { sq: s }), "error"); return; }
    from = s;
    draw();
  }

  // Keyboard: Tab reaches the board (one stop), the arrow keys move across the squares as they
  // are drawn, Enter or Space acts as a click on the square.
  const STEPS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  function onKey(ev) {
    const cell = ev.target.closest && ev.target.closest(".sq");
    if (!cell || !view) return;
    keyboard = true;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      cursor = cell.dataset.sq;
      click(cursor);
      return;
    }
    const step = STEPS[ev.key];
    if (!step) return;
    ev.preventDefault();
    const cells = [...board.querySelectorAll(".sq")];
    const i = cells.indexOf(cell);
    const r = Math.min(Math.max(Math.floor(i / N) + step[0], 0), N - 1);
    const c = Math.min(Math.max((i % N) + step[1], 0), N - 1);
    const next = cells[r * N + c];
    board.querySelectorAll('.sq[tabindex="0"]').forEach((x) => { x.tabIndex = -1; });
    next.tabIndex = 0;
    cursor = next.dataset.sq;
    next.focus();
  }

  function startSquare() {
    // Where the keyboard starts: the selected piece, else one that can move, else the throne.
    if (from) return from;
    const movable = plays().map((p) => p.from);
    return movable[0] || Object.keys(g().pieces).find(mine) || g().throne || sq(4, 4);
  }

  function showTakes(p) {
    // The pieces a move would take, while the pointer is on its target square.
    const takes = new Set(p ? p.captured : []);
    board.querySelectorAll(".sq").forEach((cell) => cell.classList.toggle("would-take", takes.has(cell.dataset.sq)));
  }

  function draw() {
    if (!view) return;
    const gv = g();
    const targets = new Map(from === null ? [] : playsFrom(from).map((p) => [p.to, p]));
    const moving = sent ? sent.from : from;
    // The last move: where it started and ended, and the squares of the pieces it took (already
    // gone from the board); a move sent and not yet answered is drawn in its place.
    const lm = sent || gv.last_move;
    const last = new Set(lm ? [lm.from, lm.to] : []);
    const taken = new Set(lm ? lm.captured || [] : []);
    const corners = new Set(gv.corners || []);
    const escape = new Set(gv.escape_squares || []);
    const routes = new Set(gv.king_routes || []);
    const refocus = keyboard || board.contains(document.activeElement);
    if (!cursor || !/^[a-i][1-9]$/.test(cursor)) cursor = startSquare();
    board.innerHTML = "";
    for (let r = 0; r < N; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "board-row";
      board.appendChild(row);
      for (let c = 0; c < N; c++) {
        const x = c;
        const y = N - 1 - r;
        const s = sq(x, y);
        const cell = document.createElement("div");
        cell.className = "sq";
        cell.dataset.sq = s;
        cell.setAttribute("role", "gridcell");
        cell.title = s;
        const letter = gv.pieces[s];
        const parts = [s, letter ? t(`tb.${PIECES[letter]}`) : t("tb.empty")];
        const mark = (cls, word) => { cell.classList.add(cls); if (word) parts.push(t(word)); };
        if (s === gv.throne) mark("throne", "tb.throne");
        if (corners.has(s)) mark("corner", "tb.corner");
        if (escape.has(s) && !corners.has(s)) mark("escape");
        if (routes.has(s)) mark("route", "tb.route");
        if (letter === "K" && gv.check) mark("check", "tb.in_check");
        if (last.has(s)) mark("last", "tb.last");
        if (taken.has(s)) mark("taken", "tb.taken");
        if (targets.has(s)) mark("dest", "tb.target");
        if (s === moving) parts.push(t("tb.selected"));
        if (letter) {
          const p = document.createElement("div");
          p.className = `piece ${PIECES[letter]}`;
          if (s === moving) p.classList.add("selected");
          p.dataset.piece = letter;
          cell.appendChild(p);
        }
        if (c === 0) cell.insertAdjacentHTML("beforeend", `<span class="coord rank">${y + 1}</span>`);
        if (r === N - 1) cell.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[x]}</span>`);
        cell.tabIndex = s === cursor ? 0 : -1;
        cell.setAttribute("aria-label", parts.join(", "));
        if (s === moving) cell.setAttribute("aria-selected", "true");
        cell.onclick = () => click(s);
        const via = targets.get(s);
        if (via) {
          cell.title = via.move;
          cell.onmouseenter = () => showTakes(via);
          cell.onmouseleave = () => showTakes(null);
          cell.onfocus = () => showTakes(via);
          cell.onblur = () => showTakes(null);
        }
        row.appendChild(cell);
      }
    }
    if (refocus) board.querySelector(`.sq[data-sq="${cursor}"]`)?.focus();
    el.querySelector("#tb-status").textContent = gv.status_text || "";
    const listed = [...routes].join(", ");
    el.querySelector("#tb-check").textContent = !routes.size || gv.result ? "" : gv.check ? t("tb.check", { squares: listed }) : t("tb.routes", { squares: listed });
    el.querySelector("#tb-hint").textContent = from === null ? "" : t("tb.choose");
    // Rules that will end the game soon (the move cap, a repetition), worded by the server; none
    // once the match is over.
    const warnings = el.querySelector("#warnings");
    warnings.innerHTML = "";
    for (const w of view.status === "finished" ? [] : gv.warnings || []) {
      const li = document.createElement("li");
      li.className = "warning";
      li.textContent = w;
      warnings.appendChild(li);
    }
    const list = el.querySelector("#movelist");
    list.innerHTML = "";
    const h = gv.history || [];
    for (let i = 0; i < h.length; i += 2) {
      const li = document.createElement("li");
      li.textContent = `${h[i].replaceAll("-", "–")}${h[i + 1] ? "   " + h[i + 1].replaceAll("-", "–") : ""}`;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  return {
    update(v) {
      const changed = !view || v.seq !== view.seq;
      view = v;
      if (changed) { from = null; sent = null; }
      draw();
    },
    rejected() { from = null; sent = null; draw(); },
  };
}
