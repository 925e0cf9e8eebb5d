"""The grader (``attn-grade``): the ID cell, statuses, details, the table, points files and rosters, ``--help``, the feedback page.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---- the ID cell of a per-student assignment (task_data.set_student_id)
    "student_id_set": (
        "学号 {student_id}：本练习的新数据按你的学号生成，和同学的不一样。",
        "Student number {student_id}: this exercise's fresh data are drawn from it, different from your classmates'.",
    ),
    "student_id_missing": (
        "请在这一格的引号里写上你的学号，再运行它：本练习的新数据要按你的学号生成。",
        "Write your student number between the quotes in this cell and run it again: this exercise's fresh data are drawn from it.",
    ),
    "student_id_needed": (
        "先在学号格（第二个代码格）的引号里写上你的学号并运行它：这道题的新数据按你的学号生成。",
        "First write your student number between the quotes of the ID cell (the second code cell) and run it: this task's fresh data are drawn from it.",
    ),
    # ---- statuses (the table, submissions.csv's details, the feedback pages); {cells} reads "in cell 5"
    "cells": ("（第 {numbers} 格）", "in cell {numbers}"),
    "status_completed": ("运行完毕", "completed"),
    "status_blank": ("空白：一题也没有作答", "blank: no task attempted"),
    "status_syntax_error": ("语法错误{cells}", "syntax error {cells}"),
    "status_runtime_error": ("运行出错{cells}：{detail}", "error {cells}: {detail}"),
    "status_timeout": ("超时{cells}", "timeout {cells}"),
    "status_crashed": ("内核崩溃{cells}", "kernel died {cells}"),
    "status_memory_limit": ("超出内存上限{cells}", "memory limit reached {cells}"),
    "status_worker_died": ("批改它的进程被终止了{cells}", "grader worker died {cells}"),
    "status_could_not_start": ("内核没能启动：{detail}", "the kernel could not start: {detail}"),
    "status_unreadable": ("无法读取的文件：{detail}", "unreadable file: {detail}"),
    "status_too_large": ("文件太大，没有批改（{detail}）", "too large to grade ({detail})"),
    "status_unknown_exercise": ("认不出是哪个练习", "exercise not recognised"),
    "status_cells_changed": ("改动了发下去的单元格：{detail}", "handed-out cells changed: {detail}"),
    "change_edited": ("第 {number} 格被修改", "cell {number} edited"),
    "change_deleted": ("第 {number} 格被删除", "cell {number} deleted"),
    "change_moved": ("第 {number} 格被移动", "cell {number} moved"),
    "status_late": ("迟交 {detail} 天", "late by {detail} day(s)"),
    "status_id_mismatch": (
        "学号格写的是 {detail}，不是这位学生的学号",
        "the ID cell says {detail}, not this student's number",
    ),
    "status_no_student_id": ("学号格没有填写", "no student number in the ID cell"),
    "status_not_in_roster": ("名单里找不到这位学生", "student not found in the roster"),
    "status_grader_error": ("批改程序自己出错了：{detail}", "the grader itself failed: {detail}"),
    # ---- held for review (integrity): shown first, kept out of the LMS files until review.csv decides
    "status_teacher_version": ("这是教师版（带答案）的笔记本", "this is the teacher's notebook (with the solutions)"),
    "status_identity_conflict": (
        "不能确定是谁的提交：{detail}",
        "whose work this is is not certain: {detail}",
    ),
    "status_ambiguous_name": (
        "名单里有不止一位同名学生（{detail}），没有学号能分辨",
        "more than one student in the roster has this name ({detail}) and no number tells them apart",
    ),
    "status_other_students_data": (
        "有的答案按学号 {detail} 的数据算是对的（冒号后是题号），按这位学生自己的数据却不对",
        "answers fit the data of student {detail} (the tasks after the colon), not this student's own",
    ),
    "status_check_cells_changed": (
        "发下去的 check(...) 格被改动{cells}",
        "a handed-out check(...) cell was changed {cells}",
    ),
    "status_reference_code": (
        "答案用了课程自带的函数或检查程序的内部函数{cells}：{detail}",
        "the answer uses the course's own functions or the checker's internals {cells}: {detail}",
    ),
    "status_unknown_release": (
        "和给出的哪个发布版本都对不上（或同时像两个），不知道它是按哪份数据做的；{detail}",
        "matches none of the releases given (or two of them), so the data it was made with are not known; {detail}",
    ),
    "fb_why_teacher_version": (
        "交上来的是教师版，老师看过之后再给分",
        "the teacher's version was handed in; your teacher will look at it before giving a mark",
    ),
    "fb_why_identity_conflict": (
        "老师会先确认这份提交是谁的，再给分",
        "your teacher will confirm whose work this is before giving a mark",
    ),
    "fb_why_ambiguous_name": (
        "请在学号格里写上你的学号：同名的同学只能靠学号分辨",
        "write your student number in the ID cell: students with the same name are told apart only by it",
    ),
    "fb_why_other_students_data": (
        "每位同学的新数据按自己的学号生成：请用你自己的笔记本、你自己的学号重做这几道题",
        "each student's fresh data come from their own number: redo these tasks in your own notebook with your own number",
    ),
    "fb_why_check_cells_changed": (
        "check(...) 格要保持发下去的样子：从发下去的笔记本里把它复制回来",
        "check(...) cells must stay as handed out: copy them back from the notebook you were given",
    ),
    "fb_why_reference_code": (
        "这道题要你自己写代码算出来，不能调用课程包里现成的函数或检查程序：老师看过之后再给分",
        "the task asks for your own code, not a call to the course package's ready-made functions or the checker; your teacher will look at it before giving a mark",
    ),
    "fb_why_unknown_release": (
        "老师会确认这份笔记本是哪一次发下去的，再给分",
        "your teacher will confirm which handout this notebook comes from before giving a mark",
    ),
    "g_review_header": (
        "待老师确认的 {n} 份提交（还没有写进 LMS 文件）：在 {file} 的 decision 列填 accept（照此给分）、reject（不算这份）或一个百分制分数，再运行一次 attn-grade --out {folder}",
        "{n} submission(s) held for your review (not in the LMS files yet): in {file}, write accept (give the mark), "
        "reject (do not count it) or a percentage in the decision column, then run attn-grade --out {folder} again",
    ),
    "g_review_line": (
        "  {student} · {exercise} · {percent}：{reasons}（{file}）",
        "  {student} · {exercise} · {percent}: {reasons} ({file})",
    ),
    "g_review_decided": ("已按 {file} 的决定处理 {n} 份提交", "{n} review decision(s) from {file} applied"),
    "g_lms_held": (
        "{n} 位学生有待确认的提交，暂不写进 LMS 文件（{students}）",
        "{n} student(s) with a submission held for review left out of the LMS files for now ({students})",
    ),
    "g_feedback_zip": (
        "Moodle 反馈文件压缩包：{file}（作业 → 查看所有提交 → 批量操作“上传多个反馈文件（zip）”）",
        'Moodle feedback zip: {file} (assignment → View all submissions → "Upload multiple feedback files in a zip")',
    ),
    "marks_extension": (
        "{path} 第 {row} 行：截止时间 {deadline!r} 请写成 2026-12-10 23:59 或 none",
        "{path}, row {row}: deadline {deadline!r}: write it as 2026-12-10 23:59, or none",
    ),
    "ga_extensions": (
        "延期名单 CSV：每行“学号,截止时间”（none：不设截止时间），这些学生按自己的截止时间算迟交",
        "CSV of extensions, student,deadline rows (none: no deadline): these students' lateness counts from their own deadline",
    ),
    "ga_max_grade": (
        "LMS 成绩项的满分（默认 100）：Moodle 和 Canvas 文件里的分数按它换算",
        "the LMS grade item's maximum (default 100): the Moodle and Canvas files' grades are scaled to it",
    ),
    "fc_exercise": ("{exercise}：{earned}/{possible} 分", "{exercise}: {earned}/{possible}"),
    "fc_missing": ("{exercise}：没有交", "{exercise}: not handed in"),
    "fc_task": ("题 {task}：{hint}", "task {task}: {hint}"),
    "fc_see_feedback": ("每道题的提示见反馈文件", "the feedback file gives a hint for every task"),
    # ---- the details of a status or of a skipped file, given as codes (reports.detail_text)
    "detail_graded_with_own": (
        "分数是按学号 {value} 的个人数据批的（依据它的学号格）",
        "the mark was graded against the per-student data of number {value} (from its ID cell)",
    ),
    "detail_graded_with_shared": (
        "分数是按全班共用的数据批的（它没有学号格）",
        "the mark was graded against the class's shared data (it has no ID cell)",
    ),
    "detail_graded_with_none": (
        "它有学号格却没填学号：分数是按没有学号时的数据批的",
        "it has an ID cell but no number in it: the mark was graded against the data drawn without one",
    ),
    "detail_not_utf8": ("不是 UTF-8 文本", "not UTF-8 text"),
    "detail_not_json": ("不是 JSON", "not JSON"),
    "detail_json_not_notebook": ("是 JSON，但不是笔记本", "JSON but not a notebook"),
    "detail_invalid_notebook": ("笔记本格式不对（{value}）", "not a valid notebook ({value})"),
    "detail_read_error": ("读文件时出错（{value}）", "error reading the file ({value})"),
    "detail_not_notebook": ("不是笔记本（{value}）", "not a notebook ({value})"),
    "detail_bad_zip": ("zip 文件无法读取（{value}）", "unreadable zip file ({value})"),
    "detail_no_extension": ("没有扩展名", "no extension"),
    "detail_without_outputs": ("去掉保存的输出后仍有 {value}", "{value} even without its saved outputs"),
    "detail_handout_unreadable": (
        "发下去的版本无法读取（{value}）",
        "the handed-out version is unreadable ({value})",
    ),
    "detail_kernel_stopped": ("内核在启动时停止了", "the kernel stopped while starting"),
    "detail_kernel_silent": ("内核 {value} 秒内没有应答", "the kernel did not answer within {value} s"),
    "detail_no_answer_to_interrupt": ("内核对中断没有应答", "the kernel did not answer the interrupt"),
    "file_not_graded": (
        "没有批改：这份文件没能运行（原因见上面“批改时注意到”）。",
        "Not graded: this file could not be run (see “What the grader noticed” above).",
    ),
    "cell_error": (
        "第 {cell} 格运行时出错停下了（{error}），{var} 没有算出来：改好那一格的错误，再运行它和下面的检查。",
        "cell {cell} stopped with an error ({error}) before {var} was assigned: fix that error, then run that "
        "cell and the check below it again.",
    ),
    "carried_forward": (
        "按你在 {task_id} 里自己的答案算，这一题是对的：照样计分（一个错误只扣一次分）。",
        "Right for your own answer to {task_id}: this task counts (one mistake costs marks only once).",
    ),
    # ---- the table and the command's lines
    "col_student": ("学生", "student"),
    "col_points": ("得分", "points"),
    "col_percent": ("百分制", "percent"),
    "col_status": ("状态", "status"),
    "exercise_unknown": ("（认不出的练习）", "(exercise not recognised)"),
    "lms_item": ("自注意力练习", "Self-attention exercises"),
    "g_limits": (
        "每份提交：最多 {timeout} 秒、内存 {memory}；{writes}；同时批改 {jobs} 份。",
        "Each submission: at most {timeout} s and {memory} of memory; {writes}; {jobs} graded at a time.",
    ),
    "g_confined": ("只能在自己的临时文件夹里写文件（{how}）", "writes only in its own temporary folder ({how})"),
    "confined_landlock": ("Linux Landlock，ABI {abi}", "Linux Landlock, ABI {abi}"),
    "confined_scoped": (
        "；也不能给外面的进程发信号、连外面的抽象套接字",
        "; it cannot signal processes outside or reach their abstract sockets",
    ),
    "g_not_confined": (
        "写文件不受限制（这台机器上做不到，或用了 --no-confine）",
        "writes not confined (not available here, or --no-confine)",
    ),
    "g_no_sandbox": (
        "注意：这台机器上没有可用的沙箱（Linux 上的 bubblewrap），每份提交的 Jupyter 内核能读到本机上你能读的文件、能联网，"
        "也能连上同时批改的别的 Jupyter 内核：所以一次只批改一份。",
        "note: no sandbox here (bubblewrap on Linux): each kernel can read what you can read on this machine, "
        "use the network and reach kernels graded beside it, so submissions are graded one at a time.",
    ),
    "g_no_handout": (
        "注意：没有找到发出去的版本（--release 或 --teacher-dir），不比对单元格是否被改动。",
        "note: no handed-out version found (--release or --teacher-dir): cells are not compared.",
    ),
    "g_bad_limits": (
        "--timeout 要大于 0，--jobs 至少 1，--memory 至少 256（MiB）",
        "--timeout must be positive, --jobs at least 1, --memory at least 256 (MiB)",
    ),
    "g_no_folder": ("{folder}：没有这个文件夹", "{folder}: no such folder"),
    "g_no_release": (
        "{folder} 里没有 release.json：请给 attn-release 写出的那个文件夹",
        "{folder}: no release.json (give the folder attn-release wrote)",
    ),
    "g_nothing": ("在 {paths} 里没有找到可以批改的 .ipynb 文件", "no .ipynb files to grade in {paths}"),
    "g_progress": (
        "[{done}/{total}] {student} · {exercise} · {points} · {status} · {seconds} 秒",
        "[{done}/{total}] {student} · {exercise} · {points} · {status} · {seconds} s",
    ),
    "g_skipped": ("跳过了 {n} 个文件：", "{n} file(s) skipped:"),
    "skip_not_notebook": ("不是笔记本（{detail}）", "not a notebook ({detail})"),
    "skip_hidden": ("隐藏文件或系统文件", "hidden or system file"),
    "skip_checkpoint": ("JupyterLab 自动保存的副本", "a JupyterLab checkpoint copy"),
    "skip_bad_zip": ("zip 文件无法读取（{detail}）", "unreadable zip file ({detail})"),
    "skip_superseded": (
        "同一位学生、同一个练习还有更新的一份：{detail}",
        "a newer submission of the same student and exercise: {detail}",
    ),
    "skip_duplicate": ("与另一份完全相同：{detail}", "identical to another file: {detail}"),
    "skip_unreadable": ("无法读取（{detail}）", "cannot be read ({detail})"),
    "skip_too_large": ("文件太大（{detail}）", "too large ({detail})"),
    "skip_not_found": ("找不到这个文件或文件夹", "no such file or folder"),
    "g_reused": (
        "另有 {n} 份以前批改过、内容没变，沿用原来的结果（要重新批改请加 --regrade）。",
        "{n} more were graded before and have not changed: their results are kept (--regrade grades them again).",
    ),
    "g_done": (
        "批改了 {n} 份，用时 {seconds} 秒（同时 {jobs} 份，平均每份 {each} 秒）。",
        "{n} submission(s) graded in {seconds} s ({jobs} at a time, {each} s each on average).",
    ),
    "g_memory": (
        "批改程序自身的内存峰值：{own} MiB；单个批改进程最多 {worker} MiB（提交打印多少都不影响它们）。",
        "peak memory of the grader: {own} MiB itself, {worker} MiB for the largest worker (whatever a submission prints).",
    ),
    "g_written": ("结果写在：{path}", "results written to: {path}"),
    "g_remembered": (
        "沿用上次批改记在 {file} 里的设置：{settings}（命令行上给出的选项优先）",
        "settings from the earlier run, kept in {file}: {settings} (an option given on the command line overrides them)",
    ),
    "g_remembered_gone": (
        "{file} 记着上次批改用的 {option} {path}，但它已经不存在了：请用 {option} 给出它现在的位置",
        "{file} remembers {option} {path} from the earlier run, but it no longer exists: give its new place with {option}",
    ),
    "g_settings_unreadable": (
        "{file} 无法读取（不是批改程序写的设置文件）：修好它，或删掉它从头设置",
        "{file} cannot be read (not a settings file the grader wrote): repair it, or delete it to start afresh",
    ),
    "g_lms_unmatched": (
        "另有 {n} 份提交对不上名单，可能是名字或学号读错了（{students}）：学号和名单里的某个号只差一个字符，"
        "或文件名像 LMS 的命名却没读出来。它们没有写进 LMS 文件；请在 submissions.csv 里看这些行，"
        "把文件改名或在学号格里改正后重新批改。",
        "{n} more submission(s) match no one in the roster and look like a misread name or number ({students}): "
        "a number one character away from a roster number, or a file name like an LMS's that was not read. They are "
        "in no LMS file; look at their rows in submissions.csv, then rename the file or correct its ID cell and "
        "grade it again.",
    ),
    "g_lms_not_in_roster": (
        "名单外的 {n} 位学生没有写进 moodle_grades.csv、moodle_worksheet.csv 和 canvas_grades.csv（{students}）："
        "Moodle 导入成绩时遇到找不到的用户会整个中止。他们仍在 submissions.csv 和 gradebook.csv 里，状态 not_in_roster。",
        "{n} student(s) not in the roster left out of moodle_grades.csv, moodle_worksheet.csv and canvas_grades.csv "
        "({students}): Moodle's grade import stops altogether at a user it cannot find. They stay in "
        "submissions.csv and gradebook.csv, status not_in_roster.",
    ),
    "g_lms_no_identifier": (
        "{file} 里没有写 {n} 位学生（{students}）：没有 {columns}，LMS 认不出他们。用 --roster 给出名单，或让学生填学号格。",
        "{n} student(s) left out of {file} ({students}): no {columns}, so the LMS cannot match them. Give a "
        "--roster, or have the ID cell filled in.",
    ),
    "list_separator": ("、", ", "),
    "g_exercise_points": ("{exercise} {points} 分", "{exercise} {points}"),
    "g_total_legend": (
        "gradebook.csv 的 {column}：各练习得分（按迟交规则扣分后）之和 ÷ 这些练习的满分之和 × 100，"
        "没交的练习记 0 分；满分：{weights}。",
        "gradebook.csv's {column}: the points earned (after the late rule) over the points possible across these "
        "exercises, × 100; an exercise not handed in counts 0; points possible: {weights}.",
    ),
    # ---- a points file, a late rule or a roster that cannot be used (attn-grade stops with it)
    "marks_no_task": (
        "{path} 第 {row} 行：没有题号 {task_id!r}（已有：{ids}）",
        "{path}, row {row}: no task {task_id!r} (tasks: {ids})",
    ),
    "marks_not_number": (
        "{path} 第 {row} 行：{task_id} 的分值要是一个数",
        "{path}, row {row}: points for {task_id} must be a number",
    ),
    "marks_negative": (
        "{path} 第 {row} 行：{task_id} 的分值不能是负数",
        "{path}, row {row}: points for {task_id} must be 0 or more",
    ),
    "marks_deadline": (
        "--deadline {deadline!r}：请写成 2026-12-08 23:59 这样（本地时间）",
        "--deadline {deadline!r}: write it as 2026-12-08 23:59 (local time)",
    ),
    "marks_late": (
        "--late {rule!r}：只能是 none、zero 或每迟交一天扣几分（如 10，百分制）",
        "--late {rule!r}: none, zero, or a penalty per day such as 10 (percentage points)",
    ),
    "roster_encoding": ("{path}：不是 UTF-8 或 GBK 文本", "{path}: not UTF-8 or GBK text"),
    "roster_no_id": (
        "{path}：前几行里没有学号列（列名是其中之一：{columns}）",
        "{path}: no student number column in the first rows (one of: {columns})",
    ),
    # ---- attn-grade --help
    "ga_description": (
        "批改练习笔记本：每份提交在自己的进程和全新内核里运行，同时批改好几份。",
        "Grade exercise notebooks, each in a process and a fresh kernel of its own, several at a time.",
    ),
    "ga_submissions": (
        "笔记本、文件夹（连同子文件夹）和 zip 文件",
        "notebooks, folders (with subfolders) and zip files",
    ),
    "ga_out": (
        "批改文件夹：结果、CSV、LMS 导入文件、反馈页都写在这里；它记下这次的设置（settings.json），以后批改到这里时沿用",
        "grading folder: results, CSV files, LMS files, feedback pages; it remembers this run's settings "
        "(settings.json) for later runs into it",
    ),
    "ga_csv": (
        "每份提交一行的 CSV（默认 OUT/submissions.csv）",
        "the submissions CSV (default: OUT/submissions.csv)",
    ),
    "ga_feedback": (
        "反馈页写到这个文件夹（默认 OUT/feedback）",
        "folder for the feedback pages (default: OUT/feedback)",
    ),
    "ga_roster": ("全班名单 CSV：一列学号、一列姓名", "CSV of the class: a student number and a name column"),
    "ga_points": (
        "每行“题号,分值”的 CSV，覆盖登记表里的分值",
        "CSV of task,points rows overriding the registry's points",
    ),
    "ga_release": (
        "attn-release 写出的发布文件夹（可以给好几个）",
        "a release folder written by attn-release (repeatable)",
    ),
    "ga_teacher_dir": (
        "没有发布文件夹时，拿来比对的教师版文件夹（可以给好几个；默认中英两版的 notebooks/…/exercises/teacher）",
        "a folder of teacher notebooks to compare with when there is no release (repeatable; default: both editions')",
    ),
    "ga_deadline": (
        '截止时间（本地时间），例如 "2026-12-08 23:59"；none：不设截止时间',
        'the deadline, local time, e.g. "2026-12-08 23:59"; none: no deadline',
    ),
    "ga_late": (
        "迟交怎么算：none（只标出）、zero（记 0 分）或每迟交一天扣几分（如 10）",
        "late work: none (only reported), zero, or points off per day late (e.g. 10)",
    ),
    "ga_exercises": ("没人交的练习也在成绩册里占一列", "gradebook columns even if no one handed them in"),
    "ga_lms_item": ("Moodle 和 Canvas 文件里成绩项的名字", "the grade item's name in the Moodle and Canvas files"),
    "ga_jobs": (
        "同时批改几份（默认：CPU 核数，内存允许的话）",
        "submissions graded at a time (default: the cores, as memory allows)",
    ),
    "ga_timeout": ("每本笔记本总共最多运行的秒数（默认 60）", "seconds each notebook may run in all (default 60)"),
    "ga_memory": ("每份提交最多用的内存，MiB（默认 2048）", "MiB of memory each submission may use (default 2048)"),
    "ga_regrade": ("结果文件里已有的也重新批改", "grade again what the results file already has"),
    "ga_lang": ("表格和提示的语言（默认看系统语言）", "language of the table and messages (default: the system's)"),
    "ga_no_confine": (
        "不用沙箱、不限制写文件（只在调试批改程序时用；这时一次只批一份）",
        "no sandbox and no write confinement (for debugging the grader; it then grades one submission at a time)",
    ),
    # ---- the feedback page
    "fb_title": ("{exercise} · 批改反馈", "{exercise} · feedback"),
    "fb_student": ("学生：{student}", "Student: {student}"),
    "fb_mark": (
        "得分：{earned} / {possible}（百分制 {percent} 分）",
        "Mark: {earned} / {possible} ({percent} out of 100)",
    ),
    "fb_after_late": ("，按迟交规则记 {final} 分", "; {final} after the late rule"),
    "fb_explained": ("{status}：{why}", "{status}: {why}"),
    "fb_why_blank": (
        "没有一道题作答（答案还是发下去时的 ...，或者没有答案），每道题记 0 分",
        "no task was answered (each answer is still the handed-out ..., or missing), so every task counts 0",
    ),
    "fb_why_syntax_error": (
        "这一格不是合法的 Python（括号、引号、缩进？），整格都没有运行",
        "that cell is not valid Python (brackets, quotes, indentation?), so none of it ran",
    ),
    "fb_why_runtime_error": (
        "这一格运行时报错；它后面的单元格照常运行，也照常计分",
        "that cell raised an error; the cells after it still ran and count",
    ),
    "fb_why_timeout": (
        "笔记本在这一格用完了运行时间，之后的单元格没有运行，之后的题也就没有计分；检查有没有死循环",
        "the notebook ran out of time in that cell: nothing after it ran, so later tasks were not graded; look for an endless loop",
    ),
    "fb_why_crashed": (
        "Python 内核在这一格停止了（例如调用了 os._exit），之后的题没有计分",
        "the Python kernel stopped in that cell (os._exit, for example), so later tasks were not graded",
    ),
    "fb_why_memory_limit": (
        "这一格要的内存超过了上限，没有算完",
        "that cell asked for more memory than allowed and did not finish",
    ),
    "fb_why_worker_died": (
        "运行这本笔记本的进程在这一格被终止了，之后的题没有计分",
        "the process running your notebook was stopped in that cell, so later tasks were not graded",
    ),
    "fb_why_cells_changed": (
        "发下去的单元格被改动、删除或挪了位置；批改照常进行，老师会看这些单元格",
        "cells of the handed-out notebook were changed, deleted or moved; grading went on, and your teacher will look at them",
    ),
    "fb_why_unreadable": (
        "这个文件无法作为笔记本读取（不是 .ipynb，或者保存时损坏了），没有批改：确认它在 JupyterLab 里能打开，再交一次",
        "the file could not be read as a notebook (not an .ipynb, or damaged when saved), so it was not graded: "
        "check that it opens in JupyterLab and hand it in again",
    ),
    "fb_why_too_large": (
        "笔记本文件太大，没有运行，也没有计分（上限：整个文件 {file_limit}；去掉保存的输出后 {kept_limit}）：清除所有输出、删掉贴进去的大图片，保存后再交一次",
        "the notebook file is too large, so it was not run or graded (the limits: {file_limit} for the file, "
        "{kept_limit} without its saved outputs): clear all outputs, remove large pasted pictures, save and hand "
        "it in again",
    ),
    "fb_why_no_student_id": (
        "学号格没有填，新数据没有按你的学号生成",
        "the ID cell was left empty, so the fresh data were not drawn from your number",
    ),
    "fb_why_late": ("按老师定的迟交规则计分", "marked by your teacher's rule for late work"),
    "fb_notes": ("批改时注意到", "What the grader noticed"),
    "fb_task": ("题号", "Task"),
    "fb_task_title": ("题目", "Title"),
    "fb_points": ("得分", "Points"),
    "fb_hint": ("检查结果与提示", "Check and hint"),
    "fb_footer": (
        "这页只说哪里对、哪里错、为什么，不给答案：提示就是笔记本里 check(...) 会说的话；按你自己前一题的答案算对的题，笔记本里仍是 ❌（先改好前一题），这里照样计分。",
        "This page says what is right, what is wrong and why, never the answer: each hint is what check(...) says in the notebook; a task right for your own earlier answer is still ❌ there (fix the earlier task first), and counts here.",
    ),
}
