"""King (Кинг) in words for players, in English and Russian (rules/king.md §11.1): a ruleset's
help and why a match ended.  The words themselves are in ``words.py``."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.king import KingRuleset, schedule_deals
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, seat_list

from .state import KingState
from .words import WORDS, game_cost, game_name


def rules_help(r: KingRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say, count = WORDS.say, WORDS.count
    deals = schedule_deals(r)
    games = [g for g in dict.fromkeys((*r.games, *r.games_after))]
    listed = "; ".join(f"{game_name(g, lang)} ({game_cost(r, g, lang=lang)})" for g in games)
    what = say(lang, f"trump_deal.{r.trump_deal}")
    hv = count(lang, "deals", r.hv_count)
    if r.schedule == "fixed":
        after = say(lang, "plan.after", games=count(lang, "games", len(r.games_after))) if r.games_after else ""
        plan = say(
            lang,
            "plan.fixed",
            deals=count(lang, "deals", len(deals)),
            games=count(lang, "games", len(r.games)),
            hv=hv,
            what=what,
            after=after,
        )
    else:
        plan = say(lang, "plan.ordered", deals=count(lang, "deals", len(deals)), hv=hv, what=what)
    win = [say(lang, "win.total"), plan]
    lose = [
        say(
            lang,
            "lose.games",
            listed=listed,
            trump_name=game_name(r.trump_deal, lang),
            trump_cost=game_cost(r, r.trump_deal, lang=lang),
        )
    ]
    if r.early_end:
        lose.append(say(lang, "lose.early_end"))
    special = [
        say(
            lang,
            "special.deal",
            players=count(lang, "players", r.players),
            cards=count(lang, "cards", r.hand_size),
            talon=say(lang, "special.talon", n=r.talon_size) if r.talon_size else "",
        )
    ]
    if r.must_trump:
        end = say(lang, "special.overtrump" if r.must_overtrump else "special.trump_end")
        special.append(say(lang, "special.must_trump", end=end))
    if r.hearts_lead_ban:
        special.append(
            say(lang, "special.hearts_lead_ban", games=", ".join(game_name(g, lang) for g in r.hearts_lead_ban))
        )
    if r.king_discard:
        mode = say(lang, "special.must" if r.king_discard_mode == "mandatory" else "special.may")
        special.append(
            say(
                lang,
                "special.king_discard",
                mode=mode,
                games=", ".join(game_name(g, lang) for g in r.king_discard),
            )
        )
    if r.trump_lead_restriction:
        special.append(say(lang, "special.trump_lead"))
    if r.hv_buyout:
        special.append(say(lang, "special.hv_buyout"))
    special.append(say(lang, "special.zero_sum" if r.zero_sum else "special.not_zero_sum"))
    if r.compensation != "none":
        special.append(say(lang, "special.compensation", value=r.compensation_value))
    return RulesHelp(
        game="king",
        title=say(lang, "title"),
        goal=say(lang, "goal"),
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: KingState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    totals = seat_list(state.seats, state.totals or tuple(0 for _ in state.seats), names)
    deals = WORDS.count(lang, "deals", len(schedule_deals(state.rules)))
    if not out.ranks:
        # §12.3 ABANDON, Decision K16: aborted with the finished deals kept, nobody ranked
        # (``queries.abandon`` names the seat in the reason: "aborted: <seat> abandoned").
        seat = out.reason.removeprefix("aborted: ").removesuffix(" abandoned")
        who = names.get(seat, seat)
        return WORDS.say(lang, "end.aborted", who=who, played=len(state.sheet), deals=deals, totals=totals)
    return WORDS.say(lang, "end.all_played", deals=deals, totals=totals)
