// Playing cards for the card games' renderers: a card id ("QS", "10H", "7D2" for a second deck,
// "RJ1"/"BJ1" for jokers, "??" for a card the viewer may not see) as text and as HTML.

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
