"""Arguments of a launch script (Megatron-LM, ms-swift), found by scanning its text; the script is never run.

Understood: `NAME=value` assignments (also `${NAME:-default}` and `$((A*B))` / `$(expr A / B)` integer
arithmetic on numbers and known names), backslash continuations, bash arrays of arguments, comments. Anything
else that needs a shell (command substitution, conditionals) is left as written.
"""

from __future__ import annotations

import re
import shlex

_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$\{?(\d)(?::-([^}]*))?\}?")
_ARITH = re.compile(r"\$\(\((.*?)\)\)|\$\(expr ([^)]*)\)")


def _arith(expr: str) -> str | None:
    """Integer arithmetic of numbers with + - * / only (what launch scripts use for world sizes)."""
    tokens = re.findall(r"\d+|[-+*/()]", expr.replace("\\*", "*"))
    if "".join(tokens) != re.sub(r"\s+", "", expr.replace("\\*", "*")):
        return None
    pos = 0

    def atom() -> int:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            v = add()
            pos += 1
            return v
        return int(tok)

    def mul() -> int:
        nonlocal pos
        v = atom()
        while pos < len(tokens) and tokens[pos] in "*/":
            op = tokens[pos]
            pos += 1
            r = atom()
            v = v * r if op == "*" else (v // r if r else 0)
        return v

    def add() -> int:
        nonlocal pos
        v = mul()
        while pos < len(tokens) and tokens[pos] in "+-":
            op = tokens[pos]
            pos += 1
            r = mul()
            v = v + r if op == "+" else v - r
        return v

    try:
        value = add()
    except (IndexError, ValueError):
        return None
    return str(value) if pos == len(tokens) else None


def substitute(text: str, env: dict[str, str]) -> str:
    def var(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(3) or m.group(4)
        default = m.group(2) if m.group(1) else m.group(5)
        if name in env:
            return env[name]
        return default.strip("\"'") if default is not None else m.group(0)

    text = _VAR.sub(var, text)

    def arith(m: re.Match[str]) -> str:
        result = _arith(m.group(1) if m.group(1) is not None else m.group(2))
        return result if result is not None else m.group(0)

    return _ARITH.sub(arith, text)


def logical_lines(text: str) -> list[str]:
    lines: list[str] = []
    current = ""
    for raw in text.splitlines():
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        lines.append(current + stripped)
        current = ""
    if current:
        lines.append(current)
    return lines


def _tokens(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=True)
    except ValueError:  # an unbalanced quote: fall back to spaces
        return line.split("#", 1)[0].split()


def scan(text: str) -> tuple[dict[str, str], list[tuple[str, str | None]]]:
    """(variables, [(--flag, value or None)]) in file order; values of repeated flags appear each time."""
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
            value = _tokens(substitute(m.group(2), env))
            env[m.group(1)] = value[0] if value else ""
            if len(value) <= 1:
                continue
            body = shlex.join(value[1:])  # NAME=value command ...: the command follows the assignment
        words: list[str] = []
        for tok in _tokens(substitute(body, env)):
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
    return env, flags
