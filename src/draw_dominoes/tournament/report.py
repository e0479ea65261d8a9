"""Tournament reports: a terminal table, a JSON file and a chart (PNG or SVG, by matplotlib)."""

from __future__ import annotations

import json
from pathlib import Path

from .stats import Report

__all__ = ["format_table", "write_chart", "write_json"]


def _plural(unit: str) -> str:
    return "matches" if unit == "match" else "rounds"


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}%"


def format_table(report: Report) -> str:
    """The per-bot table and the head-to-head matrix as plain text."""
    unit = report.unit
    lines = [
        f"{report.games} {_plural(unit)}",
        "",
        f"{'bot':<12} {'rating':>7} {unit + ' wins':>11} {'95% CI':>15} {'fair':>6}"
        f" {'round wins':>10} {'95% CI':>15} {'points/round':>12} {'ms/move':>8} {'games':>6}",
    ]
    for b in report.bots:
        low, high = b.win_interval
        rlow, rhigh = b.round_win_interval
        lines.append(
            f"{b.name:<12} {b.rating:7.0f} {_pct(b.win_rate):>11} "
            f"{_pct(low) + '–' + _pct(high).strip():>15} {_pct(b.fair_share):>6}"
            f" {_pct(b.round_win_rate):>10} {_pct(rlow) + '–' + _pct(rhigh).strip():>15}"
            f" {b.points_per_round:12.2f} {b.ms_per_decision:8.2f} {b.games:>6}"
        )
    names = [b.name for b in report.bots]
    if report.head_to_head:
        lines += ["", "head to head: how often the row bot finished above the column bot"]
        width = max(12, *(len(n) + 2 for n in names))
        lines.append(" " * 12 + "".join(f"{n:>{width}}" for n in names))
        for row in names:
            cells = []
            for column in names:
                cell = report.head_to_head.get(row, {}).get(column)
                cells.append(f"{'—' if cell is None else _pct(cell['score']).strip():>{width}}")
            lines.append(f"{row:<12}" + "".join(cells))
    margins = report.margins
    shown = [
        (a, c, margins[a][c])
        for i, a in enumerate(names)
        for c in names[i + 1 :]
        if c in margins.get(a, {})
    ]
    if shown:
        lines += ["", "duplicate margin: the first bot's points less the second's a round"]
        for a, c, m in shown:
            lines.append(
                f"{a} against {c}: {m['points_per_round']:+.2f}"
                f" (95% CI {m['ci95_low']:+.2f} to {m['ci95_high']:+.2f}, {m['deals']:.0f} deals)"
            )
    return "\n".join(lines)


def write_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")


def write_chart(report: Report, path: Path) -> None:
    """Win rates with their 95% intervals beside the fair share, and the rating of each bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [b.name for b in report.bots]
    rates = [b.win_rate for b in report.bots]
    lows = [b.win_rate - b.win_interval[0] for b in report.bots]
    highs = [b.win_interval[1] - b.win_rate for b in report.bots]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.bar(names, rates, yerr=[lows, highs], capsize=4, color="#4c72b0")
    left.axhline(1 / report.players, color="grey", linestyle="--", label="fair share")
    left.set_ylim(0, 1)
    left.set_ylabel(f"{report.unit} win rate (95% CI)")
    left.legend()
    right.bar(names, [b.rating for b in report.bots], color="#dd8452")
    right.set_ylabel("Bradley–Terry rating (Elo scale)")
    figure.suptitle(f"{report.players} players, {report.games} {_plural(report.unit)}")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
