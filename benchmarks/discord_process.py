"""The Discord bot as a real process against the local stand-in for Discord (tests/discord/fake_discord.py).

    python benchmarks/discord_process.py [--runs 3] [--commands 200] [--postgres URL] [--baseline DIR]

Each run starts ``toride run`` as a child process on a fresh database (a SQLite file, or with
``--postgres`` a database of its own made on that server, dropped afterwards) and measures:

- start to the first REST call (Python's start, the imports, the database opened and upgraded: a new
  database, so the migrations run), to the gateway's IDENTIFY (login, setup), and to ready (the
  health endpoint's first 200: READY and discord.py's wait for the guilds);
- the interaction-to-callback latency of ``--commands`` commands sent one after another over the
  gateway (the baseline ``/roll``, which touches no database, then ``/unit hp``, a battle write with
  its live status edit);
- the stop on SIGTERM, idle (nothing waiting), with a status edit waiting, and during a burst of 20
  commands (one every 50 ms, the signal after the 10th) on a channel whose edit bucket has only two
  edits left in any 5 s (as at a busy table): to the process's exit, and whether the status message
  then shows the last acknowledged change.

With ``--baseline DIR`` (another checkout of the project, e.g. ``git worktree add --detach DIR
<commit>``) every run also runs that code, in the same run, one after the other: the two columns
are measured under the same load. Medians over the runs; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "discord"))

from bot_process import BotProcess, fresh_database
from discord_harness import Member
from fake_discord import Call, FakeDiscord, guild_on_shard

ROOT = Path(__file__).resolve().parents[1]
GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000009
GM = Member(970000000000000001, "GM")
#: the burst: a channel edit bucket with two edits left in any 5 s
EDIT_LIMIT = (2, 5.0)
BURST, SIGNAL_AFTER, SPACING = 20, 10, 0.05


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def bot(fake: FakeDiscord, database: str, folder: Path, code: Path) -> BotProcess:
    """``toride run`` of the checkout ``code`` (its ``bot`` package first on the path)."""
    return BotProcess(
        fake,
        database,
        folder / f"bot-{code.name}.log",
        "--dev-guild",
        str(GUILD),
        env={"PYTHONPATH": str(code)},
    )


async def timed(fake: FakeDiscord, path: str, **options: object) -> tuple[float, Call]:
    session = fake.session(0)
    interaction = await fake.interact(session, GM, GUILD, CHANNEL, 2, fake.command_data(path, options))
    answer = await fake.callback(interaction)
    return (answer.at - interaction.sent_at) * 1000, answer


async def stop(process: BotProcess) -> float:
    code, stopped = await process.stop(signal.SIGTERM)
    if code != 0:
        raise RuntimeError(f"the bot exited with {code}:\n{process.output()}")
    return stopped


async def start_and_latency(database: str, commands: int, folder: Path, code: Path) -> dict[str, float]:
    fake = FakeDiscord([GUILD])
    await fake.start()
    process = bot(fake, database, folder, code)
    try:
        await process.start()
        await process.ready()
        assert process.ready_after is not None
        ready = process.ready_after
        first_call = min(c.at for c in fake.calls) - process.started
        identify = fake.session(0).identified_at - process.started
        idle = await stop(process)  # nothing waiting
        process = bot(fake, database, folder, code)
        await process.start()
        await process.ready()
        rolls = [(await timed(fake, "roll", expr="2d6+3"))[0] for _ in range(commands)]
        await timed(fake, "fort start", rounds=3)
        await timed(fake, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=1000, fort_damage=5)
        writes = [
            (await timed(fake, "unit hp", unit="ゴブリン隊", delta=-1 if n % 2 else 1))[0]
            for n in range(commands)
        ]
        await timed(fake, "unit hp", unit="ゴブリン隊", set=500)  # its status edit waits for the interval
        waiting = await stop(process)
        return {
            "first_call_s": first_call,
            "identify_s": identify,
            "ready_s": ready,
            "stop_idle_s": idle,
            "roll_p50_ms": statistics.median(rolls),
            "roll_p99_ms": percentile(rolls, 99),
            "write_p50_ms": statistics.median(writes),
            "write_p99_ms": percentile(writes, 99),
            "stop_waiting_s": waiting,
        }
    finally:
        await process.kill()
        await fake.stop()


async def burst(database: str, folder: Path, code: Path) -> dict[str, float]:
    """SIGTERM in the middle of a burst of 20 commands: the stop time, and whether the status message
    shows the last acknowledged change (1) or not (0)."""
    fake = FakeDiscord([GUILD], edit_limit=EDIT_LIMIT)
    await fake.start()
    process = bot(fake, database, folder, code)
    try:
        await process.start()
        await process.ready()
        await timed(fake, "fort start", rounds=3)
        await timed(fake, "unit add", name="ゴブリン隊", type="normal", area="A2", hp=1000, fort_damage=5)
        await fake.wait_for(lambda: fake.messages.get(CHANNEL), "the status message")
        (status_id,) = fake.messages[CHANNEL]
        session = fake.session(0)
        sent = []
        sent_signal_at = 0.0
        for n in range(BURST):
            data = fake.command_data("unit hp", {"unit": "ゴブリン隊", "delta": -1})
            sent.append(await fake.interact(session, GM, GUILD, CHANNEL, 2, data))
            if n == SIGNAL_AFTER - 1:
                assert process.process is not None
                sent_signal_at = asyncio.get_running_loop().time()
                process.process.send_signal(signal.SIGTERM)
            await asyncio.sleep(SPACING)
        code_, _ = await process.stop(signal.SIGTERM)
        stopped = asyncio.get_running_loop().time() - sent_signal_at
        if code_ != 0:
            raise RuntimeError(f"the bot exited with {code_}:\n{process.output()}")
        acknowledged = sum(
            1 for i in sent if any(c.type == 4 and "→" in c.text() for c in fake.callbacks(i)[:1])
        )
        shown = Call("PATCH", "", fake.messages[CHANNEL][status_id], 0).text()
        return {
            "stop_burst_s": stopped,
            "burst_acknowledged": acknowledged,
            "status_current": float(f"HP {1000 - acknowledged}/1000" in shown),
        }
    finally:
        await process.kill()
        await fake.stop()


async def one_run(code: Path, args: argparse.Namespace) -> dict[str, float]:
    results: dict[str, float] = {}
    for measure in ("start", "burst"):
        with tempfile.TemporaryDirectory() as folder:
            async with fresh_database(Path(folder), args.postgres) as database:
                if measure == "start":
                    results.update(await start_and_latency(database, args.commands, Path(folder), code))
                else:
                    results.update(await burst(database, Path(folder), code))
    return results


ROWS = (
    ("start to the first REST call", "first_call_s", "s"),
    ("start to IDENTIFY", "identify_s", "s"),
    ("start to ready (health 200)", "ready_s", "s"),
    ("/roll p50 (no database)", "roll_p50_ms", "ms"),
    ("/roll p99", "roll_p99_ms", "ms"),
    ("/unit hp p50 (a write)", "write_p50_ms", "ms"),
    ("/unit hp p99", "write_p99_ms", "ms"),
    ("SIGTERM to exit, idle", "stop_idle_s", "s"),
    ("SIGTERM to exit, an edit waiting", "stop_waiting_s", "s"),
    ("SIGTERM to exit, a burst of 20", "stop_burst_s", "s"),
    ("  changes acknowledged of 20", "burst_acknowledged", ""),
    ("  status message current (runs)", "status_current", "of"),
)


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--postgres", help="a PostgreSQL server's URL: each run on a new database there")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, run beside this one")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for n in range(args.runs):
        for name, code in trees.items():
            results[name].append(await one_run(code, args))
            print(f"run {n + 1} {name}: " + ", ".join(f"{k} {v:.3g}" for k, v in results[name][-1].items()))
    where = "PostgreSQL" if args.postgres else "SQLite"
    print(f"\nmedians of {args.runs} runs ({args.commands} commands each, {where}):")
    print(f"  {'':36}" + "".join(f"{name:>12}" for name in trees))
    for label, key, unit in ROWS:
        cells = []
        for name in trees:
            values = [r[key] for r in results[name]]
            if key == "status_current":
                cells.append(f"{sum(values):.0f} of {len(values)}")
            else:
                digits = 1 if unit == "ms" else 2 if unit == "s" else 0
                cells.append(f"{statistics.median(values):.{digits}f} {unit}".rstrip())
        print(f"  {label:36}" + "".join(f"{c:>12}" for c in cells))


if __name__ == "__main__":
    asyncio.run(main())
