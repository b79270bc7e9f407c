"""Proof 2 of issue 12: refused commands through the console, in both languages, each answered with an
exact sentence: what was wrong and what is allowed, in the catalogue's words (no key, code, ``-`` or
Python value). A refusal changes nothing: the battle's export is the same before and after them.

Each phase runs as one scripted console (``toride console``, stdin not a terminal) on the same database:
``STEPS`` set the battle up (their replies are other tests' business), ``REFUSED`` lines must each
answer with exactly one line, the expected one. The consoles run in this process (``console_run``: the
program's own entry point on a fresh database file); ``test_console_process`` shows that the program
answers a phase of them alike.
"""

# ruff: noqa: E501  (the expected sentences are kept whole, one per line)
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from console_run import console

#: documents for /fort import that are wrong in one place each
FILES: dict[str, Any] = {
    "bad_area.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [
            {"name": "a", "type": "normal", "area": "A1", "hp": 5, "fort_damage": 1},
            {"name": "b", "type": "normal", "area": "Z9", "hp": 5, "fort_damage": 1},
        ],
    },
    "bad_hp.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [
            {"name": "a", "type": "normal", "area": "A1", "hp": 5, "fort_damage": 1},
            {"name": "b", "type": "normal", "area": "A1", "hp": 5, "fort_damage": 1},
            {"name": "c", "type": "normal", "area": "A1", "hp": "abc", "fort_damage": 1},
        ],
    },
    "bad_turn.json": {"format": "toride.fort/1", "rounds": 3, "turn": "later"},
    "bad_dice.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "units": [
            {"name": "a", "type": "normal", "area": "A1", "hp": 5, "fort_damage": 1, "strike": "99999d6"}
        ],
    },
    "bad_rounds.json": {"format": "toride.fort/1", "rounds": 300},
    "bad_outcome.json": {"format": "toride.fort/1", "rounds": 3, "turn": "ended", "outcome": "won"},
    "bad_ballista.json": {"format": "toride.fort/1", "rounds": 3, "ballista": {"loaded": "yes"}},
    "bad_edge.json": {
        "format": "toride.fort/1",
        "rounds": 3,
        "traps": [{"kind": "mine", "edge": "A1-B2", "uses": 1}],
    },
}
TEXT_FILES = {"not_object.json": "[1, 2]", "not_json.json": '{"rounds": 3,'}

Refused = list[tuple[str, str, str]]  # (line, Japanese reply, English reply)

#: no battle in the channel yet: imports that are wrong in one place, commands that need a battle
NO_BATTLE: Refused = [
    (
        "/fort import file:bad_area.json",
        "⚠ 読み込めない戦闘データです。2番目のユニットのエリア: エリア「Z9」はありません。使えるもの: A2、A1、F0、B1、B2。",
        '⚠ The battle document cannot be imported (the area of the 2nd unit): There is no area "Z9". Areas: A2, A1, F0, B1, B2.',
    ),
    (
        "/fort import file:bad_hp.json",
        "⚠ 読み込めない戦闘データです。3番目のユニットのHP: 整数ではありません。",
        "⚠ The battle document cannot be imported (the HP of the 3rd unit): it is not a whole number.",
    ),
    (
        "/fort import file:bad_turn.json",
        "⚠ 読み込めない戦闘データです。手番(「turn」): 使えるのはpc(PC側)、enemy(敵側)、ended(戦闘終了)です。",
        "⚠ The battle document cannot be imported (the turn): the allowed values are pc (PC side), enemy (enemy side), ended (battle over).",
    ),
    (
        "/fort import file:bad_dice.json",
        "⚠ 読み込めない戦闘データです。1番目のユニットの打撃点: ダメージの式「99999d6」が使えません(ダイスが多すぎます)。例: 2d+10、K40+12@10。",
        '⚠ The battle document cannot be imported (the strike of the 1st unit): The damage expression "99999d6" cannot be used (too many dice). For example: 2d+10, K40+12@10.',
    ),
    (
        "/fort import file:bad_rounds.json",
        "⚠ 読み込めない戦闘データです。ラウンド数: 1から99までの整数にしてください。",
        "⚠ The battle document cannot be imported (the number of rounds): it must be a whole number from 1 to 99.",
    ),
    (
        "/fort import file:bad_outcome.json",
        "⚠ 読み込めない戦闘データです。結果(「outcome」): 使えるのはsuccess(防衛成功)、collapse(砦崩壊)、retreat(撤退)です。",
        "⚠ The battle document cannot be imported (the outcome): the allowed values are success (the defense held), collapse (the fort collapsed), retreat.",
    ),
    (
        "/fort import file:bad_ballista.json",
        "⚠ 読み込めない戦闘データです。バリスタの装填: 「true」か「false」ではありません。",
        "⚠ The battle document cannot be imported (the loaded flag of the ballista): it is not true or false.",
    ),
    (
        "/fort import file:bad_edge.json",
        "⚠ 読み込めない戦闘データです。1番目の罠の経路: 「A1-B2」は隣り合うエリアを結ぶ経路ではありません。使えるもの: A2-A1、A1-F0、F0-B1、B1-B2、A1-B1、A2-B2。",
        '⚠ The battle document cannot be imported (the edge of the 1st trap): "A1-B2" does not join two adjacent areas. Edges: A2-A1, A1-F0, F0-B1, B1-B2, A1-B1, A2-B2.',
    ),
    (
        "/fort import file:not_object.json",
        "⚠ 「ファイル:」のJSONが戦闘データ(JSONのオブジェクト)ではありません。/砦 書き出し か /千幻抄 書き出し で書き出したファイルを指定してください。",
        "⚠ The JSON of file: is not a battle (a JSON object). Give a file written by /fort export or /sg export.",
    ),
    (
        "/fort import file:not_json.json",
        "⚠ 「ファイル:」のJSONが読めません(1行目 14文字目で書き方が崩れています)。/砦 書き出し か /千幻抄 書き出し で書き出したファイルを指定してください。",
        "⚠ The JSON of file: cannot be read (it goes wrong at line 1, column 14). Give a file written by /fort export or /sg export.",
    ),
    (
        "/fort import file:missing.json",
        "⚠ ファイル {tmp}/missing.jsonがありません(相対パスはコンソールを起動したフォルダーから数えます)。",
        "⚠ There is no file {tmp}/missing.json (a relative path starts from the folder the console was started in).",
    ),
    (
        "/fort status",
        "⚠ このチャンネルでは戦闘が行われていません。砦防衛戦は /砦 開始、千幻抄は /千幻抄 開始 で始めます。",
        "⚠ No battle is running in this channel. /fort start begins a fort battle, /sg start a 千幻抄 one.",
    ),
    (
        "/fort next",
        "⚠ このチャンネルでは戦闘が行われていません。砦防衛戦は /砦 開始、千幻抄は /千幻抄 開始 で始めます。",
        "⚠ No battle is running in this channel. /fort start begins a fort battle, /sg start a 千幻抄 one.",
    ),
    (
        "/fort start rounds:0",
        "⚠ 「ラウンド数:」は1から99までです(「0」)。",
        '⚠ rounds: goes from 1 to 99 ("0").',
    ),
    (
        "/fort start rounds:3 first:later",
        "⚠ 「先攻:」はPC側・敵側のどれかです(「later」)。",
        '⚠ first: is one of pc | enemy ("later").',
    ),
    (
        "/fort start rounds:3 fort_hp:-1",
        "⚠ 「砦hp:」は1から100000までです(「-1」)。",
        '⚠ fort_hp: goes from 1 to 100000 ("-1").',
    ),
    (
        "/frobnicate",
        "⚠ /frobnicate というコマンドはありません。/ヘルプ で一覧を表示します。",
        "⚠ There is no command /frobnicate. /help lists them.",
    ),
]

#: a battle running, PC side's turn of round 1 (the GM acts; @bob is a player)
RUNNING: Refused = [
    (
        "/gm set target:fort.hp value:abc",
        "⚠ fort.hpに「abc」は設定できません(整数ではありません)。",
        '⚠ fort.hp cannot be set to "abc" (it is not a whole number).',
    ),
    (
        "/gm set target:unit.ゴブリン.area value:Z9",
        "⚠ unit.ゴブリン.areaに「Z9」は設定できません(エリア「Z9」はありません。使えるもの: A2、A1、F0、B1、B2)。",
        '⚠ unit.ゴブリン.area cannot be set to "Z9" (There is no area "Z9". Areas: A2, A1, F0, B1, B2).',
    ),
    (
        "/gm set target:round value:0",
        "⚠ roundに「0」は設定できません(1から3までの整数にしてください)。",
        '⚠ round cannot be set to "0" (it must be a whole number from 1 to 3).',
    ),
    (
        "/gm set target:ballista.loaded value:maybe",
        "⚠ ballista.loadedに「maybe」は設定できません(「true」か「false」ではありません)。",
        '⚠ ballista.loaded cannot be set to "maybe" (it is not true or false).',
    ),
    (
        "/gm set target:turn value:later",
        "⚠ turnに「later」は設定できません(使えるのはpc(PC側)、enemy(敵側)、ended(戦闘終了)です)。",
        '⚠ turn cannot be set to "later" (the allowed values are pc (PC side), enemy (enemy side), ended (battle over)).',
    ),
    (
        "/gm set target:nothing value:1",
        # issue 38, item 3: the targets as the reader types them (bot.gm_targets)
        "⚠ 設定先「nothing」が分かりません。使えるもの: 砦HP、砦の最大HP、ラウンド、ラウンド数、手番、先攻、"
        "タイトル、結果、大砲の数、大砲1.砲弾、大砲2.砲弾、バリスタ.装填、バリスタ.太矢、バリスタ.魔力の太矢使用済み、"
        "砦の修理ラウンド、混乱ラウンド、<ユニット名>.HP・エリア・行動済み・移動距離・弱点・位置・足止め・最大HP・"
        "砦ダメージ・打撃点・防護点・移動力・タイプ・到着ラウンド・到着済み・撃破済み、<PC名>.位置・エリア・HP・"
        "移動距離・MP・回避力・防護点・最大HP・移動力・持ち主・最大MP・生命抵抗力・精神抵抗力・先制力・魔物知識・"
        "冒険者レベル、<指揮官名>.HP・エリア・鼓咆・最大HP",
        '⚠ Unknown target "nothing". Targets: fort.hp, fort.max_hp, round, rounds, turn, first, title, outcome, '
        "cannons, cannon.1.shells, cannon.2.shells, ballista.loaded, ballista.bolt, ballista.magic_bolt_used, "
        "fort.repaired_round, confused_round, unit.<unit>.hp|area|acted|moved_m|weakness|position|halted|max_hp|"
        "fort_damage|strike|defense|move|type|arrive_round|arrived|destroyed, pc.<PC>.position|area|hp|moved_m|mp|"
        "evasion|defense|max_hp|move|owner|max_mp|vit_resist|mnd_resist|initiative|monster_lore|level, "
        "commander.<commander>.hp|area|horn|max_hp",
    ),
    (
        "/gm set target:cannon.1.shells value:9",
        "⚠ cannon.1.shellsに「9」は設定できません(0から5までの整数にしてください)。",
        '⚠ cannon.1.shells cannot be set to "9" (it must be a whole number from 0 to 5).',
    ),
    (
        "/gm set target:unit.ゴブリン.hp value:31",
        "⚠ unit.ゴブリン.hpに「31」は設定できません(0から30までの整数にしてください)。",
        '⚠ unit.ゴブリン.hp cannot be set to "31" (it must be a whole number from 0 to 30).',
    ),
    (
        "/pc add name:カイ hp:-5",
        "⚠ 「hp:」は0から100000までです(「-5」)。",
        '⚠ hp: goes from 0 to 100000 ("-5").',
    ),
    (
        "/unit add name:X type:normal area:A1 hp:-5 fort_damage:10",
        "⚠ 「hp:」は1から100000までです(「-5」)。",
        '⚠ hp: goes from 1 to 100000 ("-5").',
    ),
    (
        "/unit add name:X type:normal area:A1 hp:5 fort_damage:-10",
        "⚠ 「砦ダメージ:」は0から100000までです(「-10」)。",
        '⚠ fort_damage: goes from 0 to 100000 ("-10").',
    ),
    (
        "/unit add name:X type:normal area:A1 hp:5 fort_damage:10 arrive_round:0",
        "⚠ 「到着ラウンド:」は1から100000までです(「0」)。",
        '⚠ arrive_round: goes from 1 to 100000 ("0").',
    ),
    (
        "/unit add name:X type:normal area:A1 hp:5 fort_damage:10 arrive_round:9",
        "⚠ 増援ラウンド 9は使えません(現在 第1ラウンド、全3ラウンド)。",
        "⚠ Arrival round 9 cannot be used (now round 1 of 3).",
    ),
    (
        "/unit add name:X type:normal area:Z9 hp:5 fort_damage:10",
        "⚠ エリア「Z9」はありません。使えるもの: A2、A1、F0、B1、B2",
        '⚠ There is no area "Z9". Areas: A2, A1, F0, B1, B2',
    ),
    (
        "/unit add name:X type:dragon area:A1 hp:5 fort_damage:1",
        "⚠ 「タイプ:」は通常・破城槌・飛行・兵士のどれかです(「dragon」)。",
        '⚠ type: is one of normal | ram | flying | soldier ("dragon").',
    ),
    (
        "/unit add name:X type:normal area:F0 hp:5 fort_damage:1",
        "⚠ Xは敵なので、F0には置けません。敵のユニットと指揮官はF0以外のエリアに置いてください。",
        "⚠ X is an enemy and cannot start at F0. Place enemy units and commanders in another area.",
    ),
    (
        "/unit add name:あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめも type:normal area:A1 hp:5 fort_damage:1",
        "⚠ 「あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめも」という名前は使えません。名前は1〜32文字で、改行などの制御文字は使えません。",
        '⚠ The name "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめも" cannot be used: names are 1 to 32 characters, without line breaks or other control characters.',
    ),
    (
        "/unit add name:アリス type:normal area:A1 hp:5 fort_damage:1",
        "⚠ 「アリス」という名前はもう使われています。",
        '⚠ The name "アリス" is already taken.',
    ),
    ("/cannon load cannon:9", "⚠ 大砲9はありません(大砲は2門)。", "⚠ There is no cannon 9 (there are 2)."),
    (
        "/cannon load cannon:abc",
        "⚠ 「砲番号:」には整数を指定してください(「abc」は整数ではありません)。",
        '⚠ cannon: takes a whole number ("abc" is not one).',
    ),
    (
        "/cannon fire cannon:1 unit:ゴブリン",
        "⚠ 大砲1に砲弾がありません。先に /大砲 装填 を。",
        "⚠ Cannon 1 has no shells; /cannon load first.",
    ),
    (
        "/fort heal amount:-5",
        "⚠ 「量:」は0から100000までです(「-5」)。",
        '⚠ amount: goes from 0 to 100000 ("-5").',
    ),
    (
        "/fort start rounds:3",
        "⚠ このチャンネルではすでに戦闘中です(1チャンネルに1つ)。/砦 終了 か /千幻抄 終了 で終えてから始めてください。",
        "⚠ A battle is already running in this channel (one per channel). End it with /fort end or /sg end first.",
    ),
    (
        "/pc move name:アリス position:inside area:A1",
        "⚠ アリスはF0(砦上部)にいます。位置: はF0での位置なので、エリア:A1と一緒には使えません。A1へ移動するなら エリア: だけを、位置を変えるなら 位置: だけを指定してください。",
        "⚠ アリス is at F0 (top). position: is a place at F0, so it cannot go with area:A1. To move to A1, give area: alone; to change position, give position: alone.",
    ),
    ("/pc move name:誰か area:A1", "⚠ 「誰か」というPCはいません。", '⚠ There is no PC "誰か".'),
    (
        "/attack single unit:ゴブリン bodies:11",
        "⚠ 「体数:」は1から10までです(「11」)。",
        '⚠ bodies: goes from 1 to 10 ("11").',
    ),
    (
        "/attack single unit:ゴブリン bodies:3 melee:maybe",
        "⚠ 「近接:」には「はい」か「いいえ」(true・false)を指定してください(「maybe」)。",
        '⚠ melee: takes true or false ("maybe").',
    ),
    (
        "/attack area unit:ゴブリン damage:99999d6 radius:3",
        "⚠ ダメージの式「99999d6」が使えません(ダイスが多すぎます)。例: 2d+10、K40+12@10",
        '⚠ The damage expression "99999d6" cannot be used (too many dice). For example: 2d+10, K40+12@10',
    ),
    (
        "/attack area unit:ゴブリン damage:2d+3>=5 radius:3",
        "⚠ ダメージの式「2d+3>=5」が使えません(ダメージになる式ではありません: 威力表(K40+12@10)か合計(2d+10)で、比較(>=)なし)。例: 2d+10、K40+12@10",
        '⚠ The damage expression "2d+3>=5" cannot be used (it is not damage: a rating roll (K40+12@10) or a sum (2d+10), without a comparison (>=)). For example: 2d+10, K40+12@10',
    ),
    (
        "/trap set kind:spike edge:A1-F0 uses:1",
        "⚠ 「種類:」はバリケード・地雷のどれかです(「spike」)。",
        '⚠ kind: is one of barricade | mine ("spike").',
    ),
    (
        "/trap set kind:mine edge:A1-B2 uses:1",
        "⚠ 「A1-B2」は隣り合うエリアを結ぶ経路ではありません。使えるもの: A2-A1、A1-F0、F0-B1、B1-B2、A1-B1、A2-B2",
        '⚠ "A1-B2" does not join two adjacent areas. Edges: A2-A1, A1-F0, F0-B1, B1-B2, A1-B1, A2-B2',
    ),
    (
        "/trap set kind:mine edge:A1-F0 uses:0",
        "⚠ 「回数:」は1から99までです(「0」)。",
        '⚠ uses: goes from 1 to 99 ("0").',
    ),
    (
        "@bob /unit move unit:ゴブリン to:F0",
        "⚠ /ユニット 移動 はGMだけが使えます(この戦闘のGM: gm)。",
        "⚠ /unit move is for the GMs only (this battle's GMs: gm).",
    ),
    (
        "@bob /fort next",
        "⚠ /砦 次へ はGMだけが使えます(この戦闘のGM: gm)。",
        "⚠ /fort next is for the GMs only (this battle's GMs: gm).",
    ),
    (
        "@bob /pc move name:アリス position:inside",
        "⚠ アリスは他のプレイヤーのPCです。操作できるのは持ち主とGMだけです。",
        "⚠ アリス is another player's PC. Only its owner or a GM may run it.",
    ),
    (
        "/fort repair",
        "⚠ 砦のHPは最大です(300/300)。緊急修繕は使わずに取っておきます。",
        "⚠ The fort is at full HP (300/300): the emergency repair is kept for later.",
    ),
    (
        "/ballista fire unit:ゴブリン",
        "⚠ バリスタが装填されていません。先に /バリスタ 装填 を。",
        "⚠ The ballista is not loaded; /ballista load first.",
    ),
    (
        "/fort frobnicate",
        "⚠ /砦 に「frobnicate」はありません。使えるもの: 終了、書き出し、回復、読み込み、記録、戦場図、次へ、防衛予測、修繕、攻城、開始、状況",
        '⚠ /fort has no "frobnicate". It has: end, export, heal, import, log, map, next, odds, repair, siege, start, status',
    ),
    (
        "/fort log last:500",
        "⚠ 「件数:」は1から200までです(「500」)。",
        '⚠ last: goes from 1 to 200 ("500").',
    ),
    (
        "/roll expr:2d6+",
        "⚠ 「2D6+」はソード・ワールド2.5のダイスコマンドとして読めません。",
        '⚠ "2D6+" is not a Sword World 2.5 dice command.',
    ),
    ("/unit hp unit:ゴブリン", "⚠ 増減、設定値のどちらかを指定してください。", "⚠ Give one of delta, set."),
    (
        "/fort siege effect:fixed",
        "⚠ 「確定ダメージ」には 量:(砦に与える点数)が必要です。",
        '⚠ The effect "fixed amount" needs amount: (the fixed damage to the fort).',
    ),
    ("/gm undo steps:0", "⚠ 「回数:」は1から100までです(「0」)。", '⚠ steps: goes from 1 to 100 ("0").'),
    (
        "/commander hp name:隊長 delta:x",
        "⚠ 「増減:」には整数を指定してください(「x」は整数ではありません)。",
        '⚠ delta: takes a whole number ("x" is not one).',
    ),
    (
        "/fort next extra:1",
        "⚠ /砦 次へ にextraというオプションはありません。/砦 次へ はオプションなしで使います。",
        "⚠ /fort next has no option extra. /fort next takes no options.",
    ),
    (
        "/unit move unit:ゴブリン to:Q1",
        "⚠ エリア「Q1」はありません。使えるもの: A2、A1、F0、B1、B2",
        '⚠ There is no area "Q1". Areas: A2, A1, F0, B1, B2',
    ),
    (
        "/unit attack attacker:ゴブリン target:ゴブリン",
        "⚠ ゴブリンとゴブリンは同じ陣営です。",
        "⚠ ゴブリン and ゴブリン are on the same side.",
    ),
    (
        "/ballista load bolt:竜牙の太矢",
        "⚠ 〈竜牙の太矢〉はバリスタに使えません。",
        "⚠ The bolt 竜牙の太矢 cannot be used in the ballista.",
    ),
    (
        "/fort status title:x title:y",
        "⚠ オプション「タイトル:」が2回指定されています。1回だけ書いてください。",
        "⚠ The option title: is given twice; give it once.",
    ),
]

#: the ballista loaded with a bolt named 太矢
LOADED: Refused = [
    (
        "/ballista load",
        "⚠ バリスタはすでに装填済みです(太矢: 太矢)。",
        "⚠ The ballista is already loaded (bolt: 太矢).",
    ),
]

#: every commander down, the enemy side's turn: the enemy is confused (F-UNIT-12)
CONFUSED: Refused = [
    (
        "/unit advance",
        "⚠ 敵は混乱中のため、第1ラウンドの敵の手番には敵ユニットは移動しません。",
        "⚠ The enemy is confused: no enemy unit moves in round 1's enemy turn.",
    ),
    (
        "/unit move unit:ゴブリン to:A1",
        "⚠ 敵は混乱中で、ゴブリンは第1ラウンドには移動できません。",
        "⚠ The enemy is confused: ゴブリン cannot move in round 1.",
    ),
    (
        "@bob /fort repair",
        "⚠ 今は敵側の手番です(第1ラウンド)。その行動は自分の側の手番に行ってください。",
        "⚠ It is the enemy side's turn (round 1): take this action in your side's turn.",
    ),
]

#: the battle ended by the GM without an outcome
ENDED: Refused = [
    (
        "/fort next",
        "⚠ この戦闘は終わっています。GMは /gm 上書き や /gm 取り消し、/砦 終了 結果: が使えます。",
        "⚠ This battle is over. The GM may still use /gm set, /gm undo or /fort end outcome:.",
    ),
    (
        "/unit add name:Y type:normal area:A1 hp:5 fort_damage:1",
        "⚠ この戦闘は終わっています。GMは /gm 上書き や /gm 取り消し、/砦 終了 結果: が使えます。",
        "⚠ This battle is over. The GM may still use /gm set, /gm undo or /fort end outcome:.",
    ),
]

SETUP = [
    "/fort start rounds:3 fort_hp:300 title:北の砦",
    "/pc add name:アリス position:top hp:30",
    "@bob /pc add name:ボブ position:top",
    "/unit add name:ゴブリン type:normal area:A1 hp:30 fort_damage:10 defense:2 strike:2d+3",
    "/unit add name:兵 type:soldier area:F0 hp:20 fort_damage:0",
    "/commander add name:隊長 hp:20 area:A2",
]

LOAD = [
    "/trap set kind:mine edge:A1-F0 uses:1",
    "/unit move unit:ゴブリン to:F0",
    "/cannon load cannon:1 check:15",
    "/ballista load bolt:太矢",
]

CONFUSE = [
    "/commander hp name:隊長 set:0",
    "/fort next",
]

END = [
    "/gm set target:turn value:ended",
]

#: the phases in order: lines whose replies are not checked, and refused lines
PHASES: list[tuple[list[str], Refused]] = [
    ([], NO_BATTLE),
    (SETUP, RUNNING),
    (LOAD, LOADED),
    (CONFUSE, CONFUSED),
    (END, ENDED),
]


def _run(db: Path, lang: str, lines: list[str], *args: str) -> list[str]:
    done = console(db, "".join(line + "\n" for line in lines), "--lang", lang, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _export(db: Path, lang: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads("\n".join(_run(db, lang, ["/fort export"])))
    return document


def test_there_are_forty_kinds_of_mistake_and_more() -> None:
    refused = [line for _, lines in PHASES for line, _, _ in lines]
    assert len(refused) >= 40
    assert len({line.split(":")[0] for line in refused}) >= 20  # many different commands


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_refusal_is_an_exact_sentence_and_changes_nothing(tmp_path: Path, lang: str) -> None:
    for name, document in FILES.items():
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
    for name, text in TEXT_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    db = tmp_path / "battle.db"
    column = 1 if lang == "ja" else 2
    for steps, refused in PHASES:
        if steps:
            _run(db, lang, steps, "--dice", "3,3")
        before = _export(db, lang) if steps else None
        commands = [entry[0] for entry in refused]
        expected = [entry[column].replace("{tmp}", str(tmp_path)) for entry in refused]
        replies = _run(db, lang, commands)
        assert len(replies) == len(commands), replies  # one line each
        assert list(zip(commands, replies, strict=True)) == list(zip(commands, expected, strict=True))
        if before is not None:
            assert _export(db, lang) == before  # every refusal changed nothing
