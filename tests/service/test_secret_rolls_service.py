"""Issue 35, item 3, in the service: a secret roll of ``/roll`` or a palette line is kept with its
number, the 1,001st drops the oldest and says so, and a roll older than 30 days is no longer listed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.i18n import t
from bot.render.text import render as render_text
from bot.service import Actor, BattleService, Invocation, Where
from bot.storage.interface import Storage, Transaction
from bot.views import PaletteRollView, RollView, SecretsView
from engine.dice import ScriptedDice

HERE = Where("g", "c")
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
GM = Actor("gm")
HANAKO = Actor("hanako")


async def run(service: BattleService, actor: Actor, path: str, **options: object) -> object:
    return await service.execute(HERE, actor, Invocation(path, options))


async def test_the_thousand_and_first_drops_the_oldest_and_says_so(storage: Storage) -> None:
    async def fill(transaction: Transaction) -> None:
        for _ in range(1000):
            await transaction.keep_secret("g", "c", "gm", '{"kind":"roll","text":"x"}', NOW)

    await storage.run(fill, channel=("g", "c"))
    service = BattleService(storage, ScriptedDice([6, 5]))
    service.secrets.clock = lambda: NOW + timedelta(minutes=1)
    view = await run(service, HANAKO, "roll", expr="S2d6+5", secret=False)
    assert isinstance(view, RollView) and view.number == 1001 and view.dropped == (1,)
    text = render_text(view, "ja")
    assert text.splitlines()[-1] == (
        "このチャンネルに残せるシークレットダイスは1,000件までなので、いちばん古い#1を消しました。"
    )
    listed = await run(service, GM, "roll", expr="secrets", secret=False)
    assert isinstance(listed, SecretsView)  # the GM is not GM here (no battle, no role): own only
    assert len(listed.secrets) == 999 and listed.secrets[0].number == 2


async def test_a_roll_older_than_thirty_days_is_not_listed(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([3, 4]))
    service.secrets.clock = lambda: NOW
    await run(service, HANAKO, "roll", expr="S2d6", secret=False)
    service.secrets.clock = lambda: NOW + timedelta(days=29, hours=23)
    kept = await run(service, HANAKO, "roll", expr="secrets", secret=False)
    assert isinstance(kept, SecretsView) and [s.number for s in kept.secrets] == [1]
    service.secrets.clock = lambda: NOW + timedelta(days=30, minutes=1)
    gone = await run(service, HANAKO, "roll", expr="secrets", secret=False)
    assert isinstance(gone, SecretsView) and gone.secrets == ()
    assert render_text(gone, "en") == t("secrets.empty_own", "en")


async def test_a_palette_lines_secret_roll_is_kept_and_revealed_as_the_line(storage: Storage) -> None:
    service = BattleService(storage, ScriptedDice([2, 6]))
    service.secrets.clock = lambda: NOW
    assert (await run(service, GM, "fort start", rounds=3)).ok
    assert (await run(service, GM, "pc add", name="リーネ", hp=30, owner="hanako")).ok
    assert (await run(service, HANAKO, "pc palette", name="リーネ", text="2d6+3 隠れ身")).ok
    rolled = await run(service, HANAKO, "pc roll", name="リーネ", line="1", secret=True)
    assert isinstance(rolled, PaletteRollView) and rolled.number == 1
    listed = await run(service, GM, "roll", expr="秘密一覧", secret=False)
    assert isinstance(listed, SecretsView) and listed.everyone  # the battle's GM
    assert (
        render_text(listed, "ja")
        .splitlines()[1]
        .endswith("hanako: リーネ「隠れ身」 2d6+3 → (2D6+3) ＞ 8[2,6]+3 ＞ 11")
    )
    shown = await run(service, HANAKO, "roll", expr="公開 1", secret=False)
    assert render_text(shown, "ja").splitlines() == [
        f"hanakoがシークレットダイス#1を公開しました({NOW.astimezone():%Y-%m-%d %H:%M}に振ったもの)",
        "リーネ「隠れ身」 2d6+3 → (2D6+3) ＞ 8[2,6]+3 ＞ 11",
    ]
