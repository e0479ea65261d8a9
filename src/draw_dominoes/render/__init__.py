"""Drawing lines of play and tiles as SVG, and the "How to play" page built from those drawings.

``render.svg`` draws (standard library only, deterministic text output);
``render.howto`` writes the rules page; ``render.cli`` is the ``diagram`` command.
"""

from __future__ import annotations

from .svg import line_svg, tile_svg, write_line_svg

__all__ = ["line_svg", "tile_svg", "write_line_svg"]
