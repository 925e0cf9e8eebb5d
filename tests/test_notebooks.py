"""The notebooks as shipped: executed top to bottom, no errors, every lesson shaped the same way,
every link pointing at a file that exists. (nbval, run by `make test`, proves the outputs are current.)"""

import json
import re
from pathlib import Path

import pytest

NB_DIR = Path(__file__).resolve().parents[1] / "notebooks"
ALL = sorted(p for p in NB_DIR.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
EDITIONS = {NB_DIR: ("学习目标", "小结", "自测"), NB_DIR / "en": ("Learning goals", "Summary", "Self-check")}
LESSONS = sorted(p for folder in EDITIONS for p in folder.glob("[0-9][0-9]_*.ipynb"))


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def ids(paths):
    return [p.relative_to(NB_DIR).as_posix() for p in paths]


def markdown(nb):
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


@pytest.mark.parametrize("folder", EDITIONS, ids=["zh", "en"])
def test_the_course_is_there(folder):
    numbers = [p.name[:2] for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))]
    assert numbers == [f"{i:02d}" for i in range(len(numbers))] and len(numbers) >= 14, numbers
    assert len(list((folder / "exercises").glob("ex*.ipynb"))) >= 7


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_executed_in_order_without_errors(path):
    nb = load(path)
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), f"execution counts {counts}: run it top to bottom, fresh kernel"
    errors = [(i, o.get("ename")) for i, c in enumerate(code, 1) for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"error outputs in code cells {errors}"
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    assert "widgets" not in nb["metadata"], "saved widget state: strip it (a static export then shows the pictures)"


@pytest.mark.parametrize("path", LESSONS, ids=ids(LESSONS))
def test_each_lesson_has_goals_summary_quiz_and_a_way_on(path):
    text = markdown(load(path))
    assert re.search(r"^# ", text, re.M), "a title"
    for heading in EDITIONS[path.parent]:
        assert re.search(rf"^##+ .*{heading}", text, re.M), f"missing section {heading}"
    number = int(path.name[:2])
    nxt = next(path.parent.glob(f"{number + 1:02d}_*.ipynb"), None)
    if nxt is not None:
        assert f"]({nxt.name})" in text, f"no link to the next lesson {nxt.name}"


@pytest.mark.parametrize("path", ALL, ids=ids(ALL))
def test_relative_links_point_at_files_that_exist(path):
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", markdown(load(path)))
    missing = [link for link in links if not re.match(r"[a-z]+:", link) and not (path.parent / link).exists()]
    assert not missing, f"broken links: {missing}"
