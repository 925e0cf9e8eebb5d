"""Where the repository's notebooks are, for the tests (the package itself never looks)."""

from pathlib import Path

from attn_homework.student import TEACHER_FOLDER, edition_dirs

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
EDITIONS = edition_dirs(NOTEBOOKS)  # {"zh": notebooks/exercises, "en": notebooks/en/exercises}
EXERCISES_DIR = EDITIONS["zh"]
TEACHER_DIR = EXERCISES_DIR / TEACHER_FOLDER
