"""The terminal app's parts in-process: reading typed moves, save files, and its catalogue."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

from conftest import deal
from draw_dominoes import Draw, Match, Pass, Place, Round, Tile, record
from draw_dominoes.bots import decision_seed
from draw_dominoes.i18n import LANGUAGES, catalogue
from draw_dominoes.terminal import moves, saves
from draw_dominoes.terminal.moves import ChooseEnd, Command, Refusal, read_end, read_move
from draw_dominoes.terminal.words import Words
from draw_dominoes.view import PlayerView

SOURCE = Path(moves.__file__).parent
WORDS = Words("en")


def test_every_terminal_message_used_in_the_code_exists_in_both_languages() -> None:
    code = "\n".join(p.read_text() for p in SOURCE.glob("*.py"))
    used = set(re.findall(r'(?:words|self|fail)\(\s*"([a-z_]+)"', code))
    used |= set(re.findall(r'"terminal\.([a-z_]+)"', code))
    used |= set(re.findall(r'key = "([a-z_]+)"', code)) | {"did_place_right", "you_place_right"}
    used.discard("key")  # the docstring's example
    assert len(used) > 50
    for lang in LANGUAGES:
        messages = catalogue(lang, "terminal")
        missing = sorted(k for k in used if f"terminal.{k}" not in messages)
        assert not missing, f"{lang}: {missing}"
        assert all(text.strip() for text in messages.values())


def opening_round() -> Round:
    return deal(
        [
            ["[0|1]", "[1|4]", "[4|4]", "[2|6]", "[3|5]", "[0|0]", "[5|5]"],
            ["[1|1]", "[1|2]", "[1|3]", "[1|5]", "[1|6]", "[2|3]", "[3|3]"],
        ]
    )


def number(view: PlayerView, text: str) -> str:
    """The number the screen shows for a tile: its place in the (sorted) hand, from 1."""
    return str(view.hand.index(Tile.parse(text)) + 1)


def test_numbers_tiles_and_words_become_legal_actions() -> None:
    game = opening_round()
    view = game.view(0)
    assert read_move(number(view, "[1|4]"), view, WORDS) == Place(Tile(1, 4), None)  # R7
    assert read_move("[4|1]", view, WORDS) == Place(Tile(1, 4), None)
    assert read_move("1-4", view, WORDS) == Place(Tile(1, 4), None)
    assert read_move(" D ", view, WORDS) == Draw()  # the leader may draw first (R7)
    assert read_move("?", view, WORDS) == Command("describe")
    assert read_move("q", view, WORDS) == Command("quit")
    assert read_move("h", view, WORDS) == Command("help")
    game.apply(Place(Tile(1, 4), None))
    game.apply(Place(Tile(1, 1), 0))
    view = game.view(0)
    assert view.line.end_values == (1, 4)
    assert read_move(number(view, "[0|1]"), view, WORDS) == Place(Tile(0, 1), 0)  # one fit
    assert read_move("4|4", view, WORDS) == Place(Tile(4, 4), 1)


def test_a_tile_fitting_both_ends_asks_which_end() -> None:
    game = deal(
        [
            ["[1|4]", "[1|3]", "[2|4]", "[0|0]", "[5|5]", "[6|6]", "[3|3]"],
            ["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[3|4]"],
        ]
    )
    game.apply(Place(Tile(1, 4), None))
    game.apply(Place(Tile(3, 4), 1))  # ends 1 and 3: [1|3] fits both
    view = game.view(0)
    choice = read_move("[1|3]", view, WORDS)
    assert isinstance(choice, ChooseEnd) and len(choice.options) == 2
    assert read_move(number(view, "[1|3]"), view, WORDS) == choice
    assert read_end("r", choice, view, WORDS) == Place(Tile(1, 3), 1)
    assert read_end("links", choice, view, WORDS) == Place(Tile(1, 3), 0)
    assert isinstance(read_end("x", choice, view, WORDS), Refusal)
    # The question takes the commands too: save and quit, the line, help.
    assert read_end("q", choice, view, WORDS) == Command("quit")
    assert read_end("?", choice, view, WORDS) == Command("describe")
    assert read_end("h", choice, view, WORDS) == Command("help")
    assert read_move(number(view, "[1|3]") + "l", view, WORDS) == Place(Tile(1, 3), 0)
    assert read_move("[1|3]@1", view, WORDS) == Place(Tile(1, 3), 1)
    assert read_move("[3|3]", view, WORDS) == Place(Tile(3, 3), 1)


def test_no_end_is_asked_for_when_both_ends_show_the_same_value() -> None:
    """Either end gives the same game when they show one value: no question."""
    game = deal(
        [
            ["[1|4]", "[1|3]", "[2|4]", "[0|0]", "[5|5]", "[6|6]", "[1|1]"],
            ["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[3|4]"],
        ]
    )
    game.apply(Place(Tile(1, 1), None))
    game.apply(Place(Tile(0, 1), 0))
    game.apply(Place(Tile(1, 4), 1))  # ends 0 and 4: not the same
    game.apply(Place(Tile(0, 4), 0))  # ends 4 and 4
    view = game.view(0)
    assert view.line.end_values == (4, 4)
    assert read_move("[2|4]", view, WORDS) == Place(Tile(2, 4), 0)


def test_a_number_names_the_tile_shown_under_it_after_a_draw() -> None:
    """A drawn tile is shown after the others: the numbers read before stay true."""
    hands = [
        ["[0|1]", "[1|4]", "[4|4]", "[2|6]", "[3|5]", "[0|0]", "[5|5]"],
        ["[1|1]", "[1|2]", "[1|3]", "[1|5]", "[1|6]", "[2|3]", "[3|3]"],
    ]
    game = deal(hands, top=["[2|2]"])
    before = list(game.view(0).hand)
    game.apply(Draw())  # the leader may draw first (R7)
    view = game.view(0)
    drawn = Tile.parse("[2|2]")
    assert view.hand.index(drawn) < view.hand.index(Tile(2, 6))  # sorted, it would move [2|6]
    hand = [*before, drawn]
    assert read_move(str(before.index(Tile(2, 6)) + 1), view, WORDS, hand) == Place(
        Tile(2, 6), None
    )
    assert read_move(str(len(hand)), view, WORDS, hand) == Place(drawn, None)


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "Nothing typed"),
        ("xyz", '"xyz" is not a move'),
        ("7", "There is no tile number 7: your hand has 6 tiles"),
        ("0", "There is no tile number 0"),
        ("[2|2]", "[2|2] is not in your hand"),
        ("[7|7]", "is not a move"),
        ("p", "You cannot pass"),  # R5: no pass while a draw is possible
        ("[2|6]", "[2|6] does not fit: the free ends show 1 and 4"),
        ("[0|1]r", "[0|1] does not fit the right end, which shows 4"),
        ("[0|1]x", '"x" is not an end'),
        ("2x", '"x" is not an end'),
    ],
)
def test_bad_input_is_refused_with_a_reason(typed: str, reason: str) -> None:
    game = opening_round()
    game.apply(Place(Tile(1, 4), None))
    game.apply(Place(Tile(1, 1), 0))
    view = game.view(0)
    assert view.line.end_values == (1, 4) and len(view.hand) == 6
    reading = read_move(typed, view, WORDS)
    assert isinstance(reading, Refusal)
    assert reason in reading.message


def test_draw_is_refused_once_only_two_tiles_are_left_and_pass_is_then_offered() -> None:
    """R2 and R5: the last two boneyard tiles are never drawn; then pass is the only move."""
    game = deal(
        [
            ["[0|0]", "[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]"],
            ["[1|1]", "[1|2]", "[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|2]"],
        ]
    )
    game.apply(Place(Tile(0, 0), None))
    while Draw() in game.legal_actions():  # seat 1 holds no 0 and no tile left can have one
        game.apply(Draw())
    view = game.view(1)
    assert view.drawable == 0 and view.legal_actions == (Pass(),)
    refusal = read_move("d", view, WORDS)
    assert isinstance(refusal, Refusal) and "the boneyard holds 2 tiles" in refusal.message
    assert isinstance(read_move("1", view, WORDS), Refusal)
    assert read_move("p", view, WORDS) == Pass()
    assert read_move("passen", view, WORDS) == Pass()


def test_german_refusals_are_german() -> None:
    view = opening_round().view(0)
    reading = read_move("9", view, Words("de"))
    assert isinstance(reading, Refusal)
    assert reading.message == "Es gibt keinen Stein Nummer 9: deine Hand hat 7 Steine."


def test_the_data_directory_follows_the_environment(tmp_path: Path) -> None:
    assert saves.data_directory({"DRAW_DOMINOES_DATA": str(tmp_path)}) == tmp_path
    assert saves.data_directory({"XDG_DATA_HOME": "/x"}) == Path("/x/draw-dominoes")
    assert saves.data_directory({}) == Path.home() / ".local/share/draw-dominoes"


def test_a_save_round_trips_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    match = Match.new(3, seed=9)
    for _ in range(20):
        match.apply(match.legal_actions()[0])
    seats = (saves.SavedSeat("human", "Ann"), saves.SavedSeat("greedy"), saves.SavedSeat("random"))
    path = saves.new_save_path(tmp_path, now=0)
    saves.write_save(path, seats, "de", match)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    saved = saves.read_save(path)
    assert saved.seats == seats and saved.lang == "de" and not saved.hints
    assert record.dumps(saved.match) == record.dumps(match)
    assert saves.new_save_path(tmp_path, now=0) != path  # never reused
    saves.write_save(path, seats, "de", match, hints=True)
    assert saves.read_save(path).hints


def test_a_save_from_before_hints_reads_as_hints_off(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    saves.write_save(
        path, (saves.SavedSeat("human"), saves.SavedSeat("greedy")), "en", Match.new(2, seed=4)
    )
    document = json.loads(path.read_text())
    del document["hints"]
    path.write_text(json.dumps(document))
    assert saves.read_save(path).hints is False


@pytest.mark.parametrize(
    ("damage", "complaint"),
    [
        (lambda text: text[: len(text) // 2], "not valid JSON"),
        (lambda text: text.replace('"human"', '"wizard"'), "unknown player 'wizard'"),
        (lambda text: text.replace('"draw-dominoes-terminal-save"', '"x"'), "not a draw"),
        (lambda text: text.replace('"lang": "en"', '"lang": "fr"'), "unknown language"),
        (lambda text: text.replace('"hints": false', '"hints": "yes"'), "hints must be true"),
    ],
)
def test_a_damaged_save_is_a_clear_error(tmp_path: Path, damage: object, complaint: str) -> None:
    match = Match.new(2, seed=4)
    path = tmp_path / "a.json"
    saves.write_save(path, (saves.SavedSeat("human"), saves.SavedSeat("greedy")), "en", match)
    path.write_text(damage(path.read_text()))  # type: ignore[operator]
    with pytest.raises(saves.SaveError, match=complaint):
        saves.read_save(path)


def test_a_save_whose_record_does_not_replay_names_the_problem(tmp_path: Path) -> None:
    match = Match.new(2, seed=4)
    match.apply(match.legal_actions()[0])
    path = tmp_path / "a.json"
    saves.write_save(path, (saves.SavedSeat("human"), saves.SavedSeat("greedy")), "en", match)
    document = json.loads(path.read_text())
    document["match"]["rounds"][0]["actions"] = ["pass"]
    path.write_text(json.dumps(document))
    with pytest.raises(saves.SaveError, match=r"a\.json: round 1, action 1 \(pass\) is illegal"):
        saves.read_save(path)


def test_resume_picks_the_newest_unfinished_match(tmp_path: Path) -> None:
    seats = (saves.SavedSeat("human"), saves.SavedSeat("random"))
    finished = Match.new(2, seed=1)
    while not finished.is_over:
        finished.apply(finished.legal_actions()[0])
    older, newer = Match.new(2, seed=2), Match.new(2, seed=3)
    saves.write_save(tmp_path / "1.json", seats, "en", older)
    saves.write_save(tmp_path / "2.json", seats, "en", newer)
    saves.write_save(tmp_path / "3.json", seats, "en", finished)
    import os

    for age, name in enumerate(["3.json", "2.json", "1.json"]):
        os.utime(tmp_path / name, ns=(10**18 - age * 10**9, 10**18 - age * 10**9))
    found = saves.latest_unfinished(tmp_path)
    assert found is not None and found.match.seed == 3
    assert [saved.match.seed for saved in saves.unfinished(tmp_path).saves] == [3, 2]  # newest
    assert saves.latest_unfinished(tmp_path / "nowhere") is None
    bots_alone = Match.new(2, seed=4)  # the newest, but nobody resumes bots alone unasked
    saves.write_save(
        tmp_path / "4.json",
        (saves.SavedSeat("greedy"), saves.SavedSeat("random")),
        "en",
        bots_alone,
    )
    assert [saved.match.seed for saved in saves.unfinished(tmp_path).saves] == [3, 2]
    everyone = saves.unfinished(tmp_path, with_bots_alone=True)
    assert [s.match.seed for s in everyone.saves] == [4, 3, 2] and not everyone.left_out


def test_every_bot_decision_has_its_own_seed() -> None:
    seeds = {decision_seed(7, ply, seat) for ply in range(50) for seat in range(4)}
    assert len(seeds) == 200 and decision_seed(7, 3, 1) == decision_seed(7, 3, 1)


def test_replay_reads_plain_game_records_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from draw_dominoes.cli import main

    game = Round.new(3, seed=5, leader=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    (tmp_path / "round.json").write_text(record.dumps(game))
    assert main(["replay", str(tmp_path / "round.json"), "--all", "--plain", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "A single round, led by Player 2" in out
    assert f"{len(game.actions)}. " in out and "All hands:" in out
    match = Match.new(2, seed=6)
    while not match.is_over:
        match.apply(match.legal_actions()[-1])
    (tmp_path / "match.json").write_text(record.dumps(match))
    assert main(["replay", str(tmp_path / "match.json"), "--all", "--plain", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert f"Runde {len(match.rounds)} ist beendet" in out
    assert "Spieler 1 zieht [" in out  # a finished round names every drawn tile


@pytest.mark.parametrize(
    "typed", ["9" * 5000, "9" * 5000 + "l", "1" + "x" * 5000, "[0|1]" + "y" * 99]
)
def test_huge_input_is_refused_briefly_and_never_raises(typed: str) -> None:
    """Python's int() refuses more than 4300 digits: such input must not reach it."""
    game = opening_round()
    game.apply(Place(Tile(1, 4), None))
    game.apply(Place(Tile(1, 1), 0))
    view = game.view(0)
    reading = read_move(typed, view, WORDS)
    assert isinstance(reading, Refusal)
    assert len(reading.message) < 200
    assert read_move("1234", view, WORDS) == Refusal(WORDS("refuse_unknown", text="1234"))


def unfinished_unseeded_match() -> Match:
    match = Match.new(2)  # a seed from the operating system: known to nobody
    rng = random.Random(0)
    for _ in range(5):
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_an_unseeded_match_keeps_its_seed_off_screen_until_it_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """R21: the seed deals every round, so it is not in the welcome line nor in the save's
    file name; once the match is over it is shown, so that it can be dealt again."""
    from draw_dominoes.cli import main

    monkeypatch.setenv("DRAW_DOMINOES_DATA", str(tmp_path))
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin"]))
    assert main(["play", "--seat", "greedy", "--seat", "greedy", "--plain", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    (path,) = (tmp_path / "saves").iterdir()
    seed = str(saves.read_save(path).match.seed)
    welcome = out.splitlines()[0].replace(str(tmp_path), "DATA")
    assert welcome.startswith("Draw: a match to 100 points. It is saved")
    assert seed not in welcome and "seed" not in welcome
    assert seed not in path.name and re.fullmatch(r"match-\d{8}-\d{6}\.json", path.name)
    ending = out[out.rfind("== The match is over ==") :]
    assert f"The seed of this match was {seed}: draw-dominoes play --seed {seed}" in ending
    assert out.find(seed) > out.rfind("== The match is over ==")  # nowhere before the end
    assert main(["replay", str(path), "--all", "--plain", "--lang", "en"]) == 0
    assert f"seed {seed}, target 100" in capsys.readouterr().out.splitlines()[0]  # over: shown


def test_the_replay_of_an_unfinished_save_names_no_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from draw_dominoes.cli import main

    match = unfinished_unseeded_match()
    path = tmp_path / "unfinished.json"
    saves.write_save(path, (saves.SavedSeat("human"), saves.SavedSeat("human")), "en", match)
    for lang, word in (("en", "seed"), ("de", "Startwert")):
        assert main(["replay", str(path), "--all", "--plain", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert str(match.seed) not in out and word not in out
        assert out.startswith(f"{'Replay of' if lang == 'en' else 'Wiedergabe von'} {path}: 2 ")
    game = Round.new(2, seed=77)  # a plain record of a round still being played
    game.apply(game.legal_actions()[0])
    (tmp_path / "round.json").write_text(record.dumps(game))
    assert main(["replay", str(tmp_path / "round.json"), "--all", "--plain", "--lang", "en"]) == 0
    assert "77" not in capsys.readouterr().out


DEEP = "[" * 100_000


@pytest.mark.parametrize("text", [DEEP, '{"format": "draw-dominoes-terminal-save", "x": ' + DEEP])
def test_deeply_nested_json_is_a_damaged_file_left_untouched(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
) -> None:
    from draw_dominoes.cli import main

    monkeypatch.setenv("DRAW_DOMINOES_DATA", str(tmp_path))
    path = tmp_path / "saves" / "match-deep.json"
    path.parent.mkdir()
    path.write_text(text)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    with pytest.raises(saves.SaveError, match=r"match-deep\.json: not valid JSON: nested too deep"):
        saves.read_save(path)
    assert saves.latest_unfinished(path.parent) is None
    (left_out,) = saves.unfinished(path.parent).left_out
    assert "nested too deeply" in str(left_out)
    assert main(["play", "--resume", "--lang", "en"]) == 2  # named, and nothing to resume
    err = capsys.readouterr().err
    assert "Left out, and left as it is: " in err and "nested too deeply" in err
    assert "No unfinished match is saved" in err
    assert main(["play", "--resume", str(path), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "Cannot resume: " in err and "not valid JSON: nested too deeply" in err
    assert "The file is left as it is" in err
    assert main(["replay", str(path), "--all", "--plain", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "Cannot replay: " in err and "nested too deeply" in err
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_a_refused_pass_names_only_what_the_player_can_do_instead() -> None:
    """R5: passing is allowed only when one can neither place nor draw; the refusal
    must not offer placing when no tile fits, nor drawing when the boneyard is closed."""
    words = Words("en")
    seen: dict[str, str] = {}
    for seed in range(40):
        game = Round.new(2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(seen) < 3:
            view = game.view(game.current_player)
            legal = view.legal_actions
            places = any(isinstance(a, Place) for a in legal)
            kind = "both" if places and Draw() in legal else "place" if places else "draw"
            if Pass() not in legal and kind not in seen:
                reading = read_move("p", view, words)
                assert isinstance(reading, Refusal)
                seen[kind] = reading.message
            game.apply(rng.choice(legal))
    assert seen["both"] == "You cannot pass: you can still place a tile or draw."
    assert seen["draw"] == "You cannot pass: no tile of yours fits, but you can still draw (d)."
    assert seen["place"] == "You cannot pass: a tile of yours fits, so place it."
    assert "place" not in seen["draw"].split(":")[1] and "draw" not in seen["place"]


def test_the_line_is_read_out_by_its_ends_not_in_the_rules_vocabulary() -> None:
    """``?`` tells what each end shows and on which tile (a double crosswise, R10)."""
    from draw_dominoes.line import Line

    words, german = Words("en"), Words("de")
    assert moves.describe_line(Line(), words) == "The line is empty: the first tile may be any."
    opened = Line().place(Tile.parse("[6|6]"), None)
    assert moves.describe_line(opened, words) == (
        "1 tile in the line. The left end shows 6 (on [6|6], a double, crosswise),"
        " the right end 6 (on [6|6], a double, crosswise)."
    )
    line = opened.place(Tile.parse("[6|4]"), 1).place(Tile.parse("[1|4]"), 1)
    text = moves.describe_line(line, words)
    assert text == (
        "3 tiles in the line. The left end shows 6 (on [6|6], a double, crosswise),"
        " the right end 1 (on [1|4])."
    )
    assert "port" not in text and "line A" not in text
    assert moves.describe_line(line, german).startswith("3 Steine in der Linie. Das linke Ende")


def test_a_path_under_home_is_shown_from_the_tilde(tmp_path: Path) -> None:
    home = Path.home()
    assert saves.shown_path(home / "saves" / "match.json") == "~/saves/match.json"
    outside = Path("/nonexistent-root-folder/match.json")
    assert saves.shown_path(outside) == str(outside)


def hand_order_from_the_deal(round_: Round, seat: int) -> list[Tile]:
    """How the terminal numbered a hand before it read the seat's view: from the full deal."""
    boneyard, draws, drawn = round_.deal[1], 0, []
    for who, action in round_.history:
        if isinstance(action, Draw):
            if who == seat:
                drawn.append(boneyard[draws])
            draws += 1
    held = set(round_.hand(seat))
    return [tile for tile in (*round_.deal[0][seat], *drawn) if tile in held]


def test_the_hand_read_from_the_view_is_numbered_as_from_the_deal() -> None:
    """The seat's view alone (R21) numbers the hand as the full deal did, at every step of
    random rounds, for every seat, and names the tile each of its draws drew."""
    from draw_dominoes.terminal.hands import hand_order, last_drawn

    rng = random.Random(5)
    for seed in range(40):
        round_ = Round.new(rng.choice([2, 3, 4]), seed=seed)
        while True:
            for seat in range(round_.players):
                view = round_.view(seat)
                assert hand_order(view) == hand_order_from_the_deal(round_, seat)
                assert sorted(hand_order(view)) == sorted(round_.hand(seat))
            if round_.is_over:
                break
            seat, action = round_.current_player, rng.choice(round_.legal_actions())
            before = set(round_.hand(seat))
            round_.apply(action)
            if isinstance(action, Draw):
                (added,) = set(round_.hand(seat)) - before
                assert last_drawn(round_.view(seat)) == added


def test_the_session_asks_each_bot_with_its_own_decision_seed(tmp_path: Path) -> None:
    """The one turn loop plays the bots of a session as the terminal always has: a bot made
    for every decision from the match seed, the move number and the seat."""
    import io

    from draw_dominoes import bots
    from draw_dominoes.terminal.screen import Screen
    from draw_dominoes.terminal.session import Session

    seats = (saves.SavedSeat("greedy"), saves.SavedSeat("random"), saves.SavedSeat("heuristic"))
    session = Session(
        Match.new(3, seed=12), seats, "en", Screen(True, io.StringIO()), tmp_path / "a.json"
    )
    assert session.play() == 0
    expected, ply = Match.new(3, seed=12), 0
    while not expected.is_over:
        seat = expected.current_player
        bot = bots.create_for_play(seats[seat].player, seed=decision_seed(12, ply, seat))
        expected.apply(bot.choose(expected.view(seat)))
        ply += 1
    assert record.dumps(session.match) == record.dumps(expected)
