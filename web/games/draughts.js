// Russian draughts renderer: the board, the server's status line and warnings, and the move list,
// drawn from the view.  Moves come only from the view: its plays ({move, path, captured}: every
// legal move with each square it lands on and the pieces it takes) to build a move click by
// click, and its legal_moves ({label, command}) to send the one built.  Click one of your pieces
// (when a capture is required the pieces that can capture are ringed), then a marked square;
// a capture that can go more than one way is built landing square by landing square until only
// one move is left, and that move is sent.  The pieces a capture has jumped stay on the board,
// crossed, until the move ends (the Turkish strike, rules/draughts.md §5.4).  The page knows no
// rules: every square it marks is in the view's plays.

import { t, addStrings } from "../i18n.js";

addStrings({
  en: {
    "dr.board": "Draughts board",
    "dr.moves": "Moves",
    "dr.cancelled": "Move cancelled.",
    "dr.step_back": "One landing square taken back.",
    "dr.not_legal": "{sq} is not a square this move can land on.",
    "dr.pick_piece": "{sq}: click one of your pieces first.",
    "dr.no_move": "The piece on {sq} has no legal move.",
    "dr.must_capture": "A capture is required: play one of the ringed pieces ({squares}).",
    "dr.go_on": "The capture goes on: click the next landing square.",
    "dr.choose": "Click a marked square.",
    "dr.which_way": "{sq} can be reached in more than one way: click the next landing square first.",
    "dr.unknown_move": "{move} is not among the legal moves of this view.",
    "dr.white_man": "white man",
    "dr.white_king": "white king",
    "dr.black_man": "black man",
    "dr.black_king": "black king",
    "dr.empty": "empty",
    "dr.selected": "selected",
    "dr.can_capture": "can capture",
    "dr.target": "land here",
    "dr.later": "a later landing square",
    "dr.dead": "taken, leaves when the move ends",
    "dr.taken": "taken in the last move",
    "dr.last": "last move",
  },
  ru: {
    "dr.board": "Доска для шашек",
    "dr.moves": "Ходы",
    "dr.cancelled": "Ход отменён.",
    "dr.step_back": "Последнее поле взятия отменено.",
    "dr.not_legal": "На поле {sq} этот ход встать не может.",
    "dr.pick_piece": "{sq}: сначала выберите свою шашку.",
    "dr.no_move": "У шашки на {sq} нет хода.",
    "dr.must_capture": "Бить обязательно: ходите одной из отмеченных шашек ({squares}).",
    "dr.go_on": "Взятие продолжается: выберите следующее поле.",
    "dr.choose": "Выберите отмеченное поле.",
    "dr.which_way": "На {sq} можно прийти разными путями: сначала выберите следующее поле.",
    "dr.unknown_move": "Хода {move} нет среди разрешённых.",
    "dr.white_man": "белая шашка",
    "dr.white_king": "белая дамка",
    "dr.black_man": "чёрная шашка",
    "dr.black_king": "чёрная дамка",
    "dr.empty": "пусто",
    "dr.selected": "выбрана",
    "dr.can_capture": "может бить",
    "dr.target": "встать сюда",
    "dr.later": "дальнейшее поле хода",
    "dr.dead": "побита, снимается после хода",
    "dr.taken": "побита последним ходом",
    "dr.last": "последний ход",
  },
});

const FILES = "abcdefgh";
const N = 8;
const sq = (x, y) => `${FILES[x]}${y + 1}`;
const PIECES = { w: "white_man", W: "white_king", b: "black_man", B: "black_king" };
const COLOUR = { w: "white", W: "white", b: "black", B: "black" };

// The draughts-only marks, added once to the page (the board itself is style.css's .board / .sq).
const STYLE = `
.draughts { display: flex; gap: 1.5rem; flex-wrap: wrap; }
.draughts .board { --n: 8; }
.draughts .piece { display: flex; align-items: center; justify-content: center; font-size: min(5vw, 30px); line-height: 1; }
.draughts .piece.king::after { content: "\\265B"; color: #c8961e; text-shadow: 0 1px 1px rgba(0, 0, 0, .5); }
.draughts .piece.black.king::after { color: #e8c04a; }
.draughts .piece.can-capture { box-shadow: 0 0 0 3px #d9480f, 0 2px 3px rgba(0, 0, 0, .45); }
.draughts .sq.later::after { content: ""; position: absolute; width: 22%; height: 22%; border-radius: 50%; border: 2px solid var(--dest); pointer-events: none; }
.draughts .sq.step { box-shadow: inset 0 0 0 3px var(--hop); }
.draughts .sq.dead .piece, .draughts .sq.taken::before { opacity: .55; }
.draughts .sq.dead::before, .draughts .sq.taken::before { content: "\\2715"; position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; font-size: min(6vw, 34px); font-weight: 700; color: #b3261e; z-index: 1; pointer-events: none; }
.draughts .dr-status { font-weight: 600; margin: 0 0 .5rem; }
.draughts .dr-hint { margin: 0 0 .5rem; font-size: .9rem; color: var(--muted); }
.draughts .dr-hint:empty { display: none; }
@media (max-width: 640px) { .draughts { gap: .8rem; } .draughts .piece { font-size: 5.4vw; } }
`;

function addStyle() {
  if (document.getElementById("draughts-style")) return;
  const style = document.createElement("style");
  style.id = "draughts-style";
  style.textContent = STYLE;
  document.head.appendChild(style);
}

const samePrefix = (a, b, n) => a.slice(0, n).every((s, i) => b[i] === s);

export function create(root, ctx) {
  // ctx: {seat, send(command), say(text, kind), interactive}
  addStyle();
  let view = null;
  let from = null; // the selected piece's square
  let steps = []; // the landing squares clicked so far, in order
  let sent = null; // the play sent, drawn until the next view (or a refusal) ends it
  let cursor = null; // the square that takes the keyboard focus (one tab stop for the board)
  let keyboard = false; // the board is being played with the keyboard: keep its focus on redraws

  const el = document.createElement("div");
  el.className = "draughts";
  el.innerHTML = `
    <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="${t("dr.board")}"></div></div>
    <aside class="side">
      <p class="dr-status" id="dr-status" aria-live="polite"></p>
      <p class="dr-hint" id="dr-hint"></p>
      <ul class="warnings" id="warnings" aria-live="polite"></ul>
      <h3>${t("dr.moves")}</h3>
      <ol class="movelist" id="movelist"></ol>
    </aside>`;
  root.appendChild(el);
  const board = el.querySelector("#board");
  board.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", () => { keyboard = false; }, { capture: true });

  const g = () => view.game_view;
  const plays = () => (ctx.interactive ? g().plays || [] : []);
  const legal = () => (ctx.interactive ? view.legal_moves || [] : []);
  const playsFrom = (s) => plays().filter((p) => p.path[0] === s);
  // The plays that go through the squares clicked so far.
  const candidates = () => (from === null ? [] : playsFrom(from).filter((p) => steps.every((s, i) => p.path[i + 1] === s)));
  const myTurn = () => ctx.interactive && view.status === "running" && view.to_move.includes(ctx.seat);
  const mine = (s) => COLOUR[g().pieces[s]] === ctx.seat;

  function reset() { from = null; steps = []; }

  function play(p) {
    const move = legal().find((m) => m.command.move === p.move);
    if (!move) { ctx.say(t("dr.unknown_move", { move: p.move }), "error"); reset(); draw(); return; }
    ctx.send(move.command);
    ctx.say(t("match.you_play_move", { move: move.label }));
    sent = p;
    reset();
    draw();
  }

  // A landing square clicked: one step more; the move is sent once only one is left.
  function advance(to) {
    steps = to;
    const left = candidates();
    if (left.length === 1) { play(left[0]); return; }
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
      const k = steps.length + 1;
      const cands = candidates();
      if (cands.some((p) => p.path[k] === s)) { advance([...steps, s]); return; }
      // A later landing square: as far as the plays through it agree.
      const through = cands.filter((p) => p.path.indexOf(s, k + 1) > k);
      if (through.length) {
        const i = through[0].path.indexOf(s, k + 1);
        if (through.every((p) => p.path.indexOf(s, k + 1) === i && samePrefix(through[0].path, p.path, i + 1))) {
          advance(through[0].path.slice(1, i + 1));
        } else {
          ctx.say(t("dr.which_way", { sq: s }), "error");
        }
        return;
      }
      if (s === from) { reset(); draw(); ctx.say(t("dr.cancelled")); return; }
      if (steps.length && s === steps[steps.length - 1]) { steps = steps.slice(0, -1); draw(); ctx.say(t("dr.step_back")); return; }
      if (steps.length || !mine(s)) { ctx.say(t("dr.not_legal", { sq: s }), "error"); return; }
    }
    if (!mine(s)) { ctx.say(t("dr.pick_piece", { sq: s }), "error"); return; }
    if (!playsFrom(s).length) {
      const capturing = g().capture_required ? g().capturing || [] : [];
      if (capturing.length) ctx.say(t("dr.must_capture", { squares: capturing.join(", ") }), "error");
      else ctx.say(t("dr.no_move", { sq: s }), "error");
      return;
    }
    from = s;
    steps = [];
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
    // Where the keyboard starts: the selected piece, else one that can move, else a1.
    if (from) return from;
    const movable = plays().map((p) => p.path[0]);
    return movable[0] || Object.keys(g().pieces).find(mine) || sq(0, 0);
  }

  function showPath(p) {
    // The squares a move lands on, while the pointer is on one of its landing squares.
    const through = new Set(p ? p.path.slice(1) : []);
    board.querySelectorAll(".sq").forEach((cell) => cell.classList.toggle("path", through.has(cell.dataset.sq)));
  }

  function draw() {
    if (!view) return;
    const gv = g();
    const flip = ctx.seat === "black";
    const cands = candidates();
    const k = steps.length + 1;
    // The move being built: the squares clicked, the next ones to click, the ones after; the
    // pieces it has jumped so far (or all of a move sent and not yet answered) stay, crossed.
    const built = sent ? sent.path.slice(1) : steps;
    const next = new Set(cands.map((p) => p.path[k]).filter(Boolean));
    const later = new Set(cands.flatMap((p) => p.path.slice(k + 1)).filter((s) => !next.has(s)));
    const dead = new Set(sent ? sent.captured : cands.length ? cands[0].captured.slice(0, steps.length) : []);
    const moving = sent ? sent.path[0] : from;
    // The last move: where it started and ended, the squares it landed on between, and the
    // squares of the pieces it took (already gone from the board).
    const lm = sent ? null : gv.last_move;
    const last = new Set(lm ? [lm.path[0], lm.path[lm.path.length - 1]] : []);
    const hops = new Set(lm ? lm.path.slice(1, -1) : []);
    const taken = new Set(lm ? lm.captured : []);
    const capturing = new Set(gv.capture_required && gv.to_move ? gv.capturing || [] : []);
    const refocus = keyboard || board.contains(document.activeElement);
    if (!cursor || !/^[a-h][1-8]$/.test(cursor)) cursor = startSquare();
    board.innerHTML = "";
    for (let r = 0; r < N; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "board-row";
      board.appendChild(row);
      for (let c = 0; c < N; c++) {
        const x = flip ? N - 1 - c : c;
        const y = flip ? r : N - 1 - r;
        const s = sq(x, y);
        const dark = (x + y) % 2 === 0;
        const cell = document.createElement("div");
        cell.className = `sq ${dark ? "dark" : "light"}`;
        cell.dataset.sq = s;
        cell.setAttribute("role", "gridcell");
        cell.title = s;
        const letter = gv.pieces[s];
        const parts = [s, letter ? t(`dr.${PIECES[letter]}`) : t("dr.empty")];
        const mark = (cls, word) => { cell.classList.add(cls); if (word) parts.push(t(word)); };
        if (last.has(s)) mark("last", "dr.last");
        if (hops.has(s)) mark("last-hop", "dr.last");
        if (taken.has(s)) mark("taken", "dr.taken");
        if (built.includes(s)) mark("step");
        if (next.has(s)) mark("dest", "dr.target");
        if (later.has(s)) mark("later", "dr.later");
        if (dead.has(s)) mark("dead", "dr.dead");
        if (capturing.has(s)) mark("capturer", "dr.can_capture");
        if (s === moving) parts.push(t("dr.selected"));
        if (letter) {
          const p = document.createElement("div");
          p.className = `piece ${COLOUR[letter]}`;
          if (letter === "W" || letter === "B") p.classList.add("king");
          if (capturing.has(s)) p.classList.add("can-capture");
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
        const via = next.has(s) || later.has(s) ? cands.find((p) => p.path.indexOf(s, k) >= k) : null;
        if (via) {
          if (cands.filter((p) => p.path.includes(s)).length === 1) cell.title = via.move;
          cell.onmouseenter = () => showPath(via);
          cell.onmouseleave = () => showPath(null);
          cell.onfocus = () => showPath(via);
          cell.onblur = () => showPath(null);
        }
        row.appendChild(cell);
      }
    }
    if (refocus) board.querySelector(`.sq[data-sq="${cursor}"]`)?.focus();
    el.querySelector("#dr-status").textContent = gv.status_text || "";
    el.querySelector("#dr-hint").textContent = from === null ? "" : steps.length ? t("dr.go_on") : t("dr.choose");
    // Draw rules that will end the game soon, worded by the server; none once the match is over.
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
      if (changed) { reset(); sent = null; }
      draw();
    },
    rejected() { reset(); sent = null; draw(); },
  };
}
