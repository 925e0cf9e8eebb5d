"""Write the classroom board that needs no Python: a folder for a USB stick (what `make board` runs).

    .venv/bin/python tools/build_board.py              # -> board/index.html, board/fonts/
    .venv/bin/python tools/build_board.py --out DIR --lang en

The page is attn_viz.board.standalone_html(): every station of the board, both languages (a switch on
top), every explorer live in the page (computed and drawn by its JavaScript, no kernel), nothing fetched
from any host. Beside it: the bundled Chinese font and its licence. A teacher copies the folder and
double-clicks index.html on the classroom PC.
"""

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "attn_viz" / "fonts"


def build(out: Path, lang: str) -> Path:
    from attn_viz.board import FONT_FILE, standalone_html

    page = standalone_html(lang)
    if out.exists():
        shutil.rmtree(out)
    (out / "fonts").mkdir(parents=True)
    shutil.copy(FONTS / FONT_FILE, out / "fonts" / FONT_FILE)
    shutil.copy(FONTS / "OFL.txt", out / "fonts" / "OFL.txt")
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "board", help="the folder to write (default: board/)")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="the language shown first (default: zh)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    index = build(args.out.resolve(), args.lang)
    size = sum(f.stat().st_size for f in index.parent.rglob("*") if f.is_file())
    print(f"{index} ({size / 1e6:.1f} MB with its font): copy {index.parent} to a USB stick, open index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
