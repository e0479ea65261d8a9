"""A plain install: each command whose extra is missing says in one line what to install, and
the commands the terminal prints can be run as printed, on PATH or not."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from draw_dominoes import cli
from draw_dominoes.terminal import shell

# Runs the command line with the named top-level modules made unimportable, as if their
# distributions were not installed: a finder first on sys.meta_path refuses them.
HIDE = """
import sys

hidden = set(sys.argv[1].split(","))


class Refuse:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if any(name == h or name.startswith(h + ".") for h in hidden):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse)
from draw_dominoes.cli import main

sys.exit(main(sys.argv[2:]))
"""


def hidden_run(
    modules: tuple[str, ...], *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HIDE, ",".join(modules), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=env,
    )


@pytest.mark.parametrize(
    ("command", "extra", "args"),
    [
        ("play", "terminal", ["--seat", "greedy", "--seat", "random"]),
        ("replay", "terminal", ["no-such-save.json"]),
        ("serve", "web", ["--port", "0"]),
        ("tournament", "tournament", ["--matches", "2", "--backend", "serial"]),
    ],
)
def test_a_command_without_its_extra_names_the_extra_in_one_line(
    command: str, extra: str, args: list[str], tmp_path: Path
) -> None:
    for module in cli.EXTRA_MODULES[extra]:
        done = hidden_run((module,), command, *args, "--help")
        assert done.returncode == 2, (module, done.stderr)
        assert done.stdout == ""
        assert done.stderr == (
            f"draw-dominoes {command} needs the {extra} extra: "
            f"pip install 'draw-dominoes[{extra}]'\n"
        ), module
    everything = tuple(m for modules in cli.EXTRA_MODULES.values() for m in modules)
    done = hidden_run(everything, command, *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"[{extra}]" in done.stderr
    assert "Traceback" not in done.stderr


def test_commands_without_extras_run_with_every_extra_hidden(tmp_path: Path) -> None:
    everything = tuple(m for modules in cli.EXTRA_MODULES.values() for m in modules)
    env = {**os.environ, "DRAW_DOMINOES_DATA": str(tmp_path)}
    demo = hidden_run(everything, "demo", env=env)
    assert demo.returncode == 0, demo.stderr
    svg = hidden_run(everything, "diagram", env=env)
    assert svg.returncode == 0 and "<svg" in svg.stdout, svg.stderr
    backup = hidden_run(everything, "backup", "--help", env=env)
    assert backup.returncode == 0, backup.stderr


def test_what_make_play_installs_plays_and_reviews_a_match(tmp_path: Path) -> None:
    """``make play`` installs the terminal extra only: a match against bots, its review
    and the stats run with every other extra's modules hidden."""
    others = tuple(
        m for extra, modules in cli.EXTRA_MODULES.items() if extra != "terminal" for m in modules
    ) + ("psycopg", "redis", "numpy", "gymnasium", "pettingzoo", "pyspiel", "torch", "jax")
    assert others and "textual" not in others
    env = {**os.environ, "DRAW_DOMINOES_DATA": str(tmp_path)}
    played = hidden_run(others, "play", "--seat", "greedy", "--seat", "random", "--plain", env=env)
    assert played.returncode == 0, played.stderr
    (save,) = (tmp_path / "saves").glob("*.json")
    reviewed = hidden_run(others, "review", str(save), "--plain", "--iterations", "5", env=env)
    assert reviewed.returncode == 0 and "Traceback" not in reviewed.stderr, reviewed.stderr
    assert hidden_run(others, "stats", env=env).returncode == 0
    make = (Path(__file__).parent.parent / "Makefile").read_text(encoding="utf-8")
    assert "play: $(VENV)/.installed-only-terminal" in make


def test_a_missing_module_of_no_extra_is_not_blamed_on_one() -> None:
    done = hidden_run(("draw_dominoes.terminal",), "play", "--help")
    assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr


def test_invocation_is_the_plain_name_when_path_finds_this_installation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here = Path(sys.executable).parent
    if not (here / "draw-dominoes").is_file():
        pytest.skip("the draw-dominoes script is not installed next to this Python")
    monkeypatch.setenv("PATH", os.pathsep.join([str(here), "/usr/bin", "/bin"]))
    assert shell.invocation() == "draw-dominoes"


def test_invocation_is_an_absolute_command_when_path_does_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    other = tmp_path / "draw-dominoes"  # another installation's script, first on PATH
    other.write_text("#!/bin/sh\nexit 3\n")
    other.chmod(0o755)
    for path in ("/usr/bin:/bin", f"{tmp_path}:/usr/bin:/bin"):
        monkeypatch.setenv("PATH", path)
        command = shlex.split(shell.invocation())
        assert command[0] != "draw-dominoes" and Path(command[0]).is_absolute()
        done = subprocess.run([*command, "demo", "--help"], capture_output=True, text=True)
        assert done.returncode == 0 and "usage:" in done.stdout


def test_invocation_falls_back_to_the_module(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert shell.invocation() == f"{tmp_path / 'python'} -m draw_dominoes"


def test_the_printed_replay_and_seed_commands_work_off_path(tmp_path: Path) -> None:
    """After ``make play`` the virtual environment is not active: what the game prints to
    run next must still run as printed."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(DRAW_DOMINOES_DATA=str(tmp_path), LANG="C.UTF-8", PATH="/usr/bin:/bin")
    play = [sys.executable, "-m", "draw_dominoes", "play", "--plain", "--lang", "en"]
    done = subprocess.run(
        [*play, "--seat", "greedy", "--seat", "greedy"],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (save,) = (tmp_path / "saves").glob("*.json")
    hint = done.stdout[done.stdout.rfind("step through it with: ") :]
    command = hint.removeprefix("step through it with: ").partition(")")[0]
    assert command.endswith(f" replay {save}") and not command.startswith("draw-dominoes ")
    again = subprocess.run(
        [*shlex.split(command), "--all", "--plain", "--lang", "en"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert "seed" in again.stdout


def test_the_environments_without_their_extra_name_it() -> None:
    script = HIDE.split("from draw_dominoes.cli")[0] + "import draw_dominoes.envs\n"
    done = subprocess.run(
        [sys.executable, "-c", script, "numpy,gymnasium"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        "ImportError: draw_dominoes.envs needs the rl extra (numpy is missing): "
        "pip install 'draw-dominoes[rl]'"
    ), done.stderr


def test_the_metadata_names_the_license_and_the_authors() -> None:
    """What `pip show draw-dominoes` prints: MIT (as a license expression), an author, URLs."""
    from importlib.metadata import metadata

    meta = metadata("draw-dominoes")
    assert meta["License-Expression"] == "MIT"
    assert meta["Author"] == "The draw-dominoes authors"
    assert any(url.startswith("Source, https://") for url in meta.get_all("Project-URL") or [])
    assert "LICENSE" in (meta.get_all("License-File") or [])
