"""How many CPUs this process may use, and how many odds workers it runs on them
(``TORIDE_ODDS_WORKERS``).

The CPUs a process may use are the fewer of those it may run on (``os.sched_getaffinity``) and its
cgroup's quota (``cpu.max``: a container's ``--cpus``). The shard processes on one host share them:
each runs its share, one CPU left to the bots (at least one worker). How many shard processes share
the host is what the shard leases say (``share_host``, ``TORIDE_SHARDS=auto``), else one.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

ENV_ODDS_WORKERS = "TORIDE_ODDS_WORKERS"
CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
#: shard processes on this host (this one included), as the shard leases last said
_on_host = 1


def cpu_quota(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """The CPUs this process may use: its affinity, bounded by the cgroup's quota (rounded up)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        quota, period = cpu_max.read_text().split()[:2]
    except (OSError, ValueError):
        return max(1, cpus)
    if quota != "max" and quota.isdigit() and period.isdigit() and int(period) > 0:
        cpus = min(cpus, math.ceil(int(quota) / int(period)))
    return max(1, cpus)


def share_host(processes: int) -> None:
    """Say how many shard processes run on this host (the shard leases' owners here)."""
    global _on_host
    _on_host = max(1, processes)


def odds_workers() -> int:
    """``TORIDE_ODDS_WORKERS`` if set (a whole number, at least 1), else this process's share of the
    CPUs it may use, one left to the bots: (quota − 1) / shard processes on the host, at least 1."""
    given = os.environ.get(ENV_ODDS_WORKERS, "").strip()
    if given.isdigit() and int(given) >= 1:
        return int(given)
    return max(1, (cpu_quota() - 1) // _on_host)
