"""BCDice-compatible Sword World 2.5 dice.

``roll("K40+12@10", dice)`` rolls one command with dice from ``dice`` and returns a
``RollResult`` whose ``text`` is BCDice's own result text, byte for byte.
"""

from engine.dice.command import ParsedCommand, bcdice_text, parse_command, roll
from engine.dice.result import RollKind, RollResult
from engine.dice.source import DiceError, DiceSource, RecordingDice, ScriptedDice, SeededDice

__all__ = [
    "DiceError",
    "DiceSource",
    "ParsedCommand",
    "RecordingDice",
    "RollKind",
    "RollResult",
    "ScriptedDice",
    "SeededDice",
    "bcdice_text",
    "parse_command",
    "roll",
]
