"""Real ゆとシートⅡ monster sheets, made by ytsheet2's own code (the fixtures of
tests/sheets/fixtures/ytsheet2/monsters).

Given a ytsheet2 checkout (github yutorize/ytsheet2; the fixtures were made at commit
28d369527f5bc0963e28c37724a958cb2e41d062), this copies its ``_core/`` and ``sw2.5/`` folders to a
temporary folder (``sw2.5/config.cgi`` from ``config.cgi.default``, as its README says), serves ``sw2.5/``
as CGI on 127.0.0.1 (``index.cgi`` run by perl, unmodified; perl needs CGI.pm, Debian's
``libcgi-pm-perl``), and fills in its monster form as a browser would:

1. ``GET ?mode=blanksheet&type=m``: the blank monster form (``_core/lib/sw2/edit-mons.pl``); every
   control of ``<form id="monster">`` is read with its default value, as ``new FormData(form)`` sees it;
2. the monster's values are typed into it, with what the page's script (``edit-mons.js``) does on input:
   a status row added by ``addStatus()`` (its damage ``2d+``, its mount-only 生命/精神抵抗 ``―``), the
   fixed values ``…Fix`` (+7) of 命中力, 回避力 and the resistances, and 部位数 / 内訳 (``partsNum``,
   ``parts``) counted from the rows' 攻撃方法（部位） by ``updatePartsAutomatically()``;
3. ``POST mode=make`` (multipart, as ``formSubmit()`` posts it): ytsheet answers ``{"result":"make",
   "message":<id>}``;
4. what the site serves is written to the output folder, byte for byte:
   ``?id=<id>&mode=json`` as ``<name>.json``, ``?id=<id>&mode=palette&tool=bcdice`` as
   ``<name>.palette.bcdice.txt`` and the same with ``&propertiesall=1`` as ``<name>.palette.bcdice.all.txt``.

Usage::

    python tools/ytsheet2_monsters.py /tmp/ytsheet2 [--out DIR] [--port 8765]

The sheets get a new random id and the time of the run (``birthTime``, ``updateTime``) each time.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "sheets" / "fixtures" / "ytsheet2" / "monsters"
#: where the copy is served, as the earlier fixtures were (their sheetURL)
BASE = "/ytsheet/sw2.5/"
SCRIPT = BASE + "index.cgi"
PASSWORD = "password"
#: a row's 攻撃方法（部位） in the status table (not a mount's level rows, ``status1-2Style``)
_STYLE = re.compile(r"status\d+Style")
#: its part, as the page's script finds it (``style.match(/.*[(（](.+?)[）)]$/)``)
_STYLE_PART = re.compile(r".*[(（](.+?)[）)]\Z")


# --- the monsters -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row of the status table: 攻撃方法（部位）, 命中力, 打撃点, 回避力, 防護点, ＨＰ, ＭＰ."""

    style: str
    accuracy: str = ""
    damage: str = ""
    evasion: str = ""
    defense: str = ""
    hp: str = ""
    mp: str = ""


@dataclass(frozen=True)
class Monster:
    """A monster as typed into the form: ``fields`` by their form names, ``rows`` the status table,
    ``core`` the コア部位, ``skills`` the 特殊能力 (lines), ``loots`` the 戦利品 (roll, item)."""

    name: str
    fields: dict[str, str]
    rows: tuple[Row, ...]
    core: str = ""
    skills: tuple[str, ...] = ()
    loots: tuple[tuple[str, str], ...] = ()


MONSTERS = (
    Monster(
        "goblin",
        {
            "monsterName": "ゴブリン",
            "taxa": "蛮族",
            "lv": "3",
            "intellect": "人間並み",
            "perception": "五感（暗視）",
            "disposition": "敵対的",
            "language": "汎用蛮族語、妖魔語",
            "habitat": "洞窟、森林",
            "reputation": "5",
            "reputation+": "11",
            "weakness": "命中力+1",
            "initiative": "11",
            "mobility": "12",
            "vitResist": "4",
            "mndResist": "3",
        },
        (Row("武器", accuracy="3", damage="2d+3", evasion="3", defense="2", hp="16", mp="12"),),
        skills=("[主]投擲攻撃", "10m（射程1）までの対象に、武器を投げて攻撃できます。"),
        loots=(("2～7", "なし"), ("8～12", "粗末な武器（10G／白A）")),
    ),
    Monster(
        "boggard",
        {
            "monsterName": "ボガード",
            "taxa": "蛮族",
            "lv": "4",
            "intellect": "人間並み",
            "perception": "五感（暗視）",
            "disposition": "敵対的",
            "language": "汎用蛮族語、妖魔語",
            "habitat": "森林、草原",
            "reputation": "10",
            "reputation+": "―",
            "initiative": "12",
            "mobility": "15",
            "vitResist": "6",
            "mndResist": "5",
        },
        (Row("武器", accuracy="5", damage="2d+5", evasion="4", defense="4", hp="27"),),
        skills=("[常]狂戦士", "命中力判定に+1のボーナス修正を得ます。"),
        loots=(("自動", "蛮族の牙（50G／赤A）"),),
    ),
    Monster(
        "griffon",
        {
            "monsterName": "グリフォン",
            "taxa": "幻獣",
            "lv": "8",
            "intellect": "低い",
            "perception": "五感",
            "disposition": "敵対的",
            "language": "なし",
            "habitat": "山岳",
            "reputation": "14",
            "reputation+": "19",
            "weakness": "命中力+1",
            "initiative": "14",
            "mobility": "20（飛行40）",
            "vitResist": "10",
            "mndResist": "9",
        },
        (
            Row(
                "クチバシ（頭部）", accuracy="11", damage="2d+9", evasion="10", defense="7", hp="48", mp="20"
            ),
            Row("爪（胴体）", accuracy="10", damage="2d+8", evasion="9", defense="8", hp="62"),
        ),
        core="頭部",
        skills=(
            "●全身",
            "[常]飛行",
            "●頭部",
            "[主]風の吐息／13（20）／生命抵抗力／半減",
            "射程2(30m)の「2d+8」点の風属性魔法ダメージを与えます。",
        ),
        loots=(
            ("自動", "グリフォンの羽根（200G／赤A）"),
            ("2～9", "なし"),
            ("10～12", "鋭い爪（500G／赤S）"),
        ),
    ),
    Monster(
        "manticore",
        {
            "monsterName": "マンティコア",
            "taxa": "幻獣",
            "lv": "10",
            "intellect": "高い",
            "perception": "五感（暗視）",
            "disposition": "敵対的",
            "language": "汎用蛮族語、魔法文明語",
            "habitat": "荒野",
            "reputation": "16",
            "reputation+": "21",
            "weakness": "物理ダメージ+2点",
            "initiative": "17",
            "mobility": "25（飛行30）",
            "vitResist": "13",
            "mndResist": "12",
        },
        (
            Row("牙（頭部）", accuracy="13", damage="2d+11", evasion="12", defense="9", hp="58", mp="42"),
            Row("爪（胴体）", accuracy="12", damage="2d+12", evasion="11", defense="11", hp="76", mp="18"),
            Row("毒針（尻尾）", accuracy="14", damage="2d+9", evasion="13", defense="6", hp="44"),
        ),
        core="胴体",
        skills=(
            "●頭部",
            "[主]真語魔法8レベル／魔力11（18）",
            "●尻尾",
            "[主]毒針／14（21）／生命抵抗力／消滅",
            "「2d+6」点の毒属性魔法ダメージを与えます。",
        ),
        loots=(("自動", "マンティコアの尾（1800G／赤S）"),),
    ),
)


# --- the CGI server -----------------------------------------------------------------------------


def copy_site(checkout: Path, into: Path) -> Path:
    """``_core/`` and ``sw2.5/`` copied under ``into/ytsheet/``, with a config.cgi; the sw2.5 folder."""
    site = into / "ytsheet"
    for folder in ("_core", "sw2.5"):
        if not (checkout / folder).is_dir():
            raise SystemExit(f"{checkout} is not a ytsheet2 checkout: it has no {folder}/")
        shutil.copytree(checkout / folder, site / folder, ignore=shutil.ignore_patterns(".git"))
    sw25 = site / "sw2.5"
    if not (sw25 / "config.cgi").exists():
        shutil.copyfile(sw25 / "config.cgi.default", sw25 / "config.cgi")
    return sw25


def cgi_handler(sw25: Path, port: int) -> type[BaseHTTPRequestHandler]:
    """A handler that runs ``sw2.5/index.cgi`` (CGI/1.1) for ``BASE`` and ``SCRIPT``, 404 otherwise."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._run()

        def do_POST(self) -> None:
            self._run()

        def _run(self) -> None:
            path, _, query = self.path.partition("?")
            if path not in (BASE, SCRIPT):
                self.send_error(404)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            env = {
                "PATH": "/usr/bin:/bin",
                "LANG": "C.UTF-8",
                "GATEWAY_INTERFACE": "CGI/1.1",
                "SERVER_SOFTWARE": "toride-ytsheet2-fixtures",
                "SERVER_NAME": "127.0.0.1",
                "SERVER_PORT": str(port),
                "SERVER_PROTOCOL": "HTTP/1.1",
                "REQUEST_METHOD": self.command,
                "REQUEST_URI": self.path,
                "SCRIPT_NAME": SCRIPT,
                "SCRIPT_FILENAME": str(sw25 / "index.cgi"),
                "PATH_INFO": "",
                "QUERY_STRING": query,
                "REMOTE_ADDR": "127.0.0.1",
                "HTTP_HOST": self.headers.get("Host", f"127.0.0.1:{port}"),
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(body)),
            }
            if self.headers.get("Cookie"):
                env["HTTP_COOKIE"] = self.headers["Cookie"]
            ran = subprocess.run(
                ["perl", "index.cgi"], cwd=sw25, env=env, input=body, capture_output=True, timeout=60
            )
            if ran.returncode != 0:
                sys.stderr.write(ran.stderr.decode("utf-8", "replace"))
            head, sep, content = ran.stdout.partition(b"\n\n")
            if not sep:
                head, sep, content = ran.stdout.partition(b"\r\n\r\n")
            headers = [line.rstrip(b"\r").decode("latin-1") for line in head.split(b"\n") if line.strip()]
            status = 200
            for line in headers:
                if line.lower().startswith("status:"):
                    status = int(line.split(":", 1)[1].split()[0])
                elif line.lower().startswith("location:"):
                    status = 302
            self.send_response(status if sep else 502)
            for line in headers:
                if not line.lower().startswith("status:"):
                    name, _, value = line.partition(":")
                    self.send_header(name.strip(), value.strip())
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

    return Handler


@contextmanager
def serve(sw25: Path, port: int) -> Iterator[str]:
    """ytsheet2's sw2.5 served on 127.0.0.1:``port``; the URL of its ``index.cgi``."""
    server = ThreadingHTTPServer(("127.0.0.1", port), cgi_handler(sw25, port))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}{SCRIPT}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def fetch(url: str, data: bytes | None = None, content_type: str = "") -> bytes:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
    if content_type:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=60) as answer:
        body: bytes = answer.read()
        return body


# --- the form, as the browser holds it ----------------------------------------------------------


@dataclass
class Control:
    """One form control: ``kind`` is ``input`` (with its ``type``), ``select`` or ``textarea``."""

    kind: str
    name: str
    type: str = "text"
    value: str = ""
    checked: bool = False
    options: list[tuple[str, bool]] = field(default_factory=list)  # (value, selected) of a select


class FormReader(HTMLParser):
    """The controls of ``<form id=...>`` in document order; those in a ``<template>`` are not the form's."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.controls: list[Control] = []
        self._in_form = False
        self._template = 0
        self._select: Control | None = None
        self._option: list[str] | None = None
        self._option_value: str | None = None
        self._option_selected = False
        self._textarea: Control | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self._in_form = True
        if not self._in_form:
            return
        if tag == "template":
            self._template += 1
        if self._template:
            return
        if tag == "option" and self._select is not None:
            self._end_option()
            self._option, self._option_value = [], a.get("value")
            self._option_selected = "selected" in a
        elif tag == "select" and "name" in a:
            self._select = Control("select", a["name"])
        elif tag == "textarea" and "name" in a:
            self._textarea = Control("textarea", a["name"])
            self.controls.append(self._textarea)
        elif tag == "input" and "name" in a:
            kind = a.get("type", "text").lower() or "text"
            self.controls.append(Control("input", a["name"], kind, a.get("value", ""), "checked" in a))

    def handle_endtag(self, tag: str) -> None:
        if not self._in_form:
            return
        if tag == "template":
            self._template -= 1
        elif tag == "option":
            self._end_option()
        elif tag == "select" and self._select is not None:
            self._end_option()
            self.controls.append(self._select)
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._in_form = False

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option.append(data)
        elif self._textarea is not None:
            self._textarea.value += data

    def _end_option(self) -> None:
        if self._option is not None and self._select is not None:
            text = " ".join("".join(self._option).split())
            value = self._option_value if self._option_value is not None else text
            self._select.options.append((value, self._option_selected))
        self._option = None


class Form:
    """The monster form as the page holds it, and what its script does when a value is typed in."""

    def __init__(self, html: str) -> None:
        reader = FormReader("monster")
        reader.feed(html)
        reader.close()
        self.controls = reader.controls
        if not self.controls:
            raise SystemExit("no <form id=monster> in ytsheet's blank sheet")

    def _find(self, name: str) -> Control:
        for control in self.controls:
            if control.name == name and not (control.kind == "input" and control.type == "radio"):
                return control
        raise KeyError(name)

    def value(self, name: str) -> str:
        return self._find(name).value

    def type_in(self, name: str, value: str) -> None:
        """``value`` typed into the field ``name``, with its ``oninput``."""
        control = self._find(name)
        if control.kind == "select":
            if value not in [v for v, _ in control.options]:
                raise SystemExit(f"{name}: {value!r} is not one of its options")
            control.options = [(v, v == value) for v, _ in control.options]
            return
        if control.type == "number" and value != "":
            float(value)  # a browser keeps no other value in a number field
        control.value = value
        fixed = {"vitResist": "vitResistFix", "mndResist": "mndResistFix"}
        if name in fixed:  # calcVit(), calcMnd()
            self._find(fixed[name]).value = "" if value == "" else str(int(value) + 7)
        for n in range(1, self.status_num() + 1):  # calcAcc(n), calcEva(n)
            for what in ("Accuracy", "Evasion"):
                if name == f"status{n}{what}":
                    self._find(f"status{n}{what}Fix").value = "" if value == "" else str(int(value) + 7)
            if name == f"status{n}Style":
                self.update_parts()

    def check(self, name: str, value: str = "1", on: bool = True) -> None:
        """A checkbox ticked (or not), or the radio button of ``value`` chosen."""
        hit = False
        for control in self.controls:
            if control.name == name and control.type == "radio":
                control.checked = control.value == value
                hit = hit or control.checked
            elif control.name == name and control.type == "checkbox":
                control.checked, hit = on, True
        if not hit:
            raise KeyError(name)

    def status_num(self) -> int:
        return int(self.value("statusNum"))

    def add_status(self) -> None:
        """``addStatus()``: a row appended to the status table (its fields after the last row's)."""
        num = self.status_num() + 1
        row = [
            Control("input", f"status{num}Style"),
            Control("input", f"status{num}Accuracy"),
            Control("input", f"status{num}AccuracyFix"),
            Control("input", f"status{num}Damage", value="2d+"),
            Control("input", f"status{num}Evasion"),
            Control("input", f"status{num}EvasionFix"),
            Control("input", f"status{num}Defense"),
            Control("input", f"status{num}Hp"),
            Control("input", f"status{num}Mp"),
            Control("input", f"status{num}Vit", value="―"),
            Control("input", f"status{num}Mnd", value="―"),
        ]
        last = max(i for i, c in enumerate(self.controls) if c.name.startswith(f"status{num - 1}"))
        self.controls[last + 1 : last + 1] = row
        self._find("statusNum").value = str(num)
        self.update_parts()

    def add_loots(self) -> None:
        """``addLoots()``: a row appended to the 戦利品 (its roll and its item, each after the last)."""
        num = int(self.value("lootsNum")) + 1
        for what in ("Num", "Item"):
            after = self.controls.index(self._find(f"loots{num - 1}{what}"))
            self.controls.insert(after + 1, Control("input", f"loots{num}{what}"))
        self._find("lootsNum").value = str(num)

    def update_parts(self) -> None:
        """``updatePartsAutomatically()``: 部位数 is the rows, 内訳 their parts (``頭部／胴体``, ``脚×2``)."""
        if self._find("partsManualInput").checked:
            return
        styles = [c.value.strip() for c in self.controls if _STYLE.fullmatch(c.name)]
        names = []
        for style in styles:
            found = _STYLE_PART.search(style)
            if found:
                names.append(found.group(1).strip())
        texts: list[str] = []
        for name in names:
            last = texts[-1] if texts else ""
            base, _, times = last.partition("×")
            if texts and base == name:
                texts[-1] = f"{name}×{int(times or 1) + 1}"
            else:
                texts.append(name)
        self._find("partsNum").value = str(len(styles))
        self._find("parts").value = "／".join(texts)

    def form_data(self) -> list[tuple[str, str]]:
        """``new FormData(form)``: each control's name and value; a checkbox or radio only if checked,
        a select its selected option (the first if none is), a textarea with CR LF new lines."""
        out = []
        for c in self.controls:
            if c.kind == "select":
                chosen = [v for v, on in c.options if on] or [v for v, _ in c.options[:1]]
                out += [(c.name, chosen[-1])] if chosen else []
            elif c.kind == "textarea":
                out.append((c.name, c.value.replace("\r\n", "\n").replace("\n", "\r\n")))
            elif c.type in ("checkbox", "radio"):
                out += [(c.name, c.value or "on")] if c.checked else []
            elif c.type not in ("button", "submit", "reset", "image", "file"):
                out.append((c.name, c.value))
        return out


def multipart(pairs: Sequence[tuple[str, str]]) -> tuple[bytes, str]:
    """The body and content type of a ``multipart/form-data`` post of ``pairs``."""
    boundary = "----toride" + uuid.uuid4().hex
    chunks = []
    for name, value in pairs:
        chunks.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def fill_in(form: Form, monster: Monster) -> None:
    """``monster`` typed into the blank form, as a person would with the page's script running."""
    form.check("protect", "password")
    form.type_in("pass", PASSWORD)
    for name, value in monster.fields.items():
        form.type_in(name, value)
    for n, row in enumerate(monster.rows, 1):
        if n > 1:
            form.add_status()
        form.type_in(f"status{n}Style", row.style)
        values = {"Accuracy": row.accuracy, "Damage": row.damage, "Evasion": row.evasion}
        values |= {"Defense": row.defense, "Hp": row.hp, "Mp": row.mp}
        for what, value in values.items():
            form.type_in(f"status{n}{what}", value)
    form.type_in("coreParts", monster.core)
    form.type_in("skills", "\n".join(monster.skills))
    for n, (roll, item) in enumerate(monster.loots, 1):
        if n > int(form.value("lootsNum")):
            form.add_loots()
        form.type_in(f"loots{n}Num", roll)
        form.type_in(f"loots{n}Item", item)
    # the chat palette: ytsheet's variables, for BCDice (as the earlier fixtures)
    form.check("paletteUseVar")
    form.check("paletteTool", "bcdice")


def make(url: str, monster: Monster, out: Path) -> str:
    """``monster`` made through ytsheet's form, and what the site serves for it written to ``out``."""
    blank = fetch(f"{url}?mode=blanksheet&type=m").decode("utf-8")
    form = Form(blank)
    fill_in(form, monster)
    body, content_type = multipart(form.form_data())
    answer = json.loads(fetch(url.rsplit("/", 1)[0] + "/", body, content_type))  # the form's action "./"
    if answer.get("result") != "make":
        raise SystemExit(f"{monster.name}: ytsheet did not make the sheet: {answer}")
    sheet_id = answer["message"]
    query = urllib.parse.quote(sheet_id)
    served = {
        "json": "mode=json",
        "palette.bcdice.txt": "mode=palette&tool=bcdice",
        "palette.bcdice.all.txt": "mode=palette&tool=bcdice&propertiesall=1",
    }
    for suffix, mode in served.items():
        (out / f"{monster.name}.{suffix}").write_bytes(fetch(f"{url}?id={query}&{mode}"))
    document = json.loads((out / f"{monster.name}.json").read_text(encoding="utf-8"))
    if document.get("result") != "OK":
        raise SystemExit(f"{monster.name}: ytsheet's JSON says {document.get('result')}")
    return str(sheet_id)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a ytsheet2 checkout (with _core/ and sw2.5/)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the files go (default {OUT})")
    parser.add_argument("--port", type=int, default=8765, help="the port on 127.0.0.1 (default 8765)")
    parser.add_argument("--only", nargs="*", help="make only these monsters")
    args = parser.parse_args(argv)
    if shutil.which("perl") is None:
        raise SystemExit("perl is needed (apt-get install perl libcgi-pm-perl)")
    if subprocess.run(["perl", "-MCGI", "-e", "1"], capture_output=True).returncode != 0:
        raise SystemExit("perl's CGI module is needed (apt-get install libcgi-pm-perl)")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        sw25 = copy_site(args.checkout.resolve(), Path(temp))
        with serve(sw25, args.port) as url:
            for monster in MONSTERS:
                if args.only and monster.name not in args.only:
                    continue
                sheet_id = make(url, monster, args.out)
                print(f"{monster.name}: id {sheet_id}")


if __name__ == "__main__":
    main()
