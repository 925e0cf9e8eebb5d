"""Interactive explorers for the lessons: one line in a notebook, answers at once.

    from attn_core.viz.explorers import dk_explorer
    dk_explorer()

Each function returns an :class:`Explorer` (an ``ipywidgets.VBox``): controls on top, the picture, the
numbers as text, and a red line if a setting cannot be computed. A control change recomputes the numbers
with ``attn_core`` and replaces the SVG held by one ``widgets.HTML``; the browser draws it (no matplotlib,
no ``interact``/``Output`` re-plotting, so nothing flickers and nbval sees no stray outputs).

Without a kernel (GitHub, a static HTML export) the saved output still shows a picture: the display
bundle carries ``text/html`` with the SVG of the state at display time, which right after building is
the default setting. JupyterLab ranks the widget view above ``text/html``, so a live kernel shows the
widget.

Common interface: ``.controls`` (name -> widget), ``.set(**values)``, ``.update()``, ``.readouts``
(name -> float), ``.labels`` (name -> str, token-valued readouts), ``.svg``, ``.state`` (the arrays
behind the picture, e.g. ``state["A"]``), ``.error`` (None or the message shown) and ``.close()``.
"""

import contextlib
import math

import ipywidgets as widgets
import numpy as np

from .. import lang as _lang
from ..core import attention, causal_mask, project, scale, scores, softmax
from ..examples import coreference, four_words
from ..gradients import softmax_jacobian
from ..multihead import multi_head_attention
from . import svg as draw

__all__ = ["Explorer", "dk_explorer", "key_explorer", "pipeline_explorer", "mask_explorer", "head_explorer"]

DK_OPTIONS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
PIPELINE_DK = (4, 8, 16, 32, 64, 128, 256)
KEY_MULT = dict(min=0.0, max=3.0, step=0.1, value=1.0)

_SLIDER_LAYOUT = dict(width="520px")
_STYLE = {"description_width": "initial"}


def _translator(lang):
    """tr() frozen to the language read when an explorer is built."""
    return lambda zh, en: zh if lang == "zh" else en


@contextlib.contextmanager
def _using_lang(lang):
    """Run attn_core code that calls tr() (e.g. Trace.rows) in the explorer's language."""
    before = _lang.get_lang()
    _lang.set_lang(lang)
    try:
        yield
    finally:
        _lang.set_lang(before)


def _option_values(w):
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in w.options]


def _check_value(name, w, value):
    """Raise a clear error instead of letting a widget clamp or reject ``value`` silently."""
    if hasattr(w, "options"):
        allowed = _option_values(w)
        if value not in allowed:
            raise ValueError(f"{name}={value!r} is not one of the choices {allowed}.")
    elif isinstance(w, widgets.Checkbox):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} is a switch: give True or False, got {value!r}.")
    else:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{name} must be a number, got {value!r}.")
        if isinstance(w, widgets.IntSlider) and int(value) != value:
            raise ValueError(f"{name} must be a whole number, got {value!r}.")
        if not w.min <= value <= w.max:
            raise ValueError(f"{name}={value!r} is outside the slider's range {w.min} … {w.max}.")


class Explorer(widgets.VBox):
    """Controls, an SVG picture, the readouts as text, and an error line.

    ``compute(values) -> state`` does the arithmetic with attn_core; ``render(state) -> (svg, readouts,
    labels, lines)`` turns a state into the picture, the numbers (floats), token-valued readouts and
    the learner-facing readout lines (HTML-escaped here). Both are called on every control change.
    """

    def __init__(self, name, controls, compute, render, *, lang=None, control_box=None):
        self.name = name
        self.controls = dict(controls)
        self._compute, self._render = compute, render
        self._t = _translator(lang or _lang.get_lang())
        self._holding = self._observing = False
        self.svg, self.readouts, self.labels, self.lines, self.error = "", {}, {}, [], None
        self.state = {}
        self._picture = widgets.HTML(layout=widgets.Layout(width="100%"))
        self._numbers = widgets.HTML()
        self._error = widgets.HTML()
        box = control_box if control_box is not None else widgets.VBox(list(self.controls.values()))
        super().__init__(children=[box, self._picture, self._numbers, self._error])
        self._show(self._compute_all())  # the default state: a failure here is a bug or bad argument
        for w in self.controls.values():
            w.observe(self._on_change, names="value")
        self._observing = True

    # ------------------------------------------------------------ state
    @property
    def values(self):
        """Current control values, name -> value."""
        return {name: w.value for name, w in self.controls.items()}

    def _compute_all(self):
        state = self._compute(self.values)
        return state, self._render(state)

    def _show(self, computed):
        self.state, (svg, readouts, labels, lines) = computed
        self.svg, self.readouts, self.labels, self.lines, self.error = svg, readouts, labels, lines, None
        if self._picture.value != svg:
            self._picture.value = svg
        numbers = _lines_html(lines)
        if self._numbers.value != numbers:
            self._numbers.value = numbers
        if self._error.value:
            self._error.value = ""

    def update(self):
        """Recompute from the controls and redraw. If that raises, the message appears as a red line
        in the explorer (``.error`` holds it); the last good picture stays, faded."""
        try:
            computed = self._compute_all()
        except Exception as e:  # shown to the learner instead of failing silently in a callback
            self.error = f"{type(e).__name__}: {e}"
            self.readouts, self.labels, self.lines = {}, {}, []
            self._picture.value = self._faded()
            self._numbers.value = ""
            self._error.value = self._error_line()
            return
        self._show(computed)

    def _faded(self):
        return f'<div style="opacity:0.3">{self.svg}</div>'

    def _error_line(self):
        message = self._t("这个设置算不出结果：", "This setting cannot be computed: ") + self.error
        return f'<div style="{_TEXT_STYLE};color:{draw.ERROR};font-weight:bold">⚠ {draw.esc(message)}</div>'

    def _on_change(self, change):
        if not self._holding:
            self.update()

    def set(self, **values):
        """Set several controls at once (one redraw), e.g. ``ex.set(d_k=512, scaled=False)``."""
        unknown = [k for k in values if k not in self.controls]
        if unknown:
            raise ValueError(f"{self.name} has no control named {', '.join(map(repr, unknown))}; "
                             f"its controls are {', '.join(map(repr, self.controls))}.")
        for k, value in values.items():
            _check_value(k, self.controls[k], value)
        self._holding = True
        try:
            for k, value in values.items():
                self.controls[k].value = value
        finally:
            self._holding = False
        self.update()

    def close(self):
        """Stop listening to the controls and close every widget of the explorer (safe to call twice)."""
        if getattr(self, "_observing", False):
            for w in self.controls.values():
                w.unobserve(self._on_change, names="value")
            self._observing = False
        for w in self._descendants():
            w.close()
        super().close()

    def _descendants(self):
        out, todo = [], list(self.children)
        while todo:
            w = todo.pop()
            out.append(w)
            todo.extend(getattr(w, "children", ()))
        return out

    # ------------------------------------------------------------ display without a kernel
    def static_html(self):
        """The picture and numbers as plain HTML (deterministic), for viewers without a kernel."""
        note = self._t("静态图：当前设置。在 Jupyter 中运行这个单元格，就可以拖动控件。",
                       "Static picture of the current setting. Run this cell in Jupyter to use the controls.")
        body = self._faded() + self._error_line() if self.error else self.svg + _lines_html(self.lines)
        return (f'<div class="attn-explorer">{body}'
                f'<div style="{_TEXT_STYLE};font-size:14px;color:{draw.MUTED}">{draw.esc(note)}</div></div>')

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if data is None:  # a closed widget has no view
            return None
        data["text/plain"] = self._t(f"{self.name}：交互图（需要运行中的 Jupyter 内核）",
                                     f"{self.name}: interactive figure (needs a running Jupyter kernel)")
        data["text/html"] = self.static_html()
        return data


_TEXT_STYLE = f"font-family:{draw.FONT_FAMILY};font-size:16px;line-height:1.5"


def _lines_html(lines):
    body = "".join(f"<div>{draw.esc(line)}</div>" for line in lines)
    return f'<div style="{_TEXT_STYLE};margin:4px 0">{body}</div>'


def _pick_example(example, default):
    ex = default() if example is None else example
    for attr in ("tokens", "X", "W_q", "W_k", "W_v"):
        if not hasattr(ex, attr):
            raise TypeError(f"example must be an attn_core.examples.Example (e.g. four_words()), "
                            f"got {type(ex).__name__} without .{attr}.")
    if len(set(ex.tokens)) != len(ex.tokens):
        raise ValueError(f"the example's tokens must be distinct to name one slider each, got {ex.tokens}.")
    return ex


def _check_token(token, tokens, what="query"):
    if token not in tokens:
        raise ValueError(f"{what}={token!r} is not a token of the example; choose one of {list(tokens)}.")


def _entropy(a):
    a = np.asarray(a, dtype=float)
    nz = a[a > 0]
    return float(-(nz * np.log(nz)).sum())


def _nice_top(m):
    """Smallest of 1, 2, 5 × 10^k that is ≥ m (axis limit for score bars)."""
    m = max(float(m), 1e-9)
    k = 10.0 ** math.floor(math.log10(m))
    for f in (1, 2, 3, 5, 10):
        if f * k >= m - 1e-12:
            return f * k
    return 10 * k  # pragma: no cover


def _signed(x):
    """Change with an explicit sign: +0.12, −0.05, 0.00."""
    s = draw.fmt(x)
    return s if s.startswith("−") or float(x) <= 0 or s == draw.fmt(0) else "+" + s


def _pct(r):
    return f"{r * 100:.1f}%" if r < 0.1 else f"{r * 100:.0f}%"


def _key_sliders(tokens, t):
    return {tok: widgets.FloatSlider(description=t(f"键「{tok}」×", f"key “{tok}” ×"), readout_format=".1f",
                                     continuous_update=True, layout=widgets.Layout(width="420px"),
                                     style=_STYLE, **KEY_MULT)
            for tok in tokens}


# ================================================================ 1. why divide by √d_k

def dk_explorer(query="学习", seed=0):
    """Why scores are divided by √d_k: random q and 4 keys, d_k from 1 to 512, scaled or not.

    For every d_k the query q and the keys k_j (labelled 我 / 喜欢 / 学习 / 语言) are the first d_k
    columns of one seeded standard-normal draw of shape (5, 512): the same d_k always shows the same
    vectors, and moving the slider adds dimensions instead of redrawing everything. The raw scores
    q·k_j then spread like √d_k. Unscaled, softmax turns that spread into a near one-hot row and its
    gradient (Frobenius norm of the Jacobian, ``attn_core.gradients.softmax_jacobian``) vanishes; divided
    by √d_k the scores keep a spread of about 1 and the weights stay in a working range.

    With the default ``seed=0``: unscaled, the max weight rises from 0.27 (d_k = 1) to 1.00 (d_k ≥ 32)
    and the gradient falls to under 1% of its uniform-weights size from d_k = 32; scaled, the max weight
    stays between 0.27 and 0.91 and the gradient at 28–100% of that size. The score spread at d_k = 512
    is 22.9 against √512 = 22.6.
    Controls: ``d_k`` (one of DK_OPTIONS) and ``scaled`` (True = divide by √d_k; starts False).
    """
    t = _translator(_lang.get_lang())
    tokens = four_words().tokens
    _check_token(query, tokens)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}.")
    draws = np.random.default_rng(seed).standard_normal((1 + len(tokens), DK_OPTIONS[-1]))
    n = len(tokens)
    g_uniform = float(np.linalg.norm(softmax_jacobian(np.full(n, 1.0 / n))))

    controls = {
        "d_k": widgets.SelectionSlider(options=list(DK_OPTIONS), value=64, description="d_k",
                                       continuous_update=True, layout=widgets.Layout(**_SLIDER_LAYOUT),
                                       style=_STYLE),
        "scaled": widgets.Checkbox(value=False, description=t("除以 √d_k", "divide by √d_k"), indent=False),
    }

    def compute(v):
        d_k, scaled = int(v["d_k"]), bool(v["scaled"])
        q, K = draws[:1, :d_k], draws[1:, :d_k]
        raw = scores(q, K)
        s = scale(raw, d_k) if scaled else raw
        a = softmax(s)[0]
        g = float(np.linalg.norm(softmax_jacobian(a)))
        return dict(d_k=d_k, scaled=scaled, raw=raw[0], s=s[0], a=a, grad=g, grad_ratio=g / g_uniform,
                    entropy=_entropy(a), entropy_max=math.log(n), std=float(np.std(raw[0])),
                    sqrt=math.sqrt(d_k), tokens=tokens)

    def render(st):
        mode = t("除以 √d_k", "divided by √d_k") if st["scaled"] else t("不缩放", "unscaled")
        pic = draw.Svg(820, 470, t("d_k 与 softmax 的尖锐程度", "d_k and how sharp softmax gets"))
        pic.text(10, 24, t(f"查询「{query}」对 4 个键：d_k = {st['d_k']}，{mode}",
                           f"query “{query}” against 4 keys: d_k = {st['d_k']}, {mode}"), size=18, bold=True)
        top = _nice_top(1.3 * np.abs(st["s"]).max())  # headroom for the value labels
        draw.bars(pic, 10, 40, st["s"], tokens, width=370, height=310, vmin=-top, vmax=top,
                  ticks=(-top, 0.0, top),
                  title=t("进入 softmax 的分数 ", "scores into softmax ")
                  + ("q·k/√d_k" if st["scaled"] else "q·k"))
        draw.bars(pic, 420, 40, st["a"], tokens, width=390, height=310,
                  title=t("注意力权重（和为 1）", "attention weights (sum 1)"))
        draw.gauge(pic, 10, 362, width=300, value=st["entropy"], vmax=st["entropy_max"],
                   label=t("熵（越小越集中）", "entropy (smaller = more peaked)"),
                   text=f"{draw.fmt(st['entropy'])} / log 4 = {draw.fmt(st['entropy_max'])}")
        draw.gauge(pic, 10, 414, width=300, value=st["grad_ratio"], vmax=1.0,
                   label=t("softmax 梯度大小（相对均匀权重）", "softmax gradient size (vs uniform weights)"),
                   text=f"{draw.fmt(st['grad'], 3)}" + t(f"（{_pct(st['grad_ratio'])}）",
                                                         f" ({_pct(st['grad_ratio'])})"))
        a = st["a"]
        readouts = dict(d_k=float(st["d_k"]), sqrt_d_k=st["sqrt"], max_weight=float(a.max()),
                        entropy=st["entropy"], entropy_max=st["entropy_max"], grad_norm=st["grad"],
                        grad_uniform=g_uniform, grad_ratio=st["grad_ratio"], score_std=st["std"])
        readouts.update({f"weight[{tok}]": float(w) for tok, w in zip(tokens, a)})
        lines = [
            t(f"最大权重 {draw.fmt(a.max())}（均匀时 0.25，全押在一个键上时 1）",
              f"max weight {draw.fmt(a.max())} (0.25 if uniform, 1 if all on one key)"),
            t(f"熵 {draw.fmt(st['entropy'])}，最大可能值 log 4 = {draw.fmt(st['entropy_max'])}",
              f"entropy {draw.fmt(st['entropy'])}, at most log 4 = {draw.fmt(st['entropy_max'])}"),
            t(f"softmax 梯度大小 ‖J‖_F = {draw.fmt(st['grad'], 3)}，是均匀权重时的 {_pct(st['grad_ratio'])}",
              f"softmax gradient size ‖J‖_F = {draw.fmt(st['grad'], 3)}, {_pct(st['grad_ratio'])} of the "
              f"uniform-weights value"),
            t(f"原始分数 q·k 的标准差 {draw.fmt(st['std'], 1)}，√d_k = {draw.fmt(st['sqrt'], 1)}",
              f"std of the raw scores q·k {draw.fmt(st['std'], 1)}, √d_k = {draw.fmt(st['sqrt'], 1)}"),
        ]
        if a.max() > 0.95 and st["grad_ratio"] < 0.05:
            lines.append(t("几乎全部权重落在一个键上，梯度接近 0：训练时这一行几乎学不动。",
                           "Nearly all weight sits on one key and the gradient is close to 0: "
                           "this row barely learns."))
        return pic.render(), readouts, {"argmax": tokens[int(np.argmax(a))]}, lines

    box = widgets.HBox([controls["d_k"], controls["scaled"]])
    return Explorer("dk_explorer", controls, compute, render, control_box=box)


# ================================================================ 2. enlarge one key

def key_explorer(example=None, query="学习"):
    """One slider per key (0× … 3×, default 1×) multiplies that token's row of K.

    The query's weights are drawn as bars, the default weights (all keys ×1) as a dashed ghost. The
    weights compete: they always sum to 1, so when one grows the others shrink. Enlarging key j
    multiplies its score q·k_j: if that score is positive its weight rises and every other weight
    falls; if it is negative (in four_words, 学习 · 我), enlarging makes it more negative and its
    weight falls — the readouts say so. This is the course's "enlarge one key twofold" exercise.
    """
    t = _translator(_lang.get_lang())
    ex = _pick_example(example, four_words)
    _check_token(query, ex.tokens)
    qi, tokens = ex.index(query), ex.tokens
    base = ex.attention()
    Q, K, V = base.Q, base.K, base.V
    default_w = base.A[qi]
    controls = _key_sliders(tokens, t)

    def compute(v):
        mult = np.array([v[tok] for tok in tokens], dtype=float)
        trace = attention(Q, K * mult[:, None], V)
        return dict(mult=mult, w=trace.A[qi], s=trace.S[qi], d_k=trace.d_k, A=trace.A, qi=qi, default=default_w)

    def render(st):
        w, mult, s = st["w"], st["mult"], st["s"]
        pic = draw.Svg(760, 380, t("放大一个键", "enlarge one key"))
        pic.text(10, 24, t(f"「{query}」的注意力权重：每个键乘上滑块的倍数",
                           f"weights of “{query}”: each key times its slider"), size=18, bold=True)
        draw.bars(pic, 10, 40, w, tokens, width=740, height=330, ghost=default_w,
                  sublabels=[f"×{draw.fmt(m, 1)} · S {draw.fmt(x)}" for m, x in zip(mult, s)],
                  ghost_label=t("所有键 ×1 时", "all keys ×1"))
        change = w - default_w
        readouts = {f"weight[{tok}]": float(x) for tok, x in zip(tokens, w)}
        readouts.update({f"change[{tok}]": float(x) for tok, x in zip(tokens, change)})
        readouts["sum"] = float(w.sum())
        parts = [f"{tok} {draw.fmt(x)}" + t(f"（{_signed(c)}）", f" ({_signed(c)})")
                 for tok, x, c in zip(tokens, w, change)]
        lines = [t("权重（与默认相比）：", "weights (vs default): ") + "  ".join(parts),
                 t(f"权重之和 = {draw.fmt(w.sum())}：一个键多拿，其余的键就少拿。",
                   f"sum of weights = {draw.fmt(w.sum())}: when one key takes more, the others get less.")]
        for tok, m, x in zip(tokens, mult, s):
            if m > 1 and x < 0:
                lines.append(t(f"「{tok}」的分数是负的：放大这个键让分数更负，它的权重反而变小。",
                               f"“{tok}” has a negative score: enlarging its key makes the score more negative, "
                               f"so its weight falls."))
        return pic.render(), readouts, {}, lines

    box = widgets.VBox(list(controls.values()))
    return Explorer("key_explorer", controls, compute, render, control_box=box)


# ================================================================ 3. the whole pipeline (lesson 06)

def _extended_projections(ex, d_max, seed=0):
    """W_Q, W_K widened to d_max columns: the example's own columns first, then seeded random ones.

    The extra columns are standard normal, rescaled so that the extra columns of Q = X·W_Q (and of K)
    have the same root-mean-square size as the example's own Q (and K). They stand for features a
    trained model would have learned; here they carry no meaning, only size, which is what d_k and
    the √d_k scaling are about."""
    rng = np.random.default_rng(seed)
    out = []
    for W in (ex.W_q, ex.W_k):
        extra = rng.standard_normal((W.shape[0], max(d_max - W.shape[1], 0)))
        if extra.size:
            own, new = np.asarray(ex.X) @ W, np.asarray(ex.X) @ extra
            extra = extra * (np.sqrt(np.mean(own ** 2)) / np.sqrt(np.mean(new ** 2)))
        out.append(np.hstack([np.asarray(W, dtype=float), extra]))
    return out


def pipeline_explorer(example=None):
    """Lesson 06: everything at once on the four-word example.

    Controls: ``query`` (which token asks), one key slider per token (0× … 3×), ``scaled`` (divide by
    √d_k) and ``d_k``. d_k starts at the example's own width (3 for four_words) and grows to 256 by
    widening W_Q and W_K with seeded random columns (see ``_extended_projections``): the first
    columns are always the example's, so at the starting d_k the numbers are exactly the example's.
    Shows the full weight matrix A (picked row outlined), that row's bars (dashed: all keys ×1 at the
    same d_k and scaling) and the shape of every intermediate from the Trace.
    """
    lang = _lang.get_lang()
    t = _translator(lang)
    ex = _pick_example(example, four_words)
    tokens = ex.tokens
    d0 = ex.W_q.shape[1]
    d_options = [d0] + [d for d in PIPELINE_DK if d > d0]
    Wq_ext, Wk_ext = _extended_projections(ex, d_options[-1])
    X = np.asarray(ex.X)
    controls = {"query": widgets.ToggleButtons(options=list(tokens), value="学习" if "学习" in tokens else tokens[0],
                                               description=t("查询（谁在问）", "query (who asks)"), style=_STYLE)}
    keys = _key_sliders(tokens, t)
    controls.update(keys)
    controls["scaled"] = widgets.Checkbox(value=True, description=t("除以 √d_k", "divide by √d_k"), indent=False)
    controls["d_k"] = widgets.SelectionSlider(options=d_options, value=d0, description="d_k", style=_STYLE,
                                              continuous_update=True, layout=widgets.Layout(width="420px"))

    def compute(v):
        d_k, scaled, qi = int(v["d_k"]), bool(v["scaled"]), tokens.index(v["query"])
        mult = np.array([v[tok] for tok in tokens], dtype=float)
        Q, K, V = project(X, Wq_ext[:, :d_k], Wk_ext[:, :d_k], ex.W_v)
        trace = attention(Q, K * mult[:, None], V, scaled=scaled)
        trace.X = X
        ghost = attention(Q, K, V, scaled=scaled).A[qi]
        with _using_lang(lang):
            rows = trace.rows()
        return dict(trace=trace, A=trace.A, qi=qi, mult=mult, ghost=ghost, rows=rows, d_k=d_k, scaled=scaled)

    def render(st):
        A, qi = st["trace"].A, st["qi"]
        query = tokens[qi]
        mode = t("除以 √d_k", "divided by √d_k") if st["scaled"] else t("不缩放", "unscaled")
        pic = draw.Svg(860, 0, t("自注意力全流程", "self-attention, all steps"))
        pic.text(10, 24, t(f"d_k = {st['d_k']}，{mode}；黑框 = 查询「{query}」这一行",
                           f"d_k = {st['d_k']}, {mode}; black outline = the row of query “{query}”"),
                 size=18, bold=True)
        w, h = draw.heatmap(pic, 10, 40, A, tokens, tokens, cell=64, title=t("注意力权重 A", "attention weights A"),
                            row_title=t("查询（谁在问）", "queries (who asks)"),
                            col_title=t("键（被问的词）→", "keys (who is asked) →"), highlight_row=qi)
        draw.colorbar(pic, 10 + w - len(tokens) * 64, 40 + h + 14, width=200, label=t("权重", "weight"))
        draw.bars(pic, w + 50, 40, A[qi], tokens, width=860 - w - 60, height=h + 10, ghost=st["ghost"],
                  title=t(f"「{query}」这一行", f"row of “{query}”"), ghost_label=t("键都 ×1", "keys ×1"),
                  sublabels=[f"×{draw.fmt(m, 1)}" for m in st["mult"]])
        ty = 40 + h + 82
        pic.text(10, ty, t("每一步的形状（来自 Trace）", "shape of every step (from the Trace)"), size=17, bold=True)
        rows = [(t("步骤", "step"), t("符号", "symbol"), t("形状", "shape"), t("含义", "meaning"))]
        rows += [(step, sym, " × ".join(map(str, shape)), meaning) for step, sym, shape, meaning in st["rows"]]
        pic.height = int(ty + 10 + draw.table(pic, 10, ty + 4, rows, (0, 60, 140, 240)))
        readouts = {f"weight[{tok}]": float(x) for tok, x in zip(tokens, A[qi])}
        readouts.update(max_weight=float(A[qi].max()), row_sum=float(A[qi].sum()), d_k=float(st["d_k"]),
                        entropy=_entropy(A[qi]))
        fav = tokens[int(np.argmax(A[qi]))]
        lines = [t(f"「{query}」的权重：", f"weights of “{query}”: ")
                 + "  ".join(f"{tok} {draw.fmt(x)}" for tok, x in zip(tokens, A[qi])),
                 t(f"最关注「{fav}」（{draw.fmt(A[qi].max())}）；这一行之和 {draw.fmt(A[qi].sum())}",
                   f"attends most to “{fav}” ({draw.fmt(A[qi].max())}); row sum {draw.fmt(A[qi].sum())}")]
        if st["d_k"] > d0:
            lines.append(t(f"前 {d0} 列是例子自己的 W_Q、W_K，其余 {st['d_k'] - d0} 列是随机补上的（固定种子）。",
                           f"The first {d0} columns are the example's W_Q, W_K; the other {st['d_k'] - d0} are "
                           f"seeded random."))
        return pic.render(), readouts, {"favourite": fav}, lines

    box = widgets.VBox([controls["query"],
                        widgets.HBox([widgets.VBox(list(keys.values())),
                                      widgets.VBox([controls["scaled"], controls["d_k"]])])])
    return Explorer("pipeline_explorer", controls, compute, render, control_box=box)


# ================================================================ 4. masks (lesson 07)

def mask_explorer(example=None):
    """Lesson 07: no mask, a causal mask, or a padding mask on the four-word example.

    ``mode`` is "none", "causal" (position i sees 0..i) or "padding" (the last ``padding`` tokens are
    padding: masked on the key side for every query). attn_core's convention: True = may attend; a
    masked score becomes −∞ before softmax, so its weight is exactly 0 (grey, struck-through cells).
    Padding every token leaves a row with nothing to attend to: softmax cannot make it sum to 1, and
    the explorer shows attn_core's error message.
    """
    lang = _lang.get_lang()
    t = _translator(lang)
    ex = _pick_example(example, four_words)
    tokens, n = ex.tokens, len(ex.tokens)
    controls = {
        "mode": widgets.ToggleButtons(options=[(t("不遮挡", "none"), "none"), (t("因果遮挡", "causal"), "causal"),
                                               (t("填充遮挡", "padding"), "padding")], value="causal",
                                      description=t("遮挡方式", "mask"), style=_STYLE),
        "padding": widgets.IntSlider(min=0, max=n, value=1, description=t("末尾填充词数", "padding tokens at the end"),
                                     continuous_update=True, style=_STYLE, layout=widgets.Layout(width="420px")),
    }

    def sync_padding(change=None):
        controls["padding"].disabled = controls["mode"].value != "padding"

    sync_padding()
    controls["mode"].observe(sync_padding, names="value")

    def compute(v):
        mode, p = v["mode"], int(v["padding"])
        if mode == "none":
            mask = None
        elif mode == "causal":
            mask = causal_mask(n)
        else:
            mask = np.ones((n, n), dtype=bool)
            mask[:, n - p:] = False  # key side: nobody attends to a padding token
        trace = ex.attention(mask=mask)
        return dict(mode=mode, p=p if mode == "padding" else 0, mask=mask, A=trace.A)

    def render(st):
        A, mask, p = st["A"], st["mask"], st["p"]
        full = mask if mask is not None else np.ones((n, n), dtype=bool)
        n_masked = int((~full).sum())
        title = {"none": t("不遮挡：每个词都能看所有词", "no mask: every token sees every token"),
                 "causal": t("因果遮挡：只能看自己和前面的词", "causal: a token sees itself and earlier ones"),
                 "padding": t(f"填充遮挡：最后 {p} 个词是填充，谁都不看它们",
                              f"padding: the last {p} tokens are padding, nobody attends to them")}[st["mode"]]
        pic = draw.Svg(640, 0, t("注意力遮挡", "attention masks"))
        pic.text(10, 24, title, size=18, bold=True)
        padded = tuple(range(n - p, n))
        w, h = draw.heatmap(pic, 10, 40, A, tokens, tokens, cell=72,
                            row_title=t("查询（谁在问）", "queries (who asks)"),
                            col_title=t("键（被问的词）→", "keys (who is asked) →"), masked=mask,
                            muted_rows=padded, muted_cols=padded)
        draw.colorbar(pic, 20, 40 + h + 16, width=180, label=t("权重", "weight"),
                      masked_label=t("被遮住：−∞ → 权重 0", "masked: −∞ → weight 0") if n_masked else None)
        pic.height = 40 + h + 58
        sums = A.sum(axis=1)
        readouts = {f"row_sum[{tok}]": float(s) for tok, s in zip(tokens, sums)}
        readouts.update(masked=float(n_masked), zero_weights=float((A == 0).sum()), padding=float(p))
        lines = [t(f"被遮住的格子：{n_masked} 个（softmax 之前设为 −∞，权重恰好是 0）",
                   f"masked cells: {n_masked} (set to −∞ before softmax, weight exactly 0)"),
                 t("每行之和：", "row sums: ") + "  ".join(f"{tok} {draw.fmt(s)}" for tok, s in zip(tokens, sums))]
        if p:
            lines.append(t("灰色的词是填充。填充词作为查询的那几行照样会算出来，但之后会被丢掉。",
                           "Grey tokens are padding. Their own rows (as queries) are computed but thrown away later."))
        return pic.render(), readouts, {}, lines

    return Explorer("mask_explorer", controls, compute, render,
                    control_box=widgets.HBox([controls["mode"], controls["padding"]]))


# ================================================================ 5. heads (lesson 08)

HEAD_W_SCALE = 2.0


def head_explorer(n_heads=2, example=None, seed=0):
    """Lesson 08: multi-head attention on the coreference example with seeded random projections.

    W_Q, W_K, W_V, W_O are d_model × d_model with entries drawn from N(0, 2²) by
    ``np.random.default_rng(seed)`` (scale 2 because X's entries are at most 1; smaller weights give
    nearly flat heads). ``n_heads`` must divide d_model (4 for coreference: 1, 2 or 4). The heads are
    untrained, so what each one favours is chance; the point is that heads differ and the average
    mixes them. With seed=0 and 2 heads, 它 favours itself (0.49) in head 1 and 累了 (0.31) in head 2.
    Controls: ``head`` (1 … n_heads) and ``query`` (default 它).
    """
    t = _translator(_lang.get_lang())
    ex = _pick_example(example, coreference)
    tokens, X = ex.tokens, np.asarray(ex.X)
    d_model = X.shape[1]
    divisors = [k for k in range(1, d_model + 1) if d_model % k == 0]
    if isinstance(n_heads, bool) or not isinstance(n_heads, (int, np.integer)) or n_heads not in divisors:
        raise ValueError(f"n_heads={n_heads!r} must divide d_model = {d_model} so every head gets the same "
                         f"width; choose one of {divisors}.")
    rng = np.random.default_rng(seed)
    W_q, W_k, W_v, W_o = (rng.normal(0.0, HEAD_W_SCALE, (d_model, d_model)) for _ in range(4))
    mh = multi_head_attention(X, X, W_q, W_k, W_v, W_o, int(n_heads))
    A_heads = mh.A
    A_avg = A_heads.mean(axis=0)
    controls = {
        "head": widgets.IntSlider(min=1, max=int(n_heads), value=1, description=t("头", "head"), style=_STYLE,
                                  disabled=n_heads == 1, continuous_update=True),
        "query": widgets.Dropdown(options=list(tokens), value="它" if "它" in tokens else tokens[0],
                                  description=t("查询（谁在问）", "query (who asks)"), style=_STYLE),
    }

    def compute(v):
        return dict(head=int(v["head"]), qi=tokens.index(v["query"]), A_heads=A_heads, A_avg=A_avg)

    def render(st):
        h, qi = st["head"], st["qi"]
        query = tokens[qi]
        n = len(tokens)
        cell = 38 if n > 6 else 60
        pic = draw.Svg(0, 0, t("多头注意力", "multi-head attention"))
        pic.text(10, 24, t(f"{n_heads} 个头，每个头宽 {d_model // n_heads}；黑框 = 查询「{query}」",
                           f"{n_heads} heads of width {d_model // n_heads}; black outline = query “{query}”"),
                 size=18, bold=True)
        rt, ct = t("查询（谁在问）", "queries (who asks)"), t("键（被问的词）→", "keys (who is asked) →")
        w, hh = draw.heatmap(pic, 10, 40, A_heads[h - 1], tokens, tokens, cell=cell, highlight_row=qi,
                             title=t(f"头 {h}", f"head {h}"), row_title=rt, col_title=ct)
        w2, _ = draw.heatmap(pic, 10 + w + 24, 40, A_avg, tokens, tokens, cell=cell, highlight_row=qi,
                             title=t(f"{n_heads} 个头的平均", f"average of {n_heads} heads"), row_title=rt,
                             col_title=ct)
        draw.colorbar(pic, 10 + w - cell * n, 40 + hh + 14, width=200, label=t("权重", "weight"))
        pic.width = 10 + w + 24 + w2 + 10
        pic.height = 40 + hh + 54
        readouts, labels, lines = {}, {}, []
        rows = [(str(k + 1), A_heads[k, qi]) for k in range(n_heads)] + [("avg", A_avg[qi])]
        for name, row in rows:
            fav = tokens[int(np.argmax(row))]
            readouts[f"max_weight[{name}]"] = float(row.max())
            labels[f"favourite[{name}]"] = fav
            who = t(f"头 {name}", f"head {name}") if name != "avg" else t("平均", "average")
            lines.append(t(f"{who}：「{query}」最关注「{fav}」（{draw.fmt(row.max())}）",
                           f"{who}: “{query}” attends most to “{fav}” ({draw.fmt(row.max())})"))
        readouts.update({f"weight[{tok}]": float(x) for tok, x in zip(tokens, A_heads[h - 1, qi])})
        return pic.render(), readouts, labels, lines

    return Explorer("head_explorer", controls, compute, render,
                    control_box=widgets.HBox([controls["head"], controls["query"]]))
