"""Tournaments: duplicate deals, reproducible serial, parallel and resumed runs, statistics, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from draw_dominoes.cli import main
from draw_dominoes.tournament import Tournament, bradley_terry, run_tournament, summarize, wilson
from draw_dominoes.tournament.runner import ResultsFileError, load_results, seat_permutations

CHEAP = {"pimc": {"iterations": 2}, "ismcts": {"iterations": 20}, "omniscient": {"iterations": 20}}


def without_timing(records: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def small(players: int = 2, deals: int = 2, **kwargs: Any) -> Tournament:
    tables = {2: (("greedy", "random"),), 3: (("heuristic", "greedy", "greedy"),)}[players]
    return Tournament(players=players, tables=tables, deals=deals, seed=5, **kwargs)


# ------------------------------------------------------------------ statistics


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert math.isclose(low + high, 1.0) and round(low, 4) == 0.4038


def test_bradley_terry_on_a_known_example() -> None:
    """A beat B three times out of four: strengths 3:1, i.e. 400·log10(3) ≈ 190.8 Elo apart."""
    ratings = bradley_terry({("A", "B"): 3.0, ("B", "A"): 1.0}, ["A", "B"])
    assert math.isclose(ratings["A"] - ratings["B"], 400 * math.log10(3), abs_tol=1e-6)
    assert math.isclose((ratings["A"] + ratings["B"]) / 2, 1500, abs_tol=1e-6)
    # Three bots in a cycle of equal results are rated equal.
    cycle = bradley_terry({("A", "B"): 2, ("B", "C"): 2, ("C", "A"): 2}, ["A", "B", "C"])
    assert max(cycle.values()) - min(cycle.values()) < 1e-6


def _record(seats: list[str], scores: list[int], rounds: list[tuple[int | None, int]]) -> Any:
    best = max(scores)
    return {
        "key": "-".join(seats) + str(scores),
        "seats": seats,
        "scores": scores,
        "winners": [s for s, v in enumerate(scores) if v == best],
        "rounds": [{"kind": "domino", "winner": w, "points": p} for w, p in rounds],
        "decisions": [10] * len(seats),
        "seconds": [0.5] * len(seats),
    }


def test_summary_of_a_small_known_tournament() -> None:
    """Four matches, counted by hand: A wins 3 (one of them as a draw shared 50/50)."""
    records = [
        _record(["A", "B"], [100, 20], [(0, 60), (1, 20), (0, 40)]),
        _record(["B", "A"], [30, 104], [(1, 104), (0, 30)]),
        _record(["A", "B"], [10, 101], [(1, 101), (0, 10)]),
        _record(["B", "A"], [100, 100], [(0, 100), (1, 100)]),
    ]
    report = summarize(records, players=2)
    a, b = {s.name: s for s in report.bots}["A"], {s.name: s for s in report.bots}["B"]
    assert report.games == 4 and a.games == b.games == 4
    assert a.match_wins == 2.5 and b.match_wins == 1.5
    assert a.win_interval == wilson(2.5, 4)
    assert a.rounds == 9 and a.round_wins == 5 and a.points == 60 + 40 + 104 + 10 + 100
    assert math.isclose(a.points_per_round, 314 / 9)
    assert b.round_wins == 4 and b.points == 20 + 30 + 101 + 100
    assert a.ms_per_decision == 50.0
    assert report.head_to_head["A"]["B"]["score"] == 2.5 / 4
    assert report.head_to_head["B"]["A"]["games"] == 4
    expected = bradley_terry({("A", "B"): 2.5, ("B", "A"): 1.5}, ["A", "B"], prior=0.5)
    assert math.isclose(a.rating, expected["A"]) and a.rating > b.rating
    assert [s.name for s in report.bots] == ["A", "B"]  # ordered by rating


def test_the_duplicate_margin_pairs_the_seatings_of_each_deal() -> None:
    """Per deal, A's points less B's a round over both seatings; the interval is over deals."""
    records = []
    for deal, (first, second) in enumerate([(10, 4), (-2, 6), (8, 0)]):
        # A in seat 0 then seat 1; one round each, (winner, points) giving A's margin.
        for seats, margin in ((["A", "B"], first), (["B", "A"], second)):
            a_seat = seats.index("A")
            winner = a_seat if margin > 0 else 1 - a_seat
            record = _record(seats, [0, 0], [(winner, abs(margin))])
            record |= {"table": 0, "deal": deal}
            records.append(record)
    report = summarize(records, players=2, unit="round")
    found = report.margins["A"]["B"]
    per_deal = [7.0, 2.0, 4.0]
    mean = sum(per_deal) / 3
    spread = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in per_deal) / 2 / 3)
    assert found["deals"] == 3 and math.isclose(found["points_per_round"], mean)
    assert math.isclose(found["ci95_high"] - mean, spread)
    assert report.margins["B"]["A"]["points_per_round"] == -mean
    from draw_dominoes.tournament.report import format_table

    assert "A against B: +4.33 (95% CI" in format_table(report)


def test_three_seat_games_compare_every_pair_of_different_bots() -> None:
    records = [_record(["X", "Y", "Y"], [61, 30, 10], [(0, 61), (1, 30), (2, 10)])]
    report = summarize(records, players=3)
    x = next(s for s in report.bots if s.name == "X")
    assert x.fair_share == pytest.approx(1 / 3) and x.win_rate == 1.0
    assert report.head_to_head["X"]["Y"] == {
        "games": 2,
        "score": 1.0,
        "ci95_low": wilson(2, 2)[0],
        "ci95_high": wilson(2, 2)[1],
    }
    assert "Y" not in report.head_to_head["Y"]  # a bot is never compared with itself


# ------------------------------------------------------------------ games and runs


def test_duplicate_format_plays_every_deal_in_every_seat_order() -> None:
    assert len(seat_permutations(("ismcts", "greedy"))) == 2
    assert len(seat_permutations(("ismcts", "greedy", "greedy"))) == 3
    assert len(seat_permutations(("a", "b", "c", "d"))) == 24
    games = list(small(3, deals=2).games())
    assert len(games) == 6
    for deal in (0, 1):
        same_deal = [g for g in games if g.deal == deal]
        assert len({g.seed for g in same_deal}) == 1
        assert sorted(g.seats.index("heuristic") for g in same_deal) == [0, 1, 2]
    assert games[0].seed != games[3].seed


def test_serial_and_parallel_runs_give_the_same_results(tmp_path: Path) -> None:
    tournament = Tournament(
        players=3,
        tables=(("pimc", "heuristic", "greedy"),),
        deals=1,
        seed=3,
        unit="round",
        options=CHEAP,
    )
    serial = run_tournament(tournament, tmp_path / "serial.jsonl", backend="serial")
    parallel = run_tournament(
        tournament, tmp_path / "parallel.jsonl", backend="processes", workers=2
    )
    assert len(serial) == 6
    assert without_timing(serial) == without_timing(parallel)


def test_a_stopped_run_resumes_without_replaying_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    first = run_tournament(small(deals=2), path, backend="serial")
    assert len(first) == 4
    lines = path.read_text().splitlines()
    assert len(lines) == 5  # the header and four games
    # A run killed mid-write leaves half a line: it is cut off and that game played again.
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:25])
    more = run_tournament(small(deals=3), path, backend="serial")
    assert len(more) == 6
    after = path.read_text().splitlines()
    assert after[:4] == lines[:4]  # finished games are kept as they were, not replayed
    assert len(after) == 7
    assert without_timing(more) == without_timing(
        run_tournament(small(deals=3), tmp_path / "fresh.jsonl", backend="serial")
    )


def test_a_results_file_of_another_tournament_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    run_tournament(small(deals=1), path, backend="serial")
    before = path.read_bytes()
    other = Tournament(players=2, tables=(("greedy", "random"),), deals=1, seed=6)
    with pytest.raises(ResultsFileError, match="other settings"):
        load_results(path, other)
    assert path.read_bytes() == before


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        Tournament(players=2, tables=(("greedy", "alphago"),), deals=1)
    with pytest.raises(ValueError, match="3 seats, not 2"):
        Tournament(players=2, tables=(("greedy", "random", "random"),), deals=1)
    with pytest.raises(ValueError, match="no option"):
        Tournament(players=2, tables=(("greedy", "ismcts"),), deals=1, options={"ismcts": {"x": 1}})


def test_the_omniscient_bot_is_given_the_round_and_only_it(tmp_path: Path) -> None:
    tournament = Tournament(
        players=2, tables=(("omniscient", "ismcts"),), deals=1, unit="round", options=CHEAP
    )
    records = run_tournament(tournament, tmp_path / "o.jsonl", backend="serial")
    assert len(records) == 2 and all(
        r["decisions"][r["seats"].index("omniscient")] for r in records
    )


def test_matches_are_played_to_the_target(tmp_path: Path) -> None:
    """R20: a match ends once a score reaches 100 (two players); the winners hold the top score."""
    records = run_tournament(small(deals=1), tmp_path / "m.jsonl", backend="serial")
    for record in records:
        assert max(record["scores"]) >= 100
        assert sum(r["points"] for r in record["rounds"]) == sum(record["scores"])
        assert record["winners"] == [
            s for s, v in enumerate(record["scores"]) if v == max(record["scores"])
        ]


@pytest.mark.ray
def test_ray_backend_on_a_local_instance_gives_the_serial_results(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    tournament = small(deals=1, unit="round")
    on_ray = run_tournament(tournament, tmp_path / "ray.jsonl", backend="ray", workers=1)
    serial = run_tournament(tournament, tmp_path / "serial.jsonl", backend="serial")
    assert without_timing(on_ray) == without_timing(serial)


# ------------------------------------------------------------------ command line


def test_cli_writes_table_json_and_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, report, chart = tmp_path / "r.jsonl", tmp_path / "r.json", tmp_path / "r.png"
    code = main(
        [
            "tournament", "--bots", "greedy,random,heuristic", "--matches", "2",
            "--out", str(out), "--json", str(report), "--chart", str(chart),
            "--backend", "serial", "--no-progress", "--seed", "4",
        ]
    )  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "6 matches" in text and "head to head" in text and "greedy" in text
    data = json.loads(report.read_text())
    assert data["games"] == 6 and {b["bot"] for b in data["bots"]} == {
        "greedy",
        "random",
        "heuristic",
    }
    assert all(0 <= b["match_win_ci95"][0] <= b["match_win_ci95"][1] <= 1 for b in data["bots"])
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "r.svg"
    # The same settings again: every game is already in the file, only the report is redone.
    before = out.read_bytes()
    assert main(["tournament", "--bots", "greedy,random,heuristic", "--matches", "2",
                 "--out", str(out), "--chart", str(svg), "--backend", "serial",
                 "--no-progress", "--seed", "4"]) == 0  # fmt: skip
    assert out.read_bytes() == before
    assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_cli_reports_a_stopped_run_without_playing_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    common = ["tournament", "--bots", "greedy,random", "--out", str(out), "--seed", "2"]
    assert main([*common, "--matches", "4", "--backend", "serial", "--no-progress"]) == 0
    capsys.readouterr()
    before = out.read_bytes()
    assert main([*common, "--matches", "40", "--report-only"]) == 0
    assert "4 matches" in capsys.readouterr().out
    assert out.read_bytes() == before
    missing = tmp_path / "none.jsonl"
    assert main([*common[:-4], "--out", str(missing), "--seed", "2", "--report-only"]) == 2
    assert "no results file" in capsys.readouterr().err and not missing.exists()


def test_report_only_without_matches_reports_every_game_in_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """More games than the default --matches (100) are all reported, not the first 100."""
    out = tmp_path / "r.jsonl"
    common = ["tournament", "--bots", "greedy,random", "--out", str(out), "--seed", "3"]
    assert main([*common, "--matches", "104", "--unit", "round", "--backend", "serial",
                 "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main([*common, "--unit", "round", "--report-only"]) == 0
    assert "104 rounds" in capsys.readouterr().out
    assert main([*common, "--unit", "round", "--matches", "10", "--report-only"]) == 0
    assert "10 rounds" in capsys.readouterr().out
    # a file with its header but no finished game yet: a clear error, the file untouched
    empty = tmp_path / "empty.jsonl"
    empty.write_text(out.read_text().splitlines()[0] + "\n")
    before = empty.read_bytes()
    assert main([*common[:-4], "--out", str(empty), "--seed", "3", "--unit", "round",
                 "--report-only"]) == 2  # fmt: skip
    assert "holds no finished games yet" in capsys.readouterr().err
    assert empty.read_bytes() == before
    # a game line without its deal number: a clear error, not a crash
    empty.write_text(empty.read_text() + '{"key": "t0-d0-greedy-random"}\n')
    assert main([*common[:-4], "--out", str(empty), "--seed", "3", "--unit", "round",
                 "--report-only"]) == 2  # fmt: skip
    assert "has no deal number" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "greedy,chess"], "unknown bot 'chess'"),
        (["--bots", "greedy,greedy,random", "--players", "2"], "exactly 2 bots"),
        (["--option", "ismcts.iterations"], "not a bot option"),
        (["--option", "ismcts.iterations=-3", "--bots", "ismcts,greedy"], "positive whole"),
        (["--matches", "0"], "at least 1"),
        (["--bot", "fast"], "not a bot variant"),
        (["--bot", "fast=chess"], "unknown bot 'chess'"),
        (["--bot", "greedy=ismcts:iterations=3"], "a name of its own"),
        (["--bot", "fast=ismcts:iterations=0", "--bots", "fast,greedy"], "positive whole"),
        (["--bot", "fast=ismcts:depth=2", "--bots", "fast,greedy"], "has no option depth"),
        (["--bot", "a=greedy", "--bot", "a=random"], "given twice"),
    ],
)
def test_cli_refuses_bad_input_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    out = tmp_path / "r.jsonl"
    code = main(["tournament", "--out", str(out), "--no-progress", *arguments])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_two_settings_of_one_bot_meet_as_named_variants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bot NAME=BOT:KEY=VALUE``: each variant plays with its own options, under its name."""
    out = tmp_path / "v.jsonl"
    args = ["tournament", "--bot", "fast=ismcts:iterations=20", "--bot",
            "slow=ismcts:iterations=60,epsilon=0.2", "--unit", "round", "--matches", "4",
            "--out", str(out), "--no-progress", "--backend", "serial"]  # fmt: skip
    assert main(args) == 0
    report = capsys.readouterr().out
    assert "fast" in report and "slow" in report
    header, *games = [json.loads(line) for line in out.read_text().splitlines()]
    assert header["settings"]["variants"] == {"fast": "ismcts", "slow": "ismcts"}
    assert header["settings"]["options"] == {
        "fast": {"iterations": 20},
        "slow": {"iterations": 60, "epsilon": 0.2},
    }
    assert len(games) == 4 and {tuple(sorted(g["seats"])) for g in games} == {("fast", "slow")}
    assert main(args) == 0  # the finished file resumes: nothing is played again
    assert out.read_text().count("\n") == 5


def test_levels_play_as_their_bots_under_the_level_names(tmp_path: Path) -> None:
    levels = Tournament(
        players=2, tables=(("easy", "medium"),), deals=3, seed=5,
        variants={"easy": "greedy", "medium": "heuristic"},
    )  # fmt: skip
    records = run_tournament(levels, tmp_path / "l.jsonl", backend="serial", progress=False)
    assert {tuple(sorted(r["seats"])) for r in records} == {("easy", "medium")}
    bots_ = Tournament(players=2, tables=(("greedy", "heuristic"),), deals=3, seed=5)
    plain = run_tournament(bots_, tmp_path / "g.jsonl", backend="serial", progress=False)
    assert [r["scores"] for r in records] == [r["scores"] for r in plain]  # the same bots


def test_the_cli_takes_levels_wherever_it_takes_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "l.jsonl"
    args = ["tournament", "--bots", "easy,beginner", "--unit", "round", "--matches", "2",
            "--out", str(out), "--no-progress", "--backend", "serial"]  # fmt: skip
    assert main(args) == 0
    assert "easy" in capsys.readouterr().out
    assert json.loads(out.read_text().splitlines()[0])["settings"]["variants"] == {
        "easy": "greedy",
        "beginner": "random",
    }
