// Kings Cup table helper (rules/king.md §15.1), drawn from the view: the cup and the cards left
// around it, the drawn card's rule, the standing roles (question master, mates, the rules made
// with Kings) and the notice.  Moves are the view's legal moves ({label, command}).

import { cardHtml } from "../cards.js";
import { t, addStrings, has } from "../i18n.js";
import { toAct } from "../table.js";

// This renderer's words (the cards' rules, the notice and how it ended are the server's).
addStrings({
  en: {
    "kcup.status": "Table helper — nothing here is judged or rated · {rules} rules · turn: {who}",
    "kcup.rule_set.neutral": "neutral",
    "kcup.cup_title": "the cup",
    "kcup.cup": "{cup}/3 poured · Kings {kings}/4 · {left} cards around the cup",
    "kcup.drawn_by": "drawn by {who}",
    "kcup.question_master": "Question master:",
    "kcup.mates": "Mates:",
    "kcup.rules": "Rules:",
    "kcup.nobody": "nobody",
    "kcup.none": "none",
    "kcup.card_rules": "The card rules",
    "kcup.you": "You: {move}",
  },
  ru: {
    "kcup.status": "Помощник для застолья — здесь ничего не судится и не идёт в рейтинг · правила: {rules} · ходит: {who}",
    "kcup.rule_set.neutral": "нейтральные",
    "kcup.cup_title": "кубок",
    "kcup.cup": "налито {cup}/3 · королей {kings}/4 · вокруг кубка карт: {left}",
    "kcup.drawn_by": "вытянута игроком {who}",
    "kcup.question_master": "Мастер вопросов:",
    "kcup.mates": "Напарники:",
    "kcup.rules": "Правила:",
    "kcup.nobody": "никто",
    "kcup.none": "нет",
    "kcup.card_rules": "Правила карт",
    "kcup.you": "Вы: {move}",
  },
});

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

export function create(root, ctx) {
  let view = null;
  const el = document.createElement("div");
  el.className = "kcup";
  root.appendChild(el);
  const moves = () => (ctx.interactive && view ? view.legal_moves || [] : []);

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const names = Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
    const mv = moves();
    // A King's rule is said aloud at the table; the listed move records that it was made (a client
    // of the API may send the rule's text instead).
    const others = mv;
    const last = g.last;
    el.innerHTML = `
      <p class="notice">${esc(g.notice)}</p>
      <div class="kc-status">${t("kcup.status", { rules: esc(has(`kcup.rule_set.${g.rule_set}`) ? t(`kcup.rule_set.${g.rule_set}`) : g.rule_set), who: `<b id="kcup-turn">${toAct(view, [g.current]).length ? esc(names[g.current]) : "—"}</b>` })}</div>
      <div class="kcup-table">
        <div class="kcup-cup" title="${t("kcup.cup_title")}">🍺 ${t("kcup.cup", { cup: `<b>${g.cup}</b>`, kings: g.kings, left: g.cards_left })}</div>
        ${last ? `<div class="kcup-last">${cardHtml(last.card)}
          <div><b>${esc(last.title)}</b> — ${esc(last.text)}<br><small>${t("kcup.drawn_by", { who: esc(names[last.seat]) })}</small></div></div>` : ""}
      </div>
      <div class="kcup-roles">
        <div><b>${t("kcup.question_master")}</b> ${g.question_master ? esc(names[g.question_master]) : t("kcup.nobody")}</div>
        <div><b>${t("kcup.mates")}</b> ${Object.entries(g.drinks_with).map(([s, ms]) => `${esc(names[s])} → ${ms.map((m) => esc(names[m])).join(", ")}`).join("; ") || t("kcup.none")}</div>
        <div><b>${t("kcup.rules")}</b> ${g.rules.length ? `<ol>${g.rules.map((r) => `<li>${esc(r.text)} <small>(${esc(names[r.seat])})</small></li>`).join("")}</ol>` : t("kcup.none")}</div>
      </div>
      <div class="kc-actions">
        ${others.map((m, i) => `<button class="primary" data-move="${i}">${esc(m.label)}</button>`).join("")}
      </div>
      ${g.result_text ? `<p><b>${esc(g.result_text)}</b></p>` : ""}
      <details class="rules"><summary>${t("kcup.card_rules")}</summary><table>${Object.entries(g.card_rules).map(([r, c]) => `<tr><th>${r}</th><td><b>${esc(c.title)}</b> ${esc(c.text)}</td></tr>`).join("")}</table></details>`;
    el.querySelectorAll("[data-move]").forEach((b) => { b.onclick = () => { const m = others[Number(b.dataset.move)]; ctx.send(m.command); ctx.say(t("kcup.you", { move: m.label })); }; });
  }

  return { update(v) { view = v; draw(); }, rejected() { draw(); } };
}
