"""The repository as a Binder / repo2docker environment (the students' side of a JupyterHub): the files
repo2docker reads (https://repo2docker.readthedocs.io/en/latest/config_files.html) install what `make lab`
installs, the fonts CI installs, and no teacher tooling; the README's nbgitpuller link opens a notebook
that exists."""

import re
import stat
from urllib.parse import parse_qs, unquote, urlparse

from .repo import ROOT

# repo2docker uses only binder/ (or .binder/) when it exists, and a Dockerfile, environment.yml, Pipfile or
# Project.toml instead of requirements.txt: any of them would make the hub's environment differ from `make lab`'s.
SHADOWING = ("binder", ".binder", "Dockerfile", "environment.yml", "Pipfile", "Pipfile.lock", "Project.toml")


def lines(path):
    return [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]


def packages(path):
    """The names in a requirements file (lower case, without versions or extras)."""
    found = []
    for line in lines(path):
        if line and not line.startswith("-"):
            found.append(re.split(r"[\s<>=!~\[;]", line, maxsplit=1)[0].lower())
    return found


def test_repo2docker_reads_the_requirements_that_make_lab_installs():
    assert not [name for name in SHADOWING if (ROOT / name).exists()]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    installed = re.search(r"^\$\(VENV\)/\.installed:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "pip install -r requirements.txt" in installed  # `make lab` installs exactly requirements.txt
    assert "-e .[all]" in lines(ROOT / "requirements.txt")  # which installs the course's packages


def test_apt_txt_installs_the_fonts_ci_installs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    apt_line = re.search(r"apt-get install ([^\n>]*)", ci).group(1).split()
    ci_fonts = {word for word in apt_line if word.startswith("fonts-")}
    assert ci_fonts == {"fonts-noto-cjk", "fonts-noto-color-emoji"}
    assert {line for line in lines(ROOT / "apt.txt") if line} == ci_fonts


def test_no_teacher_tooling_on_the_students_hub():
    # the teacher's tools and the test tools (requirements-dev.txt starts with "-r requirements.txt": skipped)
    teacher = set(packages(ROOT / "requirements-teacher.txt")) | set(packages(ROOT / "requirements-dev.txt"))
    assert {"nbgrader", "pytest", "nbval"} <= teacher
    assert not teacher & set(packages(ROOT / "requirements.txt"))
    assert not teacher & {line for line in lines(ROOT / "apt.txt") if line}
    post_build = ROOT / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR  # repo2docker runs it only when executable
    commands = "\n".join(lines(post_build))
    assert not re.search(r"\b(pip|apt-get|apt|conda|mamba|npm)\b", commands)  # it installs nothing
    assert "jupyterlab-settings/zh/overrides.json" in commands  # the menus `make lab` opens (Chinese)
    assert (ROOT / "jupyterlab-settings" / "zh" / "overrides.json").is_file()


def test_runtime_txt_pins_a_python_the_package_accepts():
    pinned = (ROOT / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(\d+)\.(\d+)", pinned)
    assert match, pinned
    required = re.search(r'requires-python = ">=(\d+)\.(\d+)"', (ROOT / "pyproject.toml").read_text()).groups()
    assert tuple(map(int, match.groups())) >= tuple(map(int, required))


def test_the_readme_nbgitpuller_link_opens_a_notebook_that_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://[^\s`)>]*/hub/user-redirect/git-pull\?[^\s`)>]+", readme)
    assert len(links) >= 2, "one link per edition"
    for link in links:
        query = parse_qs(urlparse(link).query)
        assert set(query) >= {"repo", "branch", "urlpath"}
        urlpath = unquote(query["urlpath"][0])
        assert urlpath.startswith("lab/tree/")
        folder, _, inside = urlpath.removeprefix("lab/tree/").partition("/")
        assert folder and (ROOT / inside).is_file(), inside
