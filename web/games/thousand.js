// 1000 (Thousand) renderer: your hand, the bidding box (the listed bids only), the talon, the two
// cards to give away, marriage announcements, the trick and the last trick, and the score sheet
// with barrel and bolt marks per player and deal.  Moves come only from the view's legal_moves
// ({label, command}); the page sends the listed command as it is and knows no rules.
import { cardHtml, cardLabel, accessible, focusKey } from "../cards.js";
import { shownText, seatTitle, toAct, lastMoveHtml } from "../table.js";
import { t, addStrings, lang } from "../i18n.js";

// This renderer's words (the phase, the deals' results and the announcements are the server's, in
// the page's language; the Russian terms are the rules file's: торги, пас, прикуп, снос,
// марьяж, бочка, болт, втёмную, расписать, пересдача).
addStrings({
  en: {
    "th.you": "You: {move}…", "th.not_now": "{card} cannot be played now.", "th.not_your_turn": "It is not your turn.",
    "th.deal": "deal", "th.declarer": "declarer", "th.now": "now",
    "th.give_two": "Give two cards away", "th.pick_two": "— pick two cards in your hand.",
    "th.status": "Deal {n} · {phase}", "th.golden": " · golden", "th.dealer": " · dealer {who}",
    "th.sits_out": " · {who} sits out", "th.high_bid": " · high bid {n} ({who})",
    "th.declarer_is": " · declarer {who} {n}", "th.blind_mark": " blind", "th.trump": " · trump {suit}",
    "th.cards_tricks": "{cards} · {tricks}",
    "th.cards": { one: "{n} card", other: "{n} cards" }, "th.tricks": { one: "{n} trick", other: "{n} tricks" },
    "th.got": "got {card}", "th.talon": "talon", "th.last_trick": "last trick",
    "th.bid_box": "Bid", "th.contract_box": "Contract", "th.announce": "Announce",
    "th.no_cards": "no cards in hand",
    "th.over": "the match is over",
    "th.legend": "Marks on the sheet",
    "th.mark.bolt": "bolt: no points in the deal",
    "th.mark.bolt_penalty": "penalty for the bolts",
    "th.mark.barrel_on": "gets on the barrel",
    "th.mark.barrel_attempt": "a deal on the barrel without a win: an attempt used",
    "th.mark.barrel_made": "made the contract from the barrel",
    "th.mark.fall": "falls off the barrel",
    "th.mark.frozen": "on the barrel as a defender: scores 0",
    "th.mark.write_off": "wrote the deal off",
    "th.mark.samosval": "dump truck: exactly 555 or −555, the score becomes 0",
    "th.mark.knocked_off": "knocked off the barrel by another player",
    "th.mark.simultaneous_climb": "two reach the barrel at once: penalty and a fall",
    "th.mark.attempts_exhausted": "the last attempt on the barrel: penalty and a fall",
    "th.mark.falls_reset": "too many falls: the score is reset",
    "th.mark.third_write_off": "third write-off: penalty",
    "th.mark.golden_restart": "golden deals lost: the match starts over",
    "th.count_sign": "{sign}n",
    "th.count.barrel": "on the barrel, attempts used",
    "th.count.falls": "falls off the barrel so far",
    "th.count.bolts": "bolts so far",
    "th.count.writeoffs": "write-offs so far",
  },
  ru: {
    "th.you": "Вы: {move}…", "th.not_now": "{card} сейчас ходить нельзя.", "th.not_your_turn": "Сейчас не ваш ход.",
    "th.deal": "раздача", "th.declarer": "разыгрывающий", "th.now": "сейчас",
    "th.give_two": "Отдайте две карты", "th.pick_two": "— выберите две карты на руке.",
    "th.status": "Раздача {n} · {phase}", "th.golden": " · золотой кон", "th.dealer": " · сдаёт {who}",
    "th.sits_out": " · {who} не играет", "th.high_bid": " · высший заказ {n} ({who})",
    "th.declarer_is": " · разыгрывает {who} {n}", "th.blind_mark": " втёмную", "th.trump": " · козырь {suit}",
    "th.cards_tricks": "{cards} · {tricks}",
    "th.cards": { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    "th.tricks": { one: "{n} взятка", few: "{n} взятки", many: "{n} взяток", other: "{n} взятки" },
    "th.got": "получено: {card}", "th.talon": "прикуп", "th.last_trick": "последняя взятка",
    "th.bid_box": "Заказ", "th.contract_box": "Игра", "th.announce": "Объявить",
    "th.no_cards": "на руке нет карт",
    "th.over": "партия окончена",
    "th.legend": "Знаки в записи",
    "th.mark.bolt": "болт: ни одного очка за раздачу",
    "th.mark.bolt_penalty": "штраф за болты",
    "th.mark.barrel_on": "садится на бочку",
    "th.mark.barrel_attempt": "раздача на бочке без выигрыша: попытка использована",
    "th.mark.barrel_made": "сыграл заказ с бочки",
    "th.mark.fall": "падает с бочки",
    "th.mark.frozen": "на бочке в защите: 0 очков",
    "th.mark.write_off": "расписал раздачу",
    "th.mark.samosval": "самосвал: ровно 555 или −555 — счёт обнуляется",
    "th.mark.knocked_off": "сбит с бочки другим игроком",
    "th.mark.simultaneous_climb": "двое разом на бочку: штраф и падение",
    "th.mark.attempts_exhausted": "последняя попытка на бочке: штраф и падение",
    "th.mark.falls_reset": "слишком много падений: счёт сброшен",
    "th.mark.third_write_off": "третья роспись: штраф",
    "th.mark.golden_restart": "золотые коны проиграны: игра начинается заново",
    "th.count_sign": "{sign} с числом",
    "th.count.barrel": "на бочке, использовано попыток",
    "th.count.falls": "падений с бочки",
    "th.count.bolts": "болтов",
    "th.count.writeoffs": "росписей",
  },
});

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
// The sheet's marks: signs, and letters of the page's language (W, "write-off"; Р, «роспись»).
const SIGNS = {
  bolt: "⊘", barrel_on: "🛢", barrel_attempt: "🛢·", barrel_made: "🛢✓", fall: "↓",
  frozen: "❄", samosval: "±555→0", simultaneous_climb: "↓2",
  attempts_exhausted: "↓3", falls_reset: "0", golden_restart: "↺",
};
const LETTERS = {
  en: { bolt_penalty: "−bolt", write_off: "W", knocked_off: "↓k", third_write_off: "W3" },
  ru: { bolt_penalty: "−болт", write_off: "Р", knocked_off: "↓с", third_write_off: "Р3" },
};
const marksNow = () => ({ ...SIGNS, ...(LETTERS[lang()] || LETTERS.en) });
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const T = (c) => c.type.replace(/^thousand_/, "").replace(/\.v\d+$/, "");

export function create(root, ctx) {
  let view = null;
  let chosen = []; // cards picked to give away
  const el = document.createElement("div");
  el.className = "kc thousand";
  root.appendChild(el);

  const legal = () => (ctx.interactive ? view.legal_moves || [] : []);
  const names = () => Object.fromEntries(view.seats.map((s, i) => [s, view.players[i]]));
  function send(move) { chosen = []; ctx.send(move.command); ctx.say(t("th.you", { move: shownText(move.label, names()) })); draw(); }

  function clickCard(card) {
    if (legal().some((m) => T(m.command) === "give_cards")) {
      chosen = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card].slice(-2);
      draw();
      return;
    }
    const plain = legal().find((m) => T(m.command) === "play" && m.command.card === card && m.command.announce === "none");
    if (plain) send(plain);
    else if (legal().length) ctx.say(t("th.not_now", { card: cardLabel(card) }), "error");
    else ctx.say(t("th.not_your_turn"), "error");
  }

  function sheet(g, nm) {
    const seats = view.seats;
    const MARKS = marksNow();
    const head = `<tr class="head"><th class="deal-no">${t("th.deal")}</th><th class="declarer">${t("th.declarer")}</th>${seats.map((s) => `<th class="seat">${esc(seatTitle(view, s))}</th>`).join("")}</tr>`;
    const rows = g.sheet.map((d) => `<tr><td class="deal-no">${d.deal_no}</td><td class="declarer">${esc(nm[d.declarer])} ${d.contract} <small>${esc(d.result_text)}</small></td>${seats.map((s) =>
      `<td class="seat" title="${esc((d.marks[s] || []).map((m) => (MARKS[m] ? t(`th.mark.${m}`) : m)).join(", "))}">${d.scores[s]} <small>(${d.deltas[s] >= 0 ? "+" : ""}${d.deltas[s]})</small> ${(d.marks[s] || []).map((m) => `<span class="mark" data-mark="${m}">${MARKS[m] || m}</span>`).join("")}</td>`).join("")}</tr>`).join("");
    const now = `<tr class="totals"><td class="deal-no"></td><th class="declarer">${t("th.now")}</th>${seats.map((s) => {
      const b = g.barrel[s];
      return `<td class="seat"><b>${g.scores[s]}</b>${b.on ? ` 🛢${b.attempts}` : ""}${b.falls ? ` ↓${b.falls}` : ""}${g.bolts[s] ? ` ⊘${g.bolts[s]}` : ""}${g.writeoffs[s] ? ` ${MARKS.write_off}${g.writeoffs[s]}` : ""}</td>`;
    }).join("")}</tr>`;
    // A legend for every mark the sheet shows: the deals' marks and the counters of the last row.
    const used = new Set(g.sheet.flatMap((d) => seats.flatMap((s) => d.marks[s] || [])));
    const counts = [["barrel", "🛢n", seats.some((s) => g.barrel[s].on)], ["falls", "↓n", seats.some((s) => g.barrel[s].falls)],
      ["bolts", "⊘n", seats.some((s) => g.bolts[s])], ["writeoffs", `${MARKS.write_off}n`, seats.some((s) => g.writeoffs[s])]];
    const legend = [...Object.keys(MARKS).filter((m) => used.has(m)).map((m) => [MARKS[m], t(`th.mark.${m}`)]),
      ...counts.filter(([, , shown]) => shown).map(([k, sign]) => [t("th.count_sign", { sign: sign.slice(0, -1) }), t(`th.count.${k}`)])];
    const legendHtml = legend.length ? `<p class="legend" id="sheet-legend"><small><b>${t("th.legend")}:</b> ${legend.map(([sign, text]) => `<span class="mark">${sign}</span> ${esc(text)}`).join(" · ")}</small></p>` : "";
    // On a phone the sheet stacks (style.css: table.scores.stacked): a deal takes two lines, no
    // column is cut off and nothing scrolls sideways.
    return `<table class="scores sheet stacked" id="sheet" style="--seats: ${seats.length}">${head}${rows}${now}</table>${legendHtml}`;
  }

  function buttons(moves, nm, cls = "") {
    return moves.map((m) => `<button data-move="${esc(m.label)}" class="${cls}">${esc(shownText(m.label, nm))}</button>`).join("");
  }

  function draw() {
    if (!view) return;
    const g = view.game_view;
    const nm = names();
    const moves = legal();
    const of = (...types) => moves.filter((m) => types.includes(T(m.command)));
    const bids = of("bid", "pass");
    const contract = of("set_contract", "write_off");
    const announce = of("play").filter((m) => m.command.announce !== "none");
    const simple = of("ready", "declare_blind", "decline_blind", "keep_hand", "claim_redeal");
    const gives = of("give_cards");
    // The cards a click may play (or give away) now, outlined in the hand.
    const playable = new Set([...of("play").map((m) => m.command.card), ...gives.flatMap((m) => Object.values(m.command.gifts))]);
    let passBox = "";
    if (gives.length) {
      const fits = chosen.length === 2 ? gives.filter((m) => { const v = Object.values(m.command.gifts); return v.includes(chosen[0]) && v.includes(chosen[1]); }) : [];
      passBox = `<div class="pass-box" id="pass-box"><b>${t("th.give_two")}</b> ${t("th.pick_two")} ${buttons(fits, nm)} ${buttons(of("write_off"), nm)}</div>`;
    }
    const others = view.seats.filter((s) => s !== ctx.seat);
    const focused = focusKey(el);
    el.innerHTML = `
      <div class="kc-status">${t("th.status", { n: g.deal_no || "—", phase: view.status === "finished" ? t("th.over") : esc(g.phase_text) })}${g.golden ? t("th.golden") : ""}${g.dealer ? t("th.dealer", { who: esc(nm[g.dealer]) }) : ""}${g.sitout ? t("th.sits_out", { who: esc(nm[g.sitout]) }) : ""}${g.high_bid != null && g.phase === "auction" ? t("th.high_bid", { n: `<b>${g.high_bid}</b>`, who: esc(nm[g.high_seat]) }) : ""}${g.declarer ? t("th.declarer_is", { who: `<b>${esc(nm[g.declarer])}</b>`, n: `${g.contract}${g.blind ? t("th.blind_mark") : ""}` }) : ""}${g.trump ? t("th.trump", { suit: `<b class="trump">${SUIT[g.trump]}</b>` }) : ""}</div>
      <div class="opponents">${others.map((s) => `
        <div class="opponent ${toAct(view, view.to_move).includes(s) ? "to-move" : ""}" data-seat="${s}">
          <b>${esc(nm[s])}</b> <small>${s}</small><br>
          <span class="backs">${'<span class="mini-back"></span>'.repeat(Math.min(g.hand_sizes[s] || 0, 10))}</span>
          <span class="n">${t("th.cards_tricks", { cards: t("th.cards", { n: g.hand_sizes[s] ?? 0 }), tricks: t("th.tricks", { n: g.tricks_won[s] ?? 0 }) })}</span>
          ${g.given[s] ? `<div>${t("th.got", { card: cardHtml(g.given[s]) })}</div>` : ""}
          ${lastMoveHtml(s)}
        </div>`).join("")}
      </div>
      <div class="table-row">
        <div class="talon" id="talon">${g.talon.length ? `<small>${t("th.talon")}</small> ${g.talon.map((c) => cardHtml(c)).join("")}` : ""}</div>
        <div class="trick" id="trick">${g.trick.map(([s, c]) => `<div class="played"><small>${esc(nm[s])}</small>${cardHtml(c)}</div>`).join("")}</div>
        ${g.last_trick.length ? `<div class="last-trick"><small>${t("th.last_trick")}</small> ${g.last_trick.map(([, c]) => cardHtml(c)).join("")}</div>` : ""}
      </div>
      ${g.announcements.length ? `<div class="announcements">${g.announcements.map(([s], i) => `${esc(nm[s])}: ${esc((g.announcement_texts || [])[i])}`).join(" · ")}</div>` : ""}
      ${bids.length ? `<div class="bid-box" id="bid-box"><b>${t("th.bid_box")}</b> ${buttons(bids, nm, "primary")}</div>` : ""}
      ${contract.length && !gives.length ? `<div class="bid-box" id="contract-box"><b>${t("th.contract_box")}</b> ${buttons(contract, nm)}</div>` : ""}
      ${passBox}
      ${announce.length ? `<div class="announce-box" id="announce-box"><b>${t("th.announce")}</b> ${buttons(announce, nm)}</div>` : ""}
      <div class="hand-row">
        <div class="hand" id="hand">${(ctx.seat ? g.hand : []).map((c) => cardHtml(c, `${chosen.includes(c) ? "selected" : ""} ${playable.has(c) ? "playable" : ""}`)).join("") || `<span class="muted">${t("th.no_cards")}</span>`}</div>
        <div class="kc-actions">${buttons(simple, nm, "primary")}</div>
      </div>
      ${sheet(g, nm)}`;
    el.querySelectorAll("#hand [data-card]").forEach((c) => { c.onclick = () => clickCard(c.dataset.card); });
    el.querySelectorAll("[data-move]").forEach((b) => {
      b.onclick = () => { const m = moves.find((x) => x.label === b.dataset.move); if (m) send(m); };
    });
    accessible(el, focused);
  }

  return {
    update(v) {
      chosen = chosen.filter((c) => (v.game_view.hand || []).includes(c));
      view = v;
      draw();
    },
    rejected() { chosen = []; draw(); },
  };
}
