"""The steps the checker knows, each one ``Step``: what it takes, its right answer, the mistakes it tries
(in order: the first that gives the learner's array is named), the wrong shapes it explains, the rules it
checks, and the message keys that say what its axes and entries mean.

To add a step: write its mistakes in ``mistakes`` (and any wrong shapes in ``shapes``), its right answer
in ``right``, one ``Step`` in ``STEP_TABLE`` below, and its messages in ``attn_core/homework/messages.py``.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from . import mistakes as m
from . import positions as pos
from . import right, shapes
from .compare import BOOLEANS, NUMBERS, AnswerKind
from .givens import Givens, Stage, read_givens


@dataclass(frozen=True)
class Mistake:
    """A known mistake: its diagnosis code, the function that recomputes what it gives (``mistakes``) and
    the message key that says what is wrong, why, and the fix."""

    code: str
    makes: Callable[[Givens], np.ndarray | None]
    message: str
    via_weights: bool = False  # seen in the output step: the message starts "O is off because of the weights"


@dataclass(frozen=True)
class ShapeHint:
    """A wrong shape a usual mistake produces (``shapes``) and the message key that names that mistake."""

    shape: Callable[[Givens], tuple | None]
    message: str


@dataclass(frozen=True)
class Rule:
    """A rule every right answer keeps: its diagnosis code, the function that finds the first index that
    breaks it (``right``) and the message key (its {where} is that place)."""

    code: str
    broken_at: Callable[[np.ndarray, Givens], tuple | None]
    message: str


@dataclass(frozen=True)
class Step:
    """One checkable step. ``needs`` and ``optional`` name the givens it takes (besides ``name`` and
    ``tokens``, which every step takes), in the order its "bad_task" message lists them."""

    needs: tuple[str, ...]
    right_answer: Callable[[Givens], np.ndarray]
    symbol: str  # what the answer is called when the task does not name it: "QKᵀ"
    axes: str  # message key: what the axes of the answer mean
    entry: str  # message key: what entry [i, j] is (said with wrong values)
    optional: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    shape_hints: tuple[ShapeHint, ...] = ()
    rules: tuple[Rule, ...] = ()
    unmasked: Callable[[Givens], np.ndarray | None] = right.nothing_masked
    stage: Stage | None = None  # where it is along scores → weights → output (see mistakes)
    scaled: bool | None = None  # fixed by the step (scores: never, scaled_scores: always); None: given
    answer: AnswerKind = NUMBERS
    columns_are_keys: bool = True  # columns are key positions, named after the tokens if given
    finite_hint: str = "finite"  # message key: why NaN or ∞ may have appeared

    def givens(self, given):
        """The Givens of a check of this step: read and validated, then the right answer and where it is
        masked derived from them. Raises (TypeError, ValueError) for givens attn_core rejects."""
        g = read_givens(given)
        g = replace(g, stage=self.stage, scaled=g.scaled if self.scaled is None else self.scaled)
        g = replace(g, expected=self.right_answer(g))
        return replace(g, unmasked=self.unmasked(g))


# ---------------------------------------------------------------- the mistakes of scaled dot-product attention
# Each is carried on to the step's answer (scores, weights or output), so one group serves several steps.
# The order is the order they are tried in: when two give the same array, the first is named.

SCORES_TRANSPOSED = Mistake("transposed", m.scores_transposed, "transposed_qk")
ANSWER_TRANSPOSED = Mistake("transposed", m.answer_transposed, "transposed")
QK_AND_SCALING = (
    Mistake("missing_transpose", m.k_not_transposed, "missing_transpose"),
    Mistake("unscaled", m.unscaled, "unscaled"),
    Mistake("scaled_by_dk", m.divided_by_d_k, "scaled_by_dk"),
    Mistake("scale_multiplied", m.multiplied_by_sqrt_d_k, "scale_multiplied"),
    Mistake("scaled_not_asked", m.scaled_though_not_asked, "scaled_not_asked"),
    Mistake("scaled_not_asked", m.divided_by_d_k_though_not_asked, "scaled_not_asked"),
)
SOFTMAX = (
    Mistake("softmax_axis", m.softmax_along_columns, "softmax_axis"),
    Mistake("mask_after_softmax", m.mask_after_softmax, "mask_after_softmax"),
)
MASKING = (
    Mistake("mask_ignored", m.mask_ignored, "mask_ignored"),
    Mistake("mask_inverted", m.mask_inverted, "mask_inverted"),
    Mistake("mask_zero", m.masked_with_zero, "mask_zero"),
)
SCORES_MISTAKES = (SCORES_TRANSPOSED, ANSWER_TRANSPOSED, *QK_AND_SCALING, *MASKING)
WEIGHTS_MISTAKES = (
    SCORES_TRANSPOSED,
    ANSWER_TRANSPOSED,
    *QK_AND_SCALING,
    *SOFTMAX,
    *MASKING,
    Mistake("no_softmax", m.no_softmax, "no_softmax"),
    Mistake("no_softmax", m.no_softmax_nor_scaling, "no_softmax"),
)
OUTPUT_MISTAKES = (
    *(replace(mistake, via_weights=True) for mistake in (SCORES_TRANSPOSED, *QK_AND_SCALING, *SOFTMAX, *MASKING)),
    Mistake("used_scores_not_weights", m.used_scores_as_weights, "used_scores"),
    Mistake("used_scores_not_weights", m.used_unscaled_scores_as_weights, "used_scores"),
    Mistake("used_keys_not_values", m.used_keys_as_values, "used_keys"),
    Mistake("not_normalized", m.weights_not_normalized, "not_normalized_O"),
)

SCORES_SHAPES = (
    ShapeHint(shapes.transposed, "hint_transposed_S"),
    ShapeHint(shapes.of_Q, "hint_Q_shape"),
    ShapeHint(shapes.features_by_features, "hint_QtK"),
)
OUTPUT_SHAPES = (
    ShapeHint(shapes.of_weights, "hint_A_shape"),
    ShapeHint(shapes.as_wide_as_K, "hint_K_width"),
    ShapeHint(shapes.transposed, "hint_transposed_O"),
)

MASKED_WEIGHTS_ARE_ZERO = Rule("wrong_mask", right.masked_weight_not_zero, "wrong_mask")
ROWS_SUM_TO_1 = Rule("not_normalized", right.row_not_summing_to_1, "not_normalized")
MASKED_SCORES_ARE_MINUS_INFINITY = Rule("wrong_mask", right.masked_score_not_minus_infinity, "wrong_mask_S")


def _weights_step(needs, optional):
    """The weights A = softmax(QKᵀ/√d_k, masked): "weights" and "masked_weights" differ only in the givens."""
    return Step(
        needs=needs,
        optional=optional,
        right_answer=right.weights,
        symbol="A",
        axes="axes_S",
        entry="entry_A",
        mistakes=WEIGHTS_MISTAKES,
        shape_hints=SCORES_SHAPES,
        rules=(MASKED_WEIGHTS_ARE_ZERO, ROWS_SUM_TO_1),
        unmasked=right.where_the_mask_allows,
        stage=Stage.WEIGHTS,
        finite_hint="finite_A",
    )


# ---------------------------------------------------------------- lesson 12 (word order): read their own givens


class PositionStep(Step):
    """A step of lesson 12: its givens (a reordering, positions, a RoPE layout, shifts) are read by
    ``positions.read_givens`` into a ``PositionGivens``; the rest is a ``Step``."""

    def givens(self, given):
        g = pos.read_givens(given)
        g = replace(g, expected=self.right_answer(g))
        return replace(g, unmasked=self.unmasked(g))


POSITIONS_FROM_1 = Mistake("positions_from_1", pos.positions_from_1, "positions_from_1")
ROPE_OTHER_LAYOUT = (
    Mistake("rope_other_layout", pos.half_though_interleaved_asked, "rope_wants_interleaved"),
    Mistake("rope_other_layout", pos.interleaved_though_half_asked, "rope_wants_half"),
)


# ---------------------------------------------------------------- the steps

STEP_TABLE = {
    "projection": Step(
        needs=("X", "W"),
        right_answer=right.projection,
        symbol="XW",
        axes="axes_XW",
        entry="entry_XW",
        mistakes=(
            Mistake("transposed", m.answer_transposed, "transposed_XW"),
            Mistake("weight_transposed", m.weight_transposed, "weight_transposed"),
        ),
        shape_hints=(
            ShapeHint(shapes.transposed, "hint_transposed_XW"),
            ShapeHint(shapes.of_X_transposed, "hint_Xt"),
            ShapeHint(shapes.of_X, "hint_X_shape"),
        ),
        columns_are_keys=False,
    ),
    "scores": Step(
        needs=("Q", "K"),
        optional=("mask",),
        right_answer=right.scores,
        symbol="QKᵀ",
        axes="axes_S",
        entry="entry_QKT",
        mistakes=SCORES_MISTAKES,
        shape_hints=SCORES_SHAPES,
        rules=(MASKED_SCORES_ARE_MINUS_INFINITY,),
        unmasked=right.where_the_mask_allows,
        stage=Stage.SCORES,
        scaled=False,
    ),
    "scaled_scores": Step(
        needs=("Q", "K"),
        optional=("d_k", "mask"),
        right_answer=right.scores,
        symbol="S",
        axes="axes_S",
        entry="entry_S",
        mistakes=SCORES_MISTAKES,
        shape_hints=SCORES_SHAPES,
        rules=(MASKED_SCORES_ARE_MINUS_INFINITY,),
        unmasked=right.where_the_mask_allows,
        stage=Stage.SCORES,
        scaled=True,
    ),
    "softmax": Step(
        needs=("S",),
        right_answer=right.softmax_of_given_scores,
        symbol="A",
        axes="axes_S",
        entry="entry_A",
        mistakes=(
            Mistake("softmax_axis", m.softmax_along_columns, "softmax_axis"),
            ANSWER_TRANSPOSED,
            Mistake("no_softmax", m.no_softmax, "no_softmax"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_S"),),
        rules=(MASKED_WEIGHTS_ARE_ZERO, ROWS_SUM_TO_1),
        unmasked=right.where_scores_are_finite,
        stage=Stage.WEIGHTS,
        finite_hint="finite_A",
    ),
    "weights": _weights_step(needs=("Q", "K"), optional=("mask", "d_k", "scaled")),
    "masked_weights": _weights_step(needs=("Q", "K", "mask"), optional=("d_k", "scaled")),
    "weighted_sum": Step(
        needs=("A", "V"),
        optional=("K", "S"),
        right_answer=right.weighted_sum_of_given_weights,
        symbol="O",
        axes="axes_O",
        entry="entry_O",
        mistakes=(
            Mistake("transposed", m.answer_transposed, "transposed_O"),
            Mistake("transposed", m.weights_transposed, "transposed_A"),
            Mistake("used_keys_not_values", m.used_keys_as_values, "used_keys"),
            Mistake("used_scores_not_weights", m.used_scores_as_weights, "used_scores"),
        ),
        shape_hints=OUTPUT_SHAPES,
        stage=Stage.OUTPUT,
        columns_are_keys=False,
    ),
    "output": Step(
        needs=("Q", "K", "V"),
        optional=("mask", "d_k", "scaled"),
        right_answer=right.output,
        symbol="O",
        axes="axes_O",
        entry="entry_O",
        mistakes=OUTPUT_MISTAKES,
        shape_hints=OUTPUT_SHAPES,
        stage=Stage.OUTPUT,
        columns_are_keys=False,
        finite_hint="finite_A",
    ),
    "causal_mask": Step(
        needs=("n",),
        right_answer=right.causal_mask,
        symbol="mask",
        axes="axes_mask",
        entry="entry_mask",
        mistakes=(
            Mistake("mask_inverted", m.causal_mask_inverted, "causal_inverted"),
            Mistake("mask_upper", m.upper_triangle, "causal_upper"),
            Mistake("mask_no_diagonal", m.diagonal_left_out, "causal_no_diagonal"),
            Mistake("mask_all_true", m.all_true, "causal_all_true"),
        ),
        answer=BOOLEANS,
    ),
    # ---------------------------------------------------------------- lesson 12: word order (checker/positions.py)
    "reordered_output": PositionStep(
        needs=("X", "W_q", "W_k", "W_v", "order"),
        right_answer=pos.reordered_output,
        symbol="O",
        axes="axes_reordered",
        entry="entry_reordered",
        mistakes=(
            Mistake("not_reordered", pos.not_reordered, "not_reordered"),
            Mistake("inverse_order", pos.inverse_order, "inverse_order"),
            Mistake("unscaled", pos.reordered_unscaled, "unscaled"),
        ),
        shape_hints=(ShapeHint(pos.transposed, "hint_transposed_O"),),
        columns_are_keys=False,
    ),
    "sinusoidal": PositionStep(
        needs=("n", "d"),
        optional=("base",),
        right_answer=pos.sinusoidal,
        symbol="PE",
        axes="axes_PE",
        entry="entry_PE",
        mistakes=(
            Mistake("sin_cos_swapped", pos.sin_cos_swapped, "sin_cos_swapped"),
            Mistake("sin_cos_halves", pos.sin_cos_halves, "sin_cos_halves"),
            Mistake("exponent_pair_index", pos.exponent_pair_index, "exponent_pair_index"),
            Mistake("exponent_column_index", pos.exponent_column_index, "exponent_column_index"),
            Mistake("frequency_inverted", pos.frequency_inverted, "frequency_inverted"),
            POSITIONS_FROM_1,
        ),
        shape_hints=(
            ShapeHint(pos.transposed, "hint_PE_transposed"),
            ShapeHint(pos.one_column_per_pair, "hint_PE_half"),
        ),
        columns_are_keys=False,
    ),
    "rope": PositionStep(
        needs=("X", "positions"),
        optional=("layout", "base"),
        right_answer=pos.rope,
        symbol="RoPE(x)",
        axes="axes_rope",
        entry="entry_rope",
        mistakes=(
            *ROPE_OTHER_LAYOUT,
            Mistake("rope_negative_angle", pos.rope_negative_angle, "rope_negative_angle"),
            Mistake("rope_not_rotated", pos.rope_not_rotated, "rope_not_rotated"),
            POSITIONS_FROM_1,
            Mistake("exponent_pair_index", pos.rope_exponent_pair_index, "exponent_pair_index"),
        ),
        shape_hints=(ShapeHint(pos.transposed, "hint_rope_transposed"),),
        columns_are_keys=False,
    ),
    "positioned_scores": PositionStep(
        needs=("X", "W_q", "W_k"),
        optional=("base",),
        right_answer=pos.positioned_scores,
        symbol="S",
        axes="axes_S",
        entry="entry_S_pos",
        mistakes=(
            Mistake("pe_after_projection", pos.pe_after_projection, "pe_after_projection"),
            Mistake("pe_not_added", pos.pe_not_added, "pe_not_added"),
            Mistake("sin_cos_swapped", pos.scores_sin_cos_swapped, "sin_cos_swapped"),
            Mistake("positions_from_1", pos.scores_positions_from_1, "positions_from_1"),
            Mistake("unscaled", pos.scores_unscaled, "unscaled"),
        ),
        shape_hints=SCORES_SHAPES[:1],
    ),
    "shifted_scores": PositionStep(
        needs=("q", "k", "i", "j", "shifts"),
        optional=("layout", "base"),
        right_answer=pos.shifted_scores,
        symbol="scores",
        axes="axes_shifted",
        entry="entry_shifted",
        mistakes=(
            Mistake("query_shifted_only", pos.query_shifted_only, "query_shifted_only"),
            Mistake("rope_not_rotated", pos.scores_not_rotated, "scores_not_rotated"),
            Mistake("rope_other_layout", pos.scores_other_layout, "scores_other_layout"),
            Mistake("rope_negative_angle", pos.scores_negative_angle, "rope_negative_angle"),
        ),
        shape_hints=(ShapeHint(pos.one_number, "hint_one_score"),),
        columns_are_keys=False,
    ),
}
