"""A JupyterLab server and a headless Chromium for the browser tests.

The server runs from this project's own environment on a free loopback port with a random token,
serves a *copy* of notebooks/ (JupyterLab autosaves, and the committed notebooks must stay as they are),
and keeps its settings, workspaces and runtime files in a temporary folder so nothing is restored
from an earlier session.
"""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# User settings for the test server: render every cell (no windowing, so every output is in the DOM), a
# closed notebook's kernel shut down, no news toast, no update check, no autosave (the copy is thrown away).
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none", "kernelShutdown": True},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def makefile_flags(name):
    """The arguments a Makefile variable holds, e.g. ``makefile_flags("LAB_FONTS")``: what `make lab` adds."""
    import shlex

    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    return shlex.split(re.search(rf"^{name} := (.*)$", text, re.M).group(1))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """`with Lab() as lab:` starts the server; `lab.url(path)` opens a notebook; stopped on exit.

    ``edition`` ("zh" or "en") starts it as `make lab` / `make lab-en` do, with that edition's
    jupyterlab-settings/<edition> (menus in its language); by default JupyterLab's own default (English).
    ``kernels=False`` offers no kernel (JupyterLab asks which one to start; Escape opens the notebook
    without one): for reading saved outputs, no kernel process is started per notebook.
    ``extra_args``: more arguments, e.g. ``makefile_flags("LAB_FONTS")`` (the server runs in the project folder)."""

    def __init__(self, edition: str | None = None, kernels: bool = True, extra_args=()):
        self.tmp = Path(tempfile.mkdtemp(prefix="attn-lab-"))
        self.root = self.tmp / "notebooks"
        shutil.copytree(ROOT / "notebooks", self.root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.edition, self.kernels, self.extra_args = edition, kernels, list(extra_args)
        self.proc = None

    def __enter__(self):
        settings = self.tmp / "settings"
        for name, value in SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        env = dict(
            os.environ,
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"),
            JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
            JUPYTER_CONFIG_DIR=str(self.tmp / "config"),
        )
        cmd = [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.port_retries=0",
        ]
        if self.edition:
            cmd.append(f"--LabApp.app_settings_dir={ROOT / 'jupyterlab-settings' / self.edition}")
        if not self.kernels:
            cmd.append("--KernelSpecManager.allowed_kernelspecs=['none']")
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        cmd += self.extra_args
        self.proc = start(cmd, env, self.tmp, f"http://127.0.0.1:{self.port}/api/status?token={self.token}", cwd=ROOT)
        return self

    def url(self, nb_path, workspace):
        return f"http://127.0.0.1:{self.port}/lab/workspaces/{workspace}/tree/{nb_path}?reset&token={self.token}"

    def __exit__(self, *exc):
        stop(self.proc)
        shutil.rmtree(self.tmp, ignore_errors=True)


class Voila:
    """`with Voila("demo.ipynb") as board:` serves one notebook of a copy of notebooks/ as `make demo` does
    (Voilà: outputs only, no code); `board.url` is its page; stopped on exit. ``extra_args``: more
    arguments, e.g. ``makefile_flags("VOILA_FONTS")``; the server runs in the copy's folder, which holds
    attn_viz/fonts/ too, where the project's would be."""

    def __init__(self, notebook: str, extra_args=()):
        self.tmp = Path(tempfile.mkdtemp(prefix="attn-voila-"))
        self.root = self.tmp / "notebooks"
        shutil.copytree(ROOT / "notebooks", self.root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        shutil.copytree(ROOT / "attn_viz" / "fonts", self.tmp / "attn_viz" / "fonts")
        self.notebook, self.port, self.proc = notebook, free_port(), None
        self.extra_args = list(extra_args)
        self.url = f"http://127.0.0.1:{self.port}/"

    def __enter__(self):
        env = dict(
            os.environ,
            JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
            JUPYTER_CONFIG_DIR=str(self.tmp / "config"),
            JUPYTER_PATH=str(ROOT / "share" / "jupyter"),  # the board's template, as `make demo` uses it
        )
        cmd = [sys.executable, "-m", "voila", str(self.root / self.notebook), "--no-browser", f"--port={self.port}"]
        cmd += ["--template=attn-board"]
        cmd += ["--Voila.ip=127.0.0.1", "--Voila.port_retries=0", *self.extra_args]
        # ready when it serves a static file: a request for the page itself would start a kernel each time
        self.proc = start(cmd, env, self.tmp, self.url + "voila/static/voila.js", cwd=self.tmp)
        return self

    def __exit__(self, *exc):
        stop(self.proc)
        shutil.rmtree(self.tmp, ignore_errors=True)


def start(cmd, env, folder, ready_url, timeout=60, cwd=None):
    """Start a server; wait until ``ready_url`` answers (its log goes to ``folder``/server.log)."""
    with open(folder / "server.log", "w") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd[2]} exited: {(folder / 'server.log').read_text()[-2000:]}")
        try:
            urllib.request.urlopen(ready_url, timeout=2)
            return proc
        except OSError:
            time.sleep(0.3)
    stop(proc)
    raise RuntimeError(f"{cmd[2]} did not start within {timeout} s")


def stop(proc):
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
