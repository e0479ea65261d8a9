"""The learned bot: a network trained by self-play values each legal action (numpy only)."""
