from __future__ import annotations

import pytest
from helpers import sketch_for

from dedup.banding import choose_banding, detection_probability
from dedup.errors import UsageError


def test_s_curve_values():
    assert detection_probability(0.8, 20, 5) == pytest.approx(1 - (1 - 0.8**5) ** 20)
    assert detection_probability(1.0, 1, 128) == 1.0
    assert detection_probability(0.0, 128, 1) == 0.0


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7, 0.8, 0.9, 0.95])
@pytest.mark.parametrize("num_perm", [64, 128, 256])
def test_chosen_banding_catches_threshold_pairs_and_is_most_selective(threshold, num_perm):
    banding = choose_banding(threshold, num_perm)
    assert banding.bands * banding.rows <= num_perm
    assert banding.probability(threshold) >= 0.995
    more_rows = banding.rows + 1
    assert detection_probability(threshold, num_perm // more_rows, more_rows) < 0.995 or more_rows > num_perm


def test_default_banding_at_08():
    assert (choose_banding(0.8, 128).bands, choose_banding(0.8, 128).rows) == (21, 6)


def test_overrides():
    assert sketch_for(bands=16).banding.rows == 8
    assert sketch_for(rows=4).banding.bands == 32
    with pytest.raises(UsageError, match="not divisible"):
        sketch_for(bands=3)
    with pytest.raises(UsageError, match="= 20, but --num-perm is 128"):
        sketch_for(bands=4, rows=5)
