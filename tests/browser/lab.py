"""A JupyterLab server and a headless Chromium for the browser tests.

The server runs from this project's own environment on a free loopback port with a random token,
serves a *copy* of notebooks/ (JupyterLab autosaves, and the committed notebooks must stay as they are),
and keeps its settings, workspaces and runtime files in a temporary folder so nothing is restored
from an earlier session.
"""

import json
import os
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

# User settings for the test server: render every cell (no windowing, so every output is in the DOM),
# no news toast, no update check, no autosave (the copy is thrown away anyway).
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """`with Lab() as lab:` starts the server; `lab.url(path)` opens a notebook; stopped on exit."""

    def __init__(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="attn-lab-"))
        self.root = self.tmp / "notebooks"
        shutil.copytree(ROOT / "notebooks", self.root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        self.port, self.token = free_port(), secrets.token_hex(16)
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
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self.log = open(self.tmp / "server.log", "w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited: {(self.tmp / 'server.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/status?token={self.token}", timeout=2)
                return self
            except OSError:
                time.sleep(0.3)
        self.__exit__()
        raise RuntimeError("jupyter lab did not start within 60 s")

    def url(self, nb_path, workspace):
        return f"http://127.0.0.1:{self.port}/lab/workspaces/{workspace}/tree/{nb_path}?reset&token={self.token}"

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
