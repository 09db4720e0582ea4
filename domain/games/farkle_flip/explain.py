"""Farkle Flip in words for players, in English and Russian (rules/thousand-and-farkle-flip.md §3;
the Russian terms are seed 004's: «попасть на табло», «карта Фаркла», «комбинация», «центр»): a
ruleset's help and why a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.farkle_flip import FarkleFlipRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words, seat_list

from .rules import scoring_note
from .state import FFState

WORDS = Words(
    en={
        "title": "Farkle Flip",
        "points": "point|points",
        "goal": "Bank {target} points by locking scoring combinations of cards, and stop before you bust.",
        "win.target": "Bank points until somebody reaches {target}; then everybody else plays one last turn "
        "and the highest banked score wins.",
        "win.entry": "Getting on the board: your first bank must be at least {entry} points in one turn.",
        "lose.bust": "Bust: drawing a Farkle card ends your turn; the combinations in the centre go back to "
        "your area as lost groups, and a card must be added to one before it can be locked again.",
        "lose.farkle_value": "A Farkle card stays beside you and adds {value} when you next bank.",
        "lose.forfeit": "Stopping before you are on the board with fewer than {entry} points forfeits the "
        "centre.",
        "lose.must_continue": "Until you are on the board you may not stop below {entry} points.",
        "lose.piles_empty": "The game also ends when both piles stay empty for a full round of turns (FF3).",
        "special.turn": "On your turn draw a card and place it in any player's area (cards there belong to "
        "nobody); lock a scoring combination from one area into the centre, then draw again or stop and bank "
        "the centre. Banked points are never lost.",
        "special.patterns": "Scoring combinations: {patterns}.",
        "special.lock_last": "Every lock must use the card placed last this turn (FF4).",
        "note.official": "scoring table: {name}",
        "note.placeholder": "PLACEHOLDER scoring table (§3.8: dice-Farkle values, not the official summary "
        "cards); only three 4s = 400, four of a kind = 1000 and Farkle cards = 100 come from the rules",
        "note.unofficial": "PLACEHOLDER scoring table {name!r} (not marked official)",
        "pattern.faces": "{name} ({faces})",
        "pattern.face": "{face}s {value}",
        "pattern.value": "{name} {value}",
        "pattern.three_of_a_kind": "three of a kind",
        "pattern.four_of_a_kind": "four of a kind",
        "pattern.five_of_a_kind": "five of a kind",
        "pattern.six_of_a_kind": "six of a kind",
        "pattern.straight": "straight",
        "pattern.three_pairs": "three pairs",
        "pattern.four_of_a_kind_and_a_pair": "four of a kind and a pair",
        "pattern.two_triplets": "two triplets",
        "pattern.single_1": "single 1",
        "pattern.single_5": "single 5",
        "end.final_round": "{who} reached {target} and everyone else played a last turn (banked: {banked}).",
        "end.final_round_anyone": "a player reached {target} and everyone else played a last turn (banked: "
        "{banked}).",
        "end.piles_empty": "both piles stayed empty for a full round of turns (banked: {banked}).",
        "end.over": "the game is over",
        "end.other": "{reason} (banked: {banked}).",
    },
    ru={
        "title": "Farkle Flip",
        "points": "очко|очка|очков",
        "goal": "Наберите в банке {target}, выкладывая в центр комбинации карт, приносящие очки, и вовремя "
        "останавливайтесь, пока не вытянули карту Фаркла.",
        "win.target": "Кладите очки в банк, пока кто-нибудь не наберёт {target}; затем каждый из остальных "
        "делает последний ход, и побеждает тот, у кого в банке больше всех.",
        "win.entry": "Чтобы попасть на табло, в первый раз нужно положить в банк не меньше {entry} за один "
        "ход.",
        "lose.bust": "Фаркл: вытянутая карта Фаркла заканчивает ваш ход; комбинации из центра возвращаются в "
        "вашу зону как потерянные, и чтобы снова выложить такую комбинацию в центр, к ней нужно добавить карту.",
        "lose.farkle_value": "Карта Фаркла остаётся рядом с вами и приносит {value}, когда вы в следующий раз "
        "кладёте очки в банк.",
        "lose.forfeit": "Если остановиться, ещё не попав на табло и набрав меньше {entry}, центр сгорает.",
        "lose.must_continue": "Пока вы не попали на табло, нельзя остановиться, набрав меньше {entry}.",
        "lose.piles_empty": "Игра заканчивается и тогда, когда обе стопки остаются пустыми целый круг ходов "
        "(FF3).",
        "special.turn": "В свой ход возьмите карту и положите её в зону любого игрока (карты там ничьи); "
        "выложите комбинацию, приносящую очки, из одной зоны в центр, затем тяните снова или остановитесь и "
        "положите центр в банк. Очки в банке никогда не теряются.",
        "special.patterns": "Комбинации, приносящие очки: {patterns}.",
        "special.lock_last": "Каждая комбинация, выложенная в центр, должна включать карту, положенную "
        "последней в этот ход (FF4).",
        "note.official": "таблица очков: {name}",
        "note.placeholder": "ВРЕМЕННАЯ таблица очков (§3.8: значения из Фаркла на костях, а не с официальных "
        "карточек с итогами); из правил взяты только три 4 = 400, четыре одинаковых = 1000 и карты Фаркла = 100",
        "note.unofficial": "ВРЕМЕННАЯ таблица очков {name!r} (не отмечена как официальная)",
        "pattern.faces": "{name} ({faces})",
        "pattern.face": "{face} — {value}",
        "pattern.value": "{name} {value}",
        "pattern.three_of_a_kind": "три одинаковых",
        "pattern.four_of_a_kind": "четыре одинаковых",
        "pattern.five_of_a_kind": "пять одинаковых",
        "pattern.six_of_a_kind": "шесть одинаковых",
        "pattern.straight": "стрит",
        "pattern.three_pairs": "три пары",
        "pattern.four_of_a_kind_and_a_pair": "четыре одинаковых и пара",
        "pattern.two_triplets": "две тройки",
        "pattern.single_1": "одиночная 1",
        "pattern.single_5": "одиночная 5",
        "end.final_round": "игрок {who} набрал {target}, и все остальные сделали последний ход (в банке: "
        "{banked}).",
        "end.final_round_anyone": "один из игроков набрал {target}, и все остальные сделали последний ход (в "
        "банке: {banked}).",
        "end.piles_empty": "обе стопки оставались пустыми целый круг ходов (в банке: {banked}).",
        "end.over": "игра окончена",
        "end.other": "{reason} (в банке: {banked}).",
    },
)


def _pattern(p: object, lang: Lang) -> str:
    code = str(getattr(p, "name", ""))
    name = WORDS.code(lang, "pattern", code)
    faces = getattr(p, "face_values", {}) or {}
    if faces:
        listed = ", ".join(WORDS.say(lang, "pattern.face", face=f, value=v) for f, v in faces.items())
        return WORDS.say(lang, "pattern.faces", name=name, faces=listed)
    return WORDS.say(lang, "pattern.value", name=name, value=getattr(p, "value", ""))


def scoring_note_in(rs: FarkleFlipRuleset, lang: Lang = DEFAULT_LANG) -> str:
    """The scoring table's note (the view's ``scoring_note``) in ``lang``."""
    if lang == "en":
        return scoring_note(rs)  # the view's note, word for word
    if rs.scoring_official:
        return WORDS.say(lang, "note.official", name=rs.scoring_table)
    if rs.scoring_table == "placeholder":
        return WORDS.say(lang, "note.placeholder")
    return WORDS.say(lang, "note.unofficial", name=rs.scoring_table)


def rules_help(rs: FarkleFlipRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say

    def points(n: int) -> str:
        return WORDS.count(lang, "points", n) if lang == "ru" else str(n)

    win = [say(lang, "win.target", target=points(rs.target)), say(lang, "win.entry", entry=points(rs.entry))]
    lose = [
        say(lang, "lose.bust"),
        say(lang, "lose.farkle_value", value=points(rs.farkle_value)),
        say(lang, "lose.forfeit" if rs.entry_stop_policy == "FORFEIT" else "lose.must_continue", entry=points(rs.entry)),
        say(lang, "lose.piles_empty"),
    ]
    special = [
        say(lang, "special.turn"),
        say(lang, "special.patterns", patterns="; ".join(_pattern(p, lang) for p in rs.patterns)),
        scoring_note_in(rs, lang),
    ]
    if rs.lock_requires_last_placed:
        special.append(say(lang, "special.lock_last"))
    return RulesHelp(
        game="farkle-flip",
        title=say(lang, "title"),
        goal=say(lang, "goal", target=points(rs.target)),
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: FFState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    banked = seat_list(state.seats, state.banked, names)
    target = state.rules.target
    if state.end_reason == "final_round":
        if state.trigger >= 0:
            who = names.get(state.seats[state.trigger], state.seats[state.trigger])
            return WORDS.say(lang, "end.final_round", who=who, target=target, banked=banked)
        return WORDS.say(lang, "end.final_round_anyone", target=target, banked=banked)
    if state.end_reason == "piles_empty":
        return WORDS.say(lang, "end.piles_empty", banked=banked)
    return WORDS.say(lang, "end.other", reason=out.reason or WORDS.say(lang, "end.over"), banked=banked)
