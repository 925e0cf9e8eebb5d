"""Build the course site: every lesson of both editions, saved outputs, live explorers, static files.

    .venv/bin/python tools/build_site.py            # -> site/ (what `make site` runs)
    .venv/bin/python tools/build_site.py --out DIR

Sphinx + myst-nb (requirements-site.txt) render the committed notebooks as saved, without running them
(docs/site/conf.py). This script stages the sources (build/site-src: zh/ = notebooks/, en/ =
notebooks/en/, lessons and the demo board; the exercises are left out: they are for working on in
JupyterLab, and their answers are not in them), runs Sphinx, then finishes each page:

- a link to the same page in the other edition at the top ("English edition" / "中文版");
- ``lang="en"`` on the English pages; ``tabindex="0"`` on code blocks (they scroll sideways: the keyboard
  must reach them);
- on a page with an explorer (``data-attn-explorer``), ``attn_viz.explorers.bundle()`` inlined as one
  classic script that mounts every explorer (``mountAll``): no ES-module import, so the page works from
  ``file://`` too, and no request to any other host.

Open ``site/index.html`` (double-click) or serve the folder from any static host.
"""

import argparse
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CONF_DIR = ROOT / "docs" / "site"
FONT = ROOT / "attn_viz" / "fonts" / "NotoSansSC-Subset.otf"
FONT_LICENSE = ROOT / "attn_viz" / "fonts" / "OFL.txt"
WORDS = {
    "zh": {"title": "一步一步学自注意力（中文版）", "lessons": "课程", "other": "English edition", "lang": "zh-CN"},
    "en": {
        "title": "Self-attention, step by step (English edition)",
        "lessons": "Lessons",
        "other": "中文版",
        "lang": "en",
    },
}
MARKER = "data-attn-explorer"


def notebooks(folder: Path) -> list[Path]:
    """The lessons in order, then the demo board."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb")) + [folder / "demo.ipynb"]


def stage(src: Path, notebooks_dir: Path):
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    shutil.copy(CONF_DIR / "conf.py", src / "conf.py")
    shutil.copytree(CONF_DIR / "_static", src / "_static")
    (src / "_static" / "fonts").mkdir()
    shutil.copy(FONT, src / "_static" / "fonts" / FONT.name)
    shutil.copy(FONT_LICENSE, src / "_static" / "fonts" / FONT_LICENSE.name)
    for edition, folder in {"zh": notebooks_dir, "en": notebooks_dir / "en"}.items():
        out = src / edition
        out.mkdir()
        names = []
        for nb in notebooks(folder):
            shutil.copy(nb, out / nb.name)
            names.append(nb.stem)
        words = WORDS[edition]
        toc = "\n".join(names)
        (out / "index.md").write_text(
            f"# {words['title']}\n\n```{{toctree}}\n:caption: {words['lessons']}\n:maxdepth: 1\n\n{toc}\n```\n",
            encoding="utf-8",
        )
    (src / "index.md").write_text(
        "# 一步一步学自注意力 · Self-attention, step by step\n\n"
        "- [中文版](zh/index.md)\n- [English edition](en/index.md)\n\n"
        "```{toctree}\n:hidden:\n\nzh/index\nen/index\n```\n",
        encoding="utf-8",
    )


def live_script(bundle_js: str) -> str:
    """The bundle as one inline classic script (it works from file://; ``</script`` cannot end it early)."""
    body = bundle_js.replace("</script", "<\\/script")
    return f'<script data-attn-bundle="1">\n{body}\n</script>\n'


def finish_page(page: Path, out: Path, script: str) -> bool:
    """Edition link, language, bundle. Returns whether the page has an explorer."""
    text = page.read_text(encoding="utf-8")
    rel = page.relative_to(out).as_posix()
    edition = rel.split("/", 1)[0]
    if edition in WORDS:
        other = "en" if edition == "zh" else "zh"
        twin = out / other / rel.split("/", 1)[1]
        if twin.exists():
            words = WORDS[edition]
            link = (
                f'<nav class="attn-edition" aria-label="{html.escape(words["other"])}">'
                f'<a href="../{other}/{html.escape(twin.name)}" hreflang="{WORDS[other]["lang"]}" '
                f'lang="{WORDS[other]["lang"]}">{html.escape(words["other"])}</a></nav>'
            )
            text = re.sub(r'(<article[^>]*role="main"[^>]*>)', lambda m: m.group(1) + link, text, count=1)
        if edition == "en":
            text = re.sub(r'<html([^>]*) lang="[^"]*"', r'<html\1 lang="en"', text, count=1)
    # code and long outputs scroll sideways: a keyboard user must be able to reach them (axe: serious)
    text = re.sub(r"<pre(?![^>]*tabindex)", '<pre tabindex="0"', text)
    live = MARKER in text
    if live:
        text = text.replace("</body>", script + "</body>", 1)
    page.write_text(text, encoding="utf-8")
    return live


def build(out: Path, work: Path, notebooks_dir: Path = NOTEBOOKS) -> dict:
    from attn_viz.explorers import bundle

    src = work / "site-src"
    stage(src, notebooks_dir)
    if out.exists():
        shutil.rmtree(out)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src), str(out)]
    cmd += ["-d", str(work / "site-doctrees")]
    subprocess.run(cmd, check=True)
    script = live_script(bundle())
    pages = sorted(out.glob("*/*.html")) + [out / "index.html"]
    live = [p.relative_to(out).as_posix() for p in pages if finish_page(p, out, script)]
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve _static/ as is
    return {"pages": len(pages), "live": live}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "site", help="the folder to write (default: site/)")
    p.add_argument("--work", type=Path, default=ROOT / "build", help="staging folder (default: build/)")
    p.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="the notebooks (default: notebooks/)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    result = build(args.out.resolve(), args.work.resolve(), args.notebooks.resolve())
    print(f"{result['pages']} pages, {len(result['live'])} with live explorers -> {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
