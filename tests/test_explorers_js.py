"""The page's arithmetic and pictures (attn_viz/explorers/js, run by node) equal attn_core's and svg.py's.

For every live explorer (each ``*_explorer`` of attn_viz.explorers that returns the anywidget
:class:`Explorer`), in both editions, on a grid of every control's values (each control over all its
values with the others at their defaults, and seeded random combinations of all of them): node runs
the assembled bundle (``attn_viz.explorers.bundle()``, the text a static page loads) and prints the
numbers of ``compute`` and the picture of ``frame``; Python sets the same values with ``.set``. The raw
numbers agree to 1e-12, and the picture the page draws is the very SVG that svg.py draws (so every
printed digit agrees), with the same readout lines and description.

node is /usr/bin/node (Debian's nodejs). Without it these tests skip, except in CI (CI=true), where
they fail: the page's numbers must be checked there.
"""

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import attn_viz.explorers as explorers
from attn_core import lang
from attn_viz.explorers import Explorer, bundle
from attn_viz.explorers.esm import ModuleError, assemble, inline, order

NODE = shutil.which("node")
DRIVER = Path(__file__).with_name("explorers_node.js")
RANDOM_POINTS = 24
TOLERANCE = 1e-12


def need_node():
    if NODE:
        return
    if os.environ.get("CI") == "true":
        pytest.fail("node is missing: .ci/run installs Debian's nodejs", pytrace=False)
    pytest.skip("node is not installed")


def live_factories():
    """Every explorer function of the package that builds a live (page-computed) Explorer."""
    out = []
    for name in explorers.__all__:
        factory = getattr(explorers, name)
        if name.endswith("_explorer") and callable(factory):
            ex = factory()
            try:
                if isinstance(ex, Explorer):
                    out.append(factory)
            finally:
                ex.close()
    return out


LIVE = live_factories()


def control_values(control):
    """Every value a control can take (a slider: every step)."""
    if control.kind == "choice":
        return list(control.options)
    if control.kind == "toggle":
        return [False, True]
    steps = round((control.max - control.min) / control.step)
    return [round(control.min + k * control.step, 10) for k in range(steps + 1)]


def grid(ex):
    """The defaults; each control over all its values, the others at their defaults; random combinations."""
    default = ex.values
    points = [dict(default)]
    for name, control in ex.controls.items():
        points += [{**default, name: v} for v in control_values(control) if v != default[name]]
    rng = random.Random(0)
    for _ in range(RANDOM_POINTS):
        points.append({name: rng.choice(control_values(c)) for name, c in ex.controls.items()})
    return points


def run_node(state, points, tmp_path):
    script = tmp_path / "bundle.js"
    script.write_text(bundle(), encoding="utf-8")
    payload = json.dumps({"state": state, "grid": points}, ensure_ascii=False)
    done = subprocess.run(
        [NODE, str(DRIVER), str(script)], input=payload, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def as_array(x):
    return np.array([np.nan if v is None else v for v in np.ravel(x)], dtype=float).reshape(np.shape(x))


@pytest.mark.parametrize("edition", ["zh", "en"])
@pytest.mark.parametrize("factory", LIVE, ids=lambda f: f.__name__)
def test_the_page_computes_and_draws_what_attn_core_and_svg_py_do(factory, edition, tmp_path):
    need_node()
    before = lang.get_lang()
    lang.set_lang(edition)
    try:
        ex = factory()
    finally:
        lang.set_lang(before)
    try:
        points = grid(ex)
        results = run_node(ex.page_state(), points, tmp_path)
        assert len(results) == len(points)
        compared = 0
        for values, page in zip(points, results):
            ex.set(**values)
            where = f"{factory.__name__} {edition} {values}"
            if ex.error:
                assert page["frame_error"], where  # both fail: the page says so in its picture
                continue
            assert page["error"] is None and page["frame_error"] is None, (where, page["error"])
            for key, number in page["numbers"].items():
                if key not in ex.state or isinstance(ex.state[key], (str, dict)):
                    continue
                ref = ex.state[key]
                if isinstance(ref, (bool, np.bool_)):
                    assert number == bool(ref), (where, key)
                    continue
                np.testing.assert_allclose(
                    as_array(number), np.asarray(ref, dtype=float), rtol=0, atol=TOLERANCE, err_msg=f"{where} {key}"
                )
                compared += 1
            assert page["svg"] == ex.svg, where  # every printed digit, every position
            assert page["lines"] == ex.lines, where
            assert page["description"] == ex.description, where
            assert "⟨" not in page["svg"], where  # no word missing from ex.words
        assert compared >= len(points)  # the numbers were compared, not only the pictures
    finally:
        ex.close()


def test_there_are_live_explorers_and_their_modules_are_in_the_bundle():
    names = {f.__name__ for f in LIVE}
    assert "pipeline_explorer" in names
    text = bundle()
    for factory in LIVE:
        ex = factory()
        try:
            assert f'"{ex.kind}": __{ex.kind}.explorer' in text
        finally:
            ex.close()


# ---------------------------------------------------------------- the assembly of the modules


def test_inline_turns_imports_into_lookups_and_exports_into_the_returned_names():
    block, deps, exports = inline(
        "b",
        'import { f, g as h } from "./a.js";\nimport * as d from "./draw.js";\n'
        "export function k() { return f() + h(); }\nexport const m = 2;\nconst private_ = 1;\n",
    )
    assert deps == ["a", "draw"] and exports == ["k", "m"]
    assert "const { f, g: h } = __a;" in block and "const d = __draw;" in block
    assert "export" not in block and "return { k, m };" in block and block.startswith("const __b = (() => {")


def test_inline_refuses_what_it_cannot_inline():
    with pytest.raises(ModuleError, match="cannot inline"):
        inline("x", "export default { render() {} };\n")
    with pytest.raises(ModuleError, match="cannot inline"):
        inline("x", 'import f from "./a.js";\n')


def test_order_puts_every_module_after_what_it_imports_and_finds_cycles():
    assert order({"c": ["b"], "b": ["a"], "a": []}) == ["a", "b", "c"]
    with pytest.raises(ModuleError, match="cycle"):
        order({"a": ["b"], "b": ["a"]})
    with pytest.raises(ModuleError, match="no module"):
        order({"a": ["zz"]})


def test_assembled_modules_run_and_register_their_explorers(tmp_path):
    need_node()
    text, names = assemble(
        {
            "a": "export function double(x) { return 2 * x; }\n",
            "ex": 'import { double } from "./a.js";\nexport const explorer = { compute: (d, v) => double(v.x) };\n',
        }
    )
    assert names == ["ex"]
    script = tmp_path / "t.js"
    script.write_text(text + "console.log(JSON.stringify(EXPLORERS.ex.compute({}, {x: 21})));\n", encoding="utf-8")
    done = subprocess.run([NODE, str(script)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "42"


def test_the_widget_module_and_the_bundle_are_valid_javascript(tmp_path):
    need_node()
    from attn_viz.explorers.esm import esm

    module = tmp_path / "m.mjs"
    module.write_text(esm(), encoding="utf-8")
    check = f"import m from {json.dumps(module.as_uri())}; if (typeof m.render !== 'function') process.exit(3);"
    subprocess.run([NODE, "--input-type=module", "-e", check], check=True, timeout=60)
    script = tmp_path / "b.js"
    script.write_text(bundle(), encoding="utf-8")
    probe = f"require({json.dumps(str(script))}); process.exit(typeof attnExplorers.mountAll === 'function' ? 0 : 4);"
    subprocess.run([NODE, "-e", probe], check=True, timeout=60)
