"""Every learner-facing message of the homework, Chinese and English side by side: the checker's verdicts,
what is wrong and why, its hints, the places it names, the errors of a wrongly set-up task, the task
lookups and the lines ``check`` and ``progress`` print. Use: ``from .messages import msg`` then
``msg("key", ...)``.

The verdicts are compared with the committed notebook outputs (nbval): change a text here only together
with the notebooks that print it. The mistake messages say what is wrong, why, and the fix in words; never
the expected numbers or solution code.
"""

from ..lang import Catalog

msg = Catalog(
    {
        # ---------------------------------------------------------------- the checker's verdicts
        "ok": ("{sym} 正确！形状 {shape}，每个数都对。", "{sym} is correct: shape {shape}, every number right."),
        "not_attempted": (
            "还没作答：把 ... 换成你算出的 {sym}，再运行这一格。",
            "Not answered yet: replace ... with your {sym} and run this cell again.",
        ),
        "bad_task": (
            "这道题的设置有误（不是你的错），请把这一行告诉老师：{e}",
            "This exercise is set up wrongly (not your fault); please show this line to your teacher: {e}",
        ),
        "checker_error": (
            "检查程序自己出错了（不是你的错），请告诉老师：{e}",
            "The checker itself failed (not your fault); please tell your teacher: {e}",
        ),
        "wrong_type": ("{sym} 应当是{kind}，你给的是 {got}。{hint}", "{sym} must be {kind}; you gave {got}. {hint}"),
        "kind_numbers": (
            "数字数组（numpy 数组，或每行一样长的嵌套列表）",
            "an array of numbers (a numpy array, or nested lists with rows of equal length)",
        ),
        "kind_boolean": ("布尔数组（True / False）", "a boolean array (True / False)"),
        "mask_type": (
            "创建时写 dtype=bool，或对 0/1 数组用 .astype(bool)。",
            "Create it with dtype=bool, or use .astype(bool) on a 0/1 array.",
        ),
        "ragged": ("（各行长短不一）", " (rows of different lengths)"),
        "not_finite": (
            "{sym} 里有 {count} 个 NaN 或 ∞，第一个在 {where}。{hint}",
            "{sym} contains {count} NaN or ∞, the first at {where}. {hint}",
        ),
        "finite": ("检查是否除以了 0，或者数大到溢出了。", "Look for a division by zero or an overflow."),
        "finite_A": (
            "softmax 之后不该有 NaN 或 ∞：先减去每行的最大值再取 exp 可避免溢出；"
            "−∞ 只属于 softmax 之前被遮住的分数，softmax 之后那里的权重是 0。",
            "After softmax there must be no NaN or ∞: subtract each row's maximum before exp to avoid overflow; "
            "−∞ belongs only to masked scores before softmax, whose weights are then 0.",
        ),
        "wrong_shape": (
            "{sym} 的形状应为 {expected}（{axes}），你的是 {got}。{hint}",
            "{sym} should have shape {expected} ({axes}); yours is {got}. {hint}",
        ),
        "fewer_axes": (
            "你的答案维数太少：需要一个完整的矩阵，而不是一个数或一行。",
            "Your answer has too few axes: a whole matrix is needed, not one number or one row.",
        ),
        "more_axes": (
            "你的答案多了维度：检查是否多套了一层方括号。",
            "Your answer has extra axes: look for extra brackets.",
        ),
        "shape": (
            "检查矩阵乘法的顺序，以及哪里需要转置。",
            "Check the order of the matrix product and where to transpose.",
        ),
        "wrong_values": (
            "{sym} 的形状对了，但有的数不对，差得最多的在 {where}。{entry}",
            "{sym} has the right shape but some numbers are off, most at {where}. {entry}",
        ),
        # ---------------------------------------------------------------- what the axes and one entry of a step mean
        "axes_XW": ("n × d：每行对应一个词", "n × d: one row per word"),
        "axes_S": ("n_q × n_k：行 = 查询，列 = 键", "n_q × n_k: rows = queries, columns = keys"),
        "axes_O": ("n_q × d_v：行 = 查询，列 = 值的特征", "n_q × d_v: rows = queries, columns = value features"),
        "axes_mask": (
            "n × n：行 = 提问的位置，列 = 被关注的位置",
            "n × n: rows = asking positions, columns = attended ones",
        ),
        "entry_XW": (
            "这个数是第 {i} 个词的输入行与 {w} 第 {j} 列的点积。",
            "This is token {i}'s input row dotted with column {j} of {w}.",
        ),
        "entry_QKT": ("这个数应是查询 {i} 与键 {j} 的点积。", "This should be query {i} dotted with key {j}."),
        "entry_S": (
            "这个数应是查询 {i} 与键 {j} 的点积除以 √d_k。",
            "This should be query {i} dotted with key {j}, over √d_k.",
        ),
        "entry_A": (
            "这个数是查询 {i} 分给键 {j} 的权重：检查这一行的分数和 softmax。",
            "This is the weight query {i} gives key {j}: check this row's scores and its softmax.",
        ),
        "entry_O": (
            "O 的第 {i} 行是用 A 的第 {i} 行对 V 的各行加权求和。",
            "Row {i} of O is V's rows mixed by row {i} of A.",
        ),
        "entry_mask": (
            "第 {i} 行说明位置 {i} 可以关注哪些位置：它自己和它之前的位置。",
            "Row {i} says which positions position {i} may attend to: itself and the ones before it.",
        ),
        # ---------------------------------------------------------------- places: "[2, 1]（第 2 行“学习”、第 1 列“喜欢”；从 0 数起）"
        "the_number": ("这个数", "the number"),
        "row": ("第 {i} 行", "row {i}"),
        "column": ("第 {j} 列", "column {j}"),
        "token": ("“{token}”", " “{token}”"),
        "place": ("[{index}]（{row}、{column}；从 0 数起）", "[{index}] ({row}, {column}; counting from 0)"),
        # ---------------------------------------------------------------- the mistakes: what is wrong, why, the fix
        "because_of_weights": ("O 不对，问题出在权重上：", "O is off because of the weights. "),
        "transposed_XW": (
            "你的 {sym} 是所要求矩阵的转置：应是 X 乘以 {w}，每行对应一个词。",
            "Your {sym} is the transpose of the required matrix: it is X times {w}, one row per word.",
        ),
        "weight_transposed": ("{w} 被转置了：直接用 X 乘以 {w}。", "{w} got transposed: multiply X by {w} as it is."),
        "transposed_qk": (
            "行列颠倒了：分数的行对应查询、列对应键，所以要用 Q 乘以 K 的转置（QKᵀ），而不是 K 乘以 Q 的转置。",
            "Rows and columns are swapped: score rows belong to queries and columns to keys, so use Q "
            "times K transposed (QKᵀ), not K times Q transposed.",
        ),
        "transposed": (
            "你的 {sym} 是所要求矩阵的转置：第 i 行应对应第 i 个查询，列对应键。",
            "Your {sym} is the transpose of the required matrix: row i belongs to query i, columns to keys.",
        ),
        "missing_transpose": (
            "K 没有转置：Q 的每一行要和 K 的每一行做点积，所以是 Q 乘以 K 的转置（QKᵀ），不是 Q 直接乘 K。",
            "K is not transposed: every row of Q is dotted with every row of K, so it is Q times K "
            "transposed (QKᵀ), not Q times K.",
        ),
        "unscaled": (
            "忘了缩放：softmax 之前要把 QKᵀ 除以 √d_k，否则 d_k 越大分数越大，权重会挤到少数几个键上。",
            "Scaling is missing: divide QKᵀ by √d_k before softmax, otherwise scores grow with d_k and the "
            "weights crowd onto a few keys.",
        ),
        "scaled_by_dk": (
            "除错了数：应除以 √d_k（d_k 的平方根），你除的是 d_k 本身。",
            "Divided by the wrong number: divide by √d_k (the square root of d_k), not by d_k itself.",
        ),
        "scale_multiplied": (
            "缩放反了：应当除以 √d_k，你乘了 √d_k。",
            "Scaled the wrong way: divide by √d_k, not multiply.",
        ),
        "scaled_not_asked": (
            "这一题不缩放：直接用 QKᵀ，不要除以 √d_k 或 d_k。",
            "This exercise has no scaling: use QKᵀ as it is, without dividing by √d_k or d_k.",
        ),
        "softmax_axis": (
            "softmax 的方向错了：你让每一列加起来为 1，应当让每一行（一个查询的全部权重）加起来为 1，"
            "也就是沿最后一个轴归一化。",
            "softmax along the wrong axis: your columns sum to 1, but each row (one query's weights) "
            "should, i.e. normalise along the last axis.",
        ),
        "mask_after_softmax": (
            "遮罩加晚了：要在 softmax 之前把被遮住的分数设为 −∞；softmax 之后再清零，每行之和就不再是 1。",
            "The mask comes too late: set masked scores to −∞ before softmax; zeroing weights after "
            "softmax leaves rows that no longer sum to 1.",
        ),
        "mask_ignored": (
            "没有用上遮罩：mask 为 False 的位置要在 softmax 之前设为 −∞，这样它们的权重才是 0。",
            "The mask is not used: where mask is False the score must become −∞ before softmax, so that "
            "its weight is 0.",
        ),
        "mask_inverted": (
            "遮罩用反了：True 表示可以关注、要保留；应设为 −∞ 的是 mask 为 False 的位置。",
            "The mask is inverted: True means may attend (keep it); −∞ goes where mask is False.",
        ),
        "mask_zero": (
            "被遮住的分数要设为 −∞，不是 0：exp(0) = 1，这些位置仍会分到权重。",
            "Masked scores must become −∞, not 0: exp(0) = 1, so those positions would still get weight.",
        ),
        "no_softmax": (
            "这还是分数，不是权重：还要对每一行做 softmax，让权重非负、每行之和为 1。",
            "These are still scores, not weights: apply softmax to each row so the weights are non-negative "
            "and each row sums to 1.",
        ),
        "wrong_mask": (
            "被遮住的位置（例如 {where}）权重应当是 0：在 softmax 之前把这些分数设为 −∞。",
            "A masked position (e.g. {where}) must get weight 0: set those scores to −∞ before softmax.",
        ),
        "wrong_mask_S": (
            "被遮住的位置（例如 {where}）分数应为 −∞，不是 0 或很大的负数：这样 softmax 后权重正好是 0。",
            "A masked position (e.g. {where}) must hold −∞, not 0 or a large negative number, so that its "
            "weight after softmax is exactly 0.",
        ),
        "not_normalized": (
            "每一行的权重加起来应为 1，{where}不是：softmax 要把每个 exp 除以它所在这一行的 exp 之和"
            "（不是整列或整个矩阵的和）。",
            "Each row of weights must sum to 1, {where} does not: softmax divides each exp by the sum of "
            "its own row (not of a column or of the whole matrix).",
        ),
        "not_normalized_O": (
            "权重没有归一化：exp 之后还要除以每一行的和，再乘以 V。",
            "The weights are not normalised: after exp, divide by each row's sum, then multiply by V.",
        ),
        "used_scores": (
            "你用分数乘了 V：要先对分数的每一行做 softmax 得到权重 A，再用 A 乘以 V。",
            "You multiplied the scores by V: first turn each row of scores into weights A with softmax, "
            "then multiply A by V.",
        ),
        "used_keys": (
            "你乘的是 K 而不是 V：加权求和取回的是值 V，键 K 只用来打分。",
            "You multiplied by K instead of V: the weighted sum fetches the values V; the keys K are only for scoring.",
        ),
        "transposed_O": (
            "你的 O 行列颠倒了：每一行对应一个查询，是 A 乘以 V，不要转置结果。",
            "Your O has rows and columns swapped: each row belongs to a query; it is A times V, untransposed.",
        ),
        "transposed_A": (
            "你用了 A 的转置：A 的第 i 行就是第 i 个查询的权重，直接用 A 乘以 V。",
            "You used A transposed: row i of A already holds query i's weights; multiply A itself by V.",
        ),
        "causal_inverted": (
            "True/False 颠倒了：True 表示“可以关注”。每个位置可以看自己和前面的位置，你的 True 却在未来（右上方）。",
            "True and False are swapped: True means may attend. Each position sees itself and earlier "
            "ones, but your True marks the future (upper right).",
        ),
        "causal_upper": (
            "你取的是上三角：第 i 行是位置 i 在提问，它只能看第 0 到 i 列，应当用 np.tril 取下三角（含对角线）。",
            "That is the upper triangle: row i is position i asking and it may only see columns 0 to i; "
            "take the lower triangle (np.tril, diagonal included).",
        ),
        "causal_no_diagonal": (
            "对角线也应为 True：每个位置都可以关注它自己。",
            "The diagonal must be True too: every position may attend to itself.",
        ),
        "causal_all_true": (
            "全是 True 就等于没有遮罩：位置 i 不能看到它后面的位置。",
            "All True is no mask at all: position i must not see the positions after it.",
        ),
        # ---------------------------------------------------------------- wrong shapes: what usually produces them
        "hint_transposed_XW": (
            "这是转置后的形状：每行应对应一个词。",
            "That is the transposed shape: one row per word.",
        ),
        "hint_Xt": (
            "这是 X 转置后的形状：X 不需要转置，它的每一行就是一个词。",
            "That is the shape of X transposed: X needs no transpose, each row is a word.",
        ),
        "hint_X_shape": ("这是 X 本身的形状：别忘了乘以 {w}。", "That is the shape of X: multiply it by {w}."),
        "hint_transposed_S": (
            "这是转置后的形状：行应对应查询（Q 的行），列对应键（K 的行）。",
            "That is the transposed shape: rows belong to queries (rows of Q), columns to keys.",
        ),
        "hint_Q_shape": (
            "这和 Q 的形状一样：可能用了逐元素乘法 *，或者没有转置 K；分数要用矩阵乘法：Q 乘以 K 的转置。",
            "That is the shape of Q: perhaps an element-wise * or K not transposed; scores need the matrix "
            "product Q times K transposed.",
        ),
        "hint_QtK": (
            "这是“特征 × 特征”的形状：Q 的转置乘以 K 比较的是特征而不是词；应是 Q 乘以 K 的转置。",
            "That is a features × features shape: Q transposed times K compares features, not tokens; use Q "
            "times K transposed.",
        ),
        "hint_A_shape": (
            "这是权重 A 的形状：最后还要乘以 V。",
            "That is the shape of the weights A: multiply by V at the end.",
        ),
        "hint_K_width": (
            "宽度是 d_k：你可能乘的是 K 而不是 V。",
            "The width is d_k: perhaps you multiplied by K, not V.",
        ),
        "hint_transposed_O": (
            "这是转置后的形状：O 的每一行对应一个查询，宽度是 d_v。",
            "That is the transposed shape: each row of O belongs to a query and is d_v wide.",
        ),
        # ---------------------------------------------------------------- a task set up wrongly (shown after "bad_task")
        "unknown_step": ("没有名为 {step!r} 的检查步骤（已有：{steps}）", "unknown step {step!r} (steps: {steps})"),
        "step_givens": (
            "步骤 {step!r} 需要 {needs}，还可以接受 {optional}；缺少 {missing}，多出 {extra}",
            "step {step!r} needs {needs}, may take {optional}; missing {missing}, unexpected {extra}",
        ),
        "given_not_real": (
            "{name} 必须是实数数组，得到的是 {type}，dtype 为 {dtype}",
            "{name} must be an array of real numbers, got {type} of dtype {dtype}",
        ),
        "given_few_axes": (
            "{name} 至少要有 2 个维度（行 × 特征），得到的形状是 {shape}",
            "{name} must have at least 2 axes (rows × features), got shape {shape}",
        ),
        "given_mask": (
            "mask 必须是布尔数组（True = 可以关注），得到的是 dtype {dtype}",
            "mask must be boolean (True = may attend), got dtype {dtype}",
        ),
        "given_d_k": ("d_k 必须是正数，得到的是 {got!r}", "d_k must be a positive number, got {got!r}"),
        "given_scaled": ("scaled 必须是 True 或 False，得到的是 {got!r}", "scaled must be True or False, got {got!r}"),
        "given_n": ("n 必须是正整数，得到的是 {got!r}", "n must be a positive integer, got {got!r}"),
        "given_name": (
            "name 必须是字符串，例如 'Q'，得到的是 {got!r}",
            "name must be a string such as 'Q', got {got!r}",
        ),
        # ---------------------------------------------------------------- tasks, check() and progress()
        "no_task": ("没有编号为 {task_id!r} 的题目；已有的编号：{ids}", "no task {task_id!r}; the tasks are {ids}"),
        "no_exercise": (
            "没有名为 {exercise!r} 的练习；已有：{names}",
            "no exercise {exercise!r}; the exercises are {names}",
        ),
        "no_variable": (
            "还没有变量 {var}：运行上面的答案格子（把 ... 换成你的答案）。",
            "there is no variable {var} yet: run the answer cell above (replace ... with your answer).",
        ),
        "check_failed": (
            "{task_id} ❌ 检查时出了意外（{error}），请把这一行告诉老师。",
            "{task_id} ❌ the check itself failed ({error}); please tell your teacher.",
        ),
        "progress_summary": ("共 {total} 题，已通过 {done} 题。", "{done} of {total} tasks passed."),
        "progress_failed": ("❌ 统计时出了意外（{error}）。", "❌ progress failed ({error})."),
    }
)

# ---------------------------------------------------------------- the grader, its feedback pages, the release and
# the ID cell (attn-grade, attn-release, set_student_id): a block of its own, added to the same catalog.
msg.messages.update(
    {
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
        "status_unreadable": ("读不了的文件：{detail}", "unreadable file: {detail}"),
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
            "每份作业：最多 {timeout} 秒、内存 {memory}；{writes}；同时批改 {jobs} 份。",
            "Each submission: at most {timeout} s and {memory} of memory; {writes}; {jobs} graded at a time.",
        ),
        "g_confined": ("只能在自己的临时文件夹里写文件（{how}）", "writes only in its own temporary folder ({how})"),
        "g_not_confined": (
            "写文件不受限制（这台机器上做不到，或用了 --no-confine）",
            "writes not confined (not available here, or --no-confine)",
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
        "skip_too_large": ("文件太大（{detail}）", "too large ({detail})"),
        "skip_bad_zip": ("zip 文件读不了（{detail}）", "unreadable zip file ({detail})"),
        "skip_superseded": (
            "同一位学生、同一个练习还有更新的一份：{detail}",
            "a newer submission of the same student and exercise: {detail}",
        ),
        "skip_duplicate": ("与另一份完全相同：{detail}", "identical to another file: {detail}"),
        "skip_unreadable": ("读不了（{detail}）", "cannot be read ({detail})"),
        "g_reused": (
            "另有 {n} 份以前批改过、内容没变，沿用原来的结果（要重新批改请加 --regrade）。",
            "{n} more were graded before and have not changed: their results are kept (--regrade grades them again).",
        ),
        "g_done": (
            "批改了 {n} 份，用时 {seconds} 秒（同时 {jobs} 份，平均每份 {each} 秒）。",
            "{n} submission(s) graded in {seconds} s ({jobs} at a time, {each} s each on average).",
        ),
        "g_memory": (
            "批改程序自身的内存峰值：{own} MiB；单个批改进程最多 {worker} MiB（作业打印多少都不影响它们）。",
            "peak memory of the grader: {own} MiB itself, {worker} MiB for the largest worker (whatever a submission prints).",
        ),
        "g_written": ("结果写在：{path}", "results written to: {path}"),
        # ---- attn-grade --help
        "ga_description": (
            "批改练习笔记本：每份作业在自己的进程和全新内核里运行，同时批改好几份。",
            "Grade exercise notebooks, each in a process and a fresh kernel of its own, several at a time.",
        ),
        "ga_submissions": (
            "笔记本、文件夹（连同子文件夹）和 zip 文件",
            "notebooks, folders (with subfolders) and zip files",
        ),
        "ga_out": (
            "批改文件夹：结果、CSV、LMS 导入文件、反馈页都写在这里",
            "grading folder: results, CSV files, LMS files, feedback pages",
        ),
        "ga_csv": (
            "每份作业一行的 CSV（默认 OUT/submissions.csv）",
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
            "没有发布文件夹时，拿来比对的教师版文件夹（可以给好几个；默认两种版本的 notebooks/…/exercises/teacher）",
            "a folder of teacher notebooks to compare with when there is no release (repeatable; default: both editions')",
        ),
        "ga_deadline": (
            '截止时间（本地时间），例如 "2026-12-08 23:59"',
            'the deadline, local time, e.g. "2026-12-08 23:59"',
        ),
        "ga_late": (
            "迟交怎么算：none（只标出）、zero（记 0 分）或每晚一天扣几分（如 10）",
            "late work: none (only reported), zero, or points off per day late (e.g. 10)",
        ),
        "ga_exercises": ("没人交的练习也在成绩册里占一列", "gradebook columns even if no one handed them in"),
        "ga_lms_item": ("Moodle 和 Canvas 文件里成绩项的名字", "the grade item's name in the Moodle and Canvas files"),
        "ga_jobs": (
            "同时批改几份（默认：CPU 核数，内存允许的话）",
            "submissions graded at a time (default: the cores, as memory allows)",
        ),
        "ga_timeout": ("每本笔记本总共最多运行的秒数（默认 60）", "seconds each notebook may run in all (default 60)"),
        "ga_memory": ("每份作业最多用的内存，MiB（默认 2048）", "MiB of memory each submission may use (default 2048)"),
        "ga_regrade": ("结果文件里已有的也重新批改", "grade again what the results file already has"),
        "ga_lang": ("表格和提示的语言（默认看系统语言）", "language of the table and messages (default: the system's)"),
        "ga_no_confine": ("不限制写文件（只在调试批改程序时用）", "do not confine writes (for debugging the grader)"),
        # ---- the feedback page
        "fb_title": ("{exercise} · 批改反馈", "{exercise} · feedback"),
        "fb_student": ("学生：{student}", "Student: {student}"),
        "fb_mark": (
            "得分：{earned} / {possible}（百分制 {percent} 分）",
            "Mark: {earned} / {possible} ({percent} out of 100)",
        ),
        "fb_after_late": ("，按迟交规则记 {final} 分", "; {final} after the late rule"),
        "fb_explained": ("{status}：{why}", "{status}: {why}"),
        "fb_why_syntax_error": (
            "这一格不是合法的 Python（括号、引号、缩进？），整格都没有运行",
            "that cell is not valid Python (brackets, quotes, indentation?), so none of it ran",
        ),
        "fb_why_runtime_error": (
            "这一格运行时报错；它后面的格子照常运行，也照常计分",
            "that cell raised an error; the cells after it still ran and count",
        ),
        "fb_why_timeout": (
            "笔记本在这一格用完了运行时间，之后的格子没有运行，之后的题也就没有计分；检查有没有死循环",
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
            "发下去的格子被改动、删除或挪了位置；批改照常进行，老师会看这些格子",
            "cells of the handed-out notebook were changed, deleted or moved; grading went on, and your teacher will look at them",
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
            "这页只说哪里对、哪里错、为什么，不给答案：提示和笔记本里 check(...) 打印的是同一句话（按你自己前一题的答案算对的题除外，笔记本里它仍是 ❌）。",
            "This page says what is right, what is wrong and why, never the answer: each hint is the sentence check(...) prints in the notebook (except a task right for your own earlier answer, which the notebook still marks ❌).",
        ),
        # ---- attn-release and attn-student
        "rel_written": ("发给学生的文件夹：{folder}", "for the students, the folder: {folder}"),
        "rel_zip": ("以及压缩包：{zip}", "and the zip: {zip}"),
        "rel_manifest": (
            "留给自己（批改时用 --release {folder}）：{manifest}",
            "keep for yourself (grade with --release {folder}): {manifest}",
        ),
        "rel_exists": (
            "{folder} 已经存在：换一个 --name，或加 --force 覆盖",
            "{folder} exists: choose another --name, or --force",
        ),
        "rel_missing": (
            "{folder} 里没有 {names}：请在仓库文件夹里运行，或用 --notebooks 指明",
            "{folder}: no {names} (run this in the repository's folder, or give --notebooks)",
        ),
        "rel_no_exercise": ("没有练习 {name}（已有：{names}）", "no exercise {name} (exercises: {names})"),
        "rel_exercises": ("发出的练习：{names}", "exercises handed out: {names}"),
        "rel_readme_per_student": (
            "\n\n**学号**：每个练习的第二个代码格要你写上学号，新数据按学号生成，和同学的不一样。先填学号，再做题。",
            "\n\n**Student number**: the second code cell of each exercise asks for your student number; the fresh data are drawn from it, different from your classmates'. Fill it in first.",
        ),
        "rel_readme": (
            "# 自注意力 · 课程与练习\n\n"
            "老师发给你的这个文件夹里有全部课程笔记本（`notebooks/`）和练习（`notebooks/exercises/`）。\n\n"
            "## 装好环境（只需一次）\n\n"
            "需要 Python ≥ 3.10。在这个文件夹里打开终端：\n\n"
            "```bash\n"
            "python -m venv .venv\n"
            ".venv/bin/python -m pip install -r requirements.txt      # Windows: .venv\\Scripts\\python -m pip install -r requirements.txt\n"
            ".venv/bin/python -m jupyter lab notebooks                # Windows: .venv\\Scripts\\python -m jupyter lab notebooks\n"
            "```\n\n"
            "先打开 `00_setup_check.ipynb`：它检查环境，并告诉你哪里需要修。\n\n"
            "## 做练习\n\n"
            '每道题：先运行“数据”格子，在答案格子里把 `...` 换成你的代码并运行，再运行下面那一行 `check("…")`：'
            "✅ 正确；❌ 哪里错、为什么；⏳ 还没作答。它不会告诉你答案。{per_student}\n\n"
            "做完后保存笔记本，按老师的要求上交 `notebooks/exercises/` 里的 `.ipynb` 文件（不要改文件名）。\n",
            "# Self-attention · lessons and exercises\n\n"
            "This folder from your teacher holds every lesson notebook (`notebooks/`) and the exercises (`notebooks/exercises/`).\n\n"
            "## Set up (once)\n\n"
            "You need Python ≥ 3.10. Open a terminal in this folder:\n\n"
            "```bash\n"
            "python -m venv .venv\n"
            ".venv/bin/python -m pip install -r requirements.txt      # Windows: .venv\\Scripts\\python -m pip install -r requirements.txt\n"
            ".venv/bin/python -m jupyter lab notebooks                # Windows: .venv\\Scripts\\python -m jupyter lab notebooks\n"
            "```\n\n"
            "Start with `00_setup_check.ipynb`: it checks your setup and says what to fix.\n\n"
            "## The exercises\n\n"
            "For each task: run its data cell, replace `...` in the answer cell with your code and run it, then run the one-line "
            '`check("…")` below it: ✅ correct; ❌ what is wrong and why; ⏳ not answered yet. It never shows the answer.{per_student}\n\n'
            "When you are done, save the notebook and hand in the `.ipynb` files of `notebooks/exercises/` as your teacher asks (keep their file names).\n",
        ),
        "unknown_task_in_notebook": (
            "第 {cell} 格调用了 {call}，但没有编号为 {task_id} 的题目（已有：{ids}）：先在 attn_core/homework/exercises.py 里登记这道题，见 CONTRIBUTING.md 的“加一道题”。",
            'cell {cell} calls {call}, but there is no task {task_id} (tasks: {ids}): register the task in attn_core/homework/exercises.py first (CONTRIBUTING.md, "A task").',
        ),
    }
)
