"""Arguments of a launch script (Megatron-LM, ms-swift), found by scanning its text; the script is never run.

Understood: `NAME=value` assignments (also `${NAME:-default}` and `$((A*B))` / `$(expr A / B)` integer
arithmetic on numbers and known names), backslash continuations, bash arrays of arguments, comments. Anything
else that needs a shell (command substitution, conditionals) is left as written.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from ..messages import QT_TRANSLATE_NOOP
from .reading import ConfigFileError

# Bounds on expansion (issue 28): 39 lines of A1=${A}${A} doubled a value to 2^39 characters, and unclosed
# "$((" made each match scan to the end of the text. One expansion longer than MAX_EXPANDED_CHARS is left as written
# (its variable becomes unknown); all expansions of a script together may produce MAX_SCRIPT_EXPANSION_CHARS.
MAX_EXPANDED_CHARS = 16_384  # a launch-script value is a path, a number or a list of arguments
MAX_SCRIPT_EXPANSION_CHARS = 1_000_000  # as much as the 1 MB a config file may hold: at most twice the work
MAX_ARITH_DIGITS = 18  # world sizes and batch sizes; a longer number is left as written, never overflowed
MAX_ARITH_NESTING = 16
# A longer logical line is split at spaces, quotes kept as written (a 1 MB one-word line took 20 s in shlex); a real
# launch command, continuations joined, is a few kilobytes.
MAX_SHLEX_LINE_CHARS = 65_536
_TOO_LONG = "\x00"  # the value of a variable whose expansion was too long (decode() refuses NUL in a file)

_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
# A default (${A:-x}) stops at "$" and at a line end, so that each of many unclosed "${A:-" scans only as far as
# the next one: linear, where "[^}]*" scanned to the end of the text from each.
_VAR = re.compile(
    r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}$\n]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$\{?(\d)(?::-([^}$\n]*))?\}?"
)
# $(( ... )) with up to two levels of parentheses inside, and $(expr ...): the alternatives start with different
# characters and none crosses a "$", so a failed match ends at the next "$" (the lazy ".*?" scanned to the end).
_INNER = r"(?:[^()$]|\((?:[^()$]|\([^()$]*\))*\))*"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFAULT_PASSES = 3
_ARITH = re.compile(r"\$\(\((" + _INNER + r")\)\)|\$\(expr ([^()$]*)\)")


class ExpansionBudget:
    """Characters that expansions of one script may still produce (a script of many large expansions is refused)."""

    def __init__(self, chars: int = MAX_SCRIPT_EXPANSION_CHARS, name: str = "the script") -> None:
        self.left_chars = chars
        self.name = name

    def spend(self, chars: int) -> None:
        self.left_chars -= chars
        if self.left_chars < 0:
            raise ConfigFileError(
                QT_TRANSLATE_NOOP("engine", "{name} expands its variables to more than {n:,} characters; a launch "
                                            "script does not, so it is not imported."),
                name=self.name,
                n=MAX_SCRIPT_EXPANSION_CHARS,
            )


class _TooLong(Exception):
    """One expansion went over MAX_EXPANDED_CHARS: the text is left as written."""


# the operators of _arith; / is Python's floor division, and x / 0 reads as 0 rather than failing
_ARITH_OPS: dict[str, Callable[[int, int], int]] = {
    "*": lambda a, b: a * b, "/": lambda a, b: a // b if b else 0, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
}


def _arith(expr: str) -> str | None:
    """Integer arithmetic of numbers with + - * / only (what launch scripts use for world sizes); None for anything
    else, including numbers of more than MAX_ARITH_DIGITS digits and nesting deeper than MAX_ARITH_NESTING."""
    tokens = re.findall(r"\d+|[-+*/()]", expr.replace("\\*", "*"))
    if "".join(tokens) != re.sub(r"\s+", "", expr.replace("\\*", "*")):
        return None
    depth = 0
    for tok in tokens:
        depth += (tok == "(") - (tok == ")")
        if depth > MAX_ARITH_NESTING or len(tok) > MAX_ARITH_DIGITS:
            return None
    pos = 0
    limit = 10**MAX_ARITH_DIGITS

    def bounded(v: int) -> int:
        if abs(v) >= limit:
            raise ValueError("out of range")
        return v

    def atom() -> int:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            v = add()
            pos += 1
            return v
        return int(tok)

    def chain(operand: Callable[[], int], ops: str) -> int:
        """operand (op operand)* for the operators `ops` of one precedence, left to right."""
        nonlocal pos
        v = operand()
        while pos < len(tokens) and tokens[pos] in ops:
            op = tokens[pos]
            pos += 1
            v = bounded(_ARITH_OPS[op](v, operand()))
        return v

    def mul() -> int:
        return chain(atom, "*/")

    def add() -> int:
        return chain(mul, "+-")

    try:
        value = add()
    except (IndexError, ValueError):
        return None
    return str(value) if pos == len(tokens) else None


def substitute(text: str, env: dict[str, str], budget: ExpansionBudget | None = None) -> str:
    """`text` with known variables and integer arithmetic expanded, or as written when that would be longer than
    MAX_EXPANDED_CHARS."""
    expanded = expand(text, env, budget)
    return text if expanded is None else expanded


def expand(text: str, env: dict[str, str], budget: ExpansionBudget | None = None) -> str | None:
    """`text` with known variables and integer arithmetic expanded; None when the variables would add more than
    MAX_EXPANDED_CHARS. Every character produced is spent from `budget` (ConfigFileError when it runs out)."""
    produced = 0

    def var(m: re.Match[str]) -> str:
        nonlocal produced
        name = m.group(1) or m.group(3) or m.group(4)
        default = m.group(2) if m.group(1) else m.group(5)
        if env.get(name) == _TOO_LONG:  # built from a value too long to expand: too long as well
            raise _TooLong
        if name in env:
            value = env[name]
        else:
            value = default.strip("\"'") if default is not None else m.group(0)
        produced += len(value)
        if produced > MAX_EXPANDED_CHARS:
            raise _TooLong  # stops re.sub at once: the doubled value is never built
        if budget is not None:
            budget.spend(len(value))
        return value

    try:
        # a default that names a variable (verl's `ACTOR_TP=${ACTOR_TP:-$TRAIN_TP}`) is whole only once that variable
        # is expanded: a few passes, each over a text no longer than MAX_EXPANDED_CHARS allows
        for _ in range(_DEFAULT_PASSES):
            expanded = _VAR.sub(var, text)
            if expanded == text:
                break
            text = expanded
    except _TooLong:
        return None

    def arith(m: re.Match[str]) -> str:
        # bash reads a bare name inside $(( )) as that variable (verl's `$(((max_prompt_length + max_response_length)))`)
        expr = _NAME.sub(lambda n: env.get(n.group(0), n.group(0)), m.group(1) if m.group(1) is not None else m.group(2))
        result = _arith(expr)
        return result if result is not None else m.group(0)

    return _ARITH.sub(arith, text)


def logical_lines(text: str) -> list[str]:
    lines: list[str] = []
    current: list[str] = []  # parts of a continued line, joined once (not a string grown line by line)
    for raw in text.splitlines():
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            current.append(stripped[:-1] + " ")
            continue
        lines.append("".join(current) + stripped)
        current = []
    if current:
        lines.append("".join(current))
    return lines


def _tokens(line: str) -> list[str]:
    if len(line) > MAX_SHLEX_LINE_CHARS:  # shlex grows each word a character at a time: quadratic in a word's length
        return line.split("#", 1)[0].split()
    try:
        words = shlex.split(line)
    except ValueError:  # an unbalanced quote: fall back to spaces
        return line.split("#", 1)[0].split()
    # bash starts a comment only at the start of a word: ms-swift's `--dataset AI-MO/NuminaMath-TIR#10000` is one
    # value (shlex's comments=True ended the line there and lost every flag after it)
    cut = next((i for i, w in enumerate(words) if w.startswith("#")), len(words))
    return words[:cut]


def scan(text: str, name: str = "the script") -> tuple[dict[str, str], list[tuple[str, str | None]]]:
    """(variables, [(--flag, value or None)]) in file order; values of repeated flags appear each time.
    ConfigFileError (naming the file `name`) when the expansions together exceed the script's budget."""
    budget = ExpansionBudget(MAX_SCRIPT_EXPANSION_CHARS, name)
    env: dict[str, str] = {}
    flags: list[tuple[str, str | None]] = []
    for line in logical_lines(text):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        m = _ASSIGN.match(body)
        if m and m.group(2).lstrip().startswith("("):  # an array of arguments: its words are scanned below
            body = m.group(2).lstrip()[1:].rstrip().removesuffix(")")
        elif m:
            expanded = expand(m.group(2), env, budget)
            if expanded is None:  # too long: the variable and every value built from it stay unexpanded
                env[m.group(1)] = _TOO_LONG
                continue
            value = _tokens(expanded)
            env[m.group(1)] = value[0] if value else ""
            if len(value) <= 1:
                continue
            body = shlex.join(value[1:])  # NAME=value command ...: the command follows the assignment
        words: list[str] = []
        for tok in _tokens(substitute(body, env, budget)):
            # "--fp8-format hybrid" quoted inside an array is two words; NAME=value prefixes set the environment
            if tok.startswith("--") and " " in tok:
                words.extend(tok.split())
                continue
            env_m = _ASSIGN.match(tok)
            if env_m and not words:
                env[env_m.group(1)] = env_m.group(2)
                continue
            words.append(tok)
        i = 0
        while i < len(words):
            word = words[i]
            if word.startswith("--") and len(word) > 2:
                if "=" in word:
                    name, _, value = word.partition("=")
                    flags.append((name, value))
                elif i + 1 < len(words) and not words[i + 1].startswith("--") and words[i + 1] not in (")", "("):
                    values = [words[i + 1]]
                    j = i + 2  # several values (ms-swift --dataset a b c): keep the first, skip the rest
                    while (
                        j < len(words)
                        and not words[j].startswith("--")
                        and words[j] not in (")", "(")
                        and not words[j].endswith((".py", ".sh"))
                    ):  # the script torchrun starts ends a value
                        values.append(words[j])
                        j += 1
                    flags.append((word, values[0] if len(values) == 1 else " ".join(values)))
                    i = j
                    continue
                else:
                    flags.append((word, None))
            i += 1
    return {k: v for k, v in env.items() if v != _TOO_LONG}, flags


_OVERRIDE = re.compile(r"^\+{0,2}([A-Za-z_][\w]*(?:\.[\w]+)+)=(.*)$")


def hydra_overrides(text: str, name: str = "the script") -> dict[str, str]:
    """Hydra `key.path=value` overrides of a launch command (verl's main_ppo), variables expanded, the last of a
    repeated key kept; the script is never run."""
    env, _ = scan(text, name)
    budget = ExpansionBudget(MAX_SCRIPT_EXPANSION_CHARS, name)
    out: dict[str, str] = {}
    for line in logical_lines(text):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        for tok in _tokens(substitute(body, env, budget)):
            m = _OVERRIDE.match(tok)
            if m:
                out[m.group(1)] = m.group(2).strip("'\"")
    return out
