// Playing cards for the card games' renderers: a card id ("QS", "10H", "7D2" for a second deck,
// "RJ1"/"BJ1" for jokers, "??" for a card the viewer may not see) as text and as HTML.

import { t, addStrings } from "./i18n.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function cardLabel(id) {
  if (!id || id === "??") return "?";
  if (id.startsWith("RJ")) return "🃏R";
  if (id.startsWith("BJ")) return "🃏B";
  const m = id.match(/^(10|[2-9AJQK])([SHDC])\d?$/);
  return m ? `${m[1]}${SUIT[m[2]]}` : id;
}

export function cardHtml(id, extra = "") {
  const red = /[HD]\d?$/.test(id) || id.startsWith("RJ");
  const back = !id || id === "??";
  return `<span class="card ${red ? "red" : ""} ${back ? "back" : ""} ${extra}" data-card="${id}">${back ? "" : cardLabel(id)}</span>`;
}

// ------------------------------------------------------------------ keyboard and screen readers
// A card's name in words for screen readers ("queen of spades", "дама пик"); the label above
// stays the card's notation.
addStrings({
  en: {
    "card.hidden": "hidden card", "card.red_joker": "red joker", "card.black_joker": "black joker",
    "card.name": "{rank} of {suit}",
    "rank.A": "ace", "rank.K": "king", "rank.Q": "queen", "rank.J": "jack",
    "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
  },
  ru: {
    "card.hidden": "закрытая карта", "card.red_joker": "красный джокер", "card.black_joker": "чёрный джокер",
    "card.name": "{rank} {suit}",
    "rank.A": "туз", "rank.K": "король", "rank.Q": "дама", "rank.J": "валет",
    "suit.S": "пик", "suit.H": "червей", "suit.D": "бубён", "suit.C": "треф",
  },
});

export function cardName(id) {
  if (!id || id === "??") return t("card.hidden");
  if (id.startsWith("RJ")) return t("card.red_joker");
  if (id.startsWith("BJ")) return t("card.black_joker");
  const m = id.match(/^(10|[2-9AJQK])([SHDC])\d?$/);
  if (!m) return id;
  const rank = /[AJQK]/.test(m[1]) ? t(`rank.${m[1]}`) : m[1];
  return t("card.name", { rank, suit: t(`suit.${m[2]}`) });
}

const FOCUS_KEYS = ["card", "slot", "pos", "sq"];

// Which clickable card or pile has the keyboard focus inside root (to give it back after a redraw).
export function focusKey(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  const key = FOCUS_KEYS.find((k) => a.dataset[k] !== undefined);
  return key ? `[data-${key}="${CSS.escape(a.dataset[key])}"]` : null;
}

// Every clickable card and pile inside root becomes a button for the keyboard and for screen
// readers: a tab stop, role=button, a label in words; Enter or Space clicks it.  Call it after
// drawing (and after the click handlers are set), with focusKey(root) taken before the redraw.
export function accessible(root, key = null) {
  root.querySelectorAll("[data-card], [data-slot], [data-pos]").forEach((el) => {
    if (!el.onclick || el.tagName === "BUTTON") return;
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    const name = el.dataset.card !== undefined ? cardName(el.dataset.card)
      : el.dataset.slot !== undefined ? el.title || el.dataset.slot
        : [el.textContent.trim(), el.title].filter(Boolean).join(", ");
    el.setAttribute("aria-label", name);
    el.setAttribute("aria-pressed", String(el.classList.contains("selected")));
  });
  if (!root.dataset.keyboard) {
    root.dataset.keyboard = "1";
    root.addEventListener("keydown", (ev) => {
      const el = ev.target;
      if ((ev.key === "Enter" || ev.key === " ") && el.getAttribute && el.getAttribute("role") === "button" && el.tagName !== "BUTTON") {
        ev.preventDefault();
        el.click();
      }
    });
  }
  if (key) root.querySelector(key)?.focus();
}
