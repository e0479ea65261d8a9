"""The terminal app driven for real in a pseudo-terminal: whole seeded matches against bots in
English and German, bad input, a resume after killing the process, hot seat, saves, replay."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pytest

from draw_dominoes import Round, Tile, record
from draw_dominoes.terminal.saves import read_save

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TILE = re.compile(r"\[\d\|\d\]")


@dataclass(frozen=True)
class Language:
    move: str
    numbers: str
    draw: str
    both_ends: str
    next_round: str
    hand_over: str
    round_start: str
    round_over: str
    result: str


LANGUAGES = {
    "en": Language(
        move="Your move:",
        numbers=r"tile number ([\d, ]+)",
        draw="d = draw",
        both_ends="fits both ends",
        next_round="Press Enter for the next round",
        hand_over="Pass the keyboard to",
        round_start="Round {n}: ",
        round_over="Round {n} is over",
        result=r"won the match with \d+ points|the match is a draw",
    ),
    "de": Language(
        move="Dein Zug:",
        numbers=r"Steinnummer ([\d, ]+)",
        draw="d = ziehen",
        both_ends="passt an beide Enden",
        next_round="Enter für die nächste Runde",
        hand_over="Gib die Tastatur an",
        round_start="Runde {n}: ",
        round_over="Runde {n} ist beendet",
        result=r"gewinnt die Partie mit \d+ Punkten|Die Partie endet unentschieden",
    ),
}


@dataclass
class Player:
    """Drives the program like a person: the first playable tile, the left end, else draw or
    pass, Enter between rounds and at hand-overs."""

    child: pexpect.spawn
    words: Language
    transcript: io.StringIO = field(default_factory=io.StringIO)
    prompts: int = 0
    last: str = ""

    def __post_init__(self) -> None:
        self.child.logfile_read = self.transcript

    def next_prompt(self) -> bool:
        """Wait for the next prompt (False at the end of the program); keep its screen text."""
        found = self.child.expect([r"> ", pexpect.EOF])
        self.last = ANSI.sub("", self.child.before or "").replace("\r\n", "\n")
        self.prompts += found == 0
        return found == 0

    def answer(self) -> str:
        text, words = self.last, self.words
        tail = text[text.rfind("\n\n") :] if "\n\n" in text else text
        if words.both_ends in tail:
            return "l"
        if words.hand_over in tail or words.next_round in tail:
            return ""
        prompt = text[text.rfind(words.move) :].replace("\n", " ")
        assert words.move in prompt, text
        numbers = re.search(words.numbers, prompt)
        if numbers:
            return numbers.group(1).split(",")[0].strip()
        return "d" if words.draw in prompt else "p"

    def play(self, limit: int = 2000) -> None:
        """Answer prompts until the program ends."""
        while self.next_prompt():
            self.child.sendline(self.answer())
            assert self.prompts < limit

    def play_turns(self, count: int) -> None:
        """Answer ``count`` prompts and wait at the next one (which is left unanswered)."""
        assert self.next_prompt()
        for _ in range(count):
            self.child.sendline(self.answer())
            assert self.next_prompt()

    def play_to_a_move(self, count: int) -> None:
        """``play_turns(count)``, then on to the next move prompt, where ``q`` quits (a
        tile that fits both ends asks l or r first, which ``q`` does not answer)."""
        self.play_turns(count)
        while self.words.move not in self.last:
            self.child.sendline(self.answer())
            assert self.next_prompt()

    @property
    def text(self) -> str:
        return ANSI.sub("", self.transcript.getvalue()).replace("\r\n", "\n")


def environment(data: Path, lang: str = "en") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(DRAW_DOMINOES_DATA=str(data), LANG="de_DE.UTF-8" if lang == "de" else "C.UTF-8")
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    # as after activating the virtual environment: the hints name the plain ``draw-dominoes``
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def spawn(data: Path, *args: str, lang: str = "en") -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "draw_dominoes", *args],
        env=environment(data, lang),
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=20,
        # as from a shell: Ctrl-C interrupts, whatever an earlier test in this process did
        # to the handling of SIGINT (an ignored signal stays ignored across exec)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.delaybeforesend = None  # type what the prompt asks at once
    return child


def run(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "draw_dominoes", *args],
        env=environment(data),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def only_save(data: Path) -> Path:
    (path,) = (data / "saves").glob("*.json")
    return path


def rounds_of(path: Path) -> list[Round]:
    match = read_save(path).match
    return [*match.rounds, *([] if match.is_over else [match.current_round])]


def assert_no_hidden_tile_on_screen(text: str, path: Path, human: int, words: Language) -> None:
    """R21: until a round's hands are revealed, no tile of an opponent's hand and none of the
    boneyard ever appears; the tiles still hidden at the round's end are the test."""
    checked = 0
    for number, game in enumerate(rounds_of(path), 1):
        start = text.find(words.round_start.format(n=number))
        end = text.find(words.round_over.format(n=number), start)
        if start < 0:
            continue  # played before this program started (a resumed match)
        segment = text[start : end if end >= 0 else len(text)]
        hidden = set(game.boneyard)
        for seat in range(game.players):
            if seat != human:
                hidden |= set(game.hand(seat))
        shown = set(TILE.findall(segment))
        assert shown, "the player's own tiles are on screen"
        assert not shown & {str(t) for t in hidden}, f"round {number} leaks a hidden tile"
        checked += 1
    assert checked


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_whole_seeded_match_against_a_bot(tmp_path: Path, lang: str) -> None:
    words = LANGUAGES[lang]
    child = spawn(
        tmp_path,
        "play",
        "--seat",
        "human",
        "--seat",
        "greedy",
        "--seed",
        "12",
        "--plain",
        lang=lang,
    )  # German comes from LANG alone
    player = Player(child, words)
    assert player.next_prompt()
    assert "\x1b[" not in player.transcript.getvalue()  # --plain: no colour, no cursor codes
    refusals = {
        "en": ["xyz", '"xyz" is not a move', "99", "There is no tile number 99: your hand has 7"],
        "de": ["xyz", "„xyz“ ist kein Zug", "99", "Es gibt keinen Stein Nummer 99"],
    }[lang]
    for typed, reason in zip(refusals[::2], refusals[1::2]):
        child.sendline(typed)
        assert player.next_prompt()
        assert reason in player.last and words.move in player.last  # one line, a new prompt
    child.sendline("?")
    assert player.next_prompt()
    ends = {
        "en": r"(The line is empty|in the line\. The left end shows \d .+, the right end \d)",
        "de": r"(Die Linie ist leer|in der Linie\. Das linke Ende zeigt \d .+, das rechte \d)",
    }
    assert re.search(ends[lang], player.last)  # the line read out by its ends
    child.sendline(player.answer())
    player.play()
    child.close()
    assert child.exitstatus == 0
    assert "\x1b" not in player.transcript.getvalue()  # --plain: no colour, no cursor codes
    text = player.text
    path = only_save(tmp_path)
    match = read_save(path).match
    assert match.is_over and max(match.scores) >= 100  # R20
    assert re.search(words.result, text)
    assert len(match.rounds) >= 2 and words.round_over.format(n=len(match.rounds)) in text
    blocked_or_domino = (
        ("Nobody can play on.", "is out of tiles")
        if lang == "en"
        else ("Niemand kann mehr anlegen.", "hat keine Steine mehr")
    )
    assert any(w in text for w in blocked_or_domino)
    scores = "Scores:" if lang == "en" else "Punkte:"
    assert f"{scores} Player 1: {match.scores[0]}" in text.replace("Spieler", "Player")
    assert_no_hidden_tile_on_screen(text, path, 0, words)
    if lang == "de":
        for english in ("Your", "tiles", "Round", "Line:", "draw"):
            assert english not in text.replace("draw-dominoes", "")


def test_resume_after_the_process_is_killed_loses_nothing(tmp_path: Path) -> None:
    words = LANGUAGES["en"]
    args = ("play", "--seat", "human", "--seat", "random", "--seed", "31", "--plain")
    straight = Player(spawn(tmp_path / "straight", *args), words)
    straight.play()
    expected = record.dumps(read_save(only_save(tmp_path / "straight")).match)

    data = tmp_path / "killed"
    first = Player(spawn(data, *args), words)
    first.play_turns(25)
    while words.move not in first.last:
        first.child.sendline(first.answer())
        assert first.next_prompt()
    hand_before = first.last[first.last.rfind("Your hand:") :].splitlines()[0]
    first.child.kill(signal.SIGKILL)
    first.child.close()
    path = only_save(data)
    killed_at = read_save(path).match
    assert not killed_at.is_over and killed_at.current_round.actions  # killed mid-round

    second = Player(spawn(data, "play", "--resume", "--plain"), words)
    assert second.next_prompt()
    assert f"Continuing the match saved in {path}" in second.last
    assert hand_before in second.last  # the same hand, numbered the same, the same turn
    assert "Player 1 draws a tile." not in second.last  # your own draws, as "You draw [a|b]."
    assert killed_at.current_round.history and (
        "You draw [" in second.last
        or not any(
            who == 0 and str(action) == "draw" for who, action in killed_at.current_round.history
        )
    )
    second.child.sendline(second.answer())
    second.play()
    assert record.dumps(read_save(path).match) == expected  # the same match as if never killed
    assert len(list((data / "saves").iterdir())) == 1
    assert_no_hidden_tile_on_screen(second.text, path, 0, words)


def test_hot_seat_in_plain_mode_names_who_takes_the_keyboard(tmp_path: Path) -> None:
    """--plain at a hot seat: each person is asked for by name and sees only their own hand
    (the full-screen board also hides the last hand: tests/test_terminal_board.py)."""
    child = spawn(
        tmp_path,
        "play",
        "--seat",
        "human",
        "--seat",
        "human",
        "--seat",
        "greedy",
        "--name",
        "Anna",
        "--name",
        "Ben",
        "--seed",
        "2",
        "--plain",
    )
    player = Player(child, LANGUAGES["en"])
    hand_overs = 0
    shown_hand: dict[str, list[str]] = {}
    while hand_overs < 6:
        assert player.next_prompt()
        display = ANSI.sub("", (child.before or "") + child.after)
        if "Pass the keyboard to" in player.last:
            hand_overs += 1
            if hand_overs == 1:  # nothing secret yet: the welcome and the heading stay
                text = player.transcript.getvalue()
                assert "It is saved after every move" in text and "Round 1:" in text
        elif "to play" in display:
            name = "Anna" if "Anna to play" in display else "Ben"
            hand = display[display.find("Your hand:") :].split("\n")[0]
            shown_hand[name] = TILE.findall(hand)
            game = read_save(only_save(tmp_path)).match.current_round
            other = 1 if name == "Anna" else 0
            assert not set(shown_hand[name]) & {str(t) for t in game.hand(other)}
            assert not set(shown_hand[name]) & {str(t) for t in game.hand(2)}
        child.sendline(player.answer())
    assert set(shown_hand) == {"Anna", "Ben"}
    assert "\x1b[" not in player.transcript.getvalue()  # plain: no colour, no wipe
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "The match is saved" in ANSI.sub("", child.before)


def test_a_seat_takes_a_level_and_plays_its_bot(tmp_path: Path) -> None:
    """``--seat easy``: bots.LEVELS says greedy plays it, and the save names the bot."""
    args = ("play", "--seat", "easy", "--seat", "beginner", "--seed", "8", "--plain")
    done = run(tmp_path / "levels", *args)
    assert done.returncode == 0, done.stderr
    assert "Bot 1 (easy)" in done.stdout and "Bot 2 (beginner)" in done.stdout
    seats = read_save(only_save(tmp_path / "levels")).seats
    assert [seat.player for seat in seats] == ["greedy", "random"]
    same = run(tmp_path / "bots", "play", "--seat", "greedy", "--seat", "random", "--seed", "8")
    assert same.returncode == 0
    assert only_save(tmp_path / "levels").read_text() == only_save(tmp_path / "bots").read_text()
    listed = run(tmp_path, "play", "--help").stdout
    assert "strong = learned" in " ".join(listed.split()) and "expert" in listed
    assert "keys at your turn, on the board:" in listed and "save and quit" in listed
    assert "with --plain, type:" in listed
    served = run(tmp_path, "serve", "--help").stdout
    assert "(default: 127.0.0.1)" in served and "(default: 8000)" in served
    ranked = run(tmp_path, "tournament", "--help").stdout
    assert "seats at every table" in ranked and "(default: processes)" in ranked


def test_bots_alone_play_a_reproducible_match_without_a_terminal(tmp_path: Path) -> None:
    args = ("play", "--seat", "greedy", "--seat", "random", "--seat", "random", "--seed", "8")
    done = run(tmp_path / "a", *args, "--plain")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "a match to 61 points (seed 8)" in out  # three players: 61 (R20)
    assert "Round 1 is over" in out and "All hands:" in out
    assert "Bot 1 (easy) won the match" in out or "Bot 2 (beginner) won" in out or "Bot 3" in out
    again = run(tmp_path / "b", *args)
    path_a, path_b = only_save(tmp_path / "a"), only_save(tmp_path / "b")
    assert path_a.read_text() == path_b.read_text()  # the same seed, the same match
    match = read_save(path_a).match
    assert match.is_over and max(match.scores) >= 61
    first_round = match.rounds[0]
    round_text = out[: out.find("Round 1 is over")]
    assert not TILE.findall(round_text.split("leads ==", 1)[1]) or all(
        Tile.parse(t) in first_round.line for t in TILE.findall(round_text.split("leads ==")[1])
    )  # before the reveal only tiles in the line are named: draws are never shown
    assert again.stdout.count("Round") == out.count("Round")


def test_human_play_without_a_terminal_says_what_to_do(tmp_path: Path) -> None:
    done = run(tmp_path, "play")
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr and "--seat greedy --seat random" in done.stderr
    assert not (tmp_path / "saves").exists()


def test_bad_seat_setups_are_refused(tmp_path: Path) -> None:
    one = run(tmp_path, "play", "--seat", "human")
    assert one.returncode == 2 and "Draw is for 2 to 4 players, not 1" in one.stderr
    alone = run(tmp_path, "play", "--seat", "ismcts")  # one bot alone: you against it
    assert alone.returncode == 2 and "needs a terminal" in alone.stderr
    unknown = run(tmp_path, "play", "--seat", "wizard", "--seat", "greedy")
    assert unknown.returncode == 2 and "invalid choice: 'wizard'" in unknown.stderr
    mixed = run(tmp_path, "play", "--resume", "--seed", "3")
    assert mixed.returncode == 2 and "leave out --seat" in mixed.stderr
    nothing = run(tmp_path, "play", "--resume")
    assert nothing.returncode == 2 and "No unfinished match is saved" in nothing.stderr


def test_a_corrupt_save_is_reported_and_never_touched(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    damaged = saves / "match-damaged.json"
    damaged.write_text('{"format": "draw-dominoes-terminal-save", "version": 1, "lang"')
    before = (damaged.read_bytes(), damaged.stat().st_mtime_ns)
    done = run(tmp_path, "play", "--resume")  # named and left out, never in the way
    assert done.returncode == 2 and "No unfinished match is saved" in done.stderr
    assert "Left out, and left as it is" in done.stderr
    assert "match-damaged.json: not valid JSON" in done.stderr
    assert (
        run(tmp_path, "play", "--seat", "greedy", "--seat", "greedy", "--seed", "1").returncode == 0
    )
    named = run(tmp_path, "play", "--resume", str(damaged))
    assert named.returncode == 1 and "not valid JSON" in named.stderr
    assert "Cannot resume" in named.stderr and "The file is left as it is" in named.stderr
    assert (damaged.read_bytes(), damaged.stat().st_mtime_ns) == before
    assert len(list(saves.iterdir())) == 2  # the new match went to a file of its own


def test_replay_steps_through_a_finished_match(tmp_path: Path) -> None:
    assert (
        run(tmp_path, "play", "--seat", "greedy", "--seat", "random", "--seed", "5").returncode == 0
    )
    path = only_save(tmp_path)
    match = read_save(path).match
    child = spawn(tmp_path, "replay", str(path), "--plain")
    child.expect("> ")
    shown = child.before.replace("\r\n", "\n")
    dealt = match.rounds[0].deal[0][0]
    assert f"Bot 1 (easy): {' '.join(str(t) for t in dealt)}" in shown  # the deal, in full
    assert "1. " in shown and "Line: " in shown
    assert re.search(r"Line: \[\d\|\d\]", shown) and not re.search(r"Line: .*\d-\d", shown)
    child.sendline("b")  # nothing before the first move
    child.expect("> ")
    assert "there is none before it" in child.before
    child.sendline("x")  # not a key: said so, and nothing moves on
    child.expect("> ")
    assert '"x" is not a key here' in child.before and "2. " not in child.before
    child.sendline("")
    child.expect("> ")
    assert "2. " in child.before
    child.sendline("b")  # back one
    child.expect("> ")
    assert "1. " in child.before and "2. " not in child.before
    child.sendline("")
    child.expect("> ")
    child.sendline("?")
    child.expect("> ")
    assert "The left end shows" in child.before and "port" not in child.before
    child.sendline("a")
    child.expect(pexpect.EOF)
    rest = child.before
    assert f"Round {len(match.rounds)} is over" in rest and "won the match" in rest
    child.close()
    assert child.exitstatus == 0
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    done = run(tmp_path, "replay", str(bad))
    assert done.returncode == 1 and "Cannot replay" in done.stderr


def test_replay_of_an_unfinished_match_keeps_the_current_hands_hidden(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "--seat", "human", "--seat", "greedy", "--seed", "4", "--plain")
    player = Player(child, LANGUAGES["en"])
    player.play_turns(3)
    child.sendintr()  # Ctrl-C: the match is already saved, and the program says how to go on
    child.expect(pexpect.EOF)
    assert "The match is saved. Continue it with: draw-dominoes play --resume" in child.before
    path = only_save(tmp_path)
    game = read_save(path).match.current_round
    done = run(tmp_path, "replay", str(path), "--plain", "--lang", "de", "--plain")
    assert done.returncode == 0
    current = done.stdout[done.stdout.rfind("== Runde ") :]
    assert "Diese Runde läuft noch" in current
    hidden = {str(t) for seat in (0, 1) for t in game.hand(seat)} | {str(t) for t in game.boneyard}
    assert not set(TILE.findall(current)) & hidden
    assert "draw-dominoes play --resume" in done.stdout


def test_an_unseeded_match_shows_no_seed_while_it_is_played(tmp_path: Path) -> None:
    """R21: the seed deals every round; a person who saw it could rebuild every hand."""
    player = Player(spawn(tmp_path, "play", "--plain"), LANGUAGES["en"])
    player.play_to_a_move(2)  # unseeded: any deal, so perhaps a tile that fits both ends
    player.child.sendline("q")
    player.child.expect(pexpect.EOF, timeout=60)  # saving and quitting on a busy machine
    path = only_save(tmp_path)
    seed = str(read_save(path).match.seed)
    assert "Draw: a match to 100 points. It is saved after every move in" in player.text
    assert seed not in player.text and seed not in path.name
    assert "seed" not in player.text.replace(str(tmp_path), "")


def test_a_save_that_cannot_be_written_is_told_and_the_match_goes_on(tmp_path: Path) -> None:
    """A data directory below a regular file cannot be created, not even by root: the player
    is told, the match goes on in memory, and every action tries the save again."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a directory")
    data = blocker / "data"
    words = LANGUAGES["en"]
    player = Player(
        spawn(data, "play", "--seat", "human", "--seat", "greedy", "--seed", "6", "--plain"), words
    )
    assert player.next_prompt()
    assert re.search(
        rf"could not be saved in {data}/saves/match-\S+\.json: .*Not a directory", player.last
    )
    assert "The game goes on; the save is tried again after every move." in player.last
    for _ in range(3):  # the game goes on, and every turn says that it is not saved
        assert words.move in player.last or words.both_ends in player.last
        if words.move in player.last:
            assert "This match is not saved at the moment" in player.last
        player.child.sendline(player.answer())
        assert player.next_prompt()
    assert player.text.count("could not be saved in") == 1  # told once, reminded each turn
    blocker.unlink()  # the disk is fine again: the next action saves everything played so far
    while words.move not in player.last:
        player.child.sendline(player.answer())
        assert player.next_prompt()
    player.child.sendline(player.answer())
    assert player.next_prompt()
    assert "The match is saved again in" in player.text
    saved = read_save(only_save(data)).match
    played = sum(len(game.actions) for game in (*saved.rounds, saved.current_round))
    assert played >= 4  # the moves made while nothing could be saved are in it
    blocker.rename(tmp_path / "moved")  # and broken again before the player quits
    blocker.write_text("a file again")
    player.child.sendline("q")
    player.child.expect(pexpect.EOF, timeout=60)  # saving and quitting on a busy machine
    rest = ANSI.sub("", player.child.before)
    assert "The match could not be saved" in rest and "cannot be continued later" in rest
    assert "The match is saved. Continue it" not in rest
    player.child.close()
    assert player.child.exitstatus == 0
    assert "Traceback" not in player.text


def test_bots_play_on_when_nothing_can_be_saved_and_say_so_in_german(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("")
    done = run(
        tmp_path / "blocker",
        "play",
        "--seat",
        "greedy",
        "--seat",
        "random",
        "--lang",
        "de",
        "--plain",
    )
    assert done.returncode == 0 and not done.stderr
    out = done.stdout
    assert out.count("Die Partie konnte nicht in ") == 1 and "Das Spiel geht weiter" in out
    assert "Die Partie ist beendet" in out
    assert "Das Partieprotokoll konnte nicht gespeichert werden" in out
    assert re.search(r"Der Startwert dieser Partie war \d+: draw-dominoes play --seed \d+", out)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_hint_names_the_best_move_only_when_the_match_allows_hints(
    tmp_path: Path, lang: str
) -> None:
    """``!`` asks for a hint: with ``--hints`` it names an action and its worth in words; the
    save keeps the setting, so a resumed match allows them too. Without, a second ``!``
    switches them on."""
    words = LANGUAGES[lang]
    hint = "Hint:" if lang == "en" else "Tipp:"
    child = spawn(tmp_path, "play", "--seed", "5", "--hints", "--plain", lang=lang)
    player = Player(child, words)
    player.play_to_a_move(0)
    assert "! = " in player.last
    child.sendline("!")
    assert player.next_prompt()
    said = player.last[player.last.find(hint) :].split("\n", 1)[0]
    assert said.startswith(hint) and said.endswith("."), player.last
    assert re.search(r"\[\d\|\d\]|draw|Ziehen|pass|Passen", said), said
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert read_save(only_save(tmp_path)).hints
    again = Player(spawn(tmp_path, "play", "--resume", "--plain", lang=lang), words)
    again.play_to_a_move(0)
    again.child.sendline("!")
    assert again.next_prompt() and hint in again.last
    again.child.sendline("q")
    again.child.expect(pexpect.EOF)

    off = Player(spawn(tmp_path / "off", "play", "--seed", "5", "--plain", lang=lang), words)
    off.play_to_a_move(0)
    assert "! = " not in off.last
    off.child.sendline("!")
    assert off.next_prompt()
    again_words = {"en": "press ! again", "de": "noch einmal !"}[lang]
    assert hint not in off.last and again_words in off.last
    off.child.sendline("!")  # again: on for the rest of the match, and saved
    assert off.next_prompt() and hint in off.last
    off.child.sendline("q")
    off.child.expect(pexpect.EOF)


def test_review_prints_accuracy_and_the_costliest_choices(tmp_path: Path) -> None:
    """``review FILE``: a table, ``--plain`` text, ``--json`` for scripts; the analysis is kept
    beside the file, so a second look is instant and gives the same review."""
    source = Path(__file__).parent / "data" / "golden_match_greedy_random_seed2026.json"
    path = tmp_path / "match.json"
    path.write_text(source.read_text())
    table = run(tmp_path, "review", str(path), "--seat", "1", "--iterations", "200")
    assert table.returncode == 0, table.stderr
    assert "Accuracy" in table.stdout and "Player 1" in table.stdout
    assert "The costliest choices of Player 1:" in table.stdout and "better:" in table.stdout
    said = " ".join(table.stdout.split())
    assert re.search(r"The deal was worth [+−]?\d+ points to Player 1 \(give or take \d+\)", said)
    assert "Player 1 scored +110 against the others" in said  # 110 to 0
    assert "A deal's worth: " in said and "(24 games a round)" in said
    cache = tmp_path / "match.json.review.json"
    assert cache.exists()
    stored = cache.read_text()
    plain = run(tmp_path, "review", str(path), "--seat", "1", "--iterations", "200", "--plain")
    assert plain.returncode == 0 and "┃" not in plain.stdout
    assert "Player 1: accuracy " in plain.stdout
    assert cache.read_text() == stored  # nothing analysed twice
    data = run(tmp_path, "review", str(path), "--seat", "1", "--iterations", "200", "--json")
    review = json.loads(data.stdout)
    assert review["seats"] == [0] and review["names"][0] == "Player 1"
    accuracy = review["summary"]["0"]["accuracy"]
    assert f"Player 1: accuracy {accuracy:.0f}%" in plain.stdout
    luck = review["luck"]
    assert len(luck["rounds"]) == 4 and luck["playouts"] == 24
    assert [sum(r["scored"]) for r in luck["rounds"]] == [0, 0, 0, 0]
    assert review["given_away"]["0"] >= 0
    worth = round(sum(r["worth"][0] for r in luck["rounds"]))
    shown = "0" if worth == 0 else f"{worth:+d}".replace("-", "−")
    assert f"The deal was worth {shown} points" in plain.stdout
    german = run(
        tmp_path, "review", str(path), "--seat", "1", "--iterations", "200", "--lang", "de"
    )
    assert "Genauigkeit" in german.stdout and "Die teuersten Entscheidungen" in german.stdout
    assert "Die Verteilung der Steine war" in " ".join(german.stdout.split())
    fewer = run(tmp_path, "review", str(path), "--iterations", "200", "--playouts", "1")
    assert fewer.returncode == 2 and "--playouts must be at least 2" in fewer.stderr


def test_review_refuses_a_missing_seat_and_a_broken_file(tmp_path: Path) -> None:
    source = Path(__file__).parent / "data" / "golden_match_greedy_random_seed2026.json"
    path = tmp_path / "match.json"
    path.write_text(source.read_text())
    seat = run(tmp_path, "review", str(path), "--seat", "3")
    assert seat.returncode == 2 and "no player 3" in seat.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "draw-dominoes", "kind": "match"')
    bad = run(tmp_path, "review", str(broken))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert broken.read_text() == '{"format": "draw-dominoes", "kind": "match"'
    assert not (tmp_path / "broken.json.review.json").exists()


HAND_LINE = re.compile(r"Your hand:((?:\s+\d+ \[\d\|\d\]\*?)+)")


def numbered_hand(screen: str) -> dict[str, int]:
    """The last hand shown: each tile and its number."""
    found = HAND_LINE.findall(screen.replace("\n", " "))
    assert found, screen
    return {tile: int(number) for number, tile in re.findall(r"(\d+) (\[\d\|\d\])", found[-1])}


def test_a_draw_never_moves_the_number_of_a_tile_already_shown(tmp_path: Path) -> None:
    """The drawn tile is numbered after the others, so a number read before the draw still
    names the same tile (typing it can never play a tile the player did not mean)."""
    words = LANGUAGES["en"]
    player = Player(spawn(tmp_path, "play", "--seed", "11", "--plain"), words)
    checked = 0
    assert player.next_prompt()
    for _ in range(200):
        if words.move in player.last and words.draw in player.last:
            before = numbered_hand(player.last)
            player.child.sendline("d")
            assert player.next_prompt()
            if words.move not in player.last:
                break
            after = numbered_hand(player.last)
            assert all(after[tile] == number for tile, number in before.items()), (before, after)
            assert len(after) == len(before) + 1
            checked += 1
            if checked >= 3:
                break
        else:
            player.child.sendline(player.answer())
            if not player.next_prompt():
                break
    assert checked >= 1
    player.child.sendline("q")
    player.child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_turn_screen_reads_well(tmp_path: Path, lang: str) -> None:
    """The first turn after the bot led says "So far this round", scores read "Name: 0",
    one opponent has one hand, and an empty line is not a double colon."""
    words = LANGUAGES[lang]
    so_far, one, empty = {
        "en": ("So far this round:", "Opponent's hand:", "Line: empty, open"),
        "de": ("Bisher in dieser Runde:", "Hand des Gegners:", "Linie: leer, eröffne"),
    }[lang]
    bot_leads = Player(spawn(tmp_path / "a", "play", "--seed", "0", "--plain", lang=lang), words)
    bot_leads.play_to_a_move(0)
    screen = bot_leads.last
    assert so_far in screen and one in screen and ": 0," in screen
    assert "Since your last turn" not in screen and "Seit deinem letzten Zug" not in screen
    bot_leads.child.sendline("q")
    bot_leads.child.expect(pexpect.EOF)
    you_lead = Player(spawn(tmp_path / "b", "play", "--seed", "1", "--plain", lang=lang), words)
    you_lead.play_to_a_move(0)
    assert empty in you_lead.last
    you_lead.child.sendline("q")
    you_lead.child.expect(pexpect.EOF)


def test_one_bot_named_alone_means_you_against_it(tmp_path: Path) -> None:
    player = Player(
        spawn(tmp_path, "play", "--seat", "strong", "--seed", "1", "--plain"), LANGUAGES["en"]
    )
    player.play_to_a_move(0)
    assert "Bot 2 (" in player.last and LANGUAGES["en"].move in player.last
    player.child.sendline("q")
    player.child.expect(pexpect.EOF)
    assert [seat.player for seat in read_save(only_save(tmp_path)).seats] == ["human", "learned"]


def feed_until(child: pexpect.spawn, screen, stream, *wanted: str, limit: float = 30) -> str:
    """Read the full-screen app's output into a pyte screen until all of ``wanted`` show
    at once (the app paints in parts)."""
    import time

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with contextlib.suppress(pexpect.TIMEOUT):
            stream.feed(child.read_nonblocking(65536, timeout=0.2))
        display = "\n".join(line.rstrip() for line in screen.display)
        if all(part in display for part in wanted):
            return display
    raise AssertionError(f"{wanted!r} never showed:\n{display}")


def test_play_in_a_terminal_opens_the_full_screen_board_and_q_saves(tmp_path: Path) -> None:
    """A real pseudo-terminal: the board (not the transcript), and after q the shell's screen
    says how to go on."""
    import pyte

    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child = spawn(tmp_path, "play", "--seat", "greedy", "--seed", "1")
    wanted = ("Your hand", "Line", "Moves", "Bot 2 (easy)", "q: save and quit")
    display = feed_until(child, screen, stream, *wanted)
    assert "Your move:" not in display  # not the line-based prompt
    child.send("q")
    child.expect(pexpect.EOF)
    assert "The match is saved. Continue it with: draw-dominoes play --resume" in ANSI.sub(
        "", child.before
    )
    assert read_save(only_save(tmp_path)).seats[1].player == "greedy"


def test_play_without_seats_in_a_terminal_offers_the_levels(tmp_path: Path) -> None:
    import pyte

    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child = spawn(tmp_path, "play", "--seed", "1", lang="de")
    display = feed_until(child, screen, stream, "Experte")
    assert "Wähle die Stärke deiner Gegner" in display and "Anfänger" in display
    child.send("\x1b[B")  # down: medium
    feed_until(child, screen, stream, "Gegner: 1")
    child.send("\r")
    feed_until(child, screen, stream, "Deine Hand")
    child.send("q")
    child.expect(pexpect.EOF)
    assert read_save(only_save(tmp_path)).seats[1].player == "heuristic"


def test_resume_in_plain_mode_lists_unfinished_matches_newest_first(tmp_path: Path) -> None:
    from draw_dominoes.match import Match
    from draw_dominoes.terminal import saves

    directory = tmp_path / "saves"
    seats = (saves.SavedSeat("human"), saves.SavedSeat("greedy"))
    for age, seed in enumerate([1, 2]):
        path = directory / f"match-{seed}.json"
        saves.write_save(path, seats, "en", Match.new(2, seed=seed))
        os.utime(path, ns=(10**18 - age * 10**9, 10**18 - age * 10**9))
    saves.write_save(
        directory / "match-bots.json", (saves.SavedSeat("greedy"),) * 2, "en", Match.new(2)
    )
    child = spawn(tmp_path, "play", "--resume", "--plain")
    child.expect("choose one to continue")
    child.expect(r"Which match\?")
    listing = ANSI.sub("", child.before)
    assert listing.index("  1. ") < listing.index("  2. ")
    assert "  3. " not in listing  # bots alone are never offered unasked
    child.sendline("7")
    child.expect("is not one of the numbers 1 to 2")
    child.sendline("2")
    child.expect("Continuing the match saved in .*match-2.json")
    child.expect("Your move:")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_one_bad_file_among_the_saves_never_locks_the_resume_out(tmp_path: Path) -> None:
    """A review, a truncated copy and another program's file beside a good unfinished
    save: the good one is resumed, the bad ones named in one line each and left as they
    are, and reviews are kept apart from the saves."""
    from draw_dominoes.match import Match
    from draw_dominoes.terminal import saves

    directory = tmp_path / "saves"
    good = directory / "match-good.json"
    match = Match.new(2, seed=3)
    for _ in range(8):
        match.apply(match.legal_actions()[-1])
    saves.write_save(good, (saves.SavedSeat("human"), saves.SavedSeat("greedy")), "en", match)
    done = run(tmp_path, "review", str(good), "--json", "--iterations", "20")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in directory.iterdir()) == ["match-good.json"]
    assert (tmp_path / "reviews" / "match-good.json.review.json").is_file()
    text = good.read_text(encoding="utf-8")
    (directory / "match-good.json.review.json").write_text("{}", encoding="utf-8")  # older
    (directory / "match-copy.json").write_text(text[: len(text) // 2], encoding="utf-8")
    (directory / "package.json").write_text('{"name": "left-pad"}', encoding="utf-8")
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    child = spawn(tmp_path, "play", "--resume", "--plain")
    child.expect("Continuing the match saved in .*match-good.json")
    shown = ANSI.sub("", child.before)
    assert "Left out, and left as it is: " in shown
    assert "match-copy.json: not valid JSON" in shown
    assert "package.json: not a draw-dominoes save" in shown
    assert "review.json" not in shown  # not a save, so not left out either
    child.expect("Your move:")
    child.sendline("q")
    child.expect(pexpect.EOF)
    after = {p.name: p.read_bytes() for p in directory.iterdir() if p.name != "match-good.json"}
    assert after == {name: data for name, data in before.items() if name != "match-good.json"}
    stats = run(tmp_path, "stats")
    assert "review.json" not in stats.stderr and stats.stderr.count("Left out") == 2


def test_stats_counts_wins_and_losses_by_level_and_players(tmp_path: Path) -> None:
    from draw_dominoes.match import Match
    from draw_dominoes.terminal import saves

    directory = tmp_path / "saves"

    def finished(seed: int, players: int) -> Match:
        match = Match.new(players, seed=seed)
        while not match.is_over:
            match.apply(match.legal_actions()[0])
        return match

    for seed in range(6):
        match = finished(seed, 2)
        seats = (saves.SavedSeat("human"), saves.SavedSeat("greedy" if seed < 4 else "expert"))
        saves.write_save(directory / f"m{seed}.json", seats, "en", match)
    three = finished(9, 3)
    saves.write_save(
        directory / "three.json",
        (saves.SavedSeat("human"), saves.SavedSeat("greedy"), saves.SavedSeat("random")),
        "en",
        three,
    )
    saves.write_save(
        directory / "open.json",
        (saves.SavedSeat("human"), saves.SavedSeat("greedy")),
        "en",
        Match.new(2),
    )
    damaged = directory / "broken.json"
    damaged.write_text("{", encoding="utf-8")
    before = damaged.read_bytes()
    done = run(tmp_path, "stats", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rows = {(row["players"], row["level"]): row for row in report["rows"]}
    assert set(rows) == {(2, "easy"), (2, "expert"), (3, "mixed")}
    assert rows[2, "easy"]["played"] == 4 and rows[2, "expert"]["played"] == 2
    for row in rows.values():
        assert row["won"] + row["lost"] + row["drawn"] == row["played"]
    wins = sum(1 for seed in range(4) if 0 in finished(seed, 2).winners)
    assert rows[2, "easy"]["won"] + rows[2, "easy"]["drawn"] == wins
    assert report["unfinished"] == 1 and len(report["unreadable"]) == 1
    plain = run(tmp_path, "stats", "--plain", "--lang", "de")
    assert "2 Spieler gegen leicht: 4 gespielt" in plain.stdout
    assert "Nicht gezählt: 1 nicht beendet" in plain.stdout
    assert "broken.json" in plain.stderr
    assert damaged.read_bytes() == before
