"""The class report (``class_report.html``) and the similarity hints (``similarity.html``) of ``attn-grade``.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---- the command line
    "ga_report": (
        "只根据已有的批改文件夹（results.jsonl、review.csv、settings.json）重写全班报告和相似提示，不批改",
        "rewrite the class report and the similarity hints from an existing grading folder (results.jsonl, "
        "review.csv, settings.json), grading nothing",
    ),
    "cr_written": ("已写入：{file}", "written: {file}"),
    "cr_no_results": ("{folder} 里没有批改结果（results.jsonl）", "{folder} has no grading results (results.jsonl)"),
    # ---- class_report.html
    "cr_title": ("全班报告", "Class report"),
    "cr_intro": (
        "{n} 份提交（每位学生每个练习取最新一份），{students} 位学生。每个数都来自本文件夹的 results.jsonl；"
        "同样的数据见 class_report_tasks.csv、class_report_exercises.csv 和 class_report_totals.csv。",
        "{n} submissions (the latest of each student and exercise), {students} students. Every number comes "
        "from this folder's results.jsonl; the same data are in class_report_tasks.csv, "
        "class_report_exercises.csv and class_report_totals.csv.",
    ),
    "cr_flagged": ("先看这些：需要留意的提交", "Look at these first: flagged submissions"),
    "cr_flagged_none": ("没有需要留意的提交。", "No submission is flagged."),
    "cr_flagged_intro": (
        "待审核（诚信问题，在 review.csv 里决定）、内核崩溃或超出内存、超时、运行出错和迟交的提交。",
        "Held for review (integrity: decide in review.csv), crashed or out of memory, timed out, raised an "
        "error, or late.",
    ),
    "cr_flag_integrity": ("待审核", "integrity"),
    "cr_flag_decided": ("已审核：{decision}", "reviewed: {decision}"),
    "cr_flag_crash": ("崩溃", "crash"),
    "cr_flag_timeout": ("超时", "timeout"),
    "cr_flag_error": ("运行出错", "error"),
    "cr_flag_late": ("迟交", "late"),
    "cr_flag_unreadable": ("无法读取（没有运行）", "unreadable (never run)"),
    "cr_flag_blank": ("空白（没有作答）", "blank (not attempted)"),
    "cr_flag_no_id": ("没填学号（数据格报错）", "no student number (data cells raised)"),
    "cr_blank_why": (
        "一题也没有作答；数据格报错只是因为学号格还空着（不是学生的代码出错）",
        "no task attempted; the data cells raised only because the ID cell is still empty (not the student's code)",
    ),
    "cr_conflict": ("不能确定是谁的提交：{said}", "whose work this is is not certain: {said}"),
    "cr_conflict_id_cell": ("学号格里写的是 {student}", "the ID cell names {student}"),
    "cr_conflict_lms": ("LMS 里是 {student} 交的", "{student} handed it in on the LMS"),
    "cr_conflict_moved": ("review.csv 把它改到 {student} 名下", "review.csv files it under {student}"),
    "cr_teacher_mark": (
        "；分数是把它当作学生的提交批出来的（它没有学号格；按学号生成数据的题，按未填学号的情形批改）",
        "; its mark is what grading it as a student's gives (it has no ID cell, so tasks on per-student data "
        "are graded as without a number)",
    ),
    "cr_counted_note": (
        "每题的正确率和诊断不计待审核或已审核的提交（教师版笔记本、不确定是谁的文件、用了别人数据的提交：这些是诚信问题，不是理解问题），"
        "也不计只因为没填学号而出错的题；所以每题的份数可能少于这个练习的提交数。",
        "The per-task right rates and diagnoses leave out submissions held for review or reviewed (a teacher's "
        "notebook, a file whose owner is in doubt, another student's data: integrity, not understanding) and "
        "tasks that failed only because the ID cell was empty, so a task may count fewer submissions than its "
        "exercise.",
    ),
    "cr_col_student": ("学生", "Student"),
    "cr_col_exercise": ("练习", "Exercise"),
    "cr_col_flags": ("标记", "Flags"),
    "cr_col_why": ("原因", "Why"),
    "cr_col_file": ("文件", "File"),
    "cr_col_percent": ("最终得分 %", "Final %"),
    "cr_col_task": ("题", "Task"),
    "cr_col_right": ("答对", "Right"),
    "cr_col_diagnoses": ("最常见的诊断（人数，占比）", "Most common diagnoses (count, share)"),
    "cr_col_students": ("哪些学生", "Which students"),
    "cr_col_range": ("总分区间", "Total"),
    "cr_col_count": ("人数", "Students"),
    "cr_exercises": ("各练习", "Exercises"),
    "cr_exercise_summary": (
        "{n} 份提交。最终得分：中位数 {median}，中间一半的得分（第 25 到第 75 百分位，线性插值）{q1}–{q3}，最低–最高 {low}–{high}。",
        "{n} submissions. Final percentage: median {median}, middle half of the marks (25th–75th "
        "percentile, linear interpolation) {q1}–{q3}, min–max {low}–{high}.",
    ),
    "cr_percent": ("{value}%", "{value} %"),
    "cr_right_of": ("{right}/{n}（{percent}）", "{right}/{n} ({percent})"),
    "cr_share": ("{code}：{count} 人（{percent}）", "{code}: {count} ({percent})"),
    "cr_all_right": ("全对", "all right"),
    "cr_rates_title": ("{exercise}：每题答对的比例", "{exercise}: share right per task"),
    "cr_rates_desc": (
        "横条图，每题一条，表示答对的比例：{items}。",
        "Bar chart, one bar per task, the share right: {items}.",
    ),
    "cr_totals": ("总分分布", "Distribution of totals"),
    "cr_totals_intro": (
        "每位学生的总分（gradebook.csv 的 total 列：已交练习的得分之和 ÷ 可得分之和 × 100，未交的练习记 0）。"
        "{held} 位学生有提交待审核，总分未定，不计入。",
        "Each student's total (gradebook.csv's total column: points earned over points possible × 100, an "
        "exercise not handed in counting 0). {held} students with a submission held for review have no total "
        "yet and are left out.",
    ),
    "cr_hist_title": ("总分直方图", "Histogram of totals"),
    "cr_hist_desc": (
        "直方图，每 10 分一段，每段的学生人数：{items}。",
        "Histogram in bins of 10 points, the number of students in each: {items}.",
    ),
    "cr_hist_axis": ("总分", "total"),
    "cr_hist_people": ("人数", "students"),
    "cr_next_time": ("下次上课可以讲什么", "What to say in class next time"),
    "cr_next_intro": (
        "每个出现过的错误诊断（不含未作答和运行出错），按人数排序，附上讲解它的课程小节。",
        "Each wrong diagnosis that occurred (not counting not attempted or a cell that raised), most frequent "
        "first, with the lesson section that explains it.",
    ),
    "cr_next_none": ("没有出现可归类的错误。", "No diagnosed mistake occurred."),
    "cr_student": ("人", "student"),
    "cr_students": ("人", "students"),
    "cr_next_item": ("{tasks}：{count} {students}", "{tasks}: {count} {students}"),
    "cr_lesson": ("讲解：{lesson} · 第 {cell} 格 · {heading}", "Explained in: {lesson} · cell {cell} · {heading}"),
    "cr_lesson_whole": ("讲解：{lesson}（整课）", "Explained in: {lesson} (the whole lesson)"),
    "cr_example": ("学生看到的提示：", "What the students were told: "),
    "cr_print_note": (
        "本页可直接打印：图是 SVG，表格可跨页，不依赖网络。",
        "This page prints as it is: the figures are SVG, the tables break across pages, nothing is loaded "
        "from the network.",
    ),
    # ---- similarity.html
    "sm_title": ("相似提示（不是结论）", "Similarity hints (not verdicts)"),
    "sm_intro": (
        "下面每一对提交都有一处值得看一眼的相似。这只是提示：请对照两边的证据自己判断，必要时和学生谈一谈；"
        "本页不扣分，也不上传任何东西（所有比较都在本机完成）。",
        "Each pair below has one similarity worth a look. These are hints: judge from the evidence on both "
        "sides, talk with the students if needed; this page takes no marks off and uploads nothing (every "
        "comparison runs on this machine).",
    ),
    "sm_cannot": ("这些提示说明不了什么", "What these hints cannot tell"),
    "sm_cannot_items": (
        "常见的短答案（一行 Q @ K.T）在谁那里都一样，比较不出抄袭，所以不比较。|"
        "合法的合作（一起讨论、一起调试）和抄袭在代码上可能一模一样。|"
        "改写过的代码（换了写法、调整了结构，而不只是改名）可能看不出来。|"
        "和课程发的起始代码或老师的解答相同的部分已经减去，不算相似。|"
        "没有列出不等于没有抄袭，列出了也不等于抄袭。",
        "Common short answers (a one-line Q @ K.T) are the same for everyone and prove nothing, so they are "
        "not compared.|Students who worked together legitimately (discussed, debugged together) can have "
        "code that looks just like copying.|Paraphrased code (rewritten, restructured, not just renamed) may "
        "not show.|Whatever equals the handed-out starter code or the teacher's solution is subtracted and "
        "does not count.|A pair not listed is not proof of honesty, and a pair listed is not proof of copying.",
    ),
    "sm_how": (
        "代码比较用 copydetect {version}（winnowing，与 MOSS 同一方法；变量名、函数名和字符串先被替换，所以只改名"
        "也能看出来），k = {k} 个字符，窗口 {window}；一对提交至少有 {tokens} 个共同字符、且较高一方的重合比例不低于 "
        "{similarity} 才列出。比较前，每个代码单元格里起始代码和教师版解答里有的行（包括直接写在 ... 位置上的解答）都先去掉，"
        "每个单元格分开去掉；去掉后自己写的代码不到 {lines} 行或不到 {tokens} 个字符的提交不参加比较（比如只改了一行 axis=0）。",
        "Code is compared with copydetect {version} (winnowing, the method of MOSS; names and strings are "
        "replaced first, so renamed variables still match), k = {k} characters, window {window}; a pair is "
        "listed when it shares at least {tokens} characters and the higher of its two overlaps is at least "
        "{similarity}. Before that, every line the starter code or the teacher's solution has (a solution "
        "written in place of the ... included) is taken out of each code cell, cell by cell; a submission "
        "left with fewer than {lines} lines or {tokens} characters of its own code is not compared (a one-line "
        "axis=0, say).",
    ),
    "sm_no_copydetect": (
        "没有安装 copydetect（pip install copydetect），所以没有比较代码；其余两类提示照常。",
        "copydetect is not installed (pip install copydetect), so code was not compared; the other two kinds "
        "of hint are as usual.",
    ),
    "sm_none": ("没有发现值得一看的相似。", "No similarity worth a look was found."),
    "sm_kind_code": ("代码几乎相同", "near-identical code"),
    "sm_kind_wrong": ("同一个少见的错答案", "the same unusual wrong answer"),
    "sm_kind_data": ("用了另一位学生的数据", "another student's data"),
    "sm_code_detail": (
        "减去起始代码和老师的解答后，两边重合 {a}（左）和 {b}（右），共 {tokens} 个字符。",
        "After the starter code and the teacher's solution are subtracted, {a} (left) and {b} (right) overlap, "
        "{tokens} characters.",
    ),
    "sm_wrong_detail": (
        "题 {task} 两边的答案都错（诊断 {code}），而且数字完全相同；全班 {n} 份提交里只有这 {k} 份是这组数字。",
        "Both answers to {task} are wrong (diagnosis {code}) with exactly the same numbers; of the class's {n} "
        "submissions only these {k} have them.",
    ),
    "sm_data_detail": (
        "{student} 的题 {task} 不符合自己的数据，却正好是用 {other} 的数据算出的正确答案。",
        "{student}'s answer to {task} is wrong for their own data and exactly right for {other}'s data.",
    ),
    "sm_numbers": ("共同的数字（前 {n} 个）：", "The shared numbers (first {n}):"),
    "sm_col_kind": ("类别", "Kind"),
    "sm_col_pair": ("哪两份", "Which pair"),
    "sm_col_evidence": ("证据", "Evidence"),
    "sm_left": ("左：{student} · {file}", "Left: {student} · {file}"),
    "sm_right": ("右：{student} · {file}", "Right: {student} · {file}"),
    "sm_no_code": ("（没有保存代码）", "(no code kept)"),
    "sm_no_evidence": (
        "{n} 份提交没有保存可比较的答案（在加入相似提示之前批改的）：用 --regrade 重新批改后才会比较它们。",
        "{n} submissions have no answers kept to compare (graded before the similarity hints existed): grade "
        "them again with --regrade to compare them.",
    ),
}
