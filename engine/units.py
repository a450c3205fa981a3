"""Byte units. Capacities and results are always bytes; only display converts."""

from __future__ import annotations

import math
from collections.abc import Callable

GB = 10**9
GIB = 2**30
UNITS: dict[str, int] = {"GB": GB, "GiB": GIB}


def _plain_number(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"


_number = _plain_number


def set_number_formatter(formatter: Callable[[float, int], str] | None) -> None:
    """Let a front end format numbers for its locale (the window uses QLocale); None restores the default."""
    global _number
    _number = formatter or _plain_number


def to_unit(n_bytes: float, unit: str = "GiB") -> float:
    return n_bytes / UNITS[unit]


def format_bytes(n_bytes: float, unit: str = "GiB", digits: int = 2) -> str:
    """Human string in the chosen unit; small values fall back to MB/MiB and large ones (1,000 GiB or GB and up) rise to
    TB/TiB, so a number never needs more than three digits before the point."""
    base = UNITS[unit]
    if abs(n_bytes) >= base * 1000:
        large_unit, large_base = ("TB", 10**12) if unit == "GB" else ("TiB", 2**40)
        return f"{_number(n_bytes / large_base, digits)} {large_unit}"
    if abs(n_bytes) >= base / 10 or n_bytes == 0:
        return f"{_number(n_bytes / base, digits)} {unit}"
    small_unit, small_base = ("MB", 10**6) if unit == "GB" else ("MiB", 2**20)
    return f"{_number(n_bytes / small_base, max(digits - 1, 0))} {small_unit}"


def format_count(n: float) -> str:
    """Parameter counts as people say them: 6.74B, 8.4M."""
    for div, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(n) >= 0.9995 * div:  # 999,885,952 would print as "1e+03M" at 3 digits: it is 1B
            # past 999.5T (tokens_to_train reaches 10^18) three digits print as "1e+06T": whole T, grouped, instead
            return f"{n / div:.3g}{suffix}" if abs(n) < 999.5 * div or suffix != "T" else f"{n / div:,.0f}{suffix}"
    return f"{n:.0f}"


def format_gpu_hours(hours: float) -> str:
    """GPU-hours: three significant digits below 100 (a trailing zero dropped), as format_count from 100 up. A run of
    0.62 to 0.79 GPU-hours read "1 GPU-hours" in whole units (h-review21 item e); 1.5 read "2"."""
    if abs(hours) >= 100:
        return format_count(hours)
    if hours == 0:
        return "0"
    decimals = min(6, max(0, 2 - math.floor(math.log10(abs(hours)))))
    text = f"{hours:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_cost(cost: float, currency: str) -> str:
    """A whole-run cost with its currency code (scenario key currency; "" when the price's currency is not named):
    whole units from 100 up (within 0.5%), to the cent below, where whole units misread (h-review21: a LoRA run's
    "0.657 GPU-hours x 2.2 USD = 1 USD", a --budget 0.5 shown as "budget 0 USD", "over budget by 0 USD")."""
    return (f"{cost:,.0f} {currency}" if abs(cost) >= 99.995 else f"{cost:,.2f} {currency}").rstrip()


def format_money(value: float, currency: str) -> str:
    """A computed price per hour or per million tokens to the cent, with its currency code (0.25 USD, where
    format_cost's whole units read 0)."""
    return f"{value:,.2f} {currency}".rstrip()


def format_price(value: float, currency: str) -> str:
    """A price or budget as typed: two decimals, more where two lose it (up to six, trailing zeros dropped):
    "--budget-per-hour 0.004" printed "at most 0.00 an hour", a price of 1.3 read "1.3" (user audit 12)."""
    text = f"{value:,.2f}"
    if abs(float(text.replace(",", "")) - value) > 1e-12:
        text = f"{value:,.6f}".rstrip("0")
    return f"{text} {currency}".rstrip()


def format_seconds(seconds: float) -> str:
    """Durations in the unit that reads best: 850 ms, 2.4 s, 3.5 min, 7.2 h, 12.3 d."""
    for div, suffix in ((86400.0, "d"), (3600.0, "h"), (60.0, "min"), (1.0, "s")):
        if abs(seconds) >= div:
            return f"{_number(seconds / div, 1 if seconds / div < 100 else 0)} {suffix}"
    return f"{_number(seconds * 1000, 1 if seconds * 1000 < 100 else 0)} ms"


def format_gpu_count(n: int | None) -> str:
    """A GPU count grouped as the app's other counts are (1,024, beside "24,576 tokens"): "on each of 1024 x" read
    ungrouped (user audit 11). The app's own grouping, not the locale's; "" for None (no count)."""
    return "" if n is None else f"{n:,}"


def format_gb_per_s(bytes_per_s: float) -> str:
    """A link rate in decimal GB/s, the number alone ("25", "31.5"), as datasheets and nccl-tests give it: the set-up's
    link line and the scenario's stated rates say the same figure (a stated 25 GB/s read "23.28 GiB/s", user audit 16)."""
    return f"{bytes_per_s / 1e9:,.1f}".removesuffix(".0")

