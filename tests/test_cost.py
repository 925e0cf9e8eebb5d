"""What one Transformer layer costs (lesson 09): the counts, and where the n² parts take over."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_core.cost import crossover_length, layer_multiply_adds, quadratic_share


def test_the_four_parts_of_a_base_transformer_layer():
    parts = layer_multiply_adds(n=1000, d_model=512)  # d_ff = 2048, as in Vaswani et al. (2017)
    assert parts == {
        "projections": 4 * 1000 * 512**2,
        "scores": 1000**2 * 512,
        "mixing": 1000**2 * 512,
        "feed_forward": 2 * 1000 * 512 * 2048,
    }
    assert crossover_length(512) == 3072 == 6 * 512
    assert quadratic_share(3072, 512) == 0.5


@given(d=st.integers(1, 4096), d_ff=st.integers(1, 16384), n=st.integers(1, 200_000))
def test_the_n_squared_parts_dominate_exactly_beyond_the_crossover(d, d_ff, n):
    parts = layer_multiply_adds(n, d, d_ff)
    quadratic, linear = parts["scores"] + parts["mixing"], parts["projections"] + parts["feed_forward"]
    crossover = crossover_length(d, d_ff)
    assert (quadratic > linear) == (n > crossover)
    assert (quadratic == linear) == (n == crossover)


@pytest.mark.parametrize("bad", [dict(n=0, d_model=8), dict(n=4, d_model=2.5), dict(n=4, d_model=8, d_ff=-1)])
def test_bad_sizes_are_named(bad):
    with pytest.raises(ValueError, match="n|d_model|d_ff"):
        layer_multiply_adds(**bad)
