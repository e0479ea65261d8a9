"""The runtime around the table state machine: store, publish, timers, bots, the bus."""
