"""The three packages install and import on their own, each with only what pyproject.toml declares for it.

The project is built into a wheel, installed into a fresh virtual environment (no site packages) and given
exactly the distributions its chosen extra declares, found in this environment and linked in, with
everything they in turn require: ``attn_core`` with numpy alone, ``attn_viz`` with ``[viz]``,
``attn_homework`` with ``[homework]``. An import that is not declared fails here, as it would on a learner's
machine that installed only that part. Nothing is downloaded.
"""

import importlib.metadata as md
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from .repo import ROOT

pytestmark = pytest.mark.kernel  # builds a wheel and makes virtual environments (subprocesses)

MATH = ["attn_core." + m for m in ("core", "multihead", "online_softmax", "gradients", "positions", "cost", "examples")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source")  # a copy: setuptools writes build/ next to the sources
    for name in ("attn_core", "attn_viz", "attn_homework"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        check=True,
        cwd=source,
        capture_output=True,
    )
    (path,) = out.glob("attn_core-*.whl")
    return path


def _requires(metadata, extras):
    """The requirement names (normalised) that ``metadata`` declares for ``extras``, markers evaluated."""
    from packaging.requirements import Requirement

    names = []
    for text in metadata.get_all("Requires-Dist") or []:
        req = Requirement(text)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in extras or [""]):
            names.append((req.name, set(req.extras)))
    return names


def _closure(start):
    """Every installed distribution reached from ``start`` [(name, extras)], the names normalised."""
    seen, todo = {}, list(start)
    while todo:
        name, extras = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key == "attn-core":
            continue
        if key in seen and extras <= seen[key][1]:
            continue
        dist = md.distribution(name)
        seen[key] = (dist, (seen[key][1] if key in seen else set()) | extras)
        todo += _requires(dist.metadata, sorted(extras))
    return [dist for dist, _ in seen.values()]


def _venv_with(wheel, extras, tmp_path):
    """A fresh venv holding the wheel and exactly the distributions ``extras`` declares (linked in)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        ours = Parser().parsestr(z.read(meta).decode())
    for dist in _closure([(name, ex) for name, ex in _requires(ours, extras)]):
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops:
            source = Path(dist.locate_file(top))
            target = Path(site) / top
            if source.exists() and not target.exists():
                target.symlink_to(source, target_is_directory=source.is_dir())
    return python


def _run(python, code):
    return subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True, cwd=python.parent)


def test_the_math_needs_numpy_alone(wheel, tmp_path):
    python = _venv_with(wheel, [], tmp_path)
    done = _run(python, f"import attn_core, {', '.join(MATH)}; print(attn_core.attention.__module__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "attn_core.core"
    for absent in ("matplotlib", "ipywidgets", "nbformat", "nbclient"):
        assert _run(python, f"import {absent}").returncode != 0, f"{absent} is not a dependency of the math"
    assert "matplotlib" in _run(python, "import attn_viz.plots").stderr  # the pictures need their extra


def test_the_pictures_install_with_their_extra(wheel, tmp_path):
    python = _venv_with(wheel, ["viz"], tmp_path)
    code = (
        "import attn_viz.board, attn_viz.explorers, attn_viz.plots\nfrom attn_viz import fonts\nprint(fonts.family())"  # noqa: E501
    )
    done = _run(python, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the bundled Chinese font ships inside the wheel"
    assert _run(python, "import nbclient").returncode != 0


def test_the_homework_installs_with_its_extra(wheel, tmp_path):
    python = _venv_with(wheel, ["homework"], tmp_path)
    code = (
        "import attn_homework, attn_homework.grading.cli, attn_homework.release, attn_homework.student\n"
        "from attn_homework import check, data\n"
        "Q, K = data('2.1'); print(len(attn_homework.TASKS) > 50)"
    )
    done = _run(python, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_each_package_has_a_small_public_face():
    import attn_core
    import attn_homework
    import attn_viz

    for package in (attn_core, attn_viz, attn_homework):
        assert package.__all__, package.__name__
        assert all(hasattr(package, name) for name in package.__all__), package.__name__


def test_the_readme_tree_matches_the_code():
    """Every module of the three packages is named in the README's tree, and every name there exists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tree = text[text.index("\nattn_core/           the math") : text.index("```", text.index("\nattn_core/  "))]
    named, package = set(), None
    for line in tree.splitlines():
        head = line.split("  ")[0] if not line.startswith(" ") else None
        if head:
            package = head.strip().rstrip("/")
            continue
        first = line.strip().split("   ")[0]
        for word in re.findall(r"[\w.]+/?", first):
            if word.endswith(".py") or word.endswith("/"):
                named.add(f"{package}/{word}".rstrip("/"))
    for path in sorted(named):
        assert (ROOT / path).exists(), f"README names {path}, which does not exist"
    for package in ("attn_core", "attn_viz", "attn_homework"):
        for entry in sorted((ROOT / package).iterdir()):
            if entry.name in ("__init__.py", "__pycache__") or entry.suffix not in (".py", ""):
                continue
            if entry.is_dir() and not (entry / "__init__.py").exists() and entry.name != "fonts":
                continue
            assert f"{package}/{entry.name}" in named, f"{package}/{entry.name} is missing from the README's tree"
