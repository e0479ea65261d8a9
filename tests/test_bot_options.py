"""Bot options: one typed dataclass a bot, read once from text or keywords, with clear errors."""

from __future__ import annotations

import dataclasses
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from draw_dominoes import bots
from draw_dominoes.bots import (
    ExpertOptions,
    IsmctsOptions,
    LearnedOptions,
    NoOptions,
    OmniscientOptions,
    OptionError,
    Options,
    PimcOptions,
)
from draw_dominoes.bots.expert import ExpertBot
from draw_dominoes.bots.ismcts import ISMCTSBot
from draw_dominoes.bots.pimc import PIMCBot
from draw_dominoes.tournament.cli import parse_option, parse_variant

KINDS = {
    "random": NoOptions,
    "greedy": NoOptions,
    "heuristic": NoOptions,
    "pimc": PimcOptions,
    "ismcts": IsmctsOptions,
    "omniscient": OmniscientOptions,
    "learned": LearnedOptions,
    "expert": ExpertOptions,
}


def test_every_bot_has_its_options_dataclass() -> None:
    assert {name: bots.options_type(name) for name in bots.NAMES} == KINDS
    assert bots.options_type("expert") is bots.options_type("expert")  # a level: its bot's
    assert bots.options_type("strong") is LearnedOptions
    for kind in KINDS.values():
        assert dataclasses.is_dataclass(kind) and issubclass(kind, Options)
        with pytest.raises(dataclasses.FrozenInstanceError):
            kind().x = 1  # type: ignore[attr-defined]


def test_the_defaults_are_those_the_bots_had() -> None:
    """Unset options mean "the default for the table size", as before the dataclasses."""
    budget = {"iterations": None, "time_per_move": None, "max_seconds": None}
    tree = {**budget, "epsilon": 0.1, "opponents": None}
    assert dataclasses.asdict(PimcOptions()) == budget
    assert dataclasses.asdict(IsmctsOptions()) == {**tree, "exploration": 0.7}
    assert dataclasses.asdict(OmniscientOptions()) == {**tree, "exploration": 0.7, "sees": "all"}
    assert dataclasses.asdict(LearnedOptions()) == {"weights": None}
    assert dataclasses.asdict(ExpertOptions()) == {
        **tree,
        "exploration": None,
        "inference": 1.0,
        "heavy": None,
        "solve": None,
        "reward": "match",
        "pool": None,
        "exploit": 1.0,
        "prior": 0.0,
        "leaf": False,
        "playout": None,
        "worlds": None,
        "horizon": "turn",
    }
    # ... and what they come to at each table size.
    assert ISMCTSBot(0).options.settings_at(2) == {
        "iterations": 1200,
        "time_per_move": None,
        "exploration": 0.7,
        "epsilon": 0.1,
        "opponents": "search",
    }
    assert ISMCTSBot(0).options.settings_at(3)["iterations"] == 2000
    assert ExpertBot(0).settings_at(3) == {
        "iterations": 2000,
        "time_per_move": None,
        "exploration": 0.7,
        "epsilon": 0.1,
        "opponents": "model",
        "pool": 1000,
        "solve": 0,
        "heavy": 0.1,
    }
    assert PimcOptions().budget(40) == (40, None)


def test_the_budget_keeps_the_iterations_under_a_time_cap() -> None:
    """``max_seconds`` caps the default search; ``time_per_move`` alone replaces it."""
    assert PimcOptions(max_seconds=1.0).budget(40) == (40, 1.0)
    assert PimcOptions(time_per_move=0.5).budget(40) == (None, 0.5)
    assert PimcOptions(time_per_move=2.0, max_seconds=1.0).budget(40) == (None, 1.0)
    assert PimcOptions(iterations=7, max_seconds=1.0).budget(40) == (7, 1.0)


def _other_value(hint: Any, default: object) -> object:
    """A valid value of the type ``hint`` that is not ``default``."""
    args = [a for a in get_args(hint) if a is not type(None)] if get_args(hint) else [hint]
    kind = args[0] if get_origin(hint) is not Literal else hint
    if get_origin(kind) is Literal:
        return next(c for c in get_args(kind) if c != default)
    values: dict[Any, object] = {bool: not default, int: 7, float: 0.25, str: "other.npz"}
    return values[kind]


@pytest.mark.parametrize("name", list(KINDS))
def test_every_bots_options_round_trip_through_text(name: str) -> None:
    kind = KINDS[name]
    hints = get_type_hints(kind)
    changed = kind(
        **{f.name: _other_value(hints[f.name], f.default) for f in dataclasses.fields(kind)}
    )
    assert all(getattr(changed, f.name) != f.default for f in dataclasses.fields(kind))
    text = bots.format_spec(name, changed)
    assert bots.parse_spec(text) == (name, changed)
    assert bots.format_spec(name, kind()) == name
    assert bots.parse_spec(name) == (name, kind())
    made = bots.create(name, 1, options=changed) if name != "learned" else None
    if made is not None:
        assert getattr(made, "options", changed) == changed


def test_every_spelling_of_a_value_is_read() -> None:
    """Plain text, JSON (quoted text, true, null) and Python values all give the same options."""
    _, text = bots.parse_spec(
        'expert:iterations=300, epsilon=0.2,opponents=model,leaf=true,reward="round",'
        "heavy=1,solve=null,horizon=end,exploration=0"
    )
    given: dict[str, Any] = {
        "iterations": 300,
        "epsilon": 0.2,
        "opponents": "model",
        "leaf": True,
        "reward": "round",
        "heavy": 1,
        "solve": None,
        "horizon": "end",
        "exploration": 0,
    }
    assert text == bots.options_for("expert", given) == ExpertOptions(**given)
    assert isinstance(text, ExpertOptions) and text.heavy == 1.0 and isinstance(text.heavy, float)
    assert bots.parse_spec("strong:weights=123") == ("learned", LearnedOptions(weights="123"))
    assert bots.parse_spec("ismcts:") == ("ismcts", IsmctsOptions())
    # A key given twice keeps its last value, as the tournament always read it.
    assert bots.parse_spec("pimc:iterations=3,iterations=5")[1] == PimcOptions(iterations=5)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:depth=3", ["ismcts", "no option depth", "it takes: epsilon"]),
        ("heuristic:iterations=5", ["heuristic", "no option iterations", "it takes: none"]),
        ("ismcts:iterations=0", ["ismcts", "iterations must be a positive whole number"]),
        ("ismcts:iterations=2.5", ["ismcts", "iterations must be a positive whole number"]),
        ("ismcts:iterations=many", ["ismcts", "iterations", "'many'"]),
        ("pimc:time_per_move=-1", ["pimc", "time_per_move must be a positive number of seconds"]),
        ("pimc:max_seconds=0", ["pimc", "max_seconds must be a positive number"]),
        ("ismcts:epsilon=1.5", ["ismcts", "epsilon must be a probability from 0 to 1"]),
        ("ismcts:exploration=-1", ["ismcts", "exploration must be a number, 0 or more"]),
        ("ismcts:exploration=nan", ["ismcts", "exploration"]),
        ("ismcts:opponents=minimax", ["ismcts", "opponents must be 'search' or 'model'"]),
        ("omniscient:sees=boneyard", ["omniscient", "sees must be 'all' or 'hands'"]),
        ("expert:reward=luck", ["expert", "reward must be 'match', 'round' or 'points'"]),
        ("expert:leaf=yes", ["expert", "leaf must be true or false, not 'yes'"]),
        ("expert:exploit=2", ["expert", "exploit must be a probability from 0 to 1, not '2'"]),
        ("expert:solve=-1", ["expert", "solve must be a whole number of tiles, 0 or more"]),
        ("expert:pool=0", ["expert", "pool must be a positive whole number"]),
        ("expert:heavy=true", ["expert", "heavy must be a number"]),
        ("expert:playout=network", ["expert", "playout must be 'greedy' or 'learned'"]),
        ("expert:opponents=null,worlds=0", ["expert", "worlds must be a positive whole number"]),
        ("expert:iterations", ["not a bot option", "'iterations'"]),
        ("chess:depth=3", ["unknown bot 'chess'"]),
    ],
)
def test_bad_options_name_the_bot_and_the_key(spec: str, words: list[str]) -> None:
    with pytest.raises(ValueError) as raised:
        bots.parse_spec(spec)
    message = str(raised.value)
    assert all(word in message for word in words), message


def test_python_values_are_checked_alike() -> None:
    """Keywords as the registry passes them: the same errors, and no bool taken for a number."""
    for bad in ({"heavy": True}, {"inference": "yes"}, {"iterations": 3.0}, {"leaf": 1}):
        with pytest.raises(OptionError, match=f"the expert bot's {next(iter(bad))} must be"):
            bots.create("expert", **bad)
    with pytest.raises(OptionError, match=r"^iterations must be a positive whole number"):
        PimcOptions(iterations=0)  # made directly, it is still range-checked
    with pytest.raises(TypeError, match="not both"):
        PIMCBot(0, options=PimcOptions(), iterations=3)
    with pytest.raises(TypeError, match="takes PimcOptions, not IsmctsOptions"):
        bots.create("pimc", options=IsmctsOptions())


def test_bots_made_from_a_spec_play_as_from_keywords() -> None:
    from draw_dominoes import Round

    view = Round.new(2, seed=4, leader=0).view(0)
    bot, options = bots.parse_spec("ismcts:iterations=40,opponents=model")
    from_spec = bots.create(bot, 3, options=options)
    from_keywords = bots.create("ismcts", 3, iterations=40, opponents="model")
    assert from_spec.choose(view) == from_keywords.choose(view)
    assert from_spec.last_iterations == from_keywords.last_iterations == 40  # type: ignore[attr-defined]


def test_the_tournament_reads_specs_with_the_shared_parser() -> None:
    """``--bot`` and ``--option`` keep their spellings; values come out typed by the bot."""
    name, base, options = parse_variant('fast = ismcts:iterations=300, opponents="model"')
    assert (name, base, options) == ("fast", "ismcts", {"iterations": 300, "opponents": "model"})
    assert parse_variant("w=strong:weights=123") == ("w", "strong", {"weights": "123"})
    assert parse_variant("x=expert:leaf=true,heavy=1")[2] == {"leaf": True, "heavy": 1.0}
    assert parse_option("ismcts.iterations=400") == ("ismcts", "iterations", "400")
    assert bots.typed_options("ismcts", {"iterations": "400"}) == {"iterations": 400}
    with pytest.raises(ValueError, match="the ismcts bot's epsilon must be a probability"):
        parse_variant("fast=ismcts:epsilon=2")


BOTS = Path(bots.__file__).parent
MODULES = sorted(m.name for m in pkgutil.iter_modules([str(BOTS)]))


def test_the_modules_are_all_listed() -> None:
    assert {"registry", "options", "expert", "ismcts", "pimc", "simple"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_each_bot_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """No import circle: any module of the package imports first, and the registry is whole."""
    code = (
        f"import draw_dominoes.bots.{module}\n"
        "from draw_dominoes import bots\n"
        "print(','.join(bots.NAMES))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ",".join(KINDS)
