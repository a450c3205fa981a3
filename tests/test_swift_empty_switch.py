"""An empty value of a true / false switch is no switch (h-fuzz12 item c): as_bool("") read False, so ms-swift's
`--freeze_vit ''` imported as a trained vision tower, where ms-swift's parser (transformers' HfArgumentParser
string_to_bool) refuses it at start. It is now listed with its value, as "maybe" is: the import is checked with the
other values in tests/test_session22_hostile.py test_swift_switches_that_are_no_true_or_false_are_said."""

from __future__ import annotations

from engine.configs.common import as_bool


def test_an_empty_value_is_no_true_or_false():
    assert as_bool("") is None and as_bool("  ") is None
    assert (as_bool("false"), as_bool("true")) == (False, True)  # the words it reads are unchanged

