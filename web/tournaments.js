// Tournaments: the list (#/tournaments) and a tournament's page (#/tournament/<id>) with its
// settings, entrants, pairings per round, crosstable and standings, kept live over
// /ws/tournaments/<id>.  Every sentence on them is the server's, in the page's language
// (GET /api/tournaments?lang=, the view's *_text and *_name fields); names, results in notation
// ("1-0", "½", "2=") and numbers are drawn as they come.
import { api, account, accountToken, prefs, tokens } from "./api.js";
import { t, lang, addStrings, failure, errorText } from "./i18n.js";

addStrings({
  en: {
    "nav.tournaments": "Tournaments",
    "tn.title": "gamehall — tournaments",
    "tn.heading": "Tournaments",
    "tn.all": "All",
    "tn.phase.registration": "Registration open",
    "tn.phase.running": "Playing",
    "tn.phase.finished": "Finished",
    "tn.none": "No tournaments here yet.",
    "tn.failed": "Could not load the tournaments: {detail}",
    "tn.open": "Open",
    "tn.join_open": "Open and join",
    "tn.name": "Tournament",
    "tn.game": "Game",
    "tn.format": "Format",
    "tn.status": "Status",
    "tn.players": "Players",
    "tn.entrants": { one: "{n} player", other: "{n} players" },
    "tn.settings": "Settings",
    "tn.entrants_heading": "Players",
    "tn.no_entrants": "Nobody has joined yet.",
    "tn.withdrawn": "withdrew",
    "tn.standings": "Standings",
    "tn.final": "Final standings",
    "tn.so_far": "Standings after the games played so far",
    "tn.rank": "Place",
    "tn.player": "Player",
    "tn.points": "Points",
    "tn.crosstable": "Crosstable",
    "tn.crosstable_two": "Each round: the opponent and your result (1 a win, ½ a draw, 0 a loss, + and - a forfeit won and lost, × a voided game). The first seat moves first.",
    "tn.crosstable_tables": "Each round: the table, your position at it (1 deals or leads first) and your place (2= a shared second).",
    "tn.rounds": "Pairings",
    "tn.round_to_play": "Round {round}: games still to play",
    "tn.table": "Table {table}",
    "tn.seat": "position {seat}",
    "tn.vs": "against",
    "tn.evenness": "How evenly the tables seat players",
    "tn.no_rounds": "No round has started yet.",
    "tn.live": "live",
    "tn.reconnecting": "reconnecting…",
    "tn.back": "All tournaments",
    "tn.not_found": "There is no such tournament.",
    "tn.your_name": "Your name",
    "tn.join": "Join the tournament",
    "tn.joining": "Joining…",
    "tn.joined": "You are in: {name}.",
    "tn.entered": "You are in this tournament as {name}.",
    "tn.withdraw": "Withdraw",
    "tn.withdrawn_now": "You have withdrawn.",
    "tn.name_needed": "Type your name first.",
    "tn.your_game": "Your game in round {round} (table {table}): play it",
    "code.tournament_not_found": "There is no such tournament.",
    "code.unreadable_tournament": "This tournament's stored records do not fit together; an operator has to look at it.",
    "code.already_joined": "You are in this tournament already.",
    "code.registration_closed": "Registration for this tournament is closed.",
    "code.finished": "This tournament is over.",
    "code.not_created": "There is no such tournament.",
    "code.already_created": "A tournament with this name exists already.",
    "code.bad_settings": "These tournament settings cannot be played.",
    "code.not_allowed": "You may only enter or withdraw yourself.",
    "code.not_an_operator": "Only an operator may do this.",
    "code.not_computer_player": "Only a computer player may be entered by that name.",
    "code.not_seated": "You have no game to play in this round.",
  },
  ru: {
    "nav.tournaments": "Турниры",
    "tn.title": "gamehall — турниры",
    "tn.heading": "Турниры",
    "tn.all": "Все",
    "tn.phase.registration": "Идёт запись",
    "tn.phase.running": "Идут",
    "tn.phase.finished": "Завершены",
    "tn.none": "Здесь пока нет турниров.",
    "tn.failed": "Не удалось загрузить турниры: {detail}",
    "tn.open": "Открыть",
    "tn.join_open": "Открыть и записаться",
    "tn.name": "Турнир",
    "tn.game": "Игра",
    "tn.format": "Система",
    "tn.status": "Состояние",
    "tn.players": "Игроки",
    "tn.entrants": { one: "{n} игрок", few: "{n} игрока", many: "{n} игроков", other: "{n} игрока" },
    "tn.settings": "Условия",
    "tn.entrants_heading": "Участники",
    "tn.no_entrants": "Пока никто не записался.",
    "tn.withdrawn": "выбыл",
    "tn.standings": "Таблица",
    "tn.final": "Итоговая таблица",
    "tn.so_far": "Таблица по сыгранным партиям",
    "tn.rank": "Место",
    "tn.player": "Игрок",
    "tn.points": "Очки",
    "tn.crosstable": "Турнирная таблица по турам",
    "tn.crosstable_two": "В каждом туре: соперник и ваш результат (1 победа, ½ ничья, 0 поражение, + и - победа и поражение по неявке, × аннулированная партия). Первым ходит первый из пары.",
    "tn.crosstable_tables": "В каждом туре: стол, ваше место за ним (1 сдаёт или ходит первым) и занятое место (2= поделённое второе).",
    "tn.rounds": "Пары по турам",
    "tn.round_to_play": "Тур {round}: ещё не все партии сыграны",
    "tn.table": "Стол {table}",
    "tn.seat": "место {seat}",
    "tn.vs": "против",
    "tn.evenness": "Насколько ровно рассажены игроки",
    "tn.no_rounds": "Ни один тур ещё не начался.",
    "tn.live": "в прямом эфире",
    "tn.reconnecting": "переподключение…",
    "tn.back": "Все турниры",
    "tn.not_found": "Такого турнира нет.",
    "tn.your_name": "Ваше имя",
    "tn.join": "Записаться на турнир",
    "tn.joining": "Записываем…",
    "tn.joined": "Вы записаны: {name}.",
    "tn.entered": "Вы участвуете в этом турнире как {name}.",
    "tn.withdraw": "Сняться с турнира",
    "tn.withdrawn_now": "Вы снялись с турнира.",
    "tn.name_needed": "Сначала введите имя.",
    "tn.your_game": "Ваша партия в туре {round} (стол {table}): играть",
    "code.tournament_not_found": "Такого турнира нет.",
    "code.unreadable_tournament": "Сохранённые записи этого турнира не сходятся; нужен оператор.",
    "code.already_joined": "Вы уже записаны на этот турнир.",
    "code.registration_closed": "Запись на этот турнир закрыта.",
    "code.finished": "Этот турнир уже закончился.",
    "code.not_created": "Такого турнира нет.",
    "code.already_created": "Турнир с таким названием уже есть.",
    "code.bad_settings": "С такими условиями турнир провести нельзя.",
    "code.not_allowed": "Записать или снять можно только себя.",
    "code.not_an_operator": "Это может сделать только оператор.",
    "code.not_computer_player": "Под таким именем можно записать только компьютерного игрока.",
    "code.not_seated": "В этом туре у вас нет партии.",
  },
});

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const PHASES = ["registration", "running", "finished"];
// A number as the page's language writes it (0.5 / 0,5), a half as ½ ("1½").
const num = (v) => {
  if (v === null || v === undefined) return "";
  const whole = Math.trunc(v), half = Math.abs(v - whole) === 0.5;
  if (half) return `${whole || ""}½`;
  return Number.isInteger(v) ? String(v) : v.toLocaleString(lang() === "ru" ? "ru-RU" : "en-GB", { maximumFractionDigits: 2 });
};

// ------------------------------------------------------------------ the list
// On a phone each tournament is a card (table.matches, style.css), its action first.
export async function showTournaments(app, params) {
  document.title = t("tn.title");
  const status = PHASES.includes(params.get("status")) ? params.get("status") : "";
  const tab = (s, label) => `<a href="#/tournaments${s ? `?status=${s}` : ""}" class="${s === status ? "active" : ""}" data-status="${s}">${label}</a>`;
  app.innerHTML = `<section class="panel tournaments"><h1>${t("tn.heading")}</h1>
    <nav class="tabs" id="tournament-tabs">${tab("", t("tn.all"))}${PHASES.map((p) => tab(p, t(`tn.phase.${p}`))).join("")}</nav>
    <div id="tournament-list" class="muted">…</div></section>`;
  const target = app.querySelector("#tournament-list");
  try {
    const q = new URLSearchParams({ lang: lang() });
    if (status) q.set("status", status);
    const { tournaments } = await api(`/api/tournaments?${q}`);
    target.classList.remove("muted");
    target.innerHTML = tournaments.length ? tournamentsTable(tournaments) : t("tn.none");
  } catch (e) {
    target.textContent = t("tn.failed", { detail: failure(e) });
  }
}

function tournamentsTable(rows) {
  const head = ["name", "game", "format", "status", "players"].map((k) => `<th>${t(`tn.${k}`)}</th>`).join("");
  return `<table class="matches tournament-list"><tr><th></th>${head}</tr>${rows.map((s) => `
    <tr data-tournament="${esc(s.tournament_id)}" data-phase="${esc(s.phase)}">
    <td class="actions"><a href="#/tournament/${encodeURIComponent(s.tournament_id)}">${s.phase === "registration" ? t("tn.join_open") : t("tn.open")}</a></td>
    <td><b>${esc(s.tournament_id)}</b></td>
    <td>${esc(s.game_title)}<br><small>${esc(s.preset_title)}</small></td>
    <td>${esc(s.format_name)}</td><td class="phase">${esc(s.phase_text)}</td>
    <td>${esc(t("tn.entrants", { n: s.entrants }))}</td></tr>`).join("")}</table>`;
}

// ------------------------------------------------------------------ one tournament
// The page draws the view (GET /api/tournaments/{id}) and draws it again from every frame of the
// tournament's socket; it returns the function that closes the socket (the router's cleanup).
export async function showTournament(app, id, { playerLink }) {
  document.title = `gamehall — ${id}`;
  app.innerHTML = `<section class="panel tournament"><p><a href="#/tournaments">${t("tn.back")}</a></p>
    <h1 id="tournament-name">${esc(id)}</h1><div id="tournament-join" class="tournament-join" hidden></div>
    <div id="tournament" class="muted">…</div></section>`;
  const target = app.querySelector("#tournament");
  const joining = joinBox(app.querySelector("#tournament-join"), id);
  let view;
  try {
    view = await api(`/api/tournaments/${encodeURIComponent(id)}?lang=${lang()}`);
  } catch (e) {
    target.classList.remove("muted");
    target.textContent = e.status === 404 ? t("tn.not_found") : failure(e);
    return () => {};
  }
  const draw = (v) => {
    if (view && v.seq < view.seq) return;
    view = v;
    target.classList.remove("muted");
    target.innerHTML = tournamentHtml(v, playerLink);
    joining(v);
  };
  draw(view);
  return follow(id, draw, app);
}

// Joining while registration is open: the player's name (the account this browser holds, signed up
// on the first join), POST /api/tournaments/{id}/join; once the view lists them, withdrawing.
// The box is drawn again only when what it offers changes, so a name being typed stays.
function joinBox(box, id) {
  let shown = "", said = "";
  const me = () => (account.get() || {}).name || "";
  const say = (text) => { said = text; const el = box.querySelector("#tournament-join-msg"); if (el) el.textContent = text; };
  async function send(action, name) {
    const token = await accountToken(name);
    // a command id per click: a retried request gets the first reply again
    const commandId = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const asked = { method: "POST", token, body: { command_id: commandId } };
    const where = encodeURIComponent(id);
    await (action === "join" ? api(`/api/tournaments/${where}/join`, asked) : api(`/api/tournaments/${where}/withdraw`, asked));
  }
  // While a round is played: the link to the player's own game (GET /api/tournaments/{id}/seat,
  // the match and the seat token), for the player this browser holds the account of.
  // An arena's pairings run at once: its open game may be in any of them.
  function yourGame(v, name) {
    if (v.phase !== "running") return "";
    const rounds = v.format === "arena" ? [...v.rounds].reverse() : v.rounds.slice(-1);
    for (const r of rounds) {
      const game = r.games.find((g) => g.status === "to_play" && g.seats.includes(name));
      if (game) return `play:${r.round}:${game.table}`;
    }
    return "";
  }
  async function showGame() {
    const held = account.get();
    try {
      const seat = await api(`/api/tournaments/${encodeURIComponent(id)}/seat`, { token: held.token });
      tokens.set(seat.match_id, seat.token);
      box.innerHTML = `<p><a id="tournament-your-game" href="#/play/${encodeURIComponent(seat.match_id)}">${esc(t("tn.your_game", { round: seat.round, table: seat.table }))}</a></p>`;
    } catch (e) {
      box.innerHTML = e.status === 404 ? "" : `<p class="muted">${esc(failure(e))}</p>`;
      box.hidden = e.status === 404;
    }
  }
  return (v) => {
    const name = me();
    const entered = name && v.entrants.some((e) => e.player === name && !e.withdrawn);
    // a running arena takes late entries (can_join) while its entrants play: their game first
    const playing = name && account.get().token ? yourGame(v, name) : "";
    const mode = !v.can_join || (entered && playing) ? playing : entered ? `in:${name}` : "out";
    box.hidden = !mode;
    if (mode === shown) return;
    shown = mode;
    if (!mode) { box.innerHTML = ""; return; }
    if (mode.startsWith("play:")) { showGame(); return; }
    if (entered) {
      box.innerHTML = `<p id="tournament-entered">${esc(t("tn.entered", { name }))}</p>
        <button type="button" id="tournament-withdraw">${t("tn.withdraw")}</button><p id="tournament-join-msg" class="muted">${esc(said)}</p>`;
      box.querySelector("#tournament-withdraw").onclick = () => send("withdraw", name).then(() => say(t("tn.withdrawn_now")), (e) => say(failure(e)));
      return;
    }
    box.innerHTML = `<label>${t("tn.your_name")} <input id="tournament-player" value="${esc(name || prefs.get("name", ""))}" maxlength="40"></label>
      <button type="button" id="tournament-join-button">${t("tn.join")}</button><p id="tournament-join-msg" class="muted">${esc(said)}</p>`;
    box.querySelector("#tournament-join-button").onclick = () => {
      const typed = box.querySelector("#tournament-player").value.trim();
      if (!typed) { say(t("tn.name_needed")); return; }
      prefs.set("name", typed);
      say(t("tn.joining"));
      send("join", typed).then(() => say(t("tn.joined", { name: typed })), (e) => say(failure(e)));
    };
  };
}

function follow(id, draw, app) {
  let ws = null, closed = false, backoff = 250;
  const state = (s) => { const el = app.querySelector("#tournament-conn"); if (el) { el.dataset.state = s; el.textContent = s === "live" ? t("tn.live") : t("tn.reconnecting"); } };
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/tournaments/${encodeURIComponent(id)}?lang=${lang()}`);
    ws.onopen = () => { backoff = 250; state("live"); };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") { draw(msg.view); state("live"); }
      else if (msg.type === "error") { closed = true; const el = app.querySelector("#tournament-conn"); if (el) el.textContent = errorText(msg.code, msg.detail); }
    };
    ws.onclose = () => {
      if (closed) return;
      state("reconnecting");
      setTimeout(() => { if (!closed) open(); }, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  };
  open();
  return () => { closed = true; ws?.close(); };
}

function tournamentHtml(v, playerLink) {
  const link = (p) => playerLink(p);
  const head = `<p class="tournament-game"><b>${esc(v.game_title)}</b> · ${esc(v.preset_title)}</p>
    <p class="status" id="tournament-phase" data-phase="${esc(v.phase)}" data-seq="${v.seq}">${esc(v.phase_text)} <span class="conn" id="tournament-conn" data-state="connecting"></span></p>`;
  const settings = `<h2>${t("tn.settings")}</h2><ul id="tournament-settings">${v.settings_text.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>`;
  const entrants = `<h2>${t("tn.entrants_heading")} <small>(${esc(t("tn.entrants", { n: v.entrants.length }))})</small></h2>${v.entrants.length
    ? `<ol id="tournament-entrants">${v.entrants.map((e) => `<li data-player="${esc(e.player)}">${link(e.player)}${e.withdrawn ? ` <small class="muted">(${t("tn.withdrawn")})</small>` : ""}</li>`).join("")}</ol>`
    : `<p>${t("tn.no_entrants")}</p>`}`;
  return `${head}${standingsHtml(v, link)}${roundsHtml(v, link)}${crosstableHtml(v, link)}${v.evenness ? `<h2>${t("tn.evenness")}</h2><p id="tournament-evenness" data-total="${v.evenness.total}">${esc(v.evenness.text)}</p>` : ""}${settings}${entrants}`;
}

// Standings: on a phone a card a player (table.tn-standings, style.css), each tie-break with its name.
function standingsHtml(v, link) {
  if (!v.standings.length) return "";
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1); // a column's head starts a sentence
  const ties = v.tie_breaks.map((tb) => `<th class="tb" title="${esc(tb.name)}">${esc(cap(tb.name))}</th>`).join("");
  const rows = v.standings.map((s) => `<tr data-player="${esc(s.player)}" data-rank="${s.rank}"><td class="rank">${s.rank}</td><td class="name">${link(s.player)}${s.withdrawn ? ` <small class="muted">(${t("tn.withdrawn")})</small>` : ""}</td>
    <td class="points" data-label="${esc(t("tn.points"))}">${num(s.points)}</td>${s.tie_breaks.map((x, i) => `<td class="tb" data-label="${esc(v.tie_breaks[i] ? v.tie_breaks[i].name : "")}">${num(x)}</td>`).join("")}</tr>`).join("");
  return `<h2>${v.final ? t("tn.final") : t("tn.standings")}</h2>${v.final ? "" : `<p class="muted">${t("tn.so_far")}</p>`}
    <table class="tn-standings" id="tournament-standings"><tr><th class="rank">${t("tn.rank")}</th><th class="name">${t("tn.player")}</th><th class="points">${t("tn.points")}</th>${ties}</tr>${rows}</table>`;
}

// Pairings per round, the latest first: each table's seats in order with the result in notation
// or the game's state in words, then the byes.
function roundsHtml(v, link) {
  if (!v.rounds.length) return `<h2>${t("tn.rounds")}</h2><p>${t("tn.no_rounds")}</p>`;
  const rounds = [...v.rounds].reverse().map((r) => `<section class="round" data-round="${r.round}"><h3>${esc(r.title)}</h3>
    <ul class="pairings">${r.games.map((g) => `<li data-table="${g.table}" data-status="${esc(g.status)}"><span class="muted">${t("tn.table", { table: g.table })}:</span>
      ${g.seats.map(link).join(" — ")} <b class="result">${esc(g.result)}</b>${g.text ? ` <span class="muted">${esc(g.text)}</span>` : ""}</li>`).join("")}
      ${r.byes.map((b) => `<li class="bye">${link(b.player)}: ${esc(b.text)} (${num(b.points)})</li>`).join("")}</ul></section>`).join("");
  return `<h2>${t("tn.rounds")}</h2>${rounds}`;
}

// The crosstable: a row a player in standings order, a cell a round.  Two seats: the opponent and
// the result; fair tables: the table, the position at it and the place.  On a phone the cells of a
// row wrap under the player (style.css), so nothing scrolls sideways.
function crosstableHtml(v, link) {
  if (!v.crosstable.length) return "";
  const two = v.table_size === 2;
  const cell = (c) => {
    if (c.kind === "out") return `<td class="cell out" data-round="${c.round}"></td>`;
    if (c.kind === "bye") return `<td class="cell bye" data-round="${c.round}" data-mark="${esc(c.mark)}"><span class="r">${c.round}</span> <b>${esc(c.mark)}</b></td>`;
    const who = two ? c.opponents.map(esc).join(", ") : `${t("tn.table", { table: c.table })}, ${t("tn.seat", { seat: c.seat + 1 })}`;
    return `<td class="cell ${esc(c.kind)}" data-round="${c.round}" data-mark="${esc(c.mark)}"><span class="r">${c.round}</span> <b>${esc(c.mark)}</b> <small>${who}</small></td>`;
  };
  const rounds = v.crosstable[0].cells.map((c) => `<th>${c.round}</th>`).join("");
  return `<h2>${t("tn.crosstable")}</h2><p class="muted">${two ? t("tn.crosstable_two") : t("tn.crosstable_tables")}</p>
    <table class="crosstable" id="tournament-crosstable"><tr><th class="name">${t("tn.player")}</th>${rounds}<th class="points">${t("tn.points")}</th></tr>
    ${v.crosstable.map((row) => `<tr data-player="${esc(row.player)}"><td class="name">${link(row.player)}</td>${row.cells.map(cell).join("")}<td class="points">${num(row.points)}</td></tr>`).join("")}</table>`;
}
