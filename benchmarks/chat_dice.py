"""Chat dice through the local stand-in for Discord (tests/discord/fake_discord.py), the bot a real process.

    python benchmarks/chat_dice.py [--runs 3] [--seconds 10] [--rate 50] [--channels 10]

Each run starts ``toride run`` with ``TORIDE_CHAT_DICE=1`` on a fresh SQLite database, allows chat dice
in ``--channels`` channels (``/settings chat_dice:true``), then sends dice messages (``2d6+5 命中``,
``K20+5@10`` ...) as MESSAGE_CREATE events at ``--rate`` a second, round-robin over the channels, for
``--seconds``, and measures for each message the time from its event to the bot's reply (the REST call
``POST /channels/{id}/messages`` that answered it, found by its ``message_reference``). It prints p50
and p99 of that latency, the messages never answered (lost) and those answered more than once
(duplicated); then the medians over the runs. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "discord"))

from bot_process import BotProcess, fresh_database
from chat_standin import allow_chat_dice, replies, say
from fake_discord import FakeDiscord, guild_on_shard

COMMANDS = ("2d6+5 命中", "K20+5@10 ハンマー", "1d100<=50", "2D6>=12 回避", "K40+12@10 大砲", "S2d6")
#: how long to wait, after the last message, for replies still to come
SETTLE = 10.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else float("nan")


async def one_run(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    guild = guild_on_shard(0, 1)
    channels = [995000000000000001 + n for n in range(args.channels)]
    fake = FakeDiscord([guild])
    await fake.start()
    try:
        async with fresh_database(folder, None) as database:
            bot = BotProcess(fake, database, folder / "bot.log", "--dev-guild", str(guild),
                             env={"TORIDE_CHAT_DICE": "1"})  # fmt: skip
            await bot.start()
            try:
                await bot.ready()
                session = fake.session(0)
                for channel in channels:
                    await allow_chat_dice(fake, session, guild, channel)
                mark = len(fake.calls)
                sent: list[tuple[dict[str, object], float]] = []
                total = int(args.seconds * args.rate)
                start = time.monotonic()
                for n in range(total):
                    await asyncio.sleep(max(0.0, start + n / args.rate - time.monotonic()))
                    at = time.monotonic()
                    channel, text = channels[n % len(channels)], COMMANDS[n % len(COMMANDS)]
                    message = await say(fake, session, guild, channel, text)
                    sent.append((message, at))

                def answered() -> bool:
                    return all(any(c.status == 200 for c in replies(fake, m, mark)) for m, _ in sent)

                with contextlib.suppress(AssertionError):  # what is missing then is lost
                    await fake.wait_for(answered, "every reply", timeout=SETTLE)
                await asyncio.sleep(0.5)  # a late duplicate would come now
                latencies, lost, duplicated = [], 0, 0
                for message, at in sent:
                    ok = [c for c in replies(fake, message, mark) if c.status == 200]
                    if not ok:
                        lost += 1
                        continue
                    duplicated += len(ok) > 1
                    latencies.append((ok[0].at - at) * 1000)
            finally:
                await bot.stop()
    finally:
        await fake.stop()
    return {
        "messages": float(len(sent)),
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p99": percentile(latencies, 99),
        "lost": float(lost),
        "duplicated": float(duplicated),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--channels", type=int, default=10)
    args = parser.parse_args()
    results = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            result = await one_run(args, Path(folder))
        results.append(result)
        print(
            f"run {run + 1}: {result['messages']:.0f} messages, reply p50 {result['p50']:.1f} ms, "
            f"p99 {result['p99']:.1f} ms, lost {result['lost']:.0f}, duplicated {result['duplicated']:.0f}"
        )
    median = {k: statistics.median(r[k] for r in results) for k in results[0]}
    print(
        f"median of {args.runs} runs ({args.rate:g}/s over {args.channels} channels, {args.seconds:g} s): "
        f"reply p50 {median['p50']:.1f} ms, p99 {median['p99']:.1f} ms, "
        f"lost {median['lost']:.0f}, duplicated {median['duplicated']:.0f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
