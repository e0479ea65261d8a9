"""The command line: the demo match runs, and bad arguments fail cleanly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from draw_dominoes.cli import main


def test_demo_plays_a_seeded_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3", "--players", "3"]) == 0
    first = capsys.readouterr().out
    assert "A match of 3 random players to 61 points, seed 3" in first
    assert "won the match with" in first or "the match is a draw" in first
    assert "Player 1: " in first and "player 0" not in first and "[" in first
    main(["demo", "--seed", "3", "--players", "3"])
    assert capsys.readouterr().out == first  # same seed, same match


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "draw_dominoes", "demo", "--seed", "1", "--lang", "de"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Steine:" in done.stdout
    assert "Runde 1: Spieler" in done.stdout and "Punkte: Spieler 1: " in done.stdout
    for english in ("Round", "Scores", "player", "Winners", "blocked", "went out"):
        assert english not in done.stdout


def test_demo_piped_into_a_reader_that_stops_ends_quietly() -> None:
    """``draw-dominoes demo | head`` must not end in a BrokenPipeError traceback."""
    done = subprocess.run(
        f"{sys.executable} -m draw_dominoes demo --seed 2 --players 4 | head -3",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.count("\n") == 3 and "Traceback" not in done.stderr


def test_bad_arguments_exit_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--players", "5"])
    assert info.value.code == 2 and "invalid choice" in capsys.readouterr().err
