// Ugolki board: click a piece, then a square.  Multi-jumps go step by step, with "End turn" and the
// "auto-finish turn" setting of rules/ugolki.md §4.3.  The referee validates the complete path.
import { prefs } from "./api.js";

const FILES = "abcdefghijklmnop";
const DIRS = {
  ORTH: [[1, 0], [-1, 0], [0, 1], [0, -1]],
  DIAG: [[1, 1], [1, -1], [-1, 1], [-1, -1]],
};
DIRS.ALL8 = [...DIRS.ORTH, ...DIRS.DIAG];

const sq = (x, y) => `${FILES[x]}${y + 1}`;
const xy = (s) => [FILES.indexOf(s[0]), parseInt(s.slice(1), 10) - 1];

export function createUgolki(root, ctx) {
  // ctx: {seat, send(command), say(text, kind), interactive}
  let view = null;
  let path = [];       // the move being built: origin first
  let autoFinish = prefs.get("ugolki.autoFinish", true);

  const el = document.createElement("div");
  el.className = "ugolki";
  el.innerHTML = `
    <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="Ugolki board"></div></div>
    <aside class="side">
      <div class="turn-controls">
        <label class="toggle"><input type="checkbox" id="auto-finish"> Auto-finish turn</label>
        <button id="end-turn" disabled title="Stop the jump chain here">End turn</button>
        <button id="cancel-move" disabled>Cancel</button>
      </div>
      <table class="tempo" id="tempo"></table>
      <h3>Moves</h3>
      <ol class="movelist" id="movelist"></ol>
    </aside>`;
  root.appendChild(el);
  const board = el.querySelector("#board");
  const auto = el.querySelector("#auto-finish");
  const endBtn = el.querySelector("#end-turn");
  const cancelBtn = el.querySelector("#cancel-move");
  auto.checked = autoFinish;
  auto.onchange = () => { autoFinish = auto.checked; prefs.set("ugolki.autoFinish", autoFinish); };
  if (!ctx.interactive) el.querySelector(".turn-controls").hidden = true;
  endBtn.onclick = () => finish();
  cancelBtn.onclick = () => { path = []; draw(); ctx.say("Move cancelled."); };

  const g = () => view.game_view;
  const n = () => g().board;
  const myTurn = () => ctx.interactive && view.status === "running" && view.to_move.includes(ctx.seat);
  const occupied = () => new Set([...g().white, ...g().black]);
  const mine = () => new Set(ctx.seat === "black" ? g().black : g().white);
  const legalPairs = () => g().legal || [];
  const finalsFrom = (s) => legalPairs().filter((m) => m.startsWith(`${s}-`)).map((m) => m.split("-")[1]);

  function hopsFrom(origin, at) {
    // Single jumps from `at` while the piece that left `origin` is under way (origin counts empty).
    const occ = occupied();
    occ.delete(origin);
    const [x, y] = xy(at);
    const out = [];
    for (const [dx, dy] of DIRS[view.ruleset.jump_dirs] || DIRS.ORTH) {
      const mx = x + dx, my = y + dy, tx = x + 2 * dx, ty = y + 2 * dy;
      if (tx < 0 || ty < 0 || tx >= n() || ty >= n()) continue;
      if (occ.has(sq(mx, my)) && !occ.has(sq(tx, ty))) out.push(sq(tx, ty));
    }
    return out;
  }

  function isStep(from, to) {
    const [x, y] = xy(from), [a, b] = xy(to);
    return (DIRS[view.ruleset.step_dirs] || DIRS.ORTH).some(([dx, dy]) => x + dx === a && y + dy === b);
  }

  function send(p) {
    ctx.send({ type: "move_piece.v1", path: p });
    ctx.say(`You play ${p.join("-")}…`);
    path = [];
    draw();
  }

  function finish() {
    if (path.length < 2) return;
    if (path[path.length - 1] === path[0]) { ctx.say("A jump chain must end away from where it started.", "error"); return; }
    send(path);
  }

  function afterHop() {
    const at = path[path.length - 1];
    const more = hopsFrom(path[0], at).length > 0;
    if (autoFinish && !more) { finish(); return; }
    draw();
    ctx.say(more ? `Jumped to ${at}: jump on, or End turn.` : `Jumped to ${at}: no further jump; End turn.`);
  }

  function click(s) {
    if (!view) return;
    if (!myTurn()) {
      ctx.say(view.status === "finished" ? "The match is over." : "It is not your turn.", "error");
      return;
    }
    if (path.length === 0) {
      if (!mine().has(s)) { ctx.say(`${s}: click one of your pieces first.`, "error"); return; }
      if (!finalsFrom(s).length) { ctx.say(`The piece on ${s} has no legal move.`, "error"); return; }
      path = [s];
      draw();
      return;
    }
    const origin = path[0], at = path[path.length - 1];
    if (s === origin && path.length === 1) { path = []; draw(); ctx.say("Move cancelled."); return; }
    if (path.length === 1 && mine().has(s)) { path = []; click(s); return; }
    if (path.length === 1 && isStep(origin, s)) {
      if (legalPairs().includes(`${origin}-${s}`)) send([origin, s]);
      else ctx.say(`${origin}-${s} is not a legal move here.`, "error");
      return;
    }
    if (hopsFrom(origin, at).includes(s)) { path.push(s); afterHop(); return; }
    if (path.length === 1 && finalsFrom(origin).includes(s)) { send([origin, s]); return; }
    ctx.say(`${[...path, s].join("-")} is not a legal move here.`, "error");
  }

  function draw() {
    if (!view) return;
    const gv = g();
    const size = n();
    const flip = ctx.seat === "black";
    const white = new Set(gv.white), black = new Set(gv.black);
    const wh = new Set(gv.white_home), bh = new Set(gv.black_home);
    const last = gv.history.length ? gv.history[gv.history.length - 1].split("-") : [];
    const dests = new Set(path.length === 1 ? finalsFrom(path[0]) : []);
    const hops = new Set(path.length ? hopsFrom(path[0], path[path.length - 1]) : []);
    const onPath = new Set(path.slice(1));
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
        if (last.includes(s)) cell.classList.add("last");
        if (dests.has(s)) cell.classList.add("dest");
        if (hops.has(s)) cell.classList.add("hop");
        if (onPath.has(s)) cell.classList.add("path");
        cell.dataset.sq = s;
        cell.setAttribute("role", "gridcell");
        cell.title = s;
        const piece = path.length > 1 && s === path[0] ? null
          : path.length > 1 && s === path[path.length - 1] ? (ctx.seat === "black" ? "black" : "white")
          : white.has(s) ? "white" : black.has(s) ? "black" : null;
        if (piece) {
          const p = document.createElement("div");
          p.className = `piece ${piece}`;
          if (path.length && s === path[path.length - 1]) p.classList.add("selected");
          cell.appendChild(p);
        }
        if (c === 0) cell.insertAdjacentHTML("beforeend", `<span class="coord rank">${y + 1}</span>`);
        if (r === size - 1) cell.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[x]}</span>`);
        cell.onclick = () => click(s);
        board.appendChild(cell);
      }
    }
    endBtn.disabled = !(path.length > 1 && path[path.length - 1] !== path[0]);
    cancelBtn.disabled = path.length === 0;
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
      view = v;
      if (changed) path = [];
      draw();
    },
    rejected() { path = []; draw(); },
  };
}
