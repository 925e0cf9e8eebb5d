"""The steps the checker knows, each one ``Step``: what it takes, its right answer, the mistakes it tries
(in order: the first that gives the learner's array is named), the wrong shapes it explains, the rules it
checks, and the message keys that say what its axes and entries mean. Find-the-bug steps, whose answer
is a function, are in ``functions.FUNCTION_STEPS``.

To add a step: write its mistakes in ``mistakes`` (or, for a lesson of its own, in a module beside it,
right answers and mistakes together, as ``heads``, ``online``, ``backward``, ``block`` and
``predictions`` do), one ``Step`` in ``STEP_TABLE`` below, and its messages in
``attn_homework/messages/``.

Why one module of some 750 lines: it holds no logic, only the table, and the table is read as one (the
mistake groups at the top are shared by the steps of several lessons, and the order of the entries is the
order the checker tries them); the functions it names live in the modules beside it.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from . import backward, block, heads, online, predictions, right, shapes
from . import decoding as dec
from . import learned as lrn
from . import mistakes as m
from . import positions as pos
from . import torch_port as tp
from .compare import BOOLEANS, COUNT, INDEX, NUMBER, NUMBERS, AnswerKind
from .givens import Givens, Stage, read_givens


@dataclass(frozen=True)
class Mistake:
    """A known mistake: its diagnosis code, the function that recomputes what it gives (an array, several,
    or ``mistakes.Made`` values with fields for the message) and the message key that says what is
    wrong, why, and the fix."""

    code: str
    makes: Callable[[Givens], object]
    message: str
    via_weights: bool = False  # seen in the output step: the message starts "O is off because of the weights"


@dataclass(frozen=True)
class ShapeHint:
    """A wrong shape and the message key that explains it. With ``made``, the hint names a cause, so it is
    given only when the answer's numbers are what that cause makes (``shapes``); without, the message
    may only state a fact about the shape."""

    shape: Callable[[Givens], tuple | None]
    message: str
    made: Callable[[Givens], object] | None = None


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
    entry: str  # message key: what entry [i, j] is (said with wrong values); a prediction's explanation
    optional: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    shape_hints: tuple[ShapeHint, ...] = ()
    rules: tuple[Rule, ...] = ()
    unmasked: Callable[[Givens], np.ndarray | None] = right.nothing_masked
    stage: Stage | None = None  # where it is along scores → weights → output (see mistakes)
    scaled: bool | None = None  # fixed by the step (scores: never, scaled_scores: always); None: given
    answer: AnswerKind = NUMBERS
    columns_are_keys: bool = True  # columns are key positions, named after the tokens if given
    finite_hint: str = "finite"  # message key: what NaN or ∞ come from, said without guessing a cause
    shape_hint: str = "shape"  # message key: the general hint for a wrong shape that no ShapeHint explains

    def givens(self, given):
        """The Givens of a check of this step: read and validated, then the right answer and where it is
        masked derived from them. Raises (TypeError, ValueError) for givens attn_core rejects."""
        g = read_givens(given)
        g = replace(g, stage=self.stage, scaled=g.scaled if self.scaled is None else self.scaled)
        g = replace(g, expected=np.asarray(self.right_answer(g)))
        return replace(g, unmasked=self.unmasked(g))


# ---------------------------------------------------------------- the mistakes of scaled dot-product attention
# Each is carried on to the step's answer (scores, weights or output), so one group serves several steps.
# The order is the order they are tried in: when two give the same array, the first is named.

SCORES_TRANSPOSED_PROJECTED = Mistake("transposed", m.scores_transposed_projected, "transposed_qk_projected")
SCORES_TRANSPOSED = Mistake("transposed", m.scores_transposed, "transposed_qk")
# Before it: where the column max makes the same numbers as K·Qᵀ, both are named.
MAX_AXIS_OR_TRANSPOSED = Mistake(
    "max_axis_or_transposed", m.max_down_the_columns_or_scores_transposed, "max_down_columns_or_transposed"
)
ANSWER_TRANSPOSED = Mistake("transposed", m.answer_transposed, "transposed")
QK_AND_SCALING = (
    Mistake("missing_transpose", m.k_not_transposed, "missing_transpose"),
    Mistake("unscaled", m.unscaled, "unscaled"),
    Mistake("scaled_by_dk", m.divided_by_d_k, "scaled_by_dk"),
    Mistake("scale_multiplied", m.multiplied_by_sqrt_d_k, "scale_multiplied"),
    Mistake("scaled_wrong_width", m.divided_by_another_width, "scaled_by_a_root_of"),
    Mistake("scaled_fixed_width", m.divided_by_a_fixed_width, "scaled_fixed_width"),
    Mistake("floor_division", m.floor_divided, "floor_division"),
    Mistake("scaled_not_asked", m.scaled_though_not_asked, "scaled_not_asked"),
    Mistake("scaled_not_asked", m.divided_by_d_k_though_not_asked, "scaled_not_asked"),
)
MAX_AXIS_OR_SOFTMAX_AXIS = Mistake(  # before softmax_axis: where both make the same numbers, both are named
    "max_axis_or_softmax_axis", m.max_down_the_columns_or_along_them, "max_down_columns_or_softmax_axis"
)
SOFTMAX = (
    MAX_AXIS_OR_SOFTMAX_AXIS,
    Mistake("softmax_axis", m.softmax_along_columns, "softmax_axis"),
    Mistake("softmax_axis", m.normalized_down_the_columns, "softmax_axis"),
    Mistake("max_axis", m.max_down_the_columns, "max_down_columns"),
    Mistake("keepdims", m.keepdims_max_forgotten, "keepdims_max"),
    Mistake("keepdims", m.keepdims_forgotten, "keepdims"),
    Mistake("overflow", m.overflowed, "overflow"),
    Mistake("overflow", m.overflow_zeroed, "overflow_zeroed"),
    Mistake("not_normalized", m.exp_not_divided, "exp_not_divided"),
    Mistake("not_normalized", m.exp_over_row_max, "exp_over_row_max"),
    Mistake("not_normalized", m.divided_by_total, "divided_by_total"),
    Mistake("mask_after_softmax", m.mask_after_softmax, "mask_after_softmax"),
)
MASKING = (
    Mistake("mask_ignored", m.mask_ignored, "mask_ignored"),
    Mistake("mask_inverted", m.mask_inverted, "mask_inverted"),
    Mistake("mask_upper", m.mask_upper, "mask_upper"),
    Mistake("key_mask_on_queries", m.key_mask_on_queries, "key_mask_on_queries"),
    Mistake("mask_no_diagonal", m.mask_without_diagonal, "mask_no_diagonal"),
    Mistake("mask_zero", m.masked_with_zero, "mask_zero"),
    Mistake("mask_added", m.mask_added_as_numbers, "mask_added_as_numbers"),
)
SCORES_MISTAKES = (SCORES_TRANSPOSED_PROJECTED, SCORES_TRANSPOSED, ANSWER_TRANSPOSED, *QK_AND_SCALING, *MASKING)
WEIGHTS_MISTAKES = (
    MAX_AXIS_OR_TRANSPOSED,
    SCORES_TRANSPOSED_PROJECTED,
    SCORES_TRANSPOSED,
    ANSWER_TRANSPOSED,
    *QK_AND_SCALING,
    *SOFTMAX,
    *MASKING,
    Mistake("no_softmax", m.no_softmax, "no_softmax"),
    Mistake("no_softmax", m.masked_scores_as_weights, "no_softmax"),
    Mistake("no_softmax", m.no_softmax_nor_scaling, "no_softmax"),
    Mistake("changed_another_row", m.another_key_scaled, "scaled_another_key"),
    Mistake("changed_another_row", m.key_scaled_by_another_factor, "key_scaled_by_another_factor"),
    Mistake("changed_another_row", m.query_scaled_instead, "query_scaled_instead"),
)
OUTPUT_MISTAKES = (
    *(
        replace(mistake, via_weights=True)
        for mistake in (
            MAX_AXIS_OR_TRANSPOSED,
            SCORES_TRANSPOSED_PROJECTED,
            SCORES_TRANSPOSED,
            *QK_AND_SCALING,
            *SOFTMAX,
            *MASKING,
        )
    ),
    Mistake("used_scores_not_weights", m.used_scores_as_weights, "used_scores"),
    Mistake("used_scores_not_weights", m.used_unscaled_scores_as_weights, "used_scores"),
    Mistake("used_keys_not_values", m.used_keys_as_values, "used_keys"),
    Mistake("used_keys_not_values", m.keys_and_values_swapped, "keys_and_values_swapped"),
    Mistake("not_normalized", m.weights_not_normalized, "not_normalized_O"),
    Mistake("transposed", m.output_of_transposed_weights, "transposed_A"),
    Mistake("scale_on_output", m.scaled_after_softmax, "scale_on_output"),
    Mistake("not_weighted", m.values_themselves, "output_is_V_no_attention"),
)

SCORES_SHAPES = (
    ShapeHint(shapes.transposed, "hint_transposed_S"),
    ShapeHint(shapes.of_Q, "hint_Q_shape", made=shapes.elementwise_qk),
    ShapeHint(shapes.features_by_features, "hint_QtK", made=shapes.qt_k),
)
OUTPUT_SHAPES = (
    ShapeHint(shapes.of_weights, "hint_A_shape", made=shapes.the_weights),
    ShapeHint(shapes.transposed, "hint_transposed_O"),
)

MASKED_WEIGHTS_ARE_ZERO = Rule("wrong_mask", right.masked_weight_not_zero, "wrong_mask")
WEIGHTS_ARE_NOT_NEGATIVE = Rule("negative_weight", right.negative_weight, "negative_weight")
ROWS_SUM_TO_1 = Rule("not_normalized", right.row_not_summing_to_1, "not_normalized")
MASKED_SCORES_ARE_MINUS_INFINITY = Rule("wrong_mask", right.masked_score_not_minus_infinity, "wrong_mask_S")
WEIGHT_RULES = (MASKED_WEIGHTS_ARE_ZERO, WEIGHTS_ARE_NOT_NEGATIVE, ROWS_SUM_TO_1)


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
        rules=WEIGHT_RULES,
        unmasked=right.where_the_mask_allows,
        stage=Stage.WEIGHTS,
        finite_hint="finite_A",
    )


def _prediction(needs, right_answer, explanation, *mistakes, optional=(), answer=NUMBER):
    """A predict-then-run step: one number, computed from the givens; each mistake a wrong prediction whose
    message explains where that reasoning goes wrong; ``explanation`` for any other wrong number."""
    return Step(
        needs=needs,
        optional=optional,
        right_answer=right_answer,
        symbol="answer",
        axes="axes_number",
        entry=explanation,
        mistakes=tuple(Mistake("wrong_prediction", makes, message) for makes, message in mistakes),
        answer=answer,
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
    Mistake("rope_layouts_mixed", pos.layouts_mixed, "rope_layouts_mixed"),
)


# ---------------------------------------------------------------- the steps of lessons 1–7

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
            Mistake("not_projected", m.x_unprojected, "x_not_projected"),
        ),
        shape_hints=(
            ShapeHint(shapes.transposed, "hint_transposed_XW"),
            ShapeHint(shapes.of_X_transposed, "hint_Xt", made=shapes.x_transposed),
            ShapeHint(shapes.of_X, "hint_X_shape", made=shapes.x_itself),
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
        optional=("d_k", "mask", "d_model"),
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
            MAX_AXIS_OR_SOFTMAX_AXIS,
            Mistake("softmax_axis", m.softmax_along_columns, "softmax_axis"),
            ANSWER_TRANSPOSED,
            Mistake("max_axis", m.max_down_the_columns, "max_down_columns"),
            Mistake("keepdims", m.keepdims_max_forgotten, "keepdims_max"),
            Mistake("keepdims", m.keepdims_forgotten, "keepdims"),
            Mistake("overflow", m.overflowed, "overflow"),
            Mistake("overflow", m.overflow_zeroed, "overflow_zeroed"),
            Mistake("overflow", m.overflow_zeroed, "overflow_zeroed"),
            Mistake("not_normalized", m.exp_not_divided, "exp_not_divided"),
            Mistake("not_normalized", m.exp_over_row_max, "exp_over_row_max"),
            Mistake("not_normalized", m.exp_over_row_max, "exp_over_row_max"),
            Mistake("not_normalized", m.divided_by_total, "divided_by_total"),
            Mistake("no_softmax", m.no_softmax, "no_softmax"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_S"),),
        rules=WEIGHT_RULES,
        unmasked=right.where_scores_are_finite,
        stage=Stage.WEIGHTS,
        finite_hint="finite_A",
        shape_hint="shape_kept",
    ),
    "weights": _weights_step(needs=("Q", "K"), optional=("mask", "d_k", "scaled", "d_model", "d_v", "key", "factor")),
    "masked_weights": _weights_step(needs=("Q", "K", "mask"), optional=("d_k", "scaled", "d_model")),
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
            Mistake("not_weighted", m.values_themselves, "output_is_V"),
        ),
        shape_hints=OUTPUT_SHAPES,
        stage=Stage.OUTPUT,
        columns_are_keys=False,
    ),
    "output": Step(
        needs=("Q", "K", "V"),
        optional=("mask", "d_k", "scaled", "d_model"),
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
        shape_hint="shape_mask",
    ),
}

# ---------------------------------------------------------------- lesson 8: multi-head attention

STEP_TABLE |= {
    "split_heads": Step(
        needs=("Q", "n_heads"),
        right_answer=heads.split,
        symbol="Q_heads",
        axes="axes_heads",
        entry="entry_heads",
        mistakes=(
            Mistake("split_no_transpose", heads.split_by_reshape_alone, "split_reshape_alone"),
            Mistake("split_no_transpose", heads.split_not_moved, "split_not_moved"),
            Mistake("split_interleaved", heads.split_interleaved, "split_interleaved"),
            Mistake("transposed", heads.heads_transposed, "transposed_heads"),
            Mistake("heads_order", heads.split_reversed, "split_reversed"),
        ),
        columns_are_keys=False,
        shape_hint="shape_reshape",
    ),
    "merge_heads": Step(
        needs=("heads",),
        right_answer=heads.merge,
        symbol="merged",
        axes="axes_merged",
        entry="entry_merged",
        mistakes=(
            Mistake("merge_no_transpose", heads.merge_by_reshape_alone, "merge_reshape_alone"),
            Mistake("merge_interleaved", heads.merge_interleaved, "merge_interleaved"),
            Mistake("merge_order", heads.merge_reversed, "merge_reversed"),
            Mistake("merge_summed", heads.merge_summed, "merge_summed"),
            Mistake("merge_stacked", heads.merge_stacked, "merge_stacked"),
        ),
        columns_are_keys=False,
        shape_hint="shape_reshape",
    ),
    "multi_head": Step(
        needs=("X", "W_q", "W_k", "W_v", "W_o", "n_heads"),
        right_answer=heads.multi_head,
        symbol="Y",
        axes="axes_XW",
        entry="entry_multi_head",
        mistakes=(
            Mistake("no_W_O", heads.no_W_o, "no_W_O"),
            Mistake("scaled_by_d_model", heads.scaled_by_d_model, "scaled_by_d_model"),
            Mistake("scaled_wrong_width", heads.scaled_by_n_heads, "scaled_by_n_heads"),
            Mistake("unscaled", heads.layer_unscaled, "unscaled_heads"),
            Mistake("max_axis", heads.layer_column_max, "max_down_columns"),
            Mistake("split_no_transpose", heads.layer_split_by_reshape, "layer_split_by_reshape"),
            Mistake("merge_no_transpose", heads.layer_merged_by_reshape, "layer_merged_by_reshape"),
            Mistake("split_no_transpose", heads.layer_split_and_merged_by_reshape, "layer_split_merged_by_reshape"),
            Mistake("residual_added", heads.layer_with_residual, "layer_residual_added"),
            Mistake("transposed", heads.layer_W_o_transposed, "layer_W_o_transposed"),
            Mistake("single_head", heads.one_head, "single_head"),
            Mistake("single_head", heads.one_head_scaled_by_d_head, "single_head"),
            Mistake("softmax_axis", heads.layer_softmax_down_the_columns, "softmax_axis", via_weights=True),
            Mistake("transposed", heads.layer_keys_times_queries, "transposed_qk", via_weights=True),
            Mistake("used_keys_not_values", heads.layer_keys_as_values, "used_keys"),
            Mistake("merge_interleaved", heads.layer_merged_interleaved, "merge_interleaved"),
            Mistake("split_interleaved", heads.layer_split_every_h_th, "split_interleaved"),
        ),
        columns_are_keys=False,
        finite_hint="finite_A",
    ),
    "predict_head_scale": _prediction(
        ("n", "n_heads", "d_model"),
        predictions.head_width,
        "explain_head_scale",
        (predictions.under_root_d_model, "predict_d_model"),
        (predictions.under_root_n_heads, "predict_n_heads"),
        (predictions.under_root_n, "predict_n"),
        (predictions.the_root_itself, "predict_root_itself"),
        answer=COUNT,
    ),
}

# ---------------------------------------------------------------- lesson 9: the online softmax over two blocks of keys

_ONLINE_SHAPES = (
    ShapeHint(shapes.without_its_column, "hint_keepdims_column"),
    ShapeHint(shapes.transposed, "hint_transposed_column"),
    ShapeHint(shapes.of_block_1, "hint_one_per_score"),
    ShapeHint(shapes.of_block_2, "hint_one_per_score"),
)

STEP_TABLE |= {
    "block_max": Step(
        needs=("S1",),
        optional=("S2",),
        right_answer=online.first_max,
        symbol="m1",
        axes="axes_running",
        entry="entry_running",
        mistakes=(
            Mistake("max_axis", online.max_down_columns, "max_axis"),
            Mistake("keepdims", online.max_without_keepdims, "keepdims_running"),
            Mistake("max_whole_block", online.max_of_whole_block, "max_whole_block"),
            Mistake("max_both_blocks", online.max_of_both_blocks, "max_both_blocks"),
            Mistake("min_not_max", online.min_not_max, "min_not_max"),
            Mistake("mean_not_max", online.mean_not_max, "mean_not_max"),
        ),
        shape_hints=_ONLINE_SHAPES,
        shape_hint="shape_reduced",
        columns_are_keys=False,
    ),
    "block_sum": Step(
        needs=("S1",),
        optional=("S2",),
        right_answer=online.first_sum,
        symbol="l1",
        axes="axes_running",
        entry="entry_running",
        mistakes=(
            Mistake("not_shifted", online.sum_not_shifted, "sum_not_shifted"),
            Mistake("max_axis", online.sum_with_column_max, "max_axis"),
            Mistake("max_whole_block", online.sum_with_block_max, "sum_with_block_max"),
            Mistake("sum_axis", online.sum_down_columns, "sum_axis"),
            Mistake("keepdims", online.sum_without_keepdims, "keepdims_running"),
            Mistake("max_both_blocks", online.sum_with_both_blocks_max, "sum_with_both_blocks_max"),
        ),
        shape_hints=_ONLINE_SHAPES,
        shape_hint="shape_reduced",
        columns_are_keys=False,
    ),
    "online_sum": Step(
        needs=("S1", "S2"),
        right_answer=online.second_sum,
        symbol="l2",
        axes="axes_running",
        entry="entry_running_both",
        mistakes=(
            Mistake("not_rescaled", online.of_sum(online.not_rescaled), "not_rescaled"),
            Mistake("not_shifted", online.of_sum(online.never_shifted), "never_shifted"),
            Mistake("rescaled_backwards", online.of_sum(online.rescaled_backwards), "rescaled_backwards"),
            Mistake("max_not_running", online.of_sum(online.maximum_not_running), "max_not_running"),
            Mistake("max_axis", online.of_sum(online.columns_maximum), "max_axis"),
            Mistake("old_sums_dropped", online.of_sum(online.old_sums_dropped), "old_sums_dropped"),
            Mistake("new_block_forgotten", online.of_sum(online.new_block_forgotten), "new_block_forgotten"),
            Mistake("new_block_forgotten", online.of_sum(online.new_block_forgotten_unrescaled), "new_block_forgotten"),
        ),
        shape_hints=_ONLINE_SHAPES,
        shape_hint="shape_reduced",
        columns_are_keys=False,
    ),
    "online_acc": Step(
        needs=("S1", "S2", "V1", "V2"),
        right_answer=online.second_acc,
        symbol="acc2",
        axes="axes_O",
        entry="entry_acc",
        mistakes=(
            Mistake("not_rescaled", online.of_acc(online.not_rescaled), "not_rescaled"),
            Mistake("not_shifted", online.of_acc(online.never_shifted), "never_shifted"),
            Mistake("rescaled_backwards", online.of_acc(online.rescaled_backwards), "rescaled_backwards"),
            Mistake("max_not_running", online.of_acc(online.maximum_not_running), "max_not_running"),
            Mistake("max_axis", online.of_acc(online.columns_maximum), "max_axis"),
            Mistake("old_sums_dropped", online.of_acc(online.old_sums_dropped), "old_sums_dropped"),
            Mistake("new_block_forgotten", online.of_acc(online.new_block_forgotten), "new_block_forgotten"),
            Mistake("new_block_forgotten", online.of_acc(online.new_block_forgotten_unrescaled), "new_block_forgotten"),
            Mistake("divided_early", online.output, "acc_divided"),
        ),
        columns_are_keys=False,
    ),
    "online_output": Step(
        needs=("S1", "S2", "V1", "V2"),
        right_answer=online.output,
        symbol="O",
        axes="axes_O",
        entry="entry_online_O",
        mistakes=(
            Mistake("divided_early", online.divided_early, "divided_early"),
            Mistake("not_divided", online.not_divided, "not_divided"),
            Mistake("not_rescaled", online.output_not_rescaled, "not_rescaled"),
            Mistake("blocks_averaged", online.blocks_averaged, "blocks_averaged"),
            Mistake("blocks_averaged", online.blocks_added, "blocks_added"),
            Mistake("old_sums_dropped", online.last_block_only, "last_block_only"),
            Mistake("new_block_forgotten", online.first_block_only, "first_block_only"),
            Mistake("softmax_axis", online.softmax_down_the_columns, "softmax_axis", via_weights=True),
        ),
        columns_are_keys=False,
    ),
    "predict_rescale": _prediction(
        ("S1", "S2", "row"),
        predictions.rescale_factor,
        "explain_rescale",
        (predictions.factor_of_another_row, "predict_other_row_factor"),
        (predictions.old_sums_dropped, "predict_zero_factor"),
        (predictions.against_block_maximum, "predict_block_factor"),
    ),
}

# ---------------------------------------------------------------- lesson 10: gradients

STEP_TABLE |= {
    "grad_V": Step(
        needs=("A", "dO"),
        right_answer=backward.grad_V,
        symbol="dV",
        axes="axes_dV",
        entry="entry_dV",
        mistakes=(
            Mistake("transposed", m.answer_transposed, "transposed_grad"),
            Mistake("missing_transpose", backward.dV_without_transpose, "dV_A_not_transposed"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_grad"),),
        columns_are_keys=False,
    ),
    "grad_A": Step(
        needs=("dO", "V"),
        right_answer=backward.grad_A,
        symbol="dA",
        axes="axes_S",
        entry="entry_dA",
        mistakes=(
            Mistake("transposed", m.answer_transposed, "transposed_grad"),
            Mistake("missing_transpose", backward.dA_without_transpose, "dA_V_not_transposed"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_grad"),),
    ),
    "softmax_backward": Step(
        needs=("A", "dA"),
        right_answer=backward.grad_S,
        symbol="dS",
        axes="axes_S",
        entry="entry_dS",
        mistakes=(
            Mistake("jacobian_forgotten", backward.jacobian_forgotten, "jacobian_forgotten"),
            Mistake("jacobian_partial", backward.jacobian_diagonal_only, "jacobian_diagonal"),
            Mistake("jacobian_partial", backward.jacobian_first_term_only, "jacobian_first_term"),
            Mistake("jacobian_partial", backward.jacobian_without_A, "jacobian_without_A"),
            Mistake("jacobian_sign", backward.jacobian_sign, "jacobian_sign"),
            Mistake("sum_axis", backward.jacobian_columns, "jacobian_columns"),
            Mistake("keepdims", backward.jacobian_keepdims, "keepdims_grad"),
            Mistake("transposed", m.answer_transposed, "transposed_grad"),
        ),
    ),
    "grad_Q": Step(
        needs=("dS", "K"),
        optional=("d_k",),
        right_answer=backward.grad_Q,
        symbol="dQ",
        axes="axes_dQ",
        entry="entry_dQ",
        mistakes=(
            Mistake("grad_unscaled", backward.dQ_unscaled, "grad_unscaled"),
            Mistake("scaled_by_dk", backward.dQ_scaled_by_d_k, "scaled_by_dk"),
            Mistake("scale_multiplied", backward.dQ_multiplied, "scale_multiplied"),
            Mistake("missing_transpose", backward.dQ_with_K_transposed, "dQ_K_was_transposed"),
            Mistake("transposed", m.answer_transposed, "transposed_grad"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_grad"),),
        columns_are_keys=False,
    ),
    "grad_K": Step(
        needs=("dS", "Q"),
        optional=("d_k",),
        right_answer=backward.grad_K,
        symbol="dK",
        axes="axes_dK",
        entry="entry_dK",
        mistakes=(
            Mistake("grad_unscaled", backward.dK_unscaled, "grad_unscaled"),
            Mistake("scaled_by_dk", backward.dK_scaled_by_d_k, "scaled_by_dk"),
            Mistake("scale_multiplied", backward.dK_multiplied, "scale_multiplied"),
            Mistake("transposed", m.answer_transposed, "transposed_grad"),
            Mistake("missing_transpose", backward.dK_without_transpose, "dK_dS_not_transposed"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_transposed_grad"),),
        columns_are_keys=False,
    ),
    "predict_grad_row_sum": _prediction(
        ("A", "dA", "row"),
        predictions.grad_row_sum,
        "explain_grad_row_sum",
        (predictions.one_like_the_weights, "predict_one"),
        (predictions.sum_of_dA, "predict_sum_dA"),
    ),
}

# ---------------------------------------------------------------- lesson 11: the rest of the block

_LAYER_NORM_MISTAKES = (
    Mistake("norm_axis", block.wrong_axis, "norm_axis"),
    Mistake("eps_forgotten", block.eps_forgotten, "eps_forgotten"),
    Mistake("eps_misplaced", block.eps_outside_root, "eps_misplaced"),
    Mistake("eps_value", block.eps_of_another_size, "eps_value"),
    Mistake("unbiased_variance", block.unbiased_variance, "unbiased_variance"),
    Mistake("not_centred", block.not_centred, "not_centred"),
    Mistake("no_square_root", block.no_square_root, "no_square_root"),
    Mistake("only_centred", block.only_centred, "only_centred"),
)

STEP_TABLE |= {
    "layer_norm": Step(
        needs=("X",),
        optional=("eps",),
        right_answer=block.layer_norm,
        symbol="X_norm",
        axes="axes_XW",
        entry="entry_norm",
        mistakes=_LAYER_NORM_MISTAKES,
        columns_are_keys=False,
        finite_hint="finite_norm",
    ),
    "residual_norm": Step(
        needs=("X", "F"),
        optional=("eps",),
        right_answer=block.residual_norm,
        symbol="H",
        axes="axes_XW",
        entry="entry_residual",
        mistakes=(
            Mistake("residual_after_norm", block.residual_after_norm, "residual_after_norm"),
            Mistake("residual_after_norm", block.input_normed, "input_normed"),
            Mistake("no_residual", block.no_residual, "no_residual"),
            Mistake("no_norm", block.not_normed, "no_norm"),
            Mistake("residual_added_twice", block.residual_added_twice, "residual_added_twice"),
            Mistake("sublayer_left_out", block.sublayer_left_out, "sublayer_left_out"),
            *_LAYER_NORM_MISTAKES,
        ),
        columns_are_keys=False,
        finite_hint="finite_norm",
    ),
    "ffn": Step(
        needs=("H", "W1", "b1", "W2", "b2"),
        right_answer=block.ffn,
        symbol="F",
        axes="axes_XW",
        entry="entry_ffn",
        mistakes=(
            Mistake("no_relu", block.no_relu, "no_relu"),
            Mistake("relu_on_output", block.relu_on_output, "relu_on_output"),
            Mistake("bias_forgotten", block.bias_forgotten, "bias_forgotten"),
            Mistake("relu_before_bias", block.relu_before_bias, "relu_before_bias"),
            Mistake("transposed", m.answer_transposed, "transposed_ffn"),
            Mistake("residual_added", block.ffn_with_residual, "ffn_residual_added"),
        ),
        columns_are_keys=False,
    ),
    "predict_rows_changed": _prediction(
        ("H", "W1", "b1", "W2", "b2", "row", "factor"),
        predictions.rows_changed,
        "explain_rows_changed",
        (predictions.every_row, "predict_every_row"),
        (predictions.no_row, "predict_no_row"),
        answer=COUNT,
    ),
}

# ---------------------------------------------------------------- predictions in the exercises of lessons 4, 5 and 7

STEP_TABLE |= {
    "predict_top_key": _prediction(
        ("Q", "K", "row", "key", "factor"),
        predictions.top_key,
        "explain_top_key",
        (predictions.top_before_change, "predict_top_before"),
        (predictions.the_changed_key, "predict_changed_key"),
        optional=("d_k",),
        answer=INDEX,
    ),
    "predict_output_width": _prediction(
        ("Q", "K", "V"),
        predictions.output_width,
        "explain_output_width",
        (predictions.width_n_k, "predict_width_n_k"),
        (predictions.width_d_k, "predict_width_d_k"),
        (predictions.width_n_q, "predict_width_n_q"),
        answer=COUNT,
    ),
    "predict_masked_row_sum": _prediction(
        ("Q", "K", "mask", "row"),
        predictions.masked_row_sum,
        "explain_masked_row_sum",
        (predictions.sum_when_masked_after_softmax, "predict_masked_after"),
        (predictions.count_of_visible_keys, "predict_count"),
        optional=("d_k",),
    ),
}

# ---------------------------------------------------------------- lesson 12: word order (checker/positions.py)

STEP_TABLE |= {
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
            Mistake("max_axis", pos.reordered_column_max, "max_down_columns"),
            Mistake("scaled_wrong_width", pos.reordered_by_root_d_model, "scaled_by_a_root_of", via_weights=True),
            Mistake("scaled_wrong_width", pos.reordered_by_root_d_v, "scaled_by_a_root_of", via_weights=True),
            Mistake("transposed", pos.reordered_keys_times_queries, "transposed_qk", via_weights=True),
            Mistake("no_softmax", pos.reordered_no_softmax, "no_softmax", via_weights=True),
            Mistake("softmax_axis", pos.reordered_softmax_down_the_columns, "softmax_axis", via_weights=True),
            Mistake("mask_not_asked", pos.reordered_causal, "mask_not_asked"),
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
        shape_hint="shape_table",
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
            Mistake("frequency_inverted", pos.rope_frequency_inverted, "frequency_inverted"),
            Mistake("rope_position_off_by_one", pos.rope_position_off_by_one, "rope_position_off_by_one"),
        ),
        shape_hints=(ShapeHint(pos.transposed, "hint_rope_transposed"),),
        shape_hint="shape_elementwise",
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
            Mistake("scaled_by_dk", pos.scores_by_d_k, "scaled_by_dk"),
            Mistake("sin_cos_halves", pos.scores_sin_cos_halves, "sin_cos_halves"),
            Mistake("exponent_pair_index", pos.scores_exponent_pair_index, "exponent_pair_index"),
            Mistake("exponent_column_index", pos.scores_exponent_column_index, "exponent_column_index"),
            Mistake("transposed", m.answer_transposed, "transposed_qk"),
            Mistake("pe_one_side", pos.scores_pe_on_one_side, "pe_one_side"),
            Mistake("pe_shifted", pos.scores_pe_shifted_a_row, "pe_shifted"),
            Mistake("softmax_not_asked", pos.scores_softmaxed, "softmax_not_asked"),
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
            Mistake("query_shifted_only", pos.key_shifted_only, "key_shifted_only"),
            Mistake("key_not_rotated", pos.key_not_rotated, "key_not_rotated"),
            Mistake("scaled_not_asked", pos.shifted_scores_scaled, "shifted_scaled_not_asked"),
            Mistake("rope_not_rotated", pos.scores_not_rotated, "scores_not_rotated"),
            Mistake("rope_other_layout", pos.scores_other_layout, "scores_other_layout"),
            Mistake("rope_negative_angle", pos.scores_negative_angle, "scores_negative_angle"),
        ),
        shape_hints=(ShapeHint(pos.one_number, "hint_one_score"),),
        columns_are_keys=False,
    ),
}

# ---------------------------------------------------------------- lesson 14: decoding with a KV cache (decoding.py)


class DecodingStep(Step):
    """A step of lesson 14: its givens (a cache and a new token, heads sharing K/V, a model's sizes) are read
    by ``decoding.read_givens`` into a ``DecodingGivens``; the rest is a ``Step``."""

    def givens(self, given):
        g = dec.read_givens(given)
        g = replace(g, expected=np.asarray(self.right_answer(g)))
        return replace(g, unmasked=self.unmasked(g))


STEP_TABLE |= {
    "cached_output": DecodingStep(
        needs=("q", "k", "v", "K_cache", "V_cache"),
        right_answer=dec.cached_output,
        symbol="o",
        axes="axes_cached_o",
        entry="entry_cached_o",
        mistakes=(
            Mistake("cache_not_appended", dec.cache_not_appended, "cache_not_appended"),
            Mistake("kv_misaligned", dec.kv_misaligned, "kv_misaligned"),
            Mistake("unscaled", dec.cached_unscaled, "unscaled"),
            Mistake("scaled_by_dk", dec.cached_divided_by_d_k, "scaled_by_dk", via_weights=True),
            Mistake("scaled_wrong_width", dec.cached_divided_by_root_d_v, "scaled_by_a_root_of", via_weights=True),
            Mistake("softmax_axis", dec.cached_softmax_down_the_column, "softmax_axis", via_weights=True),
            Mistake("used_keys_not_values", dec.cached_keys_as_values, "used_keys"),
            Mistake("max_axis", dec.cached_column_max, "max_down_columns_one_row"),
            Mistake("cached_key_as_query", dec.cached_key_as_query, "cached_key_as_query"),
            Mistake("cached_first_key_only", dec.cached_first_key_only, "cached_first_key_only"),
            Mistake("no_softmax", dec.cached_no_softmax, "no_softmax", via_weights=True),
        ),
        columns_are_keys=False,
    ),
    "predict_cache_bytes": DecodingStep(
        needs=("layers", "n_heads", "kv_heads", "d_head", "bytes_per_value"),
        right_answer=dec.cache_bytes,
        symbol="answer",
        axes="axes_number",
        entry="explain_cache_bytes",
        mistakes=(
            Mistake("wrong_prediction", dec.bytes_without_v, "predict_k_only_or_half_bytes"),
            Mistake("wrong_prediction", dec.bytes_with_query_heads, "predict_bytes_query_heads"),
            Mistake("wrong_prediction", dec.numbers_not_bytes, "predict_numbers_or_a_smaller_factor"),
            Mistake("wrong_prediction", dec.one_layer_only, "predict_one_layer"),
        ),
        answer=COUNT,
    ),
    "gqa_output": DecodingStep(
        needs=("Q_heads", "K_heads", "V_heads"),
        right_answer=dec.gqa_output,
        symbol="O",
        axes="axes_gqa",
        entry="entry_gqa",
        mistakes=(
            Mistake("kv_heads_tiled", dec.kv_heads_tiled, "kv_heads_tiled"),
            Mistake("kv_heads_tiled", dec.v_heads_tiled, "v_heads_tiled"),
            Mistake("kv_heads_tiled", dec.k_heads_tiled, "k_heads_tiled"),
            Mistake("unscaled", dec.gqa_unscaled, "unscaled"),
            Mistake("max_axis", dec.gqa_column_max, "max_down_columns"),
            Mistake("scaled_by_dk", dec.gqa_divided_by_d_k, "gqa_scaled_by_dk", via_weights=True),
            Mistake("scaled_wrong_width", dec.gqa_divided_by_root_d_v, "scaled_by_a_root_of", via_weights=True),
            Mistake("softmax_axis", dec.gqa_softmax_along_queries, "softmax_axis", via_weights=True),
            Mistake("softmax_axis", dec.gqa_softmax_across_heads, "softmax_across_heads", via_weights=True),
            Mistake("transposed", dec.gqa_keys_times_queries, "transposed_qk", via_weights=True),
            Mistake("gqa_first_kv_head_only", dec.gqa_first_kv_head_only, "gqa_first_kv_head_only"),
        ),
        shape_hints=(ShapeHint(dec.kv_heads_shape, "hint_gqa_kv_shape"),),
        columns_are_keys=False,
    ),
}


# ---------------------------------------------------------------- lesson 13: PyTorch (checker/torch_port.py)

STEP_TABLE |= {
    "torch_in_proj": PositionStep(
        needs=("W_q", "W_k", "W_v"),
        right_answer=tp.in_proj,
        symbol="in_proj_weight",
        axes="axes_in_proj",
        entry="entry_in_proj",
        mistakes=(
            Mistake("in_proj_not_transposed", tp.in_proj_not_transposed, "in_proj_not_transposed"),
            Mistake("in_proj_wrong_order", tp.in_proj_wrong_order, "in_proj_wrong_order"),
        ),
        shape_hints=(ShapeHint(shapes.transposed, "hint_in_proj_side_by_side", made=tp.in_proj_side_by_side),),
        columns_are_keys=False,
    ),
    "predict_mha_weight_count": _prediction(
        ("Q", "K", "n_heads"),
        tp.weight_count,
        "explain_mha_weight_count",
        (tp.count_per_head, "predict_count_per_head"),
        (tp.count_without_batch, "predict_count_without_batch"),
        (tp.count_of_the_output, "predict_count_of_output"),
        answer=COUNT,
    ),
}


# ---------------------------------------------------------------- lesson 15: attention that was learned (learned.py)


class LearnedStep(Step):
    """A step of lesson 15: its givens (one layer's weights, a position in the second copy) are read by
    ``learned.read_givens`` into a ``LearnedGivens``; the rest is a ``Step``."""

    def givens(self, given):
        g = lrn.read_givens(given)
        g = replace(g, expected=np.asarray(self.right_answer(g)))
        return replace(g, unmasked=self.unmasked(g))


STEP_TABLE |= {
    "previous_token_scores": LearnedStep(
        needs=("weights",),
        right_answer=lrn.previous_token_score,
        symbol="scores",
        axes="axes_prev_scores",
        entry="entry_prev_scores",
        mistakes=(
            Mistake("prev_on_diagonal", lrn.on_the_diagonal, "prev_on_diagonal"),
            Mistake("prev_above_diagonal", lrn.above_the_diagonal, "prev_above_diagonal"),
            Mistake("prev_divided_by_n", lrn.divided_by_n, "prev_divided_by_n"),
            Mistake("prev_over_heads", lrn.averaged_over_heads, "prev_over_heads"),
            Mistake("prev_summed", lrn.summed_not_averaged, "prev_summed"),
        ),
        shape_hints=(ShapeHint(lrn.per_query_shape, "hint_prev_per_query"),),
        columns_are_keys=False,
    ),
    "predict_induction_key": LearnedStep(
        needs=("query", "start", "length"),
        right_answer=lrn.induction_key,
        symbol="answer",
        axes="axes_number",
        entry="explain_induction_key",
        mistakes=(
            Mistake("wrong_prediction", lrn.earlier_occurrence, "predict_earlier_occurrence"),
            Mistake("wrong_prediction", lrn.previous_position, "predict_previous_position"),
            Mistake("wrong_prediction", lrn.the_query_itself, "predict_query_itself"),
            Mistake("wrong_prediction", lrn.counted_from_one, "predict_counted_from_one"),
        ),
        answer=INDEX,
    ),
}
