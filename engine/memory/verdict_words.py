"""An estimate's room in words that agree with its verdict: how much is free, "tight" with how much of the safety
reserve it uses, over by how much, the CPU memory that does not hold it, or the serving engine's or post-training
engine's own reason; and the note beside the verdict when the CPU memory was not checked. A base class of
engine/memory/breakdown.py's Estimate, whose figures and verdict it reads."""

from __future__ import annotations

from ..messages import QT_TRANSLATE_NOOP, Message, message
from ..units import format_bytes


class VerdictWords:
    """Estimate's sentences about its room (the figures are Estimate's: total_bytes, capacity_bytes, headroom_bytes,
    verdict_reserve_bytes, host_bytes, host_capacity_bytes, gpu_fits, host_short, verdict, serving, rl)."""

    def room(self, unit: str = "GiB") -> Message:
        """How much room is left, in words that agree with the verdict: "over by" only when it does not fit;
        "tight" says what is left before the safety reserve and how much of the reserve is used."""
        def _b(n_bytes: float) -> str:
            return format_bytes(n_bytes, unit)

        if self.serving is not None and not self.host_short and self.serving.users_wait:
            return users_wait_words(self.serving)
        if self.serving is not None and not self.host_short:
            return self.serving.reason
        if self.rl is not None and self.rl.refusal is not None and not self.host_short:
            return self.rl.refusal
        if self.engine_may_refuse and self.verdict == "tight":
            return self.rl.caution
        if self.host_short and not self.gpu_fits:
            return message(QT_TRANSLATE_NOOP("engine", "over by {over} per GPU, and the CPU memory does not hold it "
                                                       "either: needs {need} per node, {capacity} available"),
                           over=_b(self.total_bytes - self.capacity_bytes), need=_b(self.host_bytes),
                           capacity=_b(self.host_capacity_bytes or 0))
        if self.host_short:
            return message(QT_TRANSLATE_NOOP("engine", "the CPU memory does not hold it: needs {need} per node, "
                                                       "{capacity} available"),
                           need=_b(self.host_bytes), capacity=_b(self.host_capacity_bytes or 0))
        if self.gpu_fits:
            return message(QT_TRANSLATE_NOOP("engine", "{free} free per GPU"), free=_b(self.headroom_bytes))
        needed = self.total_bytes - self.verdict_reserve_bytes
        if needed <= self.capacity_bytes:
            return message(QT_TRANSLATE_NOOP("engine", "fits with {spare} to spare, but only by using {eaten} of the "
                                                       "{reserve} safety reserve"),
                           spare=_b(self.capacity_bytes - needed), eaten=_b(self.total_bytes - self.capacity_bytes),
                           reserve=_b(self.verdict_reserve_bytes))
        return message(QT_TRANSLATE_NOOP("engine", "over by {over} per GPU, safety reserve included"),
                       over=_b(self.total_bytes - self.capacity_bytes))

    def host_note(self, unit: str = "GiB") -> Message | None:
        """Beside the verdict when no CPU memory was given: the verdict then covers the GPUs only, and says so with
        what each node needs (a footnote alone was missed)."""
        if self.host_capacity_bytes is not None:
            return None
        return message(QT_TRANSLATE_NOOP("engine", "CPU memory not checked (not set): needs {need} per node"),
                       need=format_bytes(self.host_bytes, unit))


def users_wait_words(serving: object) -> Message:
    """A served model's "tight": the engine starts, and its KV cache holds fewer sequences of max_model_len at once
    than max_num_seqs asks (engine/serving/result.py ServingMemory.users_wait); the same words in the window's
    banner, Compare, `estimate`, the Markdown and the plan card."""
    return message(QT_TRANSLATE_NOOP("engine", "at {length} tokens each the KV cache holds {held} of the {asked} users "
                                               "the engine is set to decode at once (max_num_seqs); the others wait."),
                   length=f"{serving.max_model_len:,}", held=int(serving.max_concurrent_sequences),
                   asked=f"{serving.users_asked:,}")
