"""The Discord bot as a real process against the local stand-in for Discord (tests/discord/fake_discord.py).

    python benchmarks/discord_process.py [--runs 3] [--commands 200] [--postgres URL]

Each run starts ``toride run`` as a child process on a fresh database (a SQLite file, or with
``--postgres`` a database of its own made on that server, dropped afterwards) and measures: start to
the gateway's IDENTIFY (imports, migrations, login) and to ready (the health endpoint's first 200,
after discord.py's wait for the guilds' GUILD_CREATE), the interaction-to-callback latency of
``--commands`` commands sent one after another over the gateway (the baseline ``/roll``, which
touches no database, then ``/unit hp``, a battle write with its live status edit), and the stop time
on SIGTERM with a status edit waiting (to the process's exit). Medians over the runs; nothing is
asserted.
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
from fake_discord import FakeDiscord, guild_on_shard

GUILD = guild_on_shard(0, 1)
CHANNEL = 960000000000000009
GM = Member(970000000000000001, "GM")


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def one_run(database: str, commands: int, folder: Path) -> dict[str, float]:
    fake = FakeDiscord([GUILD])
    await fake.start()
    bot = BotProcess(fake, database, folder / "bot.log", "--dev-guild", str(GUILD))
    try:
        await bot.start()
        await bot.ready()
        session = fake.session(0)

        async def timed(path: str, **options: object) -> float:
            interaction = await fake.interact(
                session, GM, GUILD, CHANNEL, 2, fake.command_data(path, options)
            )
            answer = await fake.callback(interaction)
            return (answer.at - interaction.sent_at) * 1000

        rolls = [await timed("roll", expr="2d6+3") for _ in range(commands)]
        await timed("fort start", rounds=3)
        await timed("unit add", name="ゴブリン隊", type="normal", area="A2", hp=1000, fort_damage=5)
        writes = [
            await timed("unit hp", unit="ゴブリン隊", delta=-1 if n % 2 else 1) for n in range(commands)
        ]
        await timed("unit hp", unit="ゴブリン隊", set=500)  # its status edit waits for the interval
        code, stopped = await bot.stop(signal.SIGTERM)
        if code != 0:
            raise RuntimeError(f"the bot exited with {code}:\n{bot.output()}")
        assert bot.ready_after is not None
        return {
            "identify_s": session.identified_at - bot.started,
            "ready_s": bot.ready_after,
            "roll_p50_ms": statistics.median(rolls),
            "roll_p99_ms": percentile(rolls, 99),
            "write_p50_ms": statistics.median(writes),
            "write_p99_ms": percentile(writes, 99),
            "stop_s": stopped,
        }
    finally:
        await bot.kill()
        await fake.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--postgres", help="a PostgreSQL server's URL: each run on a new database there")
    args = parser.parse_args()
    results = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            async with fresh_database(Path(folder), args.postgres) as database:
                results.append(await one_run(database, args.commands, Path(folder)))
        print(f"run {n + 1}: " + ", ".join(f"{k} {v:.3g}" for k, v in results[-1].items()))
    median = {key: statistics.median(r[key] for r in results) for key in results[0]}
    where = "PostgreSQL" if args.postgres else "SQLite"
    print(f"median of {args.runs} runs ({args.commands} commands each, {where}):")
    print(f"  start to IDENTIFY        {median['identify_s']:.2f} s")
    print(f"  start to ready           {median['ready_s']:.2f} s (health 200)")
    print(
        f"  /roll (baseline, no db)  p50 {median['roll_p50_ms']:.1f} ms  p99 {median['roll_p99_ms']:.1f} ms"
    )
    print(
        f"  /unit hp (a write)       p50 {median['write_p50_ms']:.1f} ms  p99 {median['write_p99_ms']:.1f} ms"
    )
    print(f"  stop on SIGTERM          {median['stop_s']:.2f} s (a status edit waiting)")


if __name__ == "__main__":
    asyncio.run(main())
