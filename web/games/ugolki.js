// Ugolki renderer: the board, the tempo table and the move list, drawn from the view.
// Moves come only from the view's legal_moves ({label, command}): click one of your pieces, then
// one of the squares marked for it.  The server lists every square a piece may end its turn on
// (a step, or the last landing square of a jump chain, rules/ugolki.md §4.3), so a jump chain is
// chosen by where it ends and the page knows no geometry.  Hovering a marked square shows the
// chain the server will play.

import { t, addStrings, seatWord } from "../i18n.js";

addStrings({
  en: {
    "ug.board": "Ugolki board",
    "ug.moves": "Moves",
    "ug.moves_made": "moves",
    "ug.tempo": "tempo",
    "ug.tempo_title": "T(P), rules §7",
    "ug.to_go": "to go",
    "ug.to_go_title": "tempo still to go",
    "ug.cancelled": "Move cancelled.",
    "ug.not_legal": "{move} is not a legal move here.",
    "ug.pick_piece": "{sq}: click one of your pieces first.",
    "ug.no_move": "The piece on {sq} has no legal move.",
    "ug.white": "white piece",
    "ug.black": "black piece",
    "ug.empty": "empty",
    "ug.selected": "selected",
    "ug.target": "move here: {move}",
  },
  ru: {
    "ug.board": "Доска уголков",
    "ug.moves": "Ходы",
    "ug.moves_made": "ходов",
    "ug.tempo": "темп",
    "ug.tempo_title": "темповое число, правила §7",
    "ug.to_go": "осталось",
    "ug.to_go_title": "сколько темпа осталось",
    "ug.cancelled": "Ход отменён.",
    "ug.not_legal": "{move} здесь не разрешён.",
    "ug.pick_piece": "{sq}: сначала выберите свою шашку.",
    "ug.no_move": "У шашки на {sq} нет хода.",
    "ug.white": "белая шашка",
    "ug.black": "чёрная шашка",
    "ug.empty": "пусто",
    "ug.selected": "выбрана",
    "ug.target": "ход сюда: {move}",
  },
});

const FILES = "abcdefghijklmnop";
const sq = (x, y) => `${FILES[x]}${y + 1}`;
const pieces = (gv) => new Set([...gv.white, ...gv.black]);

function moved(before, after) {
  // Squares emptied or filled between two views: where the last move started and ended.
  const a = pieces(before), b = pieces(after);
  return new Set([...[...a].filter((s) => !b.has(s)), ...[...b].filter((s) => !a.has(s))]);
}

export function create(root, ctx) {
  // ctx: {seat, send(command), say(text, kind), interactive}
  let view = null;
  let from = null; // the selected piece's square
  let last = new Set(); // the squares the last move left and reached (from the previous view)
  let cursor = null; // the square that takes the keyboard focus (one tab stop for the board)
  let keyboard = false; // the board is being played with the keyboard: keep its focus on redraws

  const el = document.createElement("div");
  el.className = "ugolki";
  el.innerHTML = `
    <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="${t("ug.board")}"></div></div>
    <aside class="side">
      <ul class="warnings" id="warnings" aria-live="polite"></ul>
      <table class="tempo" id="tempo"></table>
      <h3>${t("ug.moves")}</h3>
      <ol class="movelist" id="movelist"></ol>
    </aside>`;
  root.appendChild(el);
  const board = el.querySelector("#board");
  board.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", () => { keyboard = false; }, { capture: true });

  const g = () => view.game_view;
  const moves = () => (ctx.interactive ? view.legal_moves || [] : []);
  const origin = (m) => m.command.path[0];
  const target = (m) => m.command.path[m.command.path.length - 1];
  const movesFrom = (s) => moves().filter((m) => origin(m) === s);
  const myTurn = () => ctx.interactive && view.status === "running" && view.to_move.includes(ctx.seat);
  const mine = () => new Set(g()[ctx.seat] || []);

  function play(move) {
    ctx.send(move.command);
    ctx.say(t("match.you_play_move", { move: move.label }));
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
      const move = movesFrom(from).find((m) => target(m) === s);
      if (move) { play(move); return; }
      if (s === from) { from = null; draw(); ctx.say(t("ug.cancelled")); return; }
      if (!mine().has(s)) { ctx.say(t("ug.not_legal", { move: `${from}–${s}` }), "error"); return; }
    }
    if (!mine().has(s)) { ctx.say(t("ug.pick_piece", { sq: s }), "error"); return; }
    if (!movesFrom(s).length) { ctx.say(t("ug.no_move", { sq: s }), "error"); return; }
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
    const n = g().board;
    const i = cells.indexOf(cell);
    const r = Math.min(Math.max(Math.floor(i / n) + step[0], 0), n - 1);
    const c = Math.min(Math.max((i % n) + step[1], 0), n - 1);
    moveCursor(cells[r * n + c]);
  }

  function moveCursor(cell) {
    board.querySelectorAll('.sq[tabindex="0"]').forEach((x) => { x.tabIndex = -1; });
    cell.tabIndex = 0;
    cursor = cell.dataset.sq;
    cell.focus();
  }

  function squareLabel(s, piece, move) {
    const parts = [s, piece ? t(`ug.${piece}`) : t("ug.empty")];
    if (s === from) parts.push(t("ug.selected"));
    if (move) parts.push(t("ug.target", { move: move.label }));
    return parts.join(", ");
  }

  function startSquare() {
    // Where the keyboard starts: the selected piece, else one of yours that can move, else a1.
    if (from) return from;
    const movable = moves().map(origin);
    return movable[0] || (mine().size ? [...mine()][0] : sq(0, 0));
  }

  function showPath(move) {
    // The squares a jump chain passes through, while the pointer is on where it ends.
    const through = new Set(move ? move.command.path.slice(1, -1) : []);
    board.querySelectorAll(".sq").forEach((cell) => cell.classList.toggle("path", through.has(cell.dataset.sq)));
  }

  function draw() {
    if (!view) return;
    const gv = g();
    const size = gv.board;
    const flip = ctx.seat === "black";
    const white = new Set(gv.white), black = new Set(gv.black);
    const wh = new Set(gv.white_home), bh = new Set(gv.black_home);
    const options = from === null ? [] : movesFrom(from);
    // The last move: where it started and ended, and the squares a jump chain landed on between.
    const path = gv.last_move || [];
    const hops = new Set(path.slice(1, -1));
    if (path.length) last = new Set([path[0], path[path.length - 1]]);
    const dests = new Set(options.map(target));
    const refocus = keyboard || board.contains(document.activeElement);
    if (!cursor || !/^[a-p]\d+$/.test(cursor) || Number(cursor.slice(1)) > size || FILES.indexOf(cursor[0]) >= size) cursor = startSquare();
    board.style.setProperty("--n", size);
    board.innerHTML = "";
    for (let r = 0; r < size; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "board-row";
      board.appendChild(row);
      for (let c = 0; c < size; c++) {
        const x = flip ? size - 1 - c : c;
        const y = flip ? r : size - 1 - r;
        const s = sq(x, y);
        const cell = document.createElement("div");
        cell.className = `sq ${(x + y) % 2 ? "light" : "dark"}`;
        if (wh.has(s)) cell.classList.add("home-white");
        if (bh.has(s)) cell.classList.add("home-black");
        if (last.has(s)) cell.classList.add("last");
        if (hops.has(s)) cell.classList.add("last-hop");
        if (dests.has(s)) cell.classList.add("dest");
        cell.dataset.sq = s;
        cell.setAttribute("role", "gridcell");
        cell.title = s;
        const piece = white.has(s) ? "white" : black.has(s) ? "black" : null;
        const move = dests.has(s) ? options.find((m) => target(m) === s) : null;
        cell.tabIndex = s === cursor ? 0 : -1;
        cell.setAttribute("aria-label", squareLabel(s, piece, move));
        if (s === from) cell.setAttribute("aria-selected", "true");
        if (piece) {
          const p = document.createElement("div");
          p.className = `piece ${piece}`;
          if (s === from) p.classList.add("selected");
          cell.appendChild(p);
        }
        if (c === 0) cell.insertAdjacentHTML("beforeend", `<span class="coord rank">${y + 1}</span>`);
        if (r === size - 1) cell.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[x]}</span>`);
        cell.onclick = () => click(s);
        if (move) {
          cell.title = move.label;
          cell.onmouseenter = () => showPath(move);
          cell.onmouseleave = () => showPath(null);
          cell.onfocus = () => showPath(move);
          cell.onblur = () => showPath(null);
        }
        row.appendChild(cell);
      }
    }
    if (refocus) board.querySelector(`.sq[data-sq="${cursor}"]`)?.focus();
    const seats = view.seats;
    el.querySelector("#tempo").innerHTML =
      `<tr><th></th><th>${t("ug.moves_made")}</th><th title="${t("ug.tempo_title")}">${t("ug.tempo")}</th><th title="${t("ug.to_go_title")}">${t("ug.to_go")}</th></tr>` +
      seats.map((s) => `<tr class="${gv.to_move === s ? "to-move" : ""}"><th>${seatWord(s)}</th><td>${gv.moves_made[s] ?? 0}</td>` +
        `<td>${gv.tempo[s] ?? ""}</td><td>${gv.tempo_to_go[s] ?? ""}</td></tr>`).join("");
    // Rule-based endings coming up (leave-home countdown, move cap), worded by the server; none
    // once the match is over (a resignation ends it without the game's own result).
    el.querySelector("#warnings").innerHTML = (view.status === "finished" ? [] : gv.warnings || []).map((w) =>
      `<li class="warning ${w.urgent ? "urgent" : ""}" data-rule="${w.rule}" data-seat="${w.seat || ""}">${w.urgent ? "⚠ " : ""}${w.text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" }[c]))}</li>`).join("");
    const list = el.querySelector("#movelist");
    list.innerHTML = "";
    for (let i = 0; i < gv.history.length; i += 2) {
      const li = document.createElement("li");
      li.textContent = `${gv.history[i].replaceAll("-", "–")}${gv.history[i + 1] ? "   " + gv.history[i + 1].replaceAll("-", "–") : ""}`;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  return {
    update(v) {
      const changed = !view || v.seq !== view.seq;
      if (view && changed) last = moved(view.game_view, v.game_view);
      view = v;
      if (changed) { from = null; }
      draw();
    },
    rejected() { from = null; draw(); },
  };
}
