"""``python -m draw_dominoes.web``: the same as ``draw-dominoes serve``."""

from __future__ import annotations

import argparse
import sys

from .cli import add_arguments, run


def main() -> int:
    parser = argparse.ArgumentParser(prog="draw-dominoes serve", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
