"""The course's running examples as data: small, hand-set, deterministic.

``four_words()``  我 / 喜欢 / 学习 / 语言 — X is 4 × 3 and the three projections are 3 × 3
                  matrices of one-decimal numbers, so one row can be worked out by hand.
``coreference()`` 那只动物没过街，因为它太累了 — ten word tokens; the vectors are chosen so that,
                  after attention, 它 draws mostly on 动物 and 累了 (and hardly on 街).
``coreference_wide()`` 那只动物没过街，因为它太宽了 — the course's second sentence, where 它 means the
                  street: the same projections and the same vectors for the nine shared words, and
                  宽了 as a state word about a place. One layer does not resolve 它 here (see its docstring).

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


WIDE = (0.0, 0.2, 1.0, 0.0)  # 宽了: a state (1.0) said of a place (0.2), as 累了 is a state said of an animate being


def coreference_wide():
    """那只动物没过街，因为它太宽了: the contrast sentence, in which 它 means 街 (the street).

    Inference-time projections are fixed, so W_Q, W_K, W_V are those of ``coreference()``, and so are the
    vectors of the nine words the two sentences share. The one new word, 宽了, mirrors 累了 with the
    "animate" and "place" features swapped: (0, 0.2, 1, 0) against (0.2, 0, 1, 0).

    The honest consequence: 它 has the same input vector in both sentences, hence the same query, so in
    this one layer it still puts most weight on 动物. The word that decides (宽了) comes after 它; a real
    model resolves it in a later layer, after earlier layers have written context into 它's vector."""
    first = coreference()
    X = np.array(first.X)
    X[first.index("累了")] = WIDE
    return Example(
        tokens=first.tokens[:-1] + ("宽了",),
        gloss=first.gloss[:-1] + ("wide",),
        features=first.features,
        X=_frozen(X),
        W_q=first.W_q,
        W_k=first.W_k,
        W_v=first.W_v,
    )
