"""Alice card-set files: the shipped sets, the round trip, located errors, ``--cards``."""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu import games
from kifu.core.errors import NotationError, VariantError
from kifu.games.alice import AliceVariant, card_set, parse_card_set, variant_with_cards
from kifu.games.alice.cards import EFFECTS, HERE, SKILLS, TOKEN

GAME = games.get("alice")


def test_default_set_is_the_ruling() -> None:
    cs = card_set("default")
    assert len(cs.cards) == 156 and len(set(cs.cards)) == 156
    fx = {TOKEN[c]: EFFECTS[e] for c, e in zip(cs.cards, cs.effects, strict=True) if e}
    assert fx == {"aH12": "pool", "nD4": "buy", "vC8": "tell"}
    roles = {r.title: (r.win, SKILLS[r.skill]) for r in cs.roles}
    assert roles == {
        "Alice": (3, "alice"), "White Rabbit": (3, "rabbit"), "Mad Hatter": (3, "hatter"),
        "Cheshire Cat": (3, "cat"), "Caterpillar": (3, "caterpillar"),
        "Queen of Hearts": (4, "queen"),
    }


@pytest.mark.parametrize("path", sorted(HERE.glob("*.cards")), ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    cs = parse_card_set(path.read_text(encoding="utf-8"), path=str(path))
    text = cs.to_text()
    again = parse_card_set(text)
    assert again == cs and again.to_text() == text


GOOD = "set mini\nrole A 3 alice Alice\nrole B 2 none Bystander\nrole C 3 cat Cat\n" \
       "card nS1 - rabbit\ncard vS1 tell told\ncard aS1 pool brave\n"


@pytest.mark.parametrize(("edit", "where", "what"), [
    (("card aS1 pool", "card aS1 juggle"), "7:10", "unknown effect 'juggle'"),
    (("role B 2 none", "role B 2 flying"), "3:10", "unknown skill 'flying'"),
    (("card vS1", "card nS1"), "6:6", "duplicate card nS1 (first on line 5)"),
    (("card nS1", "card nS14"), "5:6", "bad card 'nS14'"),
    (("card nS1", "card nX1"), "5:6", "bad card 'nX1'"),
    (("card vS1 tell told\n", ""), "7:1", "missing deck: the set has no verb cards"),
    (("set mini\n", ""), "1:1", "missing 'set NAME'"),
    (("role C 3", "role A 3"), "4:6", "duplicate role A"),
    (("role B 2", "role B x"), "3:8", "the win threshold is an SP count"),
    (("card aS1 pool brave", "card aS1 pool"), "7:1", "expected 'card TOKEN EFFECT WORD'"),
    (("role C 3 cat Cat\n", "royal C 3 cat Cat\n"), "4:1", "unknown directive 'royal'"),
])
def test_located_errors(edit: tuple[str, str], where: str, what: str) -> None:
    text = GOOD.replace(*edit)
    assert text != GOOD
    with pytest.raises(NotationError) as info:
        parse_card_set(text, path="my.cards")
    assert str(info.value).startswith(f"my.cards:{where}: {what}")


def test_cards_file_for_the_cli(tmp_path: Path) -> None:
    lines = [GOOD]
    for t in "nva":
        for r in range(2, 14):
            lines.append(f"card {t}H{r} - word{r}\n")
    p = tmp_path / "mini.cards"
    p.write_text("".join(lines))
    v = variant_with_cards(str(p), AliceVariant(turns=4))
    assert v == AliceVariant(cards="mini", turns=4)
    assert GAME.rules_spec(v) == "alice/1;cards=mini;turns=4"
    state = GAME.new_state(3, v)
    assert len(state.deck) == 39


def test_too_small_set_for_the_players(tmp_path: Path) -> None:
    p = tmp_path / "tiny.cards"
    p.write_text(GOOD.replace("set mini", "set tiny"))
    v = variant_with_cards(str(p))
    with pytest.raises(VariantError, match="need at least"):
        GAME.new_state(3, v)


def test_unknown_set_name() -> None:
    with pytest.raises(VariantError, match="unknown card set 'nosuch'"):
        GAME.parse_rules("alice/1;cards=nosuch")
