"""``attn-grade``: grade a class's exercise notebooks.

    attn-grade SUBMISSIONS... --out GRADING_FOLDER [--roster roster.csv] [--release releases/NAME] ...

SUBMISSIONS are notebooks, folders (read with their subfolders) and zip files, such as an LMS's
"download all submissions". The grading folder gets ``results.jsonl`` (every graded submission, written as
each is done: a rerun skips what is graded and ``--regrade`` grades again), ``submissions.csv``,
``gradebook.csv``, ``moodle_grades.csv`` (and ``moodle_worksheet.csv``), ``canvas_grades.csv`` and
``feedback/`` (one HTML page per submission), the class report (``class_report.html`` and its CSVs:
``classreport``) and the similarity hints (``similarity.html``, ``similarity.csv``: ``similarity``), and
``settings.json``: the options of the run (roster, release,
deadline, late rule, points, …, paths made absolute) that a later run into the same folder reuses when it is
not given them again (``remembered``). ``--csv FILE`` alone writes the submissions CSV (and its
results file ``FILE.jsonl``) without a grading folder. The printed table and messages follow ``--lang``, else
the system's language; each feedback page follows its submission's edition. ``--report FOLDER`` rewrites
only the class report and the similarity hints of a grading folder.
"""

import argparse
import locale
import os
import sys
import time
from pathlib import Path

from attn_core import lang

from .. import exercises
from ..messages import msg
from . import classreport, feedback, remembered, reports, review, similarity
from .batch import SANDBOX_OFF, Batch, Limits, Settings, confinement_check, default_jobs
from .collect import collect
from .handout import Handouts, handout_dirs
from .integrity import REVIEW
from .marks import LateRule, MarksError, Points
from .processes import become_subreaper
from .results import Store
from .roster import Roster, RosterError
from .worker import peak_memory_mib


def system_language():
    """ "zh" when the system's locale is Chinese, else "en"."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        return "zh" if (locale.getlocale()[0] or "").lower().startswith("zh") else "en"
    except ValueError:
        return "en"


# The defaults of the options a grading folder remembers (None on the command line: not given).
DEFAULTS = {
    "release": [],
    "late": "none",
    "exercises": [],
    "timeout": 60.0,
    "memory": 2048,
    "max_grade": 100.0,
    "lms_item": lambda: msg("lms_item"),
}


def confinement_text(report):
    """What confines a submission's writes, in the current language, from the confine self-test's report."""
    if report.get("confinement") == "landlock":
        return msg("confined_landlock", abi=report.get("abi", "?")) + (
            msg("confined_scoped") if report.get("scoped") else ""
        )
    return str(report.get("confinement"))  # sandbox-exec: the program's name


def parser():
    """The command line, its help in the current language."""
    p = argparse.ArgumentParser(prog="attn-grade", description=msg("ga_description"))
    p.add_argument("submissions", nargs="*", help=msg("ga_submissions"))
    p.add_argument("--out", type=Path, help=msg("ga_out"))
    p.add_argument("--csv", type=Path, help=msg("ga_csv"))
    p.add_argument("--feedback", type=Path, help=msg("ga_feedback"))
    p.add_argument("--roster", type=Path, help=msg("ga_roster"))
    p.add_argument("--points", type=Path, help=msg("ga_points"))
    p.add_argument("--release", type=Path, action="append", help=msg("ga_release"))
    p.add_argument("--teacher-dir", type=Path, action="append", default=None, help=msg("ga_teacher_dir"))
    p.add_argument("--deadline", help=msg("ga_deadline"))
    p.add_argument("--late", help=msg("ga_late"))
    p.add_argument("--extensions", type=Path, help=msg("ga_extensions"))
    p.add_argument("--max-grade", type=float, help=msg("ga_max_grade"))
    p.add_argument("--exercises", nargs="*", help=msg("ga_exercises"))
    p.add_argument("--lms-item", help=msg("ga_lms_item"))
    p.add_argument("--jobs", type=int, help=msg("ga_jobs"))
    p.add_argument("--timeout", type=float, help=msg("ga_timeout"))
    p.add_argument("--memory", type=int, help=msg("ga_memory"))
    p.add_argument("--regrade", action="store_true", help=msg("ga_regrade"))
    p.add_argument("--lang", choices=lang.LANGS, help=msg("ga_lang"))
    p.add_argument("--no-confine", action="store_true", help=msg("ga_no_confine"))
    p.add_argument("--report", type=Path, metavar="GRADING_FOLDER", help=msg("ga_report"))
    return p


def _language_asked(argv):
    """The --lang given on the command line (read before the parser exists, so that its help is in it)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(argv):
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return None


def main(argv=None):
    """The command; everything it prints goes through ``reports.printable`` (a submission's text, such as
    an exception's message or a file name, cannot send the terminal control sequences)."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = reports.PrintableStream(sys.stdout), reports.PrintableStream(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = saved


def _main(argv=None):
    asked = _language_asked(argv)
    lang.set_lang(asked if asked in lang.LANGS else system_language())
    p = parser()
    args = p.parse_args(argv)
    if args.report:  # the class report and the similarity hints of a grading folder, nothing graded
        args.out = args.report
    given = [name for name in remembered.REMEMBERED if getattr(args, name) is not None]
    taken = []
    if args.out:
        try:
            stored = remembered.read(args.out)
            if stored.get("lang") in lang.LANGS and not asked:
                lang.set_lang(stored["lang"])  # the grader speaks the remembered language from here on
            taken = remembered.take(args, args.out, stored)
        except remembered.SettingsError as e:
            p.error(str(e))
    for name, default in DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default() if callable(default) else default)
    if args.jobs is None:
        args.jobs = default_jobs(args.memory << 20)
    if args.timeout <= 0 or args.jobs < 1 or args.memory < 256 or args.max_grade <= 0:
        p.error(msg("g_bad_limits"))
    try:
        points = Points.read(args.points) if args.points else Points()
        late = LateRule.parse(args.deadline, args.late)
        if args.extensions:
            late = late.with_extensions(args.extensions)
        roster = Roster.read(args.roster) if args.roster else None
        include = [exercises.exercise_name(e) for e in args.exercises]
    except (MarksError, RosterError, OSError, KeyError) as e:
        p.error(str(e.args[0] if isinstance(e, KeyError) else e))
    if args.report:
        return classreport.report_folder(args.report, points, late, roster, include)
    teacher_dirs = args.teacher_dir if args.teacher_dir is not None else handout_dirs()
    for folder in [*teacher_dirs, *args.release]:
        if not folder.is_dir():
            p.error(msg("g_no_folder", folder=folder))
    for folder in args.release:
        if not (folder / "release.json").is_file():
            p.error(msg("g_no_release", folder=folder))
    handouts = Handouts(args.release, teacher_dirs)
    if args.out:
        remembered.write(args.out, args, [*given, *taken, "lms_item"])
        if taken:
            earlier = remembered.described(args, taken)
            print(msg("g_remembered", file=remembered.path_of(args.out), settings=earlier), file=sys.stderr)

    if not args.submissions and not args.out:
        p.error(msg("g_nothing", paths="-"))
    submissions, skipped = collect(args.submissions)
    csv_path = args.csv or (args.out / "submissions.csv" if args.out else None)
    store_path = args.out / "results.jsonl" if args.out else (csv_path.with_suffix(".jsonl") if csv_path else None)
    store = Store(store_path)
    if not submissions and not store.records:
        p.error(msg("g_nothing", paths=", ".join(args.submissions)))

    subreaper = become_subreaper()
    limits, confinement = confinement_check(Limits(args.timeout, args.memory << 20, 256 << 20, not args.no_confine))
    # without a sandbox the batch grades one submission at a time (Batch.run says why): say the number it uses
    jobs_at_once = args.jobs if limits.sandbox or os.environ.get(SANDBOX_OFF) == "1" else 1
    print(
        msg(
            "g_limits",
            timeout=f"{args.timeout:g}",
            memory=f"{args.memory} MiB",
            jobs=jobs_at_once,
            writes=msg("g_confined", how=confinement_text(confinement)) if limits.confine else msg("g_not_confined"),
        ),
        file=sys.stderr,
    )
    if not args.release and not teacher_dirs:
        print(msg("g_no_handout"), file=sys.stderr)

    def progress(done, total, record):
        m = reports.mark(record, points, late)
        print(
            msg(
                "g_progress",
                done=done,
                total=total,
                student=reports._student_label(record.student),
                exercise=record.exercise or "?",
                points=f"{reports.rounded(m.earned)}/{reports.rounded(m.possible)}",
                status=reports.status_text(record),
                seconds=f"{record.seconds:.1f}",
            ),
            file=sys.stderr,
            flush=True,
        )

    start = time.monotonic()
    settings = Settings(limits, args.jobs, args.regrade, roster, handouts, subreaper)
    batch = Batch(settings, store, progress)
    batch.evidence = similarity.Evidence(args.out / similarity.EVIDENCE) if args.out else None
    graded, skipped, reused = batch.run(submissions, skipped)
    seconds = time.monotonic() - start

    decisions = review.read(args.out) if args.out else {}
    shown = review.apply(reports.current(graded + reused, roster), decisions, roster)
    if shown:
        print(reports.table(shown, points, late))
    every = reports.current(store.records, roster) if store_path else reports.current(graded + reused, roster)
    everything = review.apply(every, decisions, roster)
    if csv_path:
        reports.write_submissions(everything, csv_path, points, late)
    lms_lines, review_lines = [], []
    feedback_dir = args.feedback or (args.out / "feedback" if args.out else None)
    pages = {}
    if feedback_dir:
        pages = feedback.write(everything, feedback_dir, points, late)
    if args.out:
        reports._write(
            args.out / review.FILE_NAME, review.rows(every, decisions, lambda r: reports.mark(r, points, late), roster)
        )
        held = [r for r in everything if r.held]
        if held:
            review_lines.append(msg("g_review_header", n=len(held), file=args.out / review.FILE_NAME, folder=args.out))
            for record in held:
                m = reports.mark(record, points, late)
                review_lines.append(
                    msg(
                        "g_review_line",
                        student=reports._student_label(record.student),
                        exercise=record.exercise or "?",
                        percent=reports.rounded(m.percent),
                        reasons="; ".join(reports.note_text(n) for n in record.notes if n.code in REVIEW),
                        file=record.label,
                    )
                )
        if decisions:
            review_lines.append(msg("g_review_decided", n=len(decisions), file=args.out / review.FILE_NAME))
        rows, names = reports.gradebook_rows(everything, points, late, roster, include)
        reports.write_gradebook(rows, names, args.out / "gradebook.csv")
        lms, outside = reports.lms_rows(rows, roster)
        reports.write_moodle(lms, names, args.out, args.lms_item, args.max_grade)
        reports.write_canvas(lms, args.out, args.lms_item, args.max_grade)
        zipped = reports.write_moodle_feedback_zip(lms, everything, args.out, pages)
        lms_lines = reports.left_out_lines(lms, outside, roster)
        on_hold = reports.held_rows(rows)
        if on_hold:
            lms_lines.insert(0, msg("g_lms_held", n=len(on_hold), students=reports._names(on_hold)))
        if zipped:
            lms_lines.append(msg("g_feedback_zip", file=zipped))
        if names:
            lms_lines.append(reports.total_legend(names, points))
        classreport.write_all(args.out, everything, points, late, roster, include)
    for line in review_lines:  # first: what the teacher must look at
        print(line, file=sys.stderr)

    print(file=sys.stderr)
    if skipped:
        print(msg("g_skipped", n=len(skipped)), file=sys.stderr)
        for entry in skipped:
            print(f"  {entry.label}: {reports.skip_text(entry)}", file=sys.stderr)
    if reused:
        print(msg("g_reused", n=len(reused)), file=sys.stderr)
    for line in lms_lines:
        print(line, file=sys.stderr)
    rate = f"{seconds / len(graded):.1f}" if graded else "-"
    own = peak_memory_mib()
    if graded and own:
        print(msg("g_memory", own=own, worker=batch.worker_peak_mib), file=sys.stderr)
    print(msg("g_done", n=len(graded), seconds=f"{seconds:.0f}", jobs=batch.jobs_at_once, each=rate), file=sys.stderr)
    for path in [p for p in (args.out, csv_path if not args.out else None) if p]:
        print(msg("g_written", path=path), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
