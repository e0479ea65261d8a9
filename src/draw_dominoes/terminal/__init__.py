"""Play Draw in the terminal: a match against bots or friends, saved after every action."""
