"""The live status message always shows the whole battle in one Discord message.

Checked against Discord's documented limits for one message ("Embed Limits"): at most 10 embeds and
6,000 characters over all of them (titles, descriptions, field names and values, footers, author
names), 25 fields an embed, a title of 256, a description of 4,096, a field name of 256 and a value
of 1,024. Battles are built up to COMMANDS.md's Conventions (200 units, 20 commanders, 20 PCs, 40
traps, 10 cannons, names of 32 characters; 千幻抄: 200 characters): when the full status does not fit,
the message is compact, every area, the reinforcements, the destroyed, the equipment and the GMs in
it, and the full status one button away.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from big_battles import AREAS, fort_document, sengensho_document
from discord_harness import ALICE, BOB, GM, Attachment, Harness, Request

from bot.discord.buttons import FULL, NEXT, REFRESH, UNDO
from bot.discord.presenters import live_message
from bot.rulesets.fort.discord import presenter as fort_presenter
from bot.rulesets.fort.discord.presenter import status_embeds
from bot.rulesets.sengensho import text as sengensho_text
from bot.views import StatusView

MESSAGE_TOTAL, EMBEDS, FIELDS, TITLE, DESCRIPTION, FIELD_NAME, FIELD_VALUE = (
    6000,
    10,
    25,
    256,
    4096,
    256,
    1024,
)
FOOTER, AUTHOR = 2048, 256
MORE = {"ja": re.compile(r"^…ほか(\d+)件$"), "en": re.compile(r"^… and (\d+) more$")}
FIELD_NAMES = {
    "ja": ["A2", "A1", "F0", "B1", "B2", "増援", "撃破", "設備", "GM"],
    "en": ["A2", "A1", "F0", "B1", "B2", "Reinforcements", "Destroyed", "Equipment", "GM"],
}


def within_one_message(embeds: list[dict[str, Any]]) -> None:
    """Discord's limits for one message's embeds, counted as Discord counts them."""
    assert 1 <= len(embeds) <= EMBEDS
    total = 0
    for embed in embeds:
        title, description = embed.get("title") or "", embed.get("description") or ""
        footer, author = (
            (embed.get("footer") or {}).get("text") or "",
            (embed.get("author") or {}).get("name") or "",
        )
        fields = embed.get("fields") or []
        assert len(title) <= TITLE and len(description) <= DESCRIPTION
        assert len(footer) <= FOOTER and len(author) <= AUTHOR
        assert len(fields) <= FIELDS
        for f in fields:
            assert 1 <= len(f["name"]) <= FIELD_NAME and 1 <= len(f["value"]) <= FIELD_VALUE
        total += len(title) + len(description) + len(footer) + len(author)
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    assert total <= MESSAGE_TOTAL, total


def buttons(request: Request) -> list[str]:
    return [b["custom_id"] for row in request.data.get("components") or [] for b in row["components"]]


def counted_in(doc: dict[str, Any], area: str) -> int:
    units = [u for u in doc["units"] if u["area"] == area and not u["destroyed"] and u["arrived"]]
    pcs = [p for p in doc["pcs"] if p["area"] == area]
    commanders = [c for c in doc["commanders"] if c["area"] == area]
    return len(units) + len(pcs) + len(commanders)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_fort_battle_at_every_limit_shows_every_area_in_one_message(lang: str) -> None:
    doc = fort_document()
    gms = tuple(str(400000000000000001 + n) for n in range(10))
    view = StatusView(ruleset="fort", document=doc, gms=gms)
    live = live_message(view, lang)
    payload = [e.to_dict() for e in live.embeds]
    within_one_message(payload)
    assert live.compact
    fields = [f for e in payload for f in e.get("fields", [])]
    assert [f["name"] for f in fields] == FIELD_NAMES[lang]
    shown = {f["name"]: f["value"].split("\n") for f in fields}
    for area in AREAS:
        head, *entries = shown[area]
        counts = re.findall(r"\d+", head)
        assert counts, (area, head)  # the counts line: enemy units (HP), soldiers, commanders, PCs
        left = MORE[lang].match(entries[-1]) if entries else None
        listed = len(entries) - (1 if left else 0)
        assert listed >= 4, area  # a fair share each
        assert listed + (int(left.group(1)) if left else 0) == counted_in(doc, area)
    # every kind of thing has a place: PCs and soldiers at F0, commanders, the enemy that hurts most
    f0 = "\n".join(shown["F0"])
    assert "PC" in f0 and "★" in f0 and "兵" in f0
    strongest = max((u for u in doc["units"] if u["area"] == "A2" and not u["destroyed"] and u["arrived"]),
                    key=lambda u: u["fort_damage"])  # fmt: skip
    assert strongest["name"] in "\n".join(shown["A2"])
    assert shown[FIELD_NAMES[lang][7]][1].startswith(("大砲", "Cannons"))  # traps, cannons, ballista: whole
    assert all(f"<@{gm}>" in shown["GM"][0] for gm in gms)
    assert payload[0]["title"].startswith(("【" + "題" * 10, "[" + "題" * 10))
    assert "/砦 状況" in payload[0]["description"] or "/fort status" in payload[0]["description"]


@pytest.mark.parametrize(
    ("units", "name_length"), [(0, 4), (12, 32), (30, 8), (45, 32), (55, 32), (65, 32), (100, 4), (120, 32)]
)
def test_the_live_message_is_the_full_status_whenever_that_fits(units: int, name_length: int) -> None:
    """Compact exactly when the full status (``/fort status``) needs more than one message."""
    doc = fort_document(units=units, commanders=units // 10, pcs=min(units, 20) // 2, name_length=name_length)
    view = StatusView(ruleset="fort", document=doc, gms=("400000000000000001",))
    for lang in ("ja", "en"):
        live = live_message(view, lang)
        payload = [e.to_dict() for e in live.embeds]
        within_one_message(payload)
        full = [e.to_dict() for e in status_embeds(view, lang)]
        try:
            within_one_message(full)
            fits = True
        except AssertionError:
            fits = False
        assert live.compact is not fits, (units, name_length, lang)
        if fits:
            assert payload == full
        names = [f["name"] for e in payload for f in e.get("fields", [])]
        assert all(area in names for area in AREAS)


def test_the_compact_form_renders_only_what_it_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The full form is read line by line and given up past one message (at most 6,000 characters of
    it); the compact form makes only the lines it sends (and one a part that did not fit)."""
    made: list[str] = []
    original = fort_presenter.unit_line

    def counted(unit: dict[str, Any], lang: str) -> str:
        line = original(unit, lang)
        made.append(line)
        return line

    monkeypatch.setattr(fort_presenter, "unit_line", counted)
    import bot.rulesets.fort.discord.live as fort_live

    monkeypatch.setattr(fort_live, "unit_line", counted)
    doc = fort_document()
    live = live_message(StatusView(ruleset="fort", document=doc), "ja")
    sent = sum(
        f["value"].count("\n• ") + f["value"].startswith("• ")
        for e in live.embeds
        for f in e.to_dict()["fields"]
    )
    shortest = min(len(line) for line in made)
    assert len(made) <= sent + MESSAGE_TOTAL // shortest + len(AREAS) + 1
    assert len(made) < len(doc["units"])


async def test_a_big_battle_through_discord_has_a_compact_status_and_a_full_status_button(
    harness: Harness,
) -> None:
    document = json.dumps(fort_document(), ensure_ascii=False).encode()
    imported = await harness.run(GM, "fort import", file=Attachment("big.json", document))
    (post,) = imported.channel
    within_one_message(post.embeds)
    assert buttons(post) == [NEXT, UNDO, REFRESH, FULL]
    # the full status, for the presser only, in as many messages as it takes
    pressed = await harness.press(BOB, FULL)
    messages = [pressed.response, *pressed.followups]
    assert all(m.ephemeral for m in messages) and len(messages) >= 3
    for message in messages:
        within_one_message(message.embeds)
    text = "\n".join(m.text() for m in messages)
    assert all(u["name"] in text for u in fort_document()["units"])
    # the refresh button keeps the compact form and its buttons
    refreshed = await harness.press(ALICE, REFRESH)
    within_one_message(refreshed.embeds)
    assert refreshed.response.type == 7 and buttons(refreshed.response)[-1] == FULL


async def test_a_small_battle_has_no_full_status_button(harness: Harness) -> None:
    started = await harness.run(GM, "fort start", rounds=2)
    (post,) = started.channel
    assert buttons(post) == [NEXT, UNDO, REFRESH]


async def test_a_big_sengensho_battle_keeps_its_hidden_characters_out_of_the_public_message(
    harness: Harness,
) -> None:
    """S-HIDE-1: the live message is public: compact or not, it names no hidden character; the full
    status button shows the presser what they may read (the GM: everything; a player: not others'
    hidden characters), to them only."""
    doc = sengensho_document(hidden_owner=str(ALICE.id))
    hidden = [c["name"] for c in doc["characters"] if c.get("hidden")]
    assert len(hidden) == 8
    document = json.dumps(doc, ensure_ascii=False).encode()
    imported = await harness.run(GM, "sg import", file=Attachment("sg.json", document))
    assert not imported.ephemeral
    (post,) = imported.channel
    within_one_message(post.embeds)
    assert len(post.embeds) == 1 and buttons(post)[-1] == FULL
    public = post.text()
    assert not any(name in public for name in hidden)
    description = post.embeds[0]["description"].split("\n")
    assert description[0].startswith("▶") and description[1].startswith("*")  # the step now, the note
    assert description[-2].startswith("スペルカード") and description[-1].startswith("GM")
    assert any(MORE["ja"].match(line) for line in description)
    # the full status: the GM reads the hidden ones, a player only their own
    gm = await harness.press(GM, FULL)
    gm_text = "\n".join(m.text() for m in [gm.response, *gm.followups])
    assert all(m.ephemeral for m in [gm.response, *gm.followups])
    assert all(name in gm_text for name in hidden)
    player = await harness.press(BOB, FULL)
    player_text = "\n".join(m.text() for m in [player.response, *player.followups])
    assert not any(name in player_text for name in hidden)
    assert all(c["name"] in player_text for c in doc["characters"] if not c.get("hidden"))


def test_the_sengensho_compact_form_reads_each_row_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The full form is read up to one description's worth; the compact form reuses what was read and
    makes only the rows it sends besides (and one a list that did not fit)."""
    made: list[Any] = []
    lengths: list[int] = []
    original = sengensho_text._row

    def counted(c: Any, lang: str, initiative: Any) -> str:
        made.append(c["name"])
        row = original(c, lang, initiative)
        lengths.append(len(row))
        return row

    monkeypatch.setattr(sengensho_text, "_row", counted)
    doc = sengensho_document()
    live = live_message(StatusView(ruleset="sengensho", document=doc), "en")
    within_one_message([e.to_dict() for e in live.embeds])
    assert live.compact
    assert len(made) == len(set(made))  # no row made twice
    sent = sum(1 for name in made if name in (live.embeds[0].description or ""))
    assert len(made) <= sent + DESCRIPTION // min(lengths) + 4
    assert len(made) < len(doc["characters"])


def test_the_issues_battle_keeps_b2_the_equipment_and_the_gms() -> None:
    """40 units and 12 PCs of long names: the message used to end before B2, the equipment and the
    GMs (it kept the first of the status's messages)."""
    doc = fort_document(units=40, pcs=12, commanders=4)
    view = StatusView(ruleset="fort", document=doc, gms=("400000000000000001", "400000000000000002"))
    for lang in ("ja", "en"):
        payload = [e.to_dict() for e in live_message(view, lang).embeds]
        within_one_message(payload)
        names = [f["name"] for e in payload for f in e.get("fields", [])]
        assert {"B2", FIELD_NAMES[lang][7]} <= set(names) and names[-1] == "GM"
        assert "<@400000000000000002>" in payload[-1]["fields"][-1]["value"]


def test_a_rule_set_without_a_live_renderer_shows_its_first_message_and_says_where_the_rest_is() -> None:
    from bot.discord.presenters import generic_presenter

    doc = {f"key{n:03}": "値" * 900 for n in range(30)}  # a rule set with no presenter: every value shown
    view = StatusView(ruleset="sgx-test", document=doc)
    live = live_message(view, "ja")
    payload = [e.to_dict() for e in live.embeds]
    within_one_message(payload)
    assert live.compact and payload[-1]["footer"]["text"].startswith("全部は載りきらない")
    assert payload[0]["title"] == generic_presenter(view.ruleset, None).status(view, "ja")[0].title
    small = StatusView(ruleset="sgx-test", document={"round": 1})
    assert not live_message(small, "en").compact
