"""What the Gradescope autograder (``attn_homework.grading.gradescope``) writes into results.json's outputs."""

MESSAGES = {
    "gs_total": ("自动批改：{earned} / {possible} 分", "Autograder: {earned} / {possible} points"),
    "gs_exercise": ("{exercise}（文件 {file}）", "{exercise} (file {file})"),
    "gs_missing": (
        "没有找到 {exercise} 的笔记本：这个练习的每道题都记 0 分",
        "no notebook of {exercise} was found: every task of it counts 0",
    ),
    "gs_not_submitted": ("没有交这个练习的笔记本", "the notebook of this exercise was not handed in"),
    "gs_other_exercise": (
        "{file} 是 {found}，这次课后练习要的是 {wanted}：没有批改它",
        "{file} is {found}, but this assignment asks for {wanted}: it was not graded",
    ),
    "gs_skipped": ("{file} 不是能批改的笔记本，跳过了", "{file} is not a notebook that can be graded: skipped"),
    "gs_held": (
        "这份提交要等老师看过再给分（先记 0 分）",
        "this submission waits for your teacher's review before it gets a mark (0 until then)",
    ),
    "rel_gradescope": (
        "Gradescope 自动批改包：{zip}（在 Gradescope 里这次课后练习的 `Configure Autograder` 页面用 `Zip file upload` 上传）",
        "Gradescope autograder: {zip} (upload it in the assignment's Configure Autograder → Zip file upload)",
    ),
    "gs_grader_failed": (
        "自动批改本身出错了，没有给分：请告诉老师",
        "the autograder itself failed, so there is no mark: please tell your teacher",
    ),
}
