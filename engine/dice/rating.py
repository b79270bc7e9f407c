"""Rating rolls (威力表, ``K40+12@10``) exactly as BCDice's SwordWorld2.5 rolls them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice.arith import (
    Cursor,
    ParseFailure,
    Round,
    format_modifier,
    parse_modifier,
    parse_unary,
    starts_unary,
    tokenize,
)
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource
from engine.dice.table import KEY_MAX, RATING

FUMBLE_TEXT = "自動的失敗"
NO_CRITICAL = 13


@dataclass(frozen=True, slots=True)
class RatingCommand:
    """A parsed rating command; ``roll`` rolls it. Field names follow BCDice's RatingParsed."""

    rate: int
    critical: int
    modifier: int
    kept_modify: int  # #n: added to every roll (v2.5)
    first_to: int  # $n: the first roll becomes n
    first_modify: int  # $+n / $-n: added to the first roll
    first_modify_ssp: int  # $~+n: added to the first roll when it is 10 or less
    rateup: int  # rN: key number rises by N per critical
    greatest_fortune: bool  # gf: one die, doubled
    semi_fixed_val: int  # sfN: one die is always N
    tmp_fixed_val: int  # tfN: one die is N on the first roll
    half: int | None  # H / Hn: halve, then add n
    one_and_a_half: int | None  # OH / OHn: times 1.5, then add n
    label: str

    @property
    def min_critical(self) -> int:
        if self.semi_fixed_val <= 1:
            return 3
        return max(3, min(13, self.semi_fixed_val + self.kept_modify + 2))

    def check(self) -> None:
        """The errors BCDice reports instead of rolling."""
        if self.rate > KEY_MAX:
            raise DiceError("dice.keynumber_exceeds", key_max=KEY_MAX)
        if self.critical < self.min_critical:
            raise DiceError("dice.infinite_critical", min_critical=self.min_critical)

    def _roll_dice(self, dice: DiceSource, round_: int, rands: list[tuple[int, int]]) -> tuple[int, str]:
        if self.semi_fixed_val > 0:
            d = dice.roll(6)
            rands.append((6, d))
            return d + self.semi_fixed_val, f"{d},{self.semi_fixed_val}"
        if round_ == 0 and self.tmp_fixed_val > 0:
            d = dice.roll(6)
            rands.append((6, d))
            return d + self.tmp_fixed_val, f"{d},{self.tmp_fixed_val}"
        if self.greatest_fortune:
            d = dice.roll(6)
            rands.append((6, d))
            return d * 2, f"{d},{d}"
        a = dice.roll(6)
        b = dice.roll(6)
        rands.append((6, a))
        rands.append((6, b))
        return a + b, f"{a},{b}"

    def roll(self, dice: DiceSource, command: str, secret: bool, comment: str) -> RollResult:
        """Rolls the command (``_roll_rounds``) and writes BCDice's result text: the rolls, the table's
        values (``_formula``), the criticals and the total (``_total``); 自動的失敗 when the rolls add up
        to 2 or less (a 1ゾロ first)."""
        rands: list[tuple[int, int]] = []
        dice_texts: list[str] = []
        dice_totals: list[str] = []
        rate_results: list[str] = []
        rating_total, dice_only_total, rounds = self._roll_rounds(
            dice, rands, dice_texts, dice_totals, rate_results
        )
        parts = [f"2D:[{' '.join(dice_texts)}]={','.join(dice_totals)}"]
        if dice_only_total <= 2:
            parts.append(",".join(rate_results))
            parts.append(FUMBLE_TEXT)
            return RollResult(
                kind=RollKind.RATING,
                command=command,
                text=f"{self.label} ＞ {' ＞ '.join(parts)}",
                total=None,
                fumble=True,
                failure=False,
                secret=secret,
                rands=tuple(rands),
                comment=comment,
            )
        formula = self._formula(rate_results)
        if formula is not None:
            parts.append(formula)
        if rounds > 1:
            parts.append(f"{rounds - 1}回転")
        total, total_text = self._total(rating_total)
        parts.append(total_text or str(total))
        return RollResult(
            kind=RollKind.RATING,
            command=command,
            text=f"{self.label} ＞ {' ＞ '.join(parts)}",
            total=total,
            critical=rounds > 1,
            secret=secret,
            rands=tuple(rands),
            comment=comment,
        )

    def _roll_rounds(
        self,
        dice: DiceSource,
        rands: list[tuple[int, int]],
        dice_texts: list[str],
        dice_totals: list[str],
        rate_results: list[str],
    ) -> tuple[int, int, int]:
        """Rolls 2D (or what ``gf``, ``sf``, ``tf`` roll) and reads the table until a roll is below the
        critical value or is 1ゾロ, each roll's dice, text, total and table value appended to the lists;
        the first-roll modifiers as BCDice applies them (one per roll, in the order ``$n``, ``$+n``,
        ``$~+n``). Returns the sum of the table's values, the sum of the rolls and the number of rolls
        (more than one: a critical)."""
        rating_total = 0
        dice_only_total = 0
        round_ = 0
        first_to, first_modify, first_ssp = self.first_to, self.first_modify, self.first_modify_ssp
        table = RATING
        while True:
            raw, text = self._roll_dice(dice, round_, rands)
            value = raw
            if first_to != 0:
                value = raw = first_to
                first_to = 0
            elif first_modify != 0:
                value += first_modify
                first_modify = 0
            elif first_ssp != 0:
                if raw <= 10:
                    value += first_ssp
                first_ssp = 0
            dice_texts.append(text)
            if raw <= 2:  # 1ゾロ: this roll adds nothing and the rolling stops
                dice_totals.append(str(raw))
                rate_results.append("**")
                round_ += 1
                break
            if self.kept_modify != 0 and value != 2:
                value += self.kept_modify
            value = 2 if value < 2 else 12 if value > 12 else value
            key = self.rate + round_ * self.rateup
            key = 0 if key < 0 else KEY_MAX if key > KEY_MAX else key
            rate_value = table[key][value]
            rating_total += rate_value
            dice_only_total += value
            dice_totals.append(str(value))
            rate_results.append(str(rate_value) if value > 2 else "**")
            round_ += 1
            if value < self.critical:
                break
        return rating_total, dice_only_total, round_

    def _formula(self, rate_results: list[str]) -> str | None:
        """The sum of the table's values as BCDice writes it: the values and the modifier, halved
        (``H``) or times 1.5 (``OH``); None for a single value with no modifier."""
        if len(rate_results) > 1 or self.modifier != 0:
            interim = ",".join(rate_results) + format_modifier(self.modifier)
            if self.half is not None:
                return f"({interim})/2{format_modifier(self.half)}"
            if self.one_and_a_half is not None:
                return f"({interim})*1.5{format_modifier(self.one_and_a_half)}"
            return interim
        if self.half is not None:
            return f"{rate_results[0]}/2{format_modifier(self.half)}"
        if self.one_and_a_half is not None:
            return f"{rate_results[0]}*1.5{format_modifier(self.one_and_a_half)}"
        return None

    def _total(self, rating_total: int) -> tuple[int, str | None]:
        """The total (the table's values and the modifier, halved or times 1.5, rounded up, plus n) and,
        where BCDice prints it otherwise, its text."""
        total = rating_total + self.modifier
        if self.half is not None:
            # BCDice halves in floating point and prints ceil(-0.5) as it is: "-0.0"
            text = "-0.0" if total == -1 and self.half == 0 else None
            return -(-total // 2) + self.half, text
        if self.one_and_a_half is not None:
            return -(-total * 3 // 2) + self.one_and_a_half, None
        return total, None


def _label(
    rate: int,
    critical: int,
    first_modify: int,
    first_ssp: int,
    first_to: int,
    rateup: int,
    gf: bool,
    sf: int,
    tf: int,
    kept: int,
    modifier: int,
) -> str:
    out = f"KeyNo.{rate}"
    if critical < NO_CRITICAL:
        out += f"c[{critical}]"
    if first_modify != 0:
        out += f"m[{format_modifier(first_modify)}]"
    if first_ssp != 0:
        out += f"m[~{format_modifier(first_ssp)}]"
    if first_to != 0:
        out += f"m[{first_to}]"
    if rateup != 0:
        out += f"r[{rateup}]"
    if gf:
        out += "gf"
    if sf != 0:
        out += f"sf[{sf}]"
    if tf != 0:
        out += f"tf[{tf}]"
    if kept != 0:
        out += f"a[{format_modifier(kept)}]"
    return out + format_modifier(modifier)


def parse_rating(source: str) -> RatingCommand:
    """Parse an upper-cased rating command (``HK20+5@9``); ParseFailure when it is not one.

    Follows BCDice's rating_parser.y for version 2.5: options in any order, each at most once,
    the bonus anywhere among them, ``H``/``OH`` as prefix or suffix.
    """
    cur = Cursor(tokenize(source))
    rnd = Round.CEIL
    prefix_half = prefix_oh = False
    if cur.accept("H"):
        prefix_half = True
    elif cur.peek() == "O" and cur.peek(1) == "H":
        cur.pos += 2
        prefix_oh = True
    cur.expect("K")
    rate = cur.number()

    modifier: int | None = None
    critical: int | None = None
    first_to: int | None = None
    first_modify: int | None = None
    first_ssp: int | None = None
    half: int | None = None
    oh: int | None = None
    rateup: int | None = None
    gf: bool | None = None
    sf: int | None = None
    tf: int | None = None
    kept: int | None = None

    def first_adjust_settable() -> bool:
        return first_to is None and first_modify is None and first_ssp is None

    def non_2d_settable() -> bool:
        return gf is None and sf is None and tf is None

    while not cur.at_end():
        tok = cur.peek()
        if tok in ("+", "-"):
            if modifier is not None:
                raise ParseFailure
            modifier = parse_modifier(cur, rnd)
        elif cur.accept("["):
            if critical is not None:
                raise ParseFailure
            critical = parse_unary(cur, rnd)
            cur.expect("]")
        elif cur.accept("@"):
            if critical is not None:
                raise ParseFailure
            critical = parse_unary(cur, rnd)
        elif cur.accept("$"):
            if not first_adjust_settable():
                raise ParseFailure
            if cur.accept("+"):
                first_modify = cur.number()
            elif cur.accept("-"):
                first_modify = -cur.number()
            elif cur.accept("~"):
                cur.expect("+")
                first_ssp = cur.number()
            else:
                first_to = cur.number()
        elif cur.accept("H"):
            if half is not None:
                raise ParseFailure
            half = parse_unary(cur, rnd) if starts_unary(cur.peek()) else 0
        elif tok == "O" and cur.peek(1) == "H":
            cur.pos += 2
            if oh is not None:
                raise ParseFailure
            oh = parse_unary(cur, rnd) if starts_unary(cur.peek()) else 0
        elif cur.accept("R"):
            if rateup is not None:
                raise ParseFailure
            rateup = parse_unary(cur, rnd)
        elif tok == "G" and cur.peek(1) == "F":
            cur.pos += 2
            if not non_2d_settable():
                raise ParseFailure
            gf = True
        elif tok == "S" and cur.peek(1) == "F":
            cur.pos += 2
            if not non_2d_settable():
                raise ParseFailure
            sf = max(1, min(6, cur.number()))
        elif tok == "T" and cur.peek(1) == "F":
            cur.pos += 2
            if not non_2d_settable():
                raise ParseFailure
            tf = max(1, min(6, cur.number()))
        elif cur.accept("#"):
            if kept is not None:
                raise ParseFailure
            kept = parse_unary(cur, rnd)
        else:
            raise ParseFailure

    if prefix_half:
        if oh is not None:
            raise ParseFailure
        if half is None:
            half = 0
    elif prefix_oh:
        if half is not None:
            raise ParseFailure
        if oh is None:
            oh = 0

    if critical is not None:
        crit = max(0, min(NO_CRITICAL, critical))
    else:
        crit = NO_CRITICAL if (half is not None or oh is not None) else 10
    mod = modifier or 0
    return RatingCommand(
        rate=rate,
        critical=crit,
        modifier=mod,
        kept_modify=kept or 0,
        first_to=first_to or 0,
        first_modify=first_modify or 0,
        first_modify_ssp=first_ssp or 0,
        rateup=rateup or 0,
        greatest_fortune=bool(gf),
        semi_fixed_val=sf or 0,
        tmp_fixed_val=tf or 0,
        half=half,
        one_and_a_half=oh,
        label=_label(
            rate,
            crit,
            first_modify or 0,
            first_ssp or 0,
            first_to or 0,
            rateup or 0,
            bool(gf),
            sf or 0,
            tf or 0,
            kept or 0,
            mod,
        ),
    )
