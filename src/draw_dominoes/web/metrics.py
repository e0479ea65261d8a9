"""Prometheus metrics for whoever runs a server: connections, tables, actions, bots, drops."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["Counts", "Metrics"]


@dataclass
class Counts:
    """What the app counts as it goes; the rest is read off the hub when scraped."""

    websockets: int = 0
    send_queue_drops: int = 0
    states_replaced: int = 0
    floods_closed: int = 0
    refused_messages: int = 0


class Metrics(Collector):
    """Reads every figure at scrape time, so nothing is counted twice or goes stale."""

    def __init__(self, read: Callable[[], dict[str, float]], counts: Counts) -> None:
        self.read = read
        self.counts = counts
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(self)

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        live = self.read()
        gauges = {
            "draw_connections_open": ("open TCP connections", live["connections"]),
            "draw_websockets_open": ("open WebSockets", self.counts.websockets),
            "draw_tables_in_memory": ("tables held in memory", live["tables"]),
            "draw_bot_queue_length": ("bot decisions waiting for a worker", live["bot_queue"]),
            "draw_reviews_running": (
                "reviews of finished matches waiting or under way",
                live["reviews"],
            ),
            "draw_reviews_queued": ("reviews waiting for their turn", live["reviews_queued"]),
            "draw_hints_in_flight": ("hints being worked out", live["hints_in_flight"]),
            "draw_tables_owned": (
                "tables whose lease this process holds",
                live["owned_tables"],
            ),
        }
        for name, (text, value) in gauges.items():
            yield GaugeMetricFamily(name, text, value=value)
        counters = {
            "draw_actions": ("actions accepted", live["actions"]),
            "draw_bot_decisions": ("bot decisions made", live["bot_decisions"]),
            "draw_analyses": ("hints and reviewed decisions worked out", live["analyses"]),
            "draw_send_queue_drops": (
                "connections cut off for not reading",
                self.counts.send_queue_drops,
            ),
            "draw_states_replaced": (
                "unsent states replaced by a newer one",
                self.counts.states_replaced,
            ),
            "draw_connections_refused": ("connections over a limit", live["refused"]),
            "draw_header_timeouts": ("requests whose headers came too late", live["timed_out"]),
            "draw_messages_refused": ("WebSocket messages refused", self.counts.refused_messages),
            "draw_floods_closed": ("WebSockets closed for flooding", self.counts.floods_closed),
            "draw_intents_forwarded": (
                "intents forwarded to the process that owns their table",
                live["forwarded"],
            ),
            "draw_lease_takeovers": (
                "tables taken over from a process whose lease ran out",
                live["takeovers"],
            ),
            "draw_table_handovers": (
                "tables handed to the process where all their connections were",
                live["handovers"],
            ),
            "draw_stale_writes": (
                "commits refused because another process had moved the table on",
                live["stale_writes"],
            ),
        }
        for name, (text, value) in counters.items():
            yield CounterMetricFamily(name, text, value=value)

    def text(self) -> bytes:
        return generate_latest(self.registry)
