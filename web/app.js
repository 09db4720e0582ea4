// gamehall web client: lobby, live matches, replays, leaderboards.  Plain ES modules, no build step.
import { api, tokens, prefs, account, accountToken, MatchSocket } from "./api.js";
import { t, lang, setLang, translateStatic, formatDate, errorText, failure, addStrings, seatWord, seatAs, seasonText } from "./i18n.js";
import { TableLog, createTable, rulesHelpHtml, shownText, showAfterGame, showRulesHelp } from "./table.js";
import { showTournaments, showTournament } from "./tournaments.js";

// A game's renderer is web/games/<game>.js, for every game GET /api/games lists (the page lists
// no game itself), exporting create(root, ctx) -> {update(view), rejected()} (ctx is {seat,
// interactive, send(command), say(text, kind)}).  A renderer draws the view and offers the view's
// legal_moves ({label, command}); the labels and the log's lines are the server's words in the
// page's language; it knows no rules.  A plain say(text) right after send(command) is that move's
// line until its reply replaces it.  A game without one is shown by genericRenderer: its view
// as data, its legal moves as buttons.
const loaded = new Map();

async function rendererOf(game) {
  const listed = (await games().catch(() => [])).some((g) => g.game === game);
  if (!listed) return { create: genericRenderer };
  if (!loaded.has(game)) {
    loaded.set(game, import(`./games/${encodeURIComponent(game)}.js`).catch((e) => {
      if (!(e instanceof TypeError)) console.error(e); // a missing file: the generic renderer
      return {};
    }));
  }
  const mod = await loaded.get(game);
  return { create: mod.create || genericRenderer };
}
const app = document.getElementById("app");
let cleanup = () => {};
let catalogue = null;

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
// A player's name wherever a list shows one: a link to their page (by the player's id), said as
// people are told it (playerName).
const playerLink = (name) => `<a class="player-link" href="#/player/${encodeURIComponent(name)}">${esc(playerName(name))}</a>`;

// How people are told a player: the name, or for a computer player matchmaking seated (its player
// id bot:<game>:<n>, the game's default strength) the strength as the lobby names it ("computer
// (casual)").  A match's view names its players itself (MatchView.names).
function playerName(player) {
  const found = /^bot:([^:]+):\d+$/.exec(String(player ?? ""));
  const g = found && (catalogue ? catalogue.list : []).find((x) => x.game === found[1]);
  return g ? t("lobby.computer", { strength: strengthLabel(g, g.default_bot) }) : player;
}

// A match's view as the page draws it (the head, the log, the renderers): its players by the
// names the server tells people (the view's names), the ids staying in the view's seats' order.
function shownView(view) {
  const names = view.names && view.names.length === view.players.length ? view.names : view.players.map(playerName);
  return { ...view, players: names };
}

// The catalogue in the page's language (its presets' rules help are the server's sentences),
// asked again when the language switch changes it.
async function games() {
  if (!catalogue || catalogue.lang !== lang()) {
    const asked = lang();
    const list = await api(`/api/games?lang=${asked}`);
    addStrings({ [asked]: rejectionWords(list) });
    catalogue = { lang: asked, list };
  }
  return catalogue.list;
}

// Each game's rejection codes with their sentences (GET /api/games: rejections), as the
// "code.<code>" words errorText() says.
function rejectionWords(list) {
  const words = {};
  for (const g of list) {
    for (const [code, sentence] of Object.entries(g.rejections || {})) {
      words[`code.${code}`] = sentence;
    }
  }
  return words;
}

function route() {
  cleanup();
  cleanup = () => {};
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "play" && parts[1]) return showMatch(parts[1], params);
  if (parts[0] === "replay" && parts[1]) return showReplay(parts[1], params);
  if (parts[0] === "matches") return showMatches();
  if (parts[0] === "leaderboard") return showLeaderboard(parts[1], params);
  if (parts[0] === "tournaments") return showTournaments(app, params);
  if (parts[0] === "tournament" && parts[1]) return tournamentPage(decodeURIComponent(parts[1]));
  // A player's page: #/player/<name> (#/players/<name> too).
  if ((parts[0] === "player" || parts[0] === "players") && parts[1]) return showPlayer(decodeURIComponent(parts[1]));
  return showLobby();
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", start);
if (document.readyState !== "loading") start();

// The language switch in the header: the choice is remembered (i18n.js) and the page redrawn.
function start() {
  if (start.done) return;
  start.done = true;
  document.querySelectorAll("#lang-switch [data-lang]").forEach((b) => { b.onclick = () => setLang(b.dataset.lang); });
  window.addEventListener("gh-language", () => { showLanguage(); route(); });
  showLanguage();
  route();
}

function showLanguage() {
  translateStatic();
  document.querySelectorAll("#lang-switch [data-lang]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.lang === lang())));
}

function fail(err) {
  app.innerHTML = `<div class="panel error-panel"><h2>${t("error.title")}</h2><p>${esc(failure(err))}</p><p><a href="#/">${t("error.back")}</a></p></div>`;
}

// ------------------------------------------------------------------ lobby
async function showLobby() {
  document.title = t("lobby.title");
  let list;
  try { list = await games(); } catch (e) { return fail(e); }
  const name = prefs.get("name", "");
  app.innerHTML = `
    <section class="panel lobby" id="lobby">
      <h1>${t("lobby.heading")}</h1>
      <form id="new-table" autocomplete="off">
        <div class="row">
          <label>${t("lobby.name")} <input id="player-name" value="${esc(name)}" placeholder="${t("lobby.guest")}" maxlength="40"></label>
          <label>${t("lobby.game")} <select id="game">${list.map((g) => `<option value="${g.game}">${esc(g.title)}${g.helper ? ` — ${t("lobby.helper")}` : ""}</option>`).join("")}</select></label>
          <label>${t("lobby.players")} <select id="seats"></select></label>
        </div>
        <label>${t("lobby.rules")} <select id="preset"></select></label>
        <p class="description" id="preset-description"></p>
        <details class="rules-help" id="preset-help"><summary>${t("help.lobby_summary")}</summary><div id="preset-help-body"></div></details>
        <details class="rules"><summary>${t("lobby.all_rules")}</summary><table id="rules-table"></table></details>
        <div class="row clock-row">
          <label>${t("lobby.clock")} <select id="clock"><option value="">${t("lobby.clock_none")}</option>${CLOCKS.map(([m, i]) => `<option value="${m}+${i}">${t("lobby.clock_fischer", { m, i })}</option>`).join("")}<option value="custom">${t("lobby.clock_custom")}</option></select></label>
          <label id="clock-minutes-box">${t("lobby.clock_minutes")} <input id="clock-minutes" type="number" inputmode="decimal" min="0.25" max="600" step="0.25"></label>
          <label id="clock-increment-box">${t("lobby.clock_increment")} <input id="clock-increment" type="number" inputmode="numeric" min="0" max="600" step="1"></label>
        </div>
        <p class="muted clock-note" id="clock-note">${t("lobby.clock_note")}</p>
        <fieldset class="opponents-choice">
          <legend>${t("lobby.opponents")}</legend>
          <label>${t("lobby.strength")} <select id="strength"></select></label>
          <div class="buttons">
            <button type="button" class="primary" id="play-computer">${t("lobby.play_computer")}</button>
            <button type="button" id="private-table">${t("lobby.private")}</button>
            <button type="button" id="quick-match">${t("lobby.quick")}</button>
            <button type="button" id="open-table">${t("lobby.open_table")}</button>
          </div>
          <p class="muted" id="lobby-message" role="status"></p>
        </fieldset>
      </form>
    </section>
    <section class="panel"><h2>${t("lobby.open")}</h2><div id="open-seeks" class="muted">…</div></section>
    <section class="panel"><h2>${t("lobby.recent")}</h2><div id="recent" class="muted">…</div></section>`;
  const $ = (id) => document.getElementById(id);
  const pick = () => list.find((g) => g.game === $("game").value);
  const lastGame = prefs.get("game", list[0].game);
  if (list.some((g) => g.game === lastGame)) $("game").value = lastGame;

  function fillGame() {
    const g = pick();
    prefs.set("game", g.game);
    $("preset").innerHTML = presetOptions(g);
    $("seats").innerHTML = ""; // another game: its own number of players, from its lowest
    const lastPreset = prefs.get(`preset.${g.game}`, g.default_preset);
    $("preset").value = g.presets.some((p) => p.name === lastPreset) ? lastPreset : g.default_preset;
    // The game's computer players, weakest first; the game's default one unless you chose before.
    $("strength").innerHTML = g.bots.map((s) => `<option value="${esc(s)}">${esc(strengthLabel(g, s))}</option>`).join("");
    const chosen = prefs.get(`strength.${g.game}`, g.default_bot);
    $("strength").value = g.bots.includes(chosen) ? chosen : g.default_bot;
    fillPreset();
  }
  function fillPreset() {
    const g = pick();
    const p = g.presets.find((x) => x.name === $("preset").value);
    prefs.set(`preset.${g.game}`, p.name);
    $("preset-description").textContent = p.description || p.title || p.name; // the select names it by its title
    $("preset-help-body").innerHTML = rulesHelpHtml(p.help);
    $("preset-help").hidden = !p.help;
    // A table helper (Kings Cup) is never rated and not offered in quick match.
    $("quick-match").hidden = !!g.helper;
    $("rules-table").innerHTML = Object.entries(p.rules).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(JSON.stringify(v))}</td></tr>`).join("");
    // A ruleset for an exact number of players (King's "players") offers only that number.
    const lo = Math.max(g.seats.min, p.rules.players || p.rules.min_players || g.seats.min);
    const hi = Math.min(g.seats.max, p.rules.players || p.rules.max_players || g.seats.max, 6);
    const prev = Number($("seats").value) || lo;
    $("seats").innerHTML = Array.from({ length: hi - lo + 1 }, (_, i) => `<option>${lo + i}</option>`).join("");
    $("seats").value = String(Math.min(Math.max(prev, lo), hi));
  }
  $("game").onchange = fillGame;
  $("preset").onchange = fillPreset;

  // The clock of a table created here (POST /api/matches: time_control, Fischer): none, a usual
  // one, or minutes each and seconds added a move of your own; remembered like the game.
  const custom = prefs.get("clock.custom", { m: 10, i: 5 });
  const lastClock = prefs.get("clock", "");
  $("clock").value = [...$("clock").options].some((o) => o.value === lastClock) ? lastClock : "";
  $("clock-minutes").value = String(custom.m);
  $("clock-increment").value = String(custom.i);
  function fillClock() {
    const own = $("clock").value === "custom";
    $("clock-minutes-box").hidden = !own;
    $("clock-increment-box").hidden = !own;
    prefs.set("clock", $("clock").value);
  }
  $("clock").onchange = fillClock;
  $("clock-minutes").onchange = $("clock-increment").onchange = () =>
    prefs.set("clock.custom", { m: Number($("clock-minutes").value), i: Number($("clock-increment").value) });
  fillClock();
  // The time control asked for: null (no clock), or undefined when the numbers make none.
  function timeControl() {
    const v = $("clock").value;
    if (!v) return null;
    const [m, i] = v === "custom" ? [$("clock-minutes").value, $("clock-increment").value || "0"].map(Number) : v.split("+").map(Number);
    if (!(Number.isFinite(m) && Number.isFinite(i) && m > 0 && i >= 0 && Math.round(m * 60) > 0)) return undefined;
    return { base_s: Math.round(m * 60), increment_s: i, on_timeout: "forfeit" };
  }
  $("strength").onchange = () => prefs.set(`strength.${pick().game}`, $("strength").value);
  fillGame();

  const say = (text, kind = "") => { $("lobby-message").textContent = text; $("lobby-message").className = kind; };
  const me = () => { const n = $("player-name").value.trim() || t("lobby.guest"); prefs.set("name", $("player-name").value.trim()); return n; };

  async function create(withBots) {
    const g = pick();
    const n = Number($("seats").value);
    const seats = g.seat_names[String(n)];
    const strength = $("strength").value;
    const bots = withBots ? Object.fromEntries(seats.slice(1).map((s) => [s, strength])) : {};
    const players = seats.map((s, i) => (i === 0 ? me() : withBots ? t("lobby.computer", { strength: strengthLabel(g, strength) }) : `guest-${s}`));
    const clock = timeControl();
    if (clock === undefined) { say(t("lobby.clock_bad"), "error"); return; }
    say(t("lobby.creating"));
    try {
      const id = await createTable({ game: g.game, preset: $("preset").value, players, seats: n, bots, ...(clock ? { time_control: clock } : {}) });
      location.hash = `#/play/${id}`;
    } catch (e) { say(t("lobby.create_failed", { detail: failure(e) }), "error"); }
  }
  $("play-computer").onclick = () => create(true);
  $("private-table").onclick = () => create(false);
  $("quick-match").onclick = () => quickMatch(pick(), $("preset").value, Number($("seats").value), me(), say);
  // An open table: a private table code of our own, listed for anyone (GET /api/tables).
  $("open-table").onclick = () => quickMatch(pick(), $("preset").value, Number($("seats").value), me(), say, {
    invite: `t-${Math.random().toString(36).slice(2, 10)}`, public: true, ranked: false, bots_ok: false,
  });
  const join = (s) => quickMatch(list.find((g) => g.game === s.game), s.preset, s.seats, me(), say,
    s.invite ? { invite: s.invite, ranked: s.ranked, bots_ok: false } : {});
  openSeeks($("open-seeks"), join);
  recentMatches(document.getElementById("recent"), 12);
}

// The usual clocks the lobby offers (minutes each, seconds added a move): no game declares its own.
const CLOCKS = [[5, 0], [10, 5], [15, 10]];

// The presets as the server groups them (GET /api/games: each preset's family and title), one
// <optgroup> per family in the server's order; the preset's name stays its value.
function presetOptions(g) {
  const option = (p) => `<option value="${esc(p.name)}">${esc(p.title || p.name)}${p.name === g.default_preset ? ` (${t("lobby.default")})` : ""}</option>`;
  const families = g.families || [];
  const loose = g.presets.filter((p) => !families.includes(p.family));
  return families.map((f) => `<optgroup label="${esc(f)}">${g.presets.filter((p) => p.family === f).map(option).join("")}</optgroup>`).join("")
    + loose.map(option).join("");
}

// A computer player by its strength in words: the game lists its bots weakest first, so the
// first is "beginner", the last of three or more "strong", any other "casual".
function strengthLevel(g, bot) {
  const i = g.bots.indexOf(bot);
  if (i <= 0) return "beginner";
  return i === g.bots.length - 1 && g.bots.length >= 3 ? "strong" : "casual";
}
const strengthLabel = (g, bot) => t(`strength.${strengthLevel(g, bot)}`);

// A game's title as the game declares it (GET /api/games); the id until the catalogue arrives.
function gameTitle(game) {
  const known = (catalogue ? catalogue.list : []).find((g) => g.game === game);
  return known ? known.title : game;
}

// Quick match (a public queue), or with opts.invite a private table's queue: joining an open
// table from the list, or opening one (opts.public) for anyone to join.
async function quickMatch(g, preset, seats, player, say, opts = {}) {
  // Matchmaking through the gateway, when this gateway offers it, as the signed-up player.
  let token;
  try {
    token = await accountToken(player);
  } catch (e) {
    say(e.code === "name_taken" ? t("quick.name_taken", { player }) : t("quick.signup_failed", { player, detail: failure(e) }), "error");
    return;
  }
  try {
    const joined = await api("/api/queue", { method: "POST", token, body: { game: g.game, preset, seats, ranked: true, bots_ok: true, ...opts } });
    say(t(opts.public ? "quick.table_open" : "quick.queued", { game: g.title, preset: presetTitle(g.game, preset), player }));
    const started = Date.now();
    const poll = async () => {
      if (!document.getElementById("lobby")) { api("/api/queue/leave", { method: "POST", token }).catch(() => {}); return; }
      const st = await api(`/api/queue/${encodeURIComponent(joined.ticket_id)}`, { token });
      if (st.match_id && st.token) { tokens.set(st.match_id, st.token); location.hash = `#/play/${st.match_id}`; return; }
      if (!document.getElementById("lobby")) return;
      say(t("quick.waiting", { s: Math.round((Date.now() - started) / 1000) }));
      setTimeout(poll, 1000);
    };
    setTimeout(poll, 500);
  } catch (e) {
    if (e.status === 401) { account.clear(); say(t("quick.bad_signin"), "error"); return; }
    if (e.code === "in_match") { matchInProgress(token, say); return; }
    if (e.code === "already_queued") { say(t("quick.already_queued"), "error"); return; }
    say(e.status === 404 || e.status === 405 || e.status === 503 ? t("quick.unavailable") : t("quick.failed", { detail: failure(e) }), "error");
  }
}

// Quick match refused because you are in a match: say so, with a link to it (GET /api/queue
// names the match once it exists).
async function matchInProgress(token, say) {
  say(t("quick.in_match"), "error");
  try {
    const where = await api("/api/queue", { token });
    if (!where.match_id) return;
    const msg = document.getElementById("lobby-message");
    if (!msg) return;
    msg.insertAdjacentHTML("beforeend", ` <a id="match-in-progress" href="#/play/${esc(where.match_id)}">${t("quick.go_to_match")}</a>`);
  } catch { /* the message without the link */ }
}

// The open tables (GET /api/tables: private tables their host opened to anyone) and the public
// seeks (GET /api/seeks), refreshed while the lobby is shown; Join sits you at the table (its
// code) or is a quick match into the same queue.
async function openSeeks(target, join) {
  const names = (s) => s.players.map(playerLink).join(", ");
  const age = (s) => (s < 60 ? t("lobby.age_s", { n: s }) : t("lobby.age_min", { n: Math.floor(s / 60) }));
  async function refresh() {
    if (!document.body.contains(target)) return;
    try {
      const [{ seeks }, { tables }] = await Promise.all([api(`/api/seeks?lang=${lang()}`), api(`/api/tables?lang=${lang()}`).catch(() => ({ tables: [] }))]);
      const rows = [...tables, ...seeks];
      target.classList.remove("muted");
      target.innerHTML = rows.length ? `<div class="scroll"><table class="matches seeks">${tables.map((s, i) => `
        <tr data-table="${i}"><td>${esc(gameTitle(s.game))} <small>${t("lobby.table")}</small></td><td>${esc(s.title || presetTitle(s.game, s.preset))}</td>
        <td>${t("lobby.host", { name: playerLink(s.host) })}; ${t("lobby.taken", { taken: s.taken, seats: s.seats })}</td><td>${age(s.age_s)}</td>
        <td class="actions"><button type="button" class="small" data-join="${i}">${t("lobby.join")}</button></td></tr>`).join("")}${seeks.map((s, i) => `
        <tr data-seek="${i}"><td>${esc(gameTitle(s.game))} <small>${t("lobby.seek")}</small></td><td>${esc(s.title || presetTitle(s.game, s.preset))}</td>
        <td>${t("lobby.waiting_n", { n: s.waiting })}: ${names(s)}</td><td>${t("lobby.free_seats", { n: Math.max(s.seats - s.waiting, 0) })}</td>
        <td class="actions"><button type="button" class="small" data-join="${tables.length + i}">${t("lobby.join")}</button></td></tr>`).join("")}</table></div>`
        : t("lobby.no_open");
      target.querySelectorAll("[data-join]").forEach((b) => { b.onclick = () => join(rows[Number(b.dataset.join)]); });
    } catch (e) {
      target.textContent = e.status === 404 || e.status === 503 ? t("lobby.no_open") : t("lobby.open_failed", { detail: failure(e) });
    }
    setTimeout(refresh, 4000);
  }
  refresh();
}

function presetTitle(game, preset) {
  const g = (catalogue ? catalogue.list : []).find((x) => x.game === game);
  const p = g && g.presets.find((x) => x.name === preset);
  return p && p.title ? p.title : preset;
}

// Matches with players, status, result and date (GET /api/match-summaries, newest first);
// "More" fetches the next page.  On a phone each row is a card, its actions (td.actions) first.
async function recentMatches(target, limit, more = false) {
  const rows = [];
  async function load(cursor) {
    const q = new URLSearchParams({ limit: String(limit) });
    if (cursor) q.set("cursor", cursor);
    q.set("lang", lang()); // each finished match's result in words, in the page's language
    const page = await api(`/api/match-summaries?${q}`);
    rows.push(...page.matches);
    target.classList.remove("muted");
    target.innerHTML = rows.length ? matchesTable(rows) : t("matches.none");
    if (more && page.next_cursor) {
      target.insertAdjacentHTML("beforeend", `<p><button type="button" id="more-matches">${t("matches.more")}</button></p>`);
      target.querySelector("#more-matches").onclick = () => load(page.next_cursor).catch(failed);
    }
  }
  const failed = (e) => { target.textContent = t("matches.failed", { detail: failure(e) }); };
  await load(null).catch(failed);
}

function matchesTable(rows) {
  const head = ["game", "players", "status", "result", "date"].map((k) => `<th>${t(`matches.${k}`)}</th>`).join("");
  const result = (r) => (r.status === "finished" ? esc(outcomeText(r)) : r.to_move.length ? esc(t("match.waiting_for", { seats: r.to_move.map(seatWord).join(", ") })) : "");
  return `<div class="scroll"><table class="matches"><tr>${head}<th></th></tr>${rows.map((r) => `
    <tr data-match="${esc(r.match_id)}" data-status="${esc(r.status)}"><td>${esc(gameTitle(r.game))}<br><small>${esc(presetTitle(r.game, r.preset))}</small></td>
    <td>${r.players.map(playerLink).join(", ")}</td><td>${t(`status.${r.status}`)}</td><td>${result(r)}</td>
    <td class="date">${esc(formatDate(r.created_at))}</td>
    <td class="actions"><a href="#/play/${r.match_id}">${tokens.get(r.match_id) && r.status !== "finished" ? t("matches.resume") : t("matches.watch")}</a> · <a href="#/replay/${r.match_id}">${t("matches.replay")}</a></td></tr>`).join("")}</table></div>`;
}

async function showMatches() {
  document.title = t("matches.title");
  app.innerHTML = `<section class="panel"><h1>${t("matches.heading")}</h1><div id="all" class="muted">…</div></section>`;
  await games().catch(() => {});
  recentMatches(document.getElementById("all"), 50, true);
}

// ------------------------------------------------------------------ a live match
function outcomeText(view) {
  const o = view.outcome;
  if (!o) return "";
  if (view.outcome_text) return view.outcome_text; // the server's sentence: who won and why
  if (o.draw) return o.reason ? t("match.draw", { reason: o.reason }) : t("match.draw_plain");
  if (!o.ranks.length) return t("match.no_result", { reason: o.reason }); // an aborted match ranks nobody (King K16)
  const winners = view.seats.filter((s, i) => o.ranks[i] === 1).map((s) => view.players[view.seats.indexOf(s)]);
  return t(o.reason ? "match.won_reason" : "match.won", { winners: winners.join(" & "), reason: o.reason });
}

async function showMatch(matchId, params) {
  const fromLink = params.get("token");
  if (fromLink) {
    tokens.set(matchId, fromLink);
    history.replaceState(null, "", `#/play/${matchId}`); // keep the token out of the address bar
  }
  const token = tokens.get(matchId);
  games().catch(() => {});
  app.innerHTML = `
    <section class="match">
      <div class="match-head panel">
        <div><h1 id="match-title">${t("match.heading")} <code>${esc(matchId)}</code></h1><div id="players" class="players"></div></div>
        <div class="match-meta">
          <span id="conn" class="conn">${t("conn.connecting")}</span>
          <div id="status" class="status" data-status="" data-seq="0"></div>
          <label class="clock-sound" id="clock-sound-box" hidden><input type="checkbox" id="clock-sound"> ${t("match.clock_sound")}</label>
        </div>
      </div>
      <div id="after" class="panel after" hidden></div>
      <p id="last-moves" class="last-moves" role="status" aria-live="polite"></p>
      <div id="game" class="panel game"></div>
      <div class="panel below">
        <div id="rules" class="rules-box"></div>
        <details class="table-log" id="table-log-box" open><summary>${t("help.log")}</summary><ol id="table-log" class="table-log-list"></ol></details>
        <div id="messages" class="messages" role="log" aria-live="polite"></div>
        <div class="match-actions">
          <span id="invites"></span>
          <button id="offer-draw" hidden>${t("match.offer_draw")}</button>
          <button id="accept-draw" hidden>${t("match.accept_draw")}</button>
          <button id="decline-draw" hidden>${t("match.decline_draw")}</button>
          <button id="resign" hidden>${t("match.resign")}</button>
          <a id="replay-link" href="#/replay/${matchId}">${t("match.replay")}</a>
          <a id="export-link" href="/api/matches/${matchId}/export" download>${t("match.audit")}</a>
        </div>
      </div>
    </section>`;
  const $ = (id) => document.getElementById(id);
  const log = $("messages");
  const say = (text, kind = "") => {
    const p = document.createElement("p");
    p.className = kind;
    p.textContent = text;
    log.appendChild(p);
    while (log.children.length > 60) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  };
  // The line of a move on its way ("You play h3-h4…"): one at most, replaced by the outcome once
  // the reply comes (accepted: gone, the log has the decision; refused: the refusal sentence).
  let sending = null; // the id of the command the table has just sent, until it says so
  let pendingLine = null; // {id, el}
  const dropPending = () => { if (pendingLine) pendingLine.el.remove(); pendingLine = null; };
  const tableSays = (text, kind = "") => {
    if (sending === null || kind) { say(text, kind); return; }
    dropPending();
    say(text, "pending");
    pendingLine = { id: sending, el: log.lastElementChild };
    sending = null;
  };
  const tableSends = (command) => {
    sending = socket.send(command);
    queueMicrotask(() => { sending = null; }); // only what the table says in the same breath
  };
  let seat = null;
  let board = null;
  let loading = null; // the renderer's module on its way
  let pending = null; // the newest view while it loads
  let last = null;
  let tableLog = null; // the table log, once the renderer is loaded
  let early = []; // decisions that arrived before it
  showRulesHelp($("rules"), matchId);
  const invites = JSON.parse(localStorage.getItem(`gh.invites.${matchId}`) || "[]");
  if (invites.length) {
    $("invites").innerHTML = invites.map((i) => `<button class="small" data-invite="${esc(location.origin + i.url)}">${t("match.copy_invite", { seat: esc(seatWord(i.seat)) })}</button>`).join(" ");
    $("invites").querySelectorAll("[data-invite]").forEach((b) => {
      b.onclick = async () => {
        try { await navigator.clipboard.writeText(b.dataset.invite); say(t("match.invite_copied")); }
        catch { prompt(t("match.invite_prompt"), b.dataset.invite); }
      };
    });
  }
  const socket = new MatchSocket(matchId, token, {
    onState: (s) => {
      $("conn").textContent = t(`conn.${s}`);
      $("conn").dataset.state = s;
      if (s === "reconnecting") dropPending(); // its reply is lost: the next view shows what counted
    },
    onError: (msg) => {
      say(errorText(msg.code, msg.detail), "error");
      if (msg.code === "bad_token") { localStorage.removeItem(`gh.token.${matchId}`); say(t("match.bad_token")); }
    },
    onReply: (reply, commandId) => {
      const mine = pendingLine && pendingLine.id === commandId;
      if (reply.type === "rejected.v1") {
        const text = t("match.refused", { detail: errorText(reply.code, reply.detail) });
        if (mine) { pendingLine.el.textContent = text; pendingLine.el.className = "error"; pendingLine = null; }
        else say(text, "error");
        board?.rejected();
      } else if (mine) dropPending();
    },
    onEvents: (decisions) => { if (tableLog) tableLog.add(decisions); else early.push(...decisions); },
    onView: (seen) => {
      const view = shownView(seen);
      if (!board) {
        pending = view;
        if (!loading) {
          seat = view.viewer;
          const ctx = { seat, interactive: !!seat, send: tableSends, say: tableSays };
          loading = Promise.all([rendererOf(view.game), games().catch(() => null)]).then(([renderer]) => {
            board = renderer.create($("game"), ctx);
            tableLog = new TableLog($("table-log"), $("last-moves"));
            tableLog.setPlayers(pending);
            tableLog.add(early);
            early = [];
            $("match-title").innerHTML = `${esc(gameTitle(view.game))} <small>${esc(presetTitle(view.game, view.preset))}</small>`;
            document.title = `gamehall — ${gameTitle(view.game)}`;
            say(seat ? t("match.you_play", { seat: seatAs(seat) }) : t("match.watching"));
            showView(pending);
          }).catch((e) => say(t("match.cannot_draw", { detail: failure(e) }), "error"));
        }
        return;
      }
      showView(view);
    },
  });
  // The clocks count down between views: a running seat's time is its deadline (server unix ms)
  // minus now; the others show the time they had left at the last decision.
  let clockView = null; // the view whose clocks the head shows
  // In the last 10 seconds your own clock flashes and, when you switch the sound on (remembered
  // in this browser, off at first), beeps once a second.
  let beeped = null;
  $("clock-sound").checked = !!prefs.get("clock_sound", false);
  $("clock-sound").onchange = () => { prefs.set("clock_sound", $("clock-sound").checked); if ($("clock-sound").checked) beep(0); };
  const ticker = setInterval(() => {
    tickClocks(clockView);
    const mine = seat && document.querySelector(`#players .clock.low[data-seat="${CSS.escape(seat)}"]`);
    const second = mine ? Math.ceil(Number(mine.dataset.ms) / 1000) : null;
    if (mine && second > 0 && second !== beeped && $("clock-sound").checked) {
      beep();
      $("clock-sound").dataset.beeps = String(Number($("clock-sound").dataset.beeps || 0) + 1);
    }
    beeped = second;
  }, 250);
  cleanup = () => { clearInterval(ticker); socket.close(); };
  window.gamehall = { socket }; // for the console (and the browser tests)

  function showView(view) {
    renderHead(view);
    board.update(view);
    $("after").hidden = view.status !== "finished";
    if (view.status === "finished" && (!last || last.status !== "finished")) showAfterGame($("after"), view);
    // The server's end sentence says it all ("Black wins: white ran out of time.").
    if (last && view.status === "finished" && last.status !== "finished") say(view.outcome_text || t("match.game_over", { outcome: outcomeText(view).replace(/\.$/, "") }));
    if (last && view.draw_offer && view.draw_offer !== seat && !last.draw_offer) say(t("match.offers_draw", { seat: seatWord(view.draw_offer) }));
    last = view;
  }

  function renderHead(view) {
    const clock = view.clock;
    $("players").innerHTML = playersHtml(view, seat, clockHtml);
    if (clock && last && !(last.clock?.bots || []).length && clock.bots.length) say(t("match.handed_to_bot", { seats: clock.bots.map(seatWord).join(", ") }));
    $("clock-sound-box").hidden = !clock || !seat || view.status !== "running";
    clockView = view;
    tickClocks(view);
    const st = $("status");
    st.dataset.status = view.status;
    st.dataset.seq = String(view.seq);
    st.dataset.turn = view.to_move.join(",");
    st.textContent = view.status === "finished" ? outcomeText(view)
      : view.to_move.includes(seat) ? t("match.your_turn") : view.to_move.length ? t("match.waiting_for", { seats: view.to_move.map(seatWord).join(", ") }) : "";
    // A match with hidden cards exports only once it is over (the bundle would show every hand).
    const hidden = (catalogue ? catalogue.list : []).some((g) => g.game === view.game && g.hidden_info);
    $("export-link").hidden = hidden && view.status !== "finished";
    const running = view.status === "running" && seat;
    // A table helper (Kings Cup, GET /api/games: helper) has no result to agree on: no draw offers.
    const draws = !(catalogue ? catalogue.list : []).some((g) => g.game === view.game && g.helper);
    $("resign").hidden = !running;
    $("offer-draw").hidden = !running || !draws || !!view.draw_offer;
    $("accept-draw").hidden = !running || !draws || !view.draw_offer || view.draw_offer === seat;
    $("decline-draw").hidden = $("accept-draw").hidden;
  }
  $("resign").onclick = () => { if (confirm(t("match.confirm_resign"))) socket.send({ type: "resign.v1" }); };
  $("offer-draw").onclick = () => { socket.send({ type: "offer_draw.v1" }); say(t("match.you_offer")); };
  $("accept-draw").onclick = () => socket.send({ type: "accept_draw.v1" });
  $("decline-draw").onclick = () => socket.send({ type: "decline_draw.v1" });
}

// The seats in a match's head, live and in the replay: each player by the name people are told
// (shownView), the seat in words and, live, the clock.
function playersHtml(view, seat, clock) {
  return view.seats.map((s, i) =>
    `<span class="player ${view.to_move.includes(s) ? "to-move" : ""} ${s === seat ? "me" : ""}" data-seat="${esc(s)}">${esc(view.players[i])} <small>${esc(seatWord(s))}</small>${clock(view, i)}</span>`).join("");
}

// ------------------------------------------------------------------ clocks
// A short beep (volume 0: only wakes the sound up, from the click that switches it on).
let audio = null;
function beep(volume = 0.08) {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = volume;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
  } catch { /* no sound on this browser */ }
}

function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

function clockHtml(view, i) {
  const c = view.clock;
  if (!c) return "";
  const s = view.seats[i];
  const bot = c.bots.includes(s) ? ` <small class="bot-mark" title="${esc(t("match.bot_title"))}">${esc(t("match.bot_mark"))}</small>` : "";
  return ` <span class="clock" data-seat="${esc(s)}" data-running="${c.running.includes(s)}" data-deadline="${c.deadlines[i]}" data-remaining="${c.remaining_ms[i]}">${formatClock(c.remaining_ms[i])}</span>${bot}`;
}

function tickClocks(view) {
  if (!view || !view.clock) return;
  const now = Date.now();
  document.querySelectorAll("#players .clock").forEach((el) => {
    const running = el.dataset.running === "true" && view.status === "running";
    const left = running ? Number(el.dataset.deadline) - now : Number(el.dataset.remaining);
    el.textContent = formatClock(left);
    el.dataset.ms = String(Math.max(0, left));
    el.classList.toggle("low", running && left < 10_000);
  });
}

function genericRenderer(root, ctx) {
  // A game without its own renderer: its view as data, and every legal move as a button.
  const el = document.createElement("div");
  el.className = "generic";
  el.innerHTML = `<div class="legal-list" id="generic-moves"></div><pre id="generic-view"></pre>`;
  root.appendChild(el);
  const list = el.querySelector("#generic-moves");
  return {
    update(v) {
      const moves = ctx.interactive ? v.legal_moves || [] : [];
      list.innerHTML = moves.map((m, i) => `<button class="small" data-move="${i}" data-label="${esc(m.label)}">${esc(m.label)}</button>`).join("");
      list.querySelectorAll("[data-move]").forEach((b) => {
        b.onclick = () => { const m = moves[Number(b.dataset.move)]; ctx.send(m.command); ctx.say(t("match.you_play_move", { move: m.label })); };
      });
      el.querySelector("#generic-view").textContent = JSON.stringify(v.game_view, null, 2);
    },
    rejected() {},
  };
}

// ------------------------------------------------------------------ replay
async function showReplay(matchId, params) {
  document.title = t("replay.title");
  let data;
  try { data = await api(`/api/matches/${matchId}/replay?lang=${lang()}`); } catch (e) { return fail(e); }
  await games().catch(() => {}); // the game's title in the page's language
  const frames = data.frames;
  app.innerHTML = `
    <section class="replay">
      <div class="panel match-head">
        <div><h1>${t("replay.heading", { game: esc(gameTitle(data.game)) })} <small id="replay-preset">${esc(presetTitle(data.game, frames[0].view.preset))}</small> <small><code>${esc(matchId)}</code></small></h1><div id="players" class="players"></div></div>
        <div class="match-meta"><a href="/api/matches/${matchId}/export" download id="export-link">${t("replay.download")}</a> · <a href="#/play/${matchId}">${t("replay.live")}</a></div>
      </div>
      <div class="panel replay-controls">
        <button id="first">${t("replay.first")}</button><button id="prev">${t("replay.prev")}</button>
        <button id="play">${t("replay.play")}</button>
        <button id="next">${t("replay.next")}</button><button id="last">${t("replay.last")}</button>
        <input type="range" id="slider" min="0" max="${frames.length - 1}" value="0">
        <span id="step" data-step="0" data-total="${frames.length}"></span>
      </div>
      <p id="last-moves" class="last-moves" role="status" aria-live="polite"></p>
      <div id="game" class="panel game"></div>
      <div class="panel below">
        <div id="rules" class="rules-box"></div>
        <details class="table-log" id="table-log-box" open><summary>${t("help.log")}</summary><ol id="table-log" class="table-log-list"></ol></details>
        <div id="frame-events" class="messages"></div>
      </div>
    </section>`;
  const $ = (id) => document.getElementById(id);
  let renderer;
  try { renderer = await rendererOf(data.game); } catch (e) { return fail(e); }
  const board = renderer.create($("game"), { seat: null, interactive: false, send: () => {}, say: () => {} });
  showRulesHelp($("rules"), matchId);
  let i = Math.min(Math.max(Number(params.get("step") || 0), 0), frames.length - 1);
  let timer = null;
  function show(k) {
    i = Math.min(Math.max(k, 0), frames.length - 1);
    const f = frames[i];
    const v = shownView(f.view);
    board.update(v);
    $("slider").value = String(i);
    $("step").dataset.step = String(i);
    $("step").textContent = `${t("replay.step", { i: i + 1, n: frames.length })}${v.status === "finished" ? ` — ${outcomeText(v)}` : ""}`;
    $("players").innerHTML = playersHtml(v, null, () => "");
    // The log up to this decision, as the live table's log names everyone (TableLog), and the
    // seats' last moves in the renderer's seat boxes.
    const log = new TableLog($("table-log"), $("last-moves"));
    log.setPlayers(v);
    log.add(frames.slice(0, i + 1));
    $("frame-events").innerHTML = `<p><b>#${f.seq}</b> ${(f.texts || []).filter(Boolean).map((x) => esc(shownText(x, log.names))).join("; ")}</p>`;
  }
  const stop = () => { clearInterval(timer); timer = null; $("play").textContent = t("replay.play"); };
  $("first").onclick = () => { stop(); show(0); };
  $("prev").onclick = () => { stop(); show(i - 1); };
  $("next").onclick = () => { stop(); show(i + 1); };
  $("last").onclick = () => { stop(); show(frames.length - 1); };
  $("slider").oninput = () => { stop(); show(Number($("slider").value)); };
  $("play").onclick = () => {
    if (timer) return stop();
    $("play").textContent = t("replay.pause");
    timer = setInterval(() => { if (i >= frames.length - 1) stop(); else show(i + 1); }, 600);
  };
  cleanup = stop;
  show(i);
}

// ------------------------------------------------------------------ tournaments (web/tournaments.js)
// A tournament's page follows the tournament over its socket until the page changes.
async function tournamentPage(id) {
  const at = location.hash;
  await games().catch(() => {}); // computer players' names (playerName)
  const stop = await showTournament(app, id, { playerLink });
  if (location.hash === at) cleanup = stop;
  else stop();
}

// ------------------------------------------------------------------ leaderboards
// #/leaderboard/<game>?season=<id>&division=<name>: a game's standings in a season (the latest by
// default), picked from the seasons the server has (GET /api/seasons, opened with `gamehall
// seasons open`) and the ones its standings name; with a division, that division's table
// (GET /api/seasons/{id}?game=&division=): places by points, the promotion and relegation zones
// marked (frozen once the season is closed) and the division's rating standings below it.
async function showLeaderboard(game, params) {
  document.title = t("board.title");
  let list;
  try { list = await games(); } catch (e) { return fail(e); }
  // Only the games that can be rated: a table helper (GET /api/games: helper) never is.
  list = list.filter((g) => !g.helper);
  if (!list.length) { app.innerHTML = `<section class="panel"><h1>${t("board.heading")}</h1><p>${t("board.none")}</p></section>`; return; }
  game = game || (await gameWithRatedPlayers(list));
  const season = params.get("season") || "";
  const division = params.get("division") || "";
  app.innerHTML = `<section class="panel"><h1>${t("board.heading")}</h1>
    <nav class="tabs">${list.map((g) => `<a href="#/leaderboard/${g.game}" class="${g.game === game ? "active" : ""}">${gameTitle(g.game)}</a>`).join("")}</nav>
    <div id="board-pick" class="pick"></div>
    <div id="division-table"></div>
    <div id="board-table" class="muted">…</div></section>`;
  const target = document.getElementById("board-table");
  const seasons = await api("/api/seasons").then((d) => (d.seasons || []).filter((x) => !x.games.length || x.games.includes(game)), () => []);
  try {
    const q = new URLSearchParams({ lang: lang() });
    if (season) q.set("season", season);
    if (division) q.set("division", division);
    const data = await api(`/api/leaderboard/${game}?${q}`);
    boardPicker(game, data.season, division, seasons);
    if (division) divisionTable(document.getElementById("division-table"), game, data.season, division);
    const rows = data.entries || [];
    target.classList.remove("muted");
    // A row a player: on a phone each row is a card, the player (a link to their page) first,
    // every number with its label (style.css), the rules family last.
    const head = [["#", "rank"], [t("board.player"), "name"], [t("board.rules"), "rules"], [t("board.rating"), "rating"], [t("board.games"), "games"],
      [t("board.w"), "w", t("board.won")], [t("board.d"), "d", t("board.drawn")], [t("board.l"), "l", t("board.lost")]];
    const label = (i) => esc(head[i][2] || head[i][0]);
    target.innerHTML = rows.length ? `<p>${t("board.season", { season: esc(seasonText(data.season)) })}</p><table class="standings"><tr>${head.map(([h, cls, long]) => `<th class="${cls}"${long ? ` title="${esc(long)}"` : ""}>${h}</th>`).join("")}</tr>${rows.map((r) =>
      `<tr><td class="rank">${r.rank}</td><td class="name">${playerLink(r.player)}</td><td class="rules">${esc(r.title || presetTitle(game, r.family))}</td><td class="rating" data-label="${label(3)}">${Math.round(r.score)}</td><td class="games" data-label="${label(4)}">${r.games}</td><td class="w" data-label="${label(5)}">${r.wins}</td><td class="d" data-label="${label(6)}">${r.draws}</td><td class="l" data-label="${label(7)}">${r.losses}</td></tr>`).join("")}</table>`
      : t("board.none");
  } catch (e) {
    boardPicker(game, season, "", seasons);
    target.textContent = e.status === 404 && e.code !== "unknown_division" && e.code !== "unknown_season" ? t("board.not_offered")
      : e.status === 404 ? t("board.no_division") : t("board.failed", { detail: failure(e) });
  }
}

// The season and division choice: every season the server opened for the game and the one
// shown; the divisions of the chosen season (none for a season of the calendar).
function boardPicker(game, shown, division, seasons) {
  const pick = document.getElementById("board-pick");
  if (!pick) return;
  const ids = seasons.map((x) => x.season_id);
  if (shown && !ids.includes(shown)) ids.unshift(shown);
  const chosen = seasons.find((x) => x.season_id === shown);
  const divisions = chosen ? chosen.divisions.map((d) => d.name) : [];
  pick.innerHTML = `<label>${t("board.season_pick")} <select id="board-season">${ids.map((id) => `<option value="${esc(id)}"${id === shown ? " selected" : ""}>${esc(seasonText(id))}${seasonState(seasons.find((x) => x.season_id === id))}</option>`).join("")}</select></label>
    <label>${t("board.division_pick")} <select id="board-division"${divisions.length ? "" : " disabled"}><option value="">${divisions.length ? t("board.division_all") : t("board.division_none")}</option>${divisions.map((d) => `<option value="${esc(d)}"${d === division ? " selected" : ""}>${esc(d)}</option>`).join("")}</select></label>`;
  const go = (s, d) => { location.hash = `#/leaderboard/${game}?${new URLSearchParams({ ...(s ? { season: s } : {}), ...(d ? { division: d } : {}) })}`; };
  document.getElementById("board-season").addEventListener("change", (ev) => go(ev.target.value, ""));
  document.getElementById("board-division").addEventListener("change", (ev) => go(document.getElementById("board-season").value, ev.target.value));
}

function seasonState(x) {
  return x ? ` — ${t(`board.status_${x.status}`)}` : "";
}

// One division's table: place, player, points, games, W-D-L, season rating; the rows that go up
// or down marked (class zone-promotion / zone-relegation, and in words for screen readers and
// phones).
async function divisionTable(target, game, season, division) {
  let data;
  try {
    data = await api(`/api/seasons/${encodeURIComponent(season)}?${new URLSearchParams({ game, division })}`);
  } catch (e) {
    target.textContent = t("board.failed", { detail: failure(e) });
    return;
  }
  const table = (data.standings || [])[0];
  const rows = table ? table.rows : [];
  const head = [["#", "rank"], [t("board.player"), "name"], [t("board.points"), "points"], [t("board.games"), "games"],
    [t("board.w"), "w", t("board.won")], [t("board.d"), "d", t("board.drawn")], [t("board.l"), "l", t("board.lost")], [t("board.rating"), "rating"], [t("board.zone"), "zone"]];
  const label = (i) => esc(head[i][2] || head[i][0]);
  const zone = (z) => (z ? `<span class="zone-mark">${z === "promotion" ? "↑" : "↓"} ${t(`board.zone_${z}`)}</span>` : "");
  const caption = t(data.status === "closed" ? "board.division_final" : "board.division_live", { division: esc(division), season: esc(seasonText(season)) });
  target.innerHTML = `<h2 id="division-heading">${caption}</h2>${rows.length ? `<table class="standings division">
    <tr>${head.map(([h, cls, long]) => `<th class="${cls}"${long ? ` title="${esc(long)}"` : ""}>${h}</th>`).join("")}</tr>
    ${rows.map((r) => `<tr class="${r.zone ? `zone-${r.zone}` : ""}" data-player="${esc(r.player)}" data-zone="${r.zone}"><td class="rank">${r.place}</td><td class="name">${playerLink(r.player)}</td><td class="rating" data-label="${label(2)}">${r.points}</td><td class="games" data-label="${label(3)}">${r.games}</td><td class="w" data-label="${label(4)}">${r.wins}</td><td class="d" data-label="${label(5)}">${r.draws}</td><td class="l" data-label="${label(6)}">${r.losses}</td><td class="rules" data-label="${label(7)}">${r.games ? Math.round(r.rating) : "—"}</td><td class="zone">${zone(r.zone)}</td></tr>`).join("")}
  </table><p class="legend"><span class="zone-key zone-promotion">↑ ${t("board.zone_promotion")}</span> <span class="zone-key zone-relegation">↓ ${t("board.zone_relegation")}</span></p>` : `<p>${t("board.division_empty")}</p>`}`;
}

// The leaderboards page opens on the first game (in the catalogue's order) with rated players.
async function gameWithRatedPlayers(list) {
  const counts = await Promise.all(list.map((g) => api(`/api/leaderboard/${g.game}?limit=1`).then((d) => (d.entries || []).length, () => 0)));
  const i = counts.findIndex((n) => n > 0);
  return list[i >= 0 ? i : 0].game;
}

// A player's record in words per game and rules family: "won 3, lost 1" (one rating model's
// standings only, so a game is never counted twice; the latest season first as the server lists).
function recordLines(standings) {
  const seen = new Map();
  for (const s of standings) {
    const key = `${s.game}|${s.family}`;
    const have = seen.get(key);
    if (have && have.model !== s.model) continue;
    if (!have) seen.set(key, { game: s.game, family: s.family, model: s.model, wins: 0, losses: 0, draws: 0 });
    const row = seen.get(key);
    row.wins += s.wins; row.losses += s.losses; row.draws += s.draws;
  }
  return [...seen.values()].map((r) => ({ ...r,
    text: t(r.draws ? "player.record" : "player.record_plain", { won: r.wins, lost: r.losses, drawn: r.draws }) }));
}

function recentResult(m) {
  if (m.draw) return t("player.drawn");
  if (m.rank === 1) return t("player.won");
  return (m.players || []).length > 2 ? t("player.place", { rank: m.rank }) : t("player.lost");
}

// A player's result in a match as it counts: a dispute ruling may have amended or voided it.
function matchResult(m) {
  const recorded = recentResult(m);
  if (m.status === "void") return `${t("player.void")} <span class="muted">(${t("player.ruling", { reason: esc(m.ruling.reason) })})</span>`;
  if (m.status !== "amended" || !m.effective_ranks) return recorded;
  const ranks = m.effective_ranks;
  const rank = ranks[m.seat_index];
  const text = ranks.every((r) => r === ranks[0]) ? t("player.drawn") : recentResult({ ...m, draw: false, rank });
  return `${text} <span class="muted">(${t("player.amended", { reason: esc(m.ruling.reason) })})</span>`;
}

// A player's page (#/player/<name>): their record, the season in force and their place in it
// (and their division, when the season has divisions), their finished matches (newest
// first, a page at a time; on a phone each a card, the replay first) and, for each rating they
// have (game, rules family, model), a chart of it drawn here: one point per rated match
// (GET /api/players/{player}/ratings/history).
async function showPlayer(player) {
  document.title = `gamehall — ${player}`;
  app.innerHTML = `<section class="panel player-page"><h1>${esc(playerName(player))}</h1><div id="profile" class="muted">…</div></section>`;
  const target = document.getElementById("profile");
  let p;
  try {
    await games().catch(() => {});
    app.querySelector(".player-page h1").textContent = playerName(player);
    p = await api(`/api/players/${encodeURIComponent(player)}`);
  } catch (e) {
    target.textContent = e.status === 404 ? t("player.none") : failure(e);
    return;
  }
  target.classList.remove("muted");
  const lines = recordLines(p.standings || []);
  target.innerHTML = `<p id="player-summary">${t("player.summary", { matches: t("player.matches", { n: p.matches }), rated: t("player.rated", { n: p.rated_games }) })}</p>
    <ul id="player-record">${lines.map((r) => `<li><b>${esc(gameTitle(r.game))}</b> <small>${esc(presetTitle(r.game, r.family))}</small>: ${esc(r.text)}</li>`).join("") || `<li>${t("player.no_rated")}</li>`}</ul>`;
  app.insertAdjacentHTML("beforeend", `
    <section class="panel"><h2>${t("player.season_heading")}</h2><div id="player-season" class="muted">…</div></section>
    <section class="panel"><h2>${t("player.recent")}</h2><div id="player-matches" class="muted">…</div></section>
    <section class="panel"><h2>${t("player.ratings")}</h2><div id="player-ratings" class="muted">…</div></section>`);
  playerMatches(document.getElementById("player-matches"), player);
  const season = document.getElementById("player-season");
  const charts = document.getElementById("player-ratings");
  let history;
  try {
    history = await api(`/api/players/${encodeURIComponent(player)}/ratings/history`);
  } catch (e) {
    const text = e.status === 404 ? t("player.no_rated") : failure(e);
    for (const el of [season, charts]) { el.textContent = text; }
    return;
  }
  for (const el of [season, charts]) el.classList.remove("muted");
  season.innerHTML = seasonHtml(history);
  charts.innerHTML = history.series.map((s) => ratingChart(s, Math.min(Math.max(charts.clientWidth, 280), 1100))).join("");
}

// The player's division in each game whose season in force has divisions (opened with `gamehall
// seasons open`; the server's `divisions` beside the rating history): the division, the place in
// its table (a link to it) and the zone the player stands in; otherwise the page says there is
// none.
function divisionHtml(divisions) {
  if (!divisions.length) return `<p id="player-division">${t("player.division_none")}</p>`;
  const line = (d) => {
    const where = d.place ? t("player.division_place", { division: esc(d.division), rank: d.place, n: d.players }) : t("player.division_unplaced", { division: esc(d.division) });
    const zone = d.zone ? ` — <span class="zone-mark zone-${d.zone}">${d.zone === "promotion" ? "↑" : "↓"} ${t(`board.zone_${d.zone}`)}</span>` : "";
    const final = d.status === "closed" ? ` (${t("player.division_final")})` : "";
    return `<li data-game="${esc(d.game)}"><a href="#/leaderboard/${esc(d.game)}?${esc(new URLSearchParams({ season: d.season, division: d.division }).toString())}" data-division="${esc(d.division)}" data-place="${d.place}" data-zone="${d.zone}">${esc(gameTitle(d.game))}: ${where}</a>, ${t("player.season_now", { season: esc(seasonText(d.season)) })}${final}${zone}</li>`;
  };
  return `<div id="player-division"><b>${t("player.division_heading")}</b><ul>${divisions.map(line).join("")}</ul></div>`;
}

// The season in force now per game (the server's calendar or a season opened as an operation)
// and the player's place in it per rules family; the division below when the season has them.
function seasonHtml(history) {
  const items = Object.entries(history.current_seasons).map(([game, now]) => {
    const places = history.series.filter((s) => s.game === game).map((s) => {
      const here = s.standings.find((x) => x.season === now);
      const where = here ? `${t("player.place_of", { rank: here.rank, n: here.players })} (${esc(t("player.rated_n", { n: here.games }))})` : t("player.not_this_season");
      return `<span class="season-place" data-family="${esc(s.family)}" data-rank="${here ? here.rank : ""}">${esc(presetTitle(game, s.family))}: ${where}</span>`;
    });
    return `<li data-game="${esc(game)}" data-season="${esc(now)}"><b>${esc(gameTitle(game))}</b>: ${t("player.season_now", { season: esc(seasonText(now)) })} — ${places.join("; ")}</li>`;
  });
  return `<ul id="season-list">${items.join("")}</ul>${divisionHtml(history.divisions || [])}`;
}

// The player's finished matches (GET /api/finished?player=), newest first, with "More".
async function playerMatches(target, player) {
  const rows = [];
  async function load(cursor) {
    const q = new URLSearchParams({ player, limit: "20" });
    if (cursor) q.set("cursor", cursor);
    const page = await api(`/api/finished?${q}`);
    rows.push(...page.matches);
    target.classList.remove("muted");
    target.innerHTML = rows.length ? playerMatchesTable(rows) : t("player.no_matches");
    if (page.next_cursor) {
      target.insertAdjacentHTML("beforeend", `<p><button type="button" id="more-player-matches">${t("matches.more")}</button></p>`);
      target.querySelector("#more-player-matches").onclick = () => load(page.next_cursor).catch(failed);
    }
  }
  const failed = (e) => { target.textContent = t("matches.failed", { detail: failure(e) }); };
  await load(null).catch(failed);
}

function ratingChange(m) {
  if (m.rating_after == null || m.rating_before == null) return "";
  const d = m.rating_after - m.rating_before;
  const shown = m.model === "glicko2" ? String(Math.round(d)) : d.toFixed(1);
  return `${d >= 0 && !shown.startsWith("-") ? "+" : ""}${shown}`;
}

function playerMatchesTable(rows) {
  const head = [t("matches.game"), t("player.opponents"), t("matches.result"), t("player.change"), t("matches.date")].map((h) => `<th>${h}</th>`).join("");
  return `<div class="scroll"><table class="matches player-matches"><tr>${head}<th></th></tr>${rows.map((m) => {
    const others = m.players.filter((_, i) => i !== m.seat_index);
    return `<tr data-match="${esc(m.match_id)}"><td>${esc(gameTitle(m.game))}<br><small>${esc(presetTitle(m.game, m.preset))}</small></td>
      <td class="rivals">${t("player.vs")} ${others.map(playerLink).join(", ")}</td><td class="result">${matchResult(m)}</td>
      <td class="change">${ratingChange(m)}</td><td class="date">${esc(formatDate(m.finished_at))}</td>
      <td class="actions"><a href="#/replay/${esc(m.match_id)}">${t("matches.replay")}</a></td></tr>`;
  }).join("")}</table></div>`;
}

const shortDate = (ms) => new Date(ms).toLocaleDateString(lang() === "ru" ? "ru-RU" : "en-GB", { day: "numeric", month: "short" });

// One rating's history as an inline SVG: the line starts at the rating before the first rated
// match and has a point (circle.pt) after each; a dashed line where a new season starts.
function ratingChart(s, width) {
  const glicko = s.model === "glicko2";
  const caption = `<figcaption><b>${esc(gameTitle(s.game))}</b> <small>${esc(presetTitle(s.game, s.family))}</small>: ${s.rating == null ? "" : `${t(glicko ? "player.rating_now" : "player.mu_now", { rating: glicko ? Math.round(s.rating) : s.rating.toFixed(1), rd: glicko ? Math.round(s.rd) : s.rd.toFixed(1) })} · `}${esc(t("player.rated_n", { n: s.points.length }))}</figcaption>`;
  const attrs = `class="rating-chart" data-game="${esc(s.game)}" data-family="${esc(s.family)}" data-model="${esc(s.model)}" data-points="${s.points.length}"`;
  if (!s.points.length) return `<figure ${attrs}>${caption}<p class="muted">${t("player.no_points")}</p></figure>`;
  const values = [s.points[0].rating_before, ...s.points.map((x) => x.rating_after)];
  const span = glicko ? 40 : 2;
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < span) { const mid = (hi + lo) / 2; lo = mid - span / 2; hi = mid + span / 2; }
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const H = 200, L = 46, R = 10, T = 18, B = 24;
  const x = (i) => L + (values.length === 1 ? 0 : (i * (width - L - R)) / (values.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const label = (v) => (glicko ? String(Math.round(v)) : v.toFixed(1));
  const ticks = [hi - pad, (hi + lo) / 2, lo + pad];
  const grid = ticks.map((v) => `<line class="grid" x1="${L}" x2="${width - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/><text class="axis" x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`).join("");
  const seasons = s.points.map((pt, i) => (i > 0 && pt.season !== s.points[i - 1].season
    ? `<line class="season-line" x1="${((x(i) + x(i + 1)) / 2).toFixed(1)}" x2="${((x(i) + x(i + 1)) / 2).toFixed(1)}" y1="${T - 4}" y2="${H - B}"/><text class="axis" x="${((x(i) + x(i + 1)) / 2 + 4).toFixed(1)}" y="${T - 6}">${esc(seasonText(pt.season))}</text>` : "")).join("");
  const line = `<polyline class="line" points="${values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")}"/>`;
  const dots = s.points.map((pt, i) => `<circle class="pt" cx="${x(i + 1).toFixed(1)}" cy="${y(pt.rating_after).toFixed(1)}" r="4" data-match="${esc(pt.match_id)}" data-rating="${pt.rating_after}"><title>${esc(t("player.point", { date: formatDate(pt.finished_at), rating: label(pt.rating_after), change: ratingChange({ ...pt, model: s.model }) }))}</title></circle>`).join("");
  const first = s.points[0], last = s.points[s.points.length - 1];
  const dates = `<text class="axis" x="${x(1).toFixed(1)}" y="${H - 6}" text-anchor="${s.points.length > 1 ? "start" : "middle"}">${esc(shortDate(first.finished_at))}</text>${s.points.length > 1 ? `<text class="axis" x="${x(values.length - 1).toFixed(1)}" y="${H - 6}" text-anchor="end">${esc(shortDate(last.finished_at))}</text>` : ""}`;
  const name = t("player.chart_label", { game: gameTitle(s.game), rules: presetTitle(s.game, s.family) });
  return `<figure ${attrs}>${caption}<svg viewBox="0 0 ${width} ${H}" width="${width}" height="${H}" role="img" aria-label="${esc(name)}">${grid}${seasons}${line}${dots}${dates}</svg>${glicko ? "" : `<p class="muted chart-note">${t("player.chart_mu")}</p>`}</figure>`;
}
