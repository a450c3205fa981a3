"""The step time of a vision-language model with images says that it leaves the image encoder out: engine/timing
has no model of any vision tower (images_per_sample and image_resolution reach only the memory model,
engine/timing/stage_parameters.py STAGE_PARAMS_MEMO), so an estimate that counts the tower's memory but not its
seconds must say so where the user reads the time."""

from engine import Scenario
from engine.timing import step_time

_NOTE = "leaves out the image encoder"


def _time_notes(**keys) -> list[str]:
    return [str(n) for n in step_time(Scenario(gpu="h100-sxm-80gb", method="full", precision="bf16", seq_len=2048,
                                               **keys)).notes]


def test_a_vlm_with_images_says_its_time_leaves_the_tower_out():
    # Qwen2.5-VL-7B's preset carries its tower (presets/models/qwen2.5-vl-7b.json); two images in each sequence
    with_images = _time_notes(model="qwen2.5-vl-7b", images_per_sample=2)
    assert any(_NOTE in n for n in with_images)


def test_no_note_without_images_or_without_a_tower():
    # no images: the tower never runs; a text-only model has none (the note would be noise)
    assert not any(_NOTE in n for n in _time_notes(model="qwen2.5-vl-7b", images_per_sample=0))
    assert not any(_NOTE in n for n in _time_notes(model="llama-3-8b"))


def test_the_note_leaves_the_step_time_unchanged():
    # a note, not a term: the images' tokens are timed in the language model's layers either way (seq_len counts them)
    without = step_time(Scenario(model="qwen2.5-vl-7b", gpu="h100-sxm-80gb", method="full", precision="bf16",
                                 seq_len=2048))
    with_images = step_time(Scenario(model="qwen2.5-vl-7b", gpu="h100-sxm-80gb", method="full", precision="bf16",
                                     seq_len=2048, images_per_sample=2))
    assert with_images.step_seconds == without.step_seconds
