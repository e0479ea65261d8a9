"""The rules as one value (R1, R2, R20), and the Round that keeps its own fields."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from draw_dominoes import RULES, Game, Match, Round, Rules, check_players, record
from draw_dominoes.tiles import ALL_TILES, TILE_COUNT, UNDRAWN, VALUES

SRC = Path(__file__).parent.parent / "src" / "draw_dominoes"


def test_r1_r2_r20_the_standard_rules() -> None:
    assert Rules() == RULES
    assert (VALUES, TILE_COUNT, len(ALL_TILES)) == (7, 28, 28)  # R1
    assert list(RULES.player_counts) == [2, 3, 4]
    assert [RULES.hand_size(n) for n in (2, 3, 4)] == [7, 7, 6]  # R2
    assert [RULES.boneyard_size(n) for n in (2, 3, 4)] == [14, 7, 4]
    assert UNDRAWN == 2
    assert [RULES.target(n) for n in (2, 3, 4)] == [100, 61, 61]  # R20


@pytest.mark.parametrize("wrong", [1, 5, 0, True, "2", 2.0, None])
def test_a_player_count_the_rules_do_not_allow_is_refused(wrong: object) -> None:
    assert not RULES.allows(wrong)
    with pytest.raises(ValueError, match="2 to 4 players"):
        check_players(wrong)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Round.new(wrong, seed=1)  # type: ignore[arg-type]


def test_round_and_match_are_games() -> None:
    for game in (Round.new(3, seed=2), Match.new(3, seed=2)):
        assert isinstance(game, Game)
        rng = random.Random(4)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        assert game.view(0).players == 3


def test_a_round_is_dealt_not_built() -> None:
    with pytest.raises(TypeError, match=r"Round\.new"):
        Round()


def test_a_clone_keeps_its_class() -> None:
    class Traced(Round):
        __slots__ = ()

    traced = Traced.new(2, seed=3)
    assert type(traced) is Traced and type(traced.clone()) is Traced


def test_a_deal_remembers_the_seed_it_came_from() -> None:
    dealt = Round.new(2, seed=99, leader=1)
    hands, boneyard = dealt.deal
    again = Round.from_deal(hands, boneyard, 1, seed=99)
    assert again.seed == 99 and again.deal == dealt.deal
    assert record.loads(record.dumps(again)).seed == 99  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="seed"):
        Round.from_deal(hands, boneyard, 1, seed="99")  # type: ignore[arg-type]


def test_no_module_touches_another_objects_private_fields() -> None:
    """Outside a class body, nothing reads or writes ``thing._name``: each class keeps its
    own fields (named-tuple methods such as ``_replace`` are public API)."""
    public_underscores = {"_replace", "_asdict", "_fields", "_make"}
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside_classes: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                inside_classes |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in public_underscores
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and id(node) not in inside_classes
            ):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, found


def test_no_underscore_name_of_round_is_used_outside_round_py() -> None:
    names = set(Round.__slots__)
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "round.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("round"):
                assert not [a.name for a in node.names if a.name.startswith("_")], path
            if isinstance(node, ast.Attribute) and node.attr in names:
                # ``self._round._hands`` or ``round_._seed``: a Round's field, from outside
                base = node.value
                foreign = not isinstance(base, ast.Name) or "round" in base.id
                assert not foreign, f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(node)}"


def test_the_languages_are_the_catalogue_folders_and_nobody_lists_them_again() -> None:
    from draw_dominoes.i18n import LANGUAGES

    folders = sorted(p.name for p in (SRC / "i18n" / "locales").iterdir() if p.is_dir())
    assert sorted(LANGUAGES) == folders and LANGUAGES[0] == "en"
    literal = ('("en", "de")', "('en', 'de')", '["en", "de"]', "(2, 3, 4)", "2 <= players <= 4")
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found = [lit for lit in literal if lit in text]
        assert not found, f"{path.relative_to(SRC)} spells out {found}: ask RULES or LANGUAGES"
