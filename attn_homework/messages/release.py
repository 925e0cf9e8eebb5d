"""``attn-release`` and ``attn-student``.

Chinese and English side by side; merged into one catalog in ``__init__``."""

MESSAGES = {
    # ---------------------------------------------------------------- attn-student: the summary held back
    "student_summary_held_back": (
        "做完所有题以后（上面“一览”里每道题都是 ✅），回到{lesson}，读它的“小结”一节。"
        "本练习自己的小结会透露几道题的答案，所以不放在这里。",
        "When you have done every task (✅ for each in the Overview above), go back to {lesson} and read its "
        "Summary. This exercise's own summary would give away some of its answers, so it is not here.",
    ),
    "student_summary_held_back_predict": (
        "做完所有题以后（上面“一览”里每道题都是 ✅），回到{lesson}，读它的“小结”一节。"
        "本练习自己的小结会透露几道题的答案（包括“先预测”的题），所以不放在这里。",
        "When you have done every task (✅ for each in the Overview above), go back to {lesson} and read its "
        "Summary. This exercise's own summary would give away some of its answers (the Predict ones too), so "
        "it is not here.",
    ),
    "student_summary_the_lesson": ("本练习开头链接的那一课", "the lesson linked at the top of this exercise"),
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
        "老师发给你的这个文件夹里有课程笔记本（`notebooks/`）和练习（`notebooks/exercises/`）。"
        "下面的命令都要在终端里、在这个文件夹（README.md 所在的文件夹）中运行。\n\n"
        "## 装好环境（只需一次）\n\n"
        "需要 Python ≥ 3.10。\n\n"
        "**Windows**（命令提示符或 PowerShell；提示找不到 `python` 时，把第一条里的 `python` 换成 `py`）：\n\n"
        "```\n"
        "python -m venv .venv\n"
        ".venv\\Scripts\\python -m pip install -r requirements.txt\n"
        "```\n\n"
        "**macOS / Linux**：\n\n"
        "```bash\n"
        "python3 -m venv .venv\n"
        ".venv/bin/python -m pip install -r requirements.txt\n"
        "```\n\n"
        "## 打开课程（每次）\n\n"
        "**Windows**：\n\n"
        "```\n"
        ".venv\\Scripts\\python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings\\zh --LabApp.custom_css=True --ServerApp.tornado_settings=static_custom_path=attn_viz/fonts\n"
        "```\n\n"
        "**macOS / Linux**：\n\n"
        "```bash\n"
        ".venv/bin/python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings/zh --LabApp.custom_css=True --ServerApp.tornado_settings=static_custom_path=attn_viz/fonts\n"
        "```\n\n"
        "JupyterLab 在浏览器里打开，菜单是中文：`--LabApp.app_settings_dir=jupyterlab-settings/zh` 只为这次启动把界面语言设成中文，"
        "不改你自己的 JupyterLab 设置（想换语言：菜单“设置 → 语言”）；后两个参数让 JupyterLab 用课程自带的中文字体和 emoji 字体，电脑上没有中文字体时也不会显示成方框。用完在终端里连按两次 Ctrl+C 关掉它。\n\n"
        "先打开 `00_setup_check.ipynb`：它检查环境，并告诉你哪里需要修。\n\n"
        "## 内容\n\n"
        "{contents}\n\n"
        "## 做练习\n\n"
        '每道题：先运行“数据”格，在答案格里把 `...` 换成你的代码并运行，再运行下面那一行 `check("…")`：'
        "✅ 正确；❌ 哪里错、为什么；⏳ 还没作答。它不会告诉你答案。{per_student}\n\n"
        "做完后保存笔记本，按老师的要求上交 `notebooks/exercises/` 里的 `.ipynb` 文件（不要改文件名）。\n",
        "# Self-attention · lessons and exercises\n\n"
        "This folder from your teacher holds the lesson notebooks (`notebooks/`) and the exercises (`notebooks/exercises/`). "
        "Run the commands below in a terminal in this folder (the one holding this README.md).\n\n"
        "## Set up (once)\n\n"
        "You need Python ≥ 3.10.\n\n"
        "**Windows** (Command Prompt or PowerShell; if `python` is not found, write `py` instead in the first command):\n\n"
        "```\n"
        "python -m venv .venv\n"
        ".venv\\Scripts\\python -m pip install -r requirements.txt\n"
        "```\n\n"
        "**macOS / Linux**:\n\n"
        "```bash\n"
        "python3 -m venv .venv\n"
        ".venv/bin/python -m pip install -r requirements.txt\n"
        "```\n\n"
        "## Open the course (each time)\n\n"
        "**Windows**:\n\n"
        "```\n"
        ".venv\\Scripts\\python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings\\en --LabApp.custom_css=True --ServerApp.tornado_settings=static_custom_path=attn_viz/fonts\n"
        "```\n\n"
        "**macOS / Linux**:\n\n"
        "```bash\n"
        ".venv/bin/python -m jupyter lab notebooks --LabApp.app_settings_dir=jupyterlab-settings/en --LabApp.custom_css=True --ServerApp.tornado_settings=static_custom_path=attn_viz/fonts\n"
        "```\n\n"
        "JupyterLab opens in your browser with English menus: `--LabApp.app_settings_dir=jupyterlab-settings/en` sets the "
        "language for this launch only and never changes your own JupyterLab settings (to switch: Settings → Language); the last two options let JupyterLab use the course's own Chinese and emoji fonts, so nothing is drawn as boxes on a computer without a Chinese font. "
        "When you are done, press Ctrl+C twice in the terminal to stop it.\n\n"
        "Start with `00_setup_check.ipynb`: it checks your setup and says what to fix.\n\n"
        "## Contents\n\n"
        "{contents}\n\n"
        "## The exercises\n\n"
        "For each task: run its data cell, replace `...` in the answer cell with your code and run it, then run the one-line "
        '`check("…")` below it: ✅ correct; ❌ what is wrong and why; ⏳ not answered yet. It never shows the answer.{per_student}\n\n'
        "When you are done, save the notebook and hand in the `.ipynb` files of `notebooks/exercises/` as your teacher asks (keep their file names).\n",
    ),
    "rel_req_header": (
        "# 课程用到的 Python 包。安装：按 README.md“装好环境”里的命令（python -m pip install -r requirements.txt）",
        "# The Python packages of the course. To install them, follow README.md, Set up (python -m pip install -r requirements.txt)",
    ),
    "rel_req_anywidget": ("让读屏软件读出探索器控件的名字", "names the explorers' controls for screen readers"),
    "rel_req_language_pack": (
        "JupyterLab 的中文界面（README.md 里打开课程的命令会用到；菜单“设置 → 语言”可以切换）",
        "JupyterLab's menus in Chinese, if you want them (Settings → Language)",
    ),
    "rel_req_attn_core": (
        "这个文件夹里的三个包：attn_core（笔记本里的数字）、attn_viz（图和探索器）、attn_homework（check()）",
        "the three packages in this folder: attn_core (the notebooks' numbers), attn_viz (pictures and explorers), attn_homework (check())",
    ),
    "unknown_task_in_notebook": (
        "第 {cell} 格调用了 {call}，但没有编号为 {task_id} 的题目（已有：{ids}）：先在 attn_homework/exercises/ 里这道题的练习模块（exNN.py）登记它，见 CONTRIBUTING.md 的“加一道题”。",
        'cell {cell} calls {call}, but there is no task {task_id} (tasks: {ids}): register the task in its exercise module in attn_homework/exercises/ (exNN.py) first (CONTRIBUTING.md, "A task").',
    ),
}
