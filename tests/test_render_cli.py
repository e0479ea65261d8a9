"""The ``diagram`` command: placements in action notation in, an SVG of the line out."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from draw_dominoes import Line, Tile
from draw_dominoes.cli import main
from draw_dominoes.i18n import describe_line
from draw_dominoes.render.cli import DiagramError, line_from_placements

NS = {"svg": "http://www.w3.org/2000/svg"}
T = Tile.parse

FOUR_TILES = Line.from_placements(
    [(T("[1|4]"), None), (T("[1|1]"), 0), (T("[4|4]"), 1), (T("[3|4]"), 1)]
)


def desc_of(text: str) -> str | None:
    desc = ET.fromstring(text).find("svg:desc", NS)
    return None if desc is None else desc.text


def ends_of(text: str) -> list[tuple[str | None, str | None]]:
    svg = ET.fromstring(text)
    return [
        (g.get("data-end"), g.get("data-value"))
        for g in svg.findall("svg:g", NS)
        if "port-marker" in g.get("class", "")
    ]


def test_writes_the_svg_of_the_line_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "line.svg"
    code = main(
        ["diagram", "--lang", "de", "[1|4]", "[1|1]@0", "[4|4]@1", "[3|4]@1", "-o", str(out)]
    )
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert desc_of(text) == describe_line(FOUR_TILES, "de")
    assert ends_of(text) == [("0", "1"), ("1", "3")]


def test_prints_the_svg_without_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--lang", "en", "[3|6]", "[6|6]@1"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("<svg ")
    expected = Line.from_placements([(T("[3|6]"), None), (T("[6|6]"), 1)])
    assert desc_of(printed) == describe_line(expected, "en")


def test_bare_tiles_go_to_the_one_end_they_fit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--lang", "en", "[1|4]", "[1|1]", "[4|4]", "[3|4]"]) == 0
    assert desc_of(capsys.readouterr().out) == describe_line(FOUR_TILES, "en")
    assert line_from_placements(["[4|1]", "[1|1]", "[4|4]@1", "[4|3]"]) == FOUR_TILES


def test_options_width_and_no_markers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--lang", "en", "--no-markers", "--width", "300", "[2|2]"]) == 0
    text = capsys.readouterr().out
    assert ends_of(text) == []
    assert float(ET.fromstring(text).get("width", "")) <= 300


def test_no_placements_draws_the_empty_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--lang", "en"]) == 0
    assert ends_of(capsys.readouterr().out) == [("open", None)]


def test_language_comes_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["diagram", "[0|0]"]) == 0
    assert desc_of(capsys.readouterr().out) == describe_line(Line().place(T("[0|0]"), None), "de")


@pytest.mark.parametrize(
    ("placements", "message"),
    [
        (["[1|1]", "[1|3]"], "[1|3] fits both ends of the line: write [1|3]@0 or [1|3]@1"),
        (["[1|4]", "[2|3]"], "[2|3] fits neither end of the line (the ends show 1 / 4)"),
        (["[1|4]", "[5|5]@0"], "[5|5] does not fit end 0, which shows 1"),
        (["[1|4]@0"], "the line is empty"),
        (["[1|4]", "[4|1]@1"], "[1|4] is already in the line"),
        (["[1|4]", "draw"], "'draw' is not a placement"),
        (["[1|4]", "[1|7]"], "'[1|7]' is not a placement"),
        (["[1|4]", "[1|2]@2"], "'[1|2]@2' is not a placement"),
    ],
)
def test_bad_placements_get_a_clear_error_and_write_nothing(
    placements: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "line.svg"
    assert main(["diagram", "--lang", "en", *placements, "-o", str(out)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert not out.exists()


def test_errors_in_german() -> None:
    with pytest.raises(DiagramError, match="passt an beide Enden"):
        line_from_placements(["[1|1]", "[1|3]"], "de")


def test_a_too_narrow_width_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "--width", "20", "[1|4]"]) == 2
    assert "too narrow" in capsys.readouterr().err


def test_installed_command_runs_as_a_subprocess(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "draw-dominoes"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "draw_dominoes"]
    out = tmp_path / "figure.svg"
    env = {**os.environ, "LANG": "C.UTF-8"}
    result = subprocess.run(
        [*command, "diagram", "--lang", "de", "[1|4]", "[1|1]@0", "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    expected = Line.from_placements([(T("[1|4]"), None), (T("[1|1]"), 0)])
    assert desc_of(out.read_text(encoding="utf-8")) == describe_line(expected, "de")
    failed = subprocess.run(
        [*command, "diagram", "[1|1]", "[1|3]"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert failed.returncode == 2 and "fits both ends" in failed.stderr
