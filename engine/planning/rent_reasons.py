"""Why "What should I rent?" leaves an option out: the sentences of engine/planning/rent.py, each a template a
RentOption's `dropped` message is made from (its .template tells the search's loop which kind of reason it is), and
not_fit_reason, which says which "does not fit" it is.

Without a deadline the search takes a year as its horizon (rent.py PRACTICAL_SECONDS, its module docstring says why):
a "misses the deadline" reason is then said as the time it takes, beyond a year (HORIZON)."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..scenario import Scenario
from ..units import format_bytes
from .rent_no_layout import no_layout_reason

# one sentence for both rent searches, training's and serving's (rent.py, serve_rent.py)
NO_SPEED = QT_TRANSLATE_NOOP("engine", "has no speed figures (peak FLOP/s or memory bandwidth), so its time is not known")
NOT_FIT = QT_TRANSLATE_NOOP("engine", "does not fit: no layout of the same training holds it")
NOT_FIT_HOST = QT_TRANSLATE_NOOP("engine", "does not fit: no layout holds it in the GPUs and {host} of CPU memory "
                                           "per node")
NOT_FIT_SERVER = QT_TRANSLATE_NOOP("engine", "does not fit: no layout holds it in the GPUs and the CPU memory of the "
                                             "rented node: {basis}")
CANNOT = QT_TRANSLATE_NOOP("engine", "cannot run it: {why}")
LATE_EVEN_AT_CEILING = QT_TRANSLATE_NOOP("engine", "misses the deadline by {late} even at MFU {mfu:.0%} "
                                                   "(attention counted whole, as the published runs' ceiling was "
                                                   "measured), the best a published run reached on this GPU")
LATE_EVEN_AT_PEAK = QT_TRANSLATE_NOOP("engine", "misses the deadline by {late} even at the GPU's full peak FLOP/s")
LATE = QT_TRANSLATE_NOOP("engine", "misses the deadline by {late}")
OVER_BUDGET = QT_TRANSLATE_NOOP("engine", "over budget by {over}")
OVER_BUDGET_EVEN_AT_CEILING = QT_TRANSLATE_NOOP("engine", "over budget by {over} even at MFU {mfu:.0%} (attention "
                                                          "counted whole, as the published runs' ceiling was "
                                                          "measured), the best a published run reached on this GPU")
OVER_BUDGET_EVEN_AT_PEAK = QT_TRANSLATE_NOOP("engine", "over budget by {over} even at the GPU's full peak FLOP/s")
LATE_EVEN_FASTEST = QT_TRANSLATE_NOOP("engine", "misses the deadline by {late} even in its fastest layout, memory aside")
OVER_BUDGET_EVEN_FASTEST = QT_TRANSLATE_NOOP("engine", "over budget by {over} even in its fastest layout, memory aside")
NOT_CHEAPER = QT_TRANSLATE_NOOP("engine", "costs at least {least} even in its fastest layout: no cheaper than fewer "
                                          "GPUs of this type")
NOT_AMONG = QT_TRANSLATE_NOOP("engine", "costs at least {least} even in its fastest layout: more than the {rows} "
                                        "cheapest options found")
NONE_IN_TIME = QT_TRANSLATE_NOOP("engine", "misses the deadline: no layout that fits is fast enough")
NONE_IN_BUDGET = QT_TRANSLATE_NOOP("engine", "over budget: no layout that fits is fast enough to stay within it")
NONE_CHEAPER = QT_TRANSLATE_NOOP("engine", "no layout that fits costs less than the options found before it")
NO_PRICE = QT_TRANSLATE_NOOP("engine", "no price per GPU-hour is set for this GPU, so its cost is not known")
# without a deadline: the year's horizon, said as such (the time, not "misses the deadline")
BEYOND_YEAR_AT_CEILING = QT_TRANSLATE_NOOP("engine", "takes more than {time} even at MFU {mfu:.0%} (attention "
                                                     "counted whole, as the published runs' ceiling was measured), "
                                                     "the best a published run reached on this GPU: beyond a year, "
                                                     "impractical (no deadline set)")
BEYOND_YEAR_AT_PEAK = QT_TRANSLATE_NOOP("engine", "takes more than {time} even at the GPU's full peak FLOP/s: beyond a "
                                                  "year, impractical (no deadline set)")
BEYOND_YEAR_FASTEST = QT_TRANSLATE_NOOP("engine", "takes more than {time} even in its fastest layout, memory aside: "
                                                  "beyond a year, impractical (no deadline set)")
BEYOND_YEAR = QT_TRANSLATE_NOOP("engine", "trains in {time}: beyond a year, impractical (no deadline set)")
NONE_IN_YEAR = QT_TRANSLATE_NOOP("engine", "no layout that fits trains it within a year: impractical (no deadline "
                                           "set)")
HORIZON = {LATE_EVEN_AT_CEILING: BEYOND_YEAR_AT_CEILING, LATE_EVEN_AT_PEAK: BEYOND_YEAR_AT_PEAK,
           LATE_EVEN_FASTEST: BEYOND_YEAR_FASTEST, LATE: BEYOND_YEAR, NONE_IN_TIME: NONE_IN_YEAR}
LATE_TEMPLATES = frozenset((LATE, BEYOND_YEAR))


def not_fit_reason(s: Scenario, base: Scenario, unit: str, basis: Message, *, has_layout: bool) -> Message:
    """Why no layout of `base` (an option rented for `s`) holds the run: none exists (the global batch does not split;
    has_layout is what speed_bound's one walk over the layouts found, 0.0 tokens/s where there is none), or none fits
    in the GPUs, or in the node's CPU memory: the set-up's own (its GPU type) or the rented server's (`basis` says
    where it comes from)."""
    host = base.host_memory_bytes
    if not has_layout:
        return no_layout_reason(s)
    if host is None:
        return message(NOT_FIT)
    if host == s.host_memory_bytes and base.gpu == s.gpu:
        return message(NOT_FIT_HOST, host=format_bytes(host, unit))
    return message(NOT_FIT_SERVER, basis=basis)
