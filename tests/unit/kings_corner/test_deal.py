"""Client seeds, the rng_v1 deal, the cross set-up, the chance audit and hidden information (§5.3, ARCHITECTURE §4)."""

from __future__ import annotations

import msgspec

from contracts.games.kings_corner import CardsDrawn, Ready, RoundDealt, SeatReady
from domain.core import cards, rng
from domain.games.kings_corner import GAME
from domain.games.kings_corner.deal import lay_out_cross
from domain.games.kings_corner.rules import PRESETS

from .conftest import SEED, cs, dealt, kc, then_from


def _ready_both(
    preset: str = "cardgames-zone", seeds: tuple[str, str] = ("alice", "")
) -> tuple[object, tuple[object, ...]]:
    state = (
        kc(preset).when("p1", Ready(client_seed=seeds[0])).then(SeatReady(seat="p1", client_seed=seeds[0]))
    )
    result = then_from(state).when("p2", Ready(client_seed=seeds[1]))
    after = result.then_accepted()
    assert isinstance(result.result, tuple)
    return after, result.result


def test_first_deal_waits_for_every_seat() -> None:
    """ARCHITECTURE §4: each seat may add a client seed before the first chance event."""
    spec = kc().when("p1", Ready(client_seed="alice"))
    state = spec.then(SeatReady(seat="p1", client_seed="alice"))
    assert state.phase == "waiting" and GAME.to_move(state) == frozenset({"p2"})
    assert GAME.legal_commands(state, "p2") == (Ready(),) and GAME.legal_commands(state, "p1") == ()
    kc().when("p1", Ready(client_seed="x" * 257)).then_rejected("client_seed_too_long")


def test_deal_follows_rng_v1_from_the_server_and_client_seeds() -> None:
    """§5.3: shuffle, 7 cards one at a time from the dealer's left, 4 to N E S W, the rest is stock."""
    state, events = _ready_both()
    deal = events[1]
    assert isinstance(deal, RoundDealt)
    key = rng.derive_key(SEED, ["alice", ""])
    dealer = ("p1", "p2")[rng.Stream(key, b"dealer").randbelow(2)]
    order = rng.shuffle(key, b"deal:1", cards.deck("52"))
    assert deal.dealer == dealer and deal.order == order
    left = 1 - ("p1", "p2").index(dealer)
    assert deal.hands[left] == order[0:14:2] and deal.hands[1 - left] == order[1:14:2]
    assert deal.cross == order[14:18]
    assert deal.first_seat == ("p1", "p2")[left]
    # start timing: the first seat's turn begins with the automatic draw of the stock's top card
    assert events[2] == CardsDrawn(seat=deal.first_seat, cards=deal.stock[:1], count=1, reason="turn_start")


def test_client_seeds_change_the_deal() -> None:
    _, a = _ready_both(seeds=("alice", ""))
    _, b = _ready_both(seeds=("alice", "bob"))
    assert isinstance(a[1], RoundDealt) and isinstance(b[1], RoundDealt)
    assert a[1].order != b[1].order


def test_no_server_seed_no_deal() -> None:
    """Folding for display has no seed: a deal cannot be decided."""
    state = GAME.initial_state(PRESETS["cardgames-zone"], ("p1", "p2"), None)
    state = GAME.evolve(state, SeatReady(seat="p1"))
    result = GAME.decide(state, "p2", Ready())
    assert getattr(result, "code", None) == "seed_unavailable"


def test_vector13_auto_setup_order() -> None:
    """Vector 13 (§5.3 step 5, 003:L20): kings leave N, then S, in slot order; refills come from the top."""
    layout, stock, steps = lay_out_cross(PRESETS["cardgames-zone"], cs("KH 5C KS 9D"), cs("KD 4H 8C 2S 3S"))
    assert layout[:4] == (("4H",), ("5C",), ("8C",), ("9D",))
    assert layout[4:] == (("KH",), ("KD",), ("KS",), ())
    assert stock == cs("2S 3S")
    assert [(s.card, s.slot, s.to, s.refill) for s in steps] == [
        ("KH", "N", "NE", "KD"),
        ("KD", "N", "SE", "4H"),
        ("KS", "S", "SW", "8C"),
    ]


def test_manual_setup_leaves_cross_kings() -> None:
    """E4: under manual set-up a cross king is an ordinary pile (000:L547)."""
    layout, stock, steps = lay_out_cross(PRESETS["pagat-classic"], cs("KH 5C KS 9D"), cs("KD 4H"))
    assert layout[0] == ("KH",) and steps == () and stock == cs("KD 4H")


def test_e3_extra_king_goes_to_the_bottom() -> None:
    """E3 (two decks): with every corner taken the king goes to the bottom of the stock."""
    layout, stock, steps = lay_out_cross(PRESETS["cz-two-decks"], cs("KH KS KD KC"), cs("2C 3C 4C KH2 5C 6C"))
    assert layout[4:] == (("KH",), ("KS",), ("KD",), ("KC",))
    assert layout[:4] == (("2C",), ("3C",), ("4C",), ("5C",))
    assert stock == cs("6C KH2")
    assert (steps[4].card, steps[4].slot, steps[4].to, steps[4].refill) == ("KH2", "W", "stock_bottom", "5C")


def test_jokers_in_the_cross_go_to_the_bottom() -> None:
    """§5.3 step 5 [REC]: a joker turned up in the cross goes to the bottom of the stock."""
    layout, stock, _ = lay_out_cross(PRESETS["freeman-jokers"], cs("RJ 5C 6S 9D"), cs("4H 8C"))
    assert layout[0] == ("4H",) and stock == cs("8C RJ")


def test_verify_chance_accepts_the_true_deal_and_names_a_wrong_card() -> None:
    """The audit re-derives each deal from the revealed seed and says which card differs."""
    before = GAME.evolve(
        GAME.evolve(
            GAME.initial_state(PRESETS["cardgames-zone"], ("p1", "p2"), SEED),
            SeatReady(seat="p1", client_seed="alice"),
        ),
        SeatReady(seat="p2"),
    )
    _, events = _ready_both()
    deal = events[1]
    assert isinstance(deal, RoundDealt)
    assert GAME.verify_chance is not None
    assert GAME.verify_chance(before, deal) is None
    order = list(deal.order)
    order[6], order[7] = order[7], order[6]
    tampered = msgspec.structs.replace(deal, order=tuple(order))
    assert GAME.verify_chance(before, tampered) == (
        f"deal of round 1: card 7 is {order[6]}, rng_v1 gives {deal.order[6]}"
    )
    after = GAME.evolve(before, deal)
    draw = events[2]
    assert isinstance(draw, CardsDrawn)
    assert GAME.verify_chance(after, draw) is None
    assert GAME.verify_chance(after, msgspec.structs.replace(draw, cards=(deal.stock[1],))) is not None


def test_redact_shows_only_the_viewers_cards() -> None:
    """ARCHITECTURE §1.4: a deal shows only the viewer's hand; other hands, the stock and another
    seat's draw keep only their size (as UNKNOWN placeholders, so a seat's fold counts right)."""
    _, events = _ready_both()
    deal = events[1]
    assert isinstance(deal, RoundDealt)
    hidden = cards.UNKNOWN
    mine = GAME.redact(deal, "p1")
    assert isinstance(mine, RoundDealt)
    assert mine.order == () and mine.hands[0] == deal.hands[0]
    assert mine.hands[1] == (hidden,) * len(deal.hands[1]) and mine.stock == (hidden,) * len(deal.stock)
    spectator = GAME.redact(deal, None)
    assert isinstance(spectator, RoundDealt)
    assert spectator.hands == tuple((hidden,) * len(h) for h in deal.hands)
    assert spectator.layout == deal.layout and spectator.stock_size == deal.stock_size
    assert not set(cards.deck("52")) & ({c for h in spectator.hands for c in h} | set(spectator.stock))
    draw = CardsDrawn(seat="p1", cards=("QS",), count=1, reason="turn_start")
    assert GAME.redact(draw, "p1") == draw
    assert GAME.redact(draw, "p2") == CardsDrawn(seat="p1", cards=(hidden,), count=1, reason="turn_start")


def test_view_hides_other_hands_and_the_seed() -> None:
    state = kc().given(dealt(hands=("8C 2D", "3D KS"), layout={"N": "9H"}, stock="5S")).state
    v1 = GAME.view(state, "p1")
    assert v1.hand == ("8C", "2D") and v1.hand_sizes == {"p1": 2, "p2": 2}
    assert "8C>N" in v1.legal
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.legal == ()
    encoded = msgspec.json.encode(GAME.view(state, "p2"))
    assert b'"8C"' not in encoded and b'"2D"' not in encoded and SEED.hex().encode() not in encoded
    assert GAME.hidden(state, "p1") == frozenset({"8C", "2D"})


def test_hands_are_public_at_the_end_of_the_round() -> None:
    """§2.10 scoring counts the cards left: the hands are shown to everybody once the round ends."""
    from contracts.games.kings_corner import PlayCard

    state = (
        kc("pagat-classic")
        .given(dealt(hands=("8C", "3D KS"), layout={"N": "9H"}, stock="5S"))
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert GAME.view(state, None).revealed_hands == {"p1": (), "p2": ("3D", "KS")}
    assert GAME.hidden(state, "p2") == frozenset()


def test_seat_count_outside_the_ruleset_is_refused() -> None:
    """E22: 5 players cannot play cardgames-zone (2-4)."""
    state = GAME.initial_state(PRESETS["cardgames-zone"], GAME.seat_names(5), SEED)
    result = GAME.decide(state, "p1", Ready())
    assert getattr(result, "code", None) == "invalid_seats"
    assert PRESETS["pagat-classic"].check_seats(7) is not None  # 7n + 4 <= 52 caps one deck at 6
    assert PRESETS["cz-two-decks"].check_seats(10) is None


def test_every_preset_is_valid() -> None:
    for name, ruleset in PRESETS.items():
        assert ruleset.validate() is None, name
    assert GAME.default_preset == "cardgames-zone"
    assert set(GAME.presets) == set(PRESETS) and all(p.description for p in GAME.presets.values())


def test_client_seeds_enter_the_deal_in_seat_order_whatever_order_ready_comes_in() -> None:
    """ARCHITECTURE §4: the key holds each seat's client seed in seat order; a seat that sent none
    adds the empty string.  p2 gets ready first with "bob", p1 after it with no seed."""
    state = kc().when("p2", Ready(client_seed="bob")).then(SeatReady(seat="p2", client_seed="bob"))
    result = then_from(state).when("p1", Ready())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    deal = next(e for e in result.result if isinstance(e, RoundDealt))
    key = rng.derive_key(SEED, ["", "bob"])
    assert deal.order == rng.shuffle(key, b"deal:1", cards.deck("52"))
    _, in_seat_order = _ready_both(seeds=("", "bob"))
    assert next(e for e in in_seat_order if isinstance(e, RoundDealt)) == deal


def test_a_seat_count_the_ruleset_cannot_deal_has_no_legal_commands() -> None:
    """D6 / E22: a match of 5 on cardgames-zone (2-4) deals nothing, so nobody has a command;
    nor has a name that is not a seat of the match."""
    state = GAME.initial_state(PRESETS["cardgames-zone"], GAME.seat_names(5), SEED)
    assert GAME.legal_commands(state, "p1") == () and GAME.to_move(state) == frozenset()
    fine = GAME.initial_state(PRESETS["cardgames-zone"], GAME.seat_names(2), SEED)
    assert GAME.legal_commands(fine, "p1") == (Ready(),)
    assert GAME.legal_commands(fine, "p9") == ()
