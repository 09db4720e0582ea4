// Ugolki renderer: the board, the tempo table and the move list, drawn from the view.
// Moves come only from the view's legal_moves ({label, command}): click one of your pieces, then
// one of the squares marked for it.  The server lists every square a piece may end its turn on
// (a step, or the last landing square of a jump chain, rules/ugolki.md §4.3), so a jump chain is
// chosen by where it ends and the page knows no geometry.  Hovering a marked square shows the
// chain the server will play.

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

  const el = document.createElement("div");
  el.className = "ugolki";
  el.innerHTML = `
    <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="Ugolki board"></div></div>
    <aside class="side">
      <table class="tempo" id="tempo"></table>
      <h3>Moves</h3>
      <ol class="movelist" id="movelist"></ol>
    </aside>`;
  root.appendChild(el);
  const board = el.querySelector("#board");

  const g = () => view.game_view;
  const moves = () => (ctx.interactive ? view.legal_moves || [] : []);
  const origin = (m) => m.command.path[0];
  const target = (m) => m.command.path[m.command.path.length - 1];
  const movesFrom = (s) => moves().filter((m) => origin(m) === s);
  const myTurn = () => ctx.interactive && view.status === "running" && view.to_move.includes(ctx.seat);
  const mine = () => new Set(g()[ctx.seat] || []);

  function play(move) {
    ctx.send(move.command);
    ctx.say(`You play ${move.label}…`);
    from = null;
    draw();
  }

  function click(s) {
    if (!view) return;
    if (!myTurn()) {
      ctx.say(view.status === "finished" ? "The match is over." : "It is not your turn.", "error");
      return;
    }
    if (from !== null) {
      const move = movesFrom(from).find((m) => target(m) === s);
      if (move) { play(move); return; }
      if (s === from) { from = null; draw(); ctx.say("Move cancelled."); return; }
      if (!mine().has(s)) { ctx.say(`${from}–${s} is not a legal move here.`, "error"); return; }
    }
    if (!mine().has(s)) { ctx.say(`${s}: click one of your pieces first.`, "error"); return; }
    if (!movesFrom(s).length) { ctx.say(`The piece on ${s} has no legal move.`, "error"); return; }
    from = s;
    draw();
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
    const dests = new Set(options.map(target));
    board.style.setProperty("--n", size);
    board.innerHTML = "";
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const x = flip ? size - 1 - c : c;
        const y = flip ? r : size - 1 - r;
        const s = sq(x, y);
        const cell = document.createElement("div");
        cell.className = `sq ${(x + y) % 2 ? "light" : "dark"}`;
        if (wh.has(s)) cell.classList.add("home-white");
        if (bh.has(s)) cell.classList.add("home-black");
        if (last.has(s)) cell.classList.add("last");
        if (dests.has(s)) cell.classList.add("dest");
        cell.dataset.sq = s;
        cell.setAttribute("role", "gridcell");
        cell.title = s;
        const piece = white.has(s) ? "white" : black.has(s) ? "black" : null;
        if (piece) {
          const p = document.createElement("div");
          p.className = `piece ${piece}`;
          if (s === from) p.classList.add("selected");
          cell.appendChild(p);
        }
        if (c === 0) cell.insertAdjacentHTML("beforeend", `<span class="coord rank">${y + 1}</span>`);
        if (r === size - 1) cell.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[x]}</span>`);
        cell.onclick = () => click(s);
        if (dests.has(s)) {
          const move = options.find((m) => target(m) === s);
          cell.title = move.label;
          cell.onmouseenter = () => showPath(move);
          cell.onmouseleave = () => showPath(null);
        }
        board.appendChild(cell);
      }
    }
    const seats = view.seats;
    el.querySelector("#tempo").innerHTML =
      `<tr><th></th><th>moves</th><th title="T(P), rules §7">tempo</th><th title="tempo still to go">to go</th></tr>` +
      seats.map((s) => `<tr class="${gv.to_move === s ? "to-move" : ""}"><th>${s}</th><td>${gv.moves_made[s] ?? 0}</td>` +
        `<td>${gv.tempo[s] ?? ""}</td><td>${gv.tempo_to_go[s] ?? ""}</td></tr>`).join("");
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

// A stored event in words, for the replay (null: the page's default wording).
export function eventText(e) {
  if (e.type === "piece_moved.v1") return `${e.seat} ${e.path.join("–")}`;
  return null;
}
