"""The command line: the demo match runs, and bad arguments fail cleanly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from draw_dominoes.cli import main


def test_demo_plays_a_seeded_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3", "--players", "3"]) == 0
    first = capsys.readouterr().out
    assert "Match of 3 players to 61, seed 3" in first and "Winners: [" in first
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


def test_bad_arguments_exit_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--players", "5"])
    assert info.value.code == 2 and "invalid choice" in capsys.readouterr().err
