"""The course's running examples as data: small, hand-set, deterministic.

``four_words()``  我 / 喜欢 / 学习 / 语言 — X is 4 × 3 and the three projections are 3 × 3
                  matrices of one-decimal numbers, so one row can be worked out by hand.
``coreference()`` 那只动物没过街，因为它太累了 — ten word tokens; the vectors are chosen so that,
                  after attention, 它 draws mostly on 动物 and 累了 (and hardly on 街).

The numbers are made up for teaching (no trained model produced them); they only have to
show the shapes, the order of the steps and one plausible pattern.
"""

from dataclasses import dataclass

import numpy as np

from .core import self_attention


@dataclass(frozen=True)
class Example:
    """Tokens, their input rows X (n × d_model) and the projections W_Q, W_K (d_model × d_k), W_V (d_model × d_v)."""

    tokens: tuple
    gloss: tuple
    X: np.ndarray
    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray
    features: tuple = ()

    def attention(self, mask=None, scaled=True):
        """The five steps on this example: a Trace with Q, K, V, QKᵀ, S, A, O (and X)."""
        return self_attention(self.X, self.W_q, self.W_k, self.W_v, mask=mask, scaled=scaled)

    def index(self, token):
        """Row number of ``token`` (e.g. "学习" -> 2)."""
        return self.tokens.index(token)


def _frozen(rows):
    a = np.array(rows, dtype=np.float64)
    a.flags.writeable = False  # a learner's edit makes a copy instead of changing the example
    return a


def four_words():
    """我 / 喜欢 / 学习 / 语言 with d_model = d_k = d_v = 3.

    With these numbers 学习's weights lean on 喜欢 and 语言 (≈ 0.35 each), less on itself
    and least on 我; several raw scores are negative, as scores may be."""
    return Example(
        tokens=("我", "喜欢", "学习", "语言"),
        gloss=("I", "like", "study", "language"),
        X=_frozen([[1.0, 0.2, 0.0], [0.0, 1.0, 0.5], [0.4, 0.2, 1.0], [0.1, 0.9, 0.8]]),
        W_q=_frozen([[0.6, -0.5, 0.1], [0.5, 0.4, -0.1], [0.8, 0.8, 0.3]]),
        W_k=_frozen([[-0.4, -0.3, 0.1], [0.5, 0.8, 0.9], [0.7, -0.1, 0.2]]),
        W_v=_frozen([[0.3, -0.3, 0.9], [0.9, 0.3, 0.3], [0.8, -0.4, -0.5]]),
    )


def coreference():
    """那只动物没过街，因为它太累了 as ten word tokens, d_model = 4, d_k = d_v = 3.

    The four input features read: animate, place, state (tired), function word / pronoun.
    W_Q turns the pronoun feature into a query for "animate" and "state"; W_K exposes exactly
    those features as keys. So 它 asks for something animate and tired, and finds 动物 and 累了."""
    return Example(
        tokens=("那只", "动物", "没", "过", "街", "，", "因为", "它", "太", "累了"),
        gloss=("that (classifier)", "animal", "did not", "cross", "street", ",", "because", "it", "too", "tired"),
        features=("animate", "place", "state", "function/pronoun"),
        X=_frozen(
            [
                [0.3, 0.0, 0.0, 0.5],
                [1.0, 0.0, 0.1, 0.0],
                [0.0, 0.0, 0.1, 0.6],
                [0.0, 0.3, 0.0, 0.4],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 0.0, 0.2],
                [0.0, 0.0, 0.0, 0.7],
                [0.3, 0.0, 0.0, 1.0],
                [0.0, 0.0, 0.3, 0.5],
                [0.2, 0.0, 1.0, 0.0],
            ]
        ),
        W_q=_frozen([[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.5], [2.0, 0.0, 2.0]]),
        W_k=_frozen([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]),
        W_v=_frozen([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.1, 0.1, 0.1]]),
    )
