"""``python -m draw_dominoes``: the same as the ``draw-dominoes`` command."""

from .cli import main

raise SystemExit(main())
