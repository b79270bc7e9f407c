"""The bot's metrics, in Prometheus' text format (``GET /metrics`` on the health endpoint).

Each part measures what it does with ``prometheus_client``'s own metric objects, made unregistered
(``registry=None``) and kept by that part: the commands' counter and reply latency by the Discord
front-end (``bot.discord.commandlog``), the storage writer's queue and commit time
(``bot.storage.writer``), the event loop's lag and the gateway's reconnects by the watchdog
(``bot.discord.watchdog``). What is read only when scraped (a shard's latency, a planner's queue) is a
``Reading``. ``Metrics`` gathers them in a registry of its own, never ``prometheus_client``'s global
one, so that two bots (two tests) count apart. Every label has a bounded set of values: rule set
names, command paths of the command table, results, shard ids; never what a user typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

#: seconds, for a time a user waits (a reply; Discord waits 3 s for the first answer)
REPLY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)
#: seconds, for the event loop's lag and the storage writer's batches
SHORT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: what a reading gives when scraped: (label values, value) for each of its series
Samples = Callable[[], Iterable[tuple[Sequence[str], float]]]


class Reading(Collector):
    """A gauge read when scraped: ``samples`` gives each series' label values and value."""

    def __init__(self, name: str, documentation: str, labels: Sequence[str], samples: Samples) -> None:
        self.name = name
        self.documentation = documentation
        self.labels = tuple(labels)
        self.samples = samples

    def _family(self) -> GaugeMetricFamily:
        return GaugeMetricFamily(self.name, self.documentation, labels=self.labels)

    def describe(self) -> Iterator[Metric]:
        yield self._family()

    def collect(self) -> Iterator[Metric]:
        family = self._family()
        for values, value in self.samples():
            family.add_metric(list(values), value)
        yield family


class Metrics:
    """One process's metrics: a registry of its own holding ``collectors``."""

    def __init__(self, collectors: Iterable[Collector] = ()) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        for collector in collectors:
            self.registry.register(collector)

    def exposition(self, accept: str | None = None) -> tuple[bytes, str]:
        """Every metric, and its content type: in the format the scraper's ``Accept`` header asks for
        (``prometheus_client``'s choice: OpenMetrics if asked, else Prometheus' text format 0.0.4)."""
        encode, content_type = choose_encoder(accept or "")
        return encode(self.registry), content_type
