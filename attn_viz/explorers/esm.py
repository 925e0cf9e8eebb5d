"""The explorers' front end as one JavaScript text, from the plain ES modules in ``js/`` (no build step).

Each module in ``js/`` is an ordinary ES module: it ``import``s names from its neighbours on one line
each (``import { a, b } from "./x.js";`` or ``import * as x from "./x.js";``) and ``export``s its
top-level ``function``, ``const`` and ``class`` declarations. :func:`assemble` inlines them, in dependency
order, each inside a function of its own (so two modules may both have a ``render``)::

    const __draw = (() => { …draw.js without "export "…; return { fmt, bars, … }; })();
    const __pipeline = (() => { const { attention } = __attention; const draw = __draw; …; return { … }; })();

A module that exports ``explorer`` (``{compute, render}``) is an explorer, registered under its file
name. :func:`esm` ends the text with anywidget's ``export default { render }``; :func:`bundle` wraps
the same text as a classic script for a static page: it defines ``globalThis.attnExplorers`` (with
``mountAll(root)``) and mounts every ``[data-attn-explorer]`` element once the page has loaded.
"""

import re
from functools import cache
from pathlib import Path

JS = Path(__file__).with_name("js")
IMPORT = re.compile(r'^import\s+(?:\{([^}]*)\}|\*\s+as\s+(\w+))\s+from\s+"\./([\w-]+)\.js";\s*$', re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)", re.M)
EXPORT_KEYWORD = re.compile(r"^export\s+(?=(?:async\s+)?(?:function|const|let|class)\b)", re.M)
ANY_IMPORT_EXPORT = re.compile(r"^\s*(?:import\b|export\b)", re.M)


class ModuleError(ValueError):
    """A module uses a form of import or export that :func:`inline` does not handle."""


def inline(name: str, source: str) -> tuple[str, list[str], list[str]]:
    """One module as a ``const __name = (() => {...})();`` block, its dependencies and its exports."""
    deps: list[str] = []

    def replace_import(m):
        names, star, dep = m.groups()
        deps.append(dep)
        if star:
            return f"const {star} = __{ident(dep)};"
        parts = [p.strip() for p in names.split(",") if p.strip()]
        bound = ", ".join(p.replace(" as ", ": ") for p in parts)
        return f"const {{ {bound} }} = __{ident(dep)};"

    body = IMPORT.sub(replace_import, source)
    exports = EXPORT.findall(body)
    body = EXPORT_KEYWORD.sub("", body)
    stray = ANY_IMPORT_EXPORT.search(body)
    if stray:
        line = body[stray.start() :].splitlines()[0]
        raise ModuleError(f"{name}.js: cannot inline {line.strip()!r}")
    block = f"const __{ident(name)} = (() => {{\n{body}\nreturn {{ {', '.join(exports)} }};\n}})();\n"
    return block, deps, exports


def ident(name: str) -> str:
    return name.replace("-", "_")


def order(deps: dict[str, list[str]]) -> list[str]:
    """The modules, each after the ones it imports (alphabetical where free); a cycle is an error."""
    done: list[str] = []
    visiting: set[str] = set()

    def visit(name):
        if name in done:
            return
        if name in visiting:
            raise ModuleError(f"import cycle through {name}.js")
        if name not in deps:
            raise ModuleError(f"no module {name}.js")
        visiting.add(name)
        for dep in sorted(deps[name]):
            visit(dep)
        visiting.discard(name)
        done.append(name)

    for name in sorted(deps):
        visit(name)
    return done


def assemble(sources: dict[str, str]) -> tuple[str, list[str]]:
    """The modules' text inlined in dependency order, then ``const EXPLORERS = {...}``; and the
    explorers' names (the modules that export ``explorer``)."""
    blocks, deps, explorers = {}, {}, []
    for name, source in sources.items():
        blocks[name], deps[name], exports = inline(name, source)
        if "explorer" in exports:
            explorers.append(name)
    text = "".join(blocks[name] for name in order(deps))
    table = ", ".join(f"{json_key(n)}: __{ident(n)}.explorer" for n in sorted(explorers))
    return text + f"const EXPLORERS = {{ {table} }};\n", sorted(explorers)


def json_key(name: str) -> str:
    return '"' + name + '"'


def sources() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(JS.glob("*.js"))}


@cache
def esm() -> str:
    """anywidget's ``_esm``: every module, and ``export default { render }`` mounting the model's explorer."""
    text, _ = assemble(sources())
    return (
        "// attn_viz explorers: assembled from attn_viz/explorers/js/*.js by attn_viz/explorers/esm.py\n"
        + text
        + "export default { render({ model, el }) { return __runtime.mount(model, el, EXPLORERS); } };\n"
    )


@cache
def bundle() -> str:
    """One self-contained classic script with every explorer: ``attnExplorers.mountAll(root)`` makes every
    ``[data-attn-explorer]`` element under ``root`` live; it runs on ``document`` once the page has loaded."""
    text, _ = assemble(sources())
    return (
        "// attn_viz explorers: assembled from attn_viz/explorers/js/*.js by attn_viz/explorers/esm.py\n"
        "(() => {\n" + text + "const api = {\n"
        "  explorers: EXPLORERS,\n"
        "  modules: { attention: __attention, draw: __draw, runtime: __runtime },\n"
        "  mount: (model, el) => __runtime.mount(model, el, EXPLORERS),\n"
        "  mountAll: (root) => __runtime.mountAll(root || document, EXPLORERS),\n"
        "  shimModel: __runtime.shimModel,\n"
        "  frame: (kind, state) => __runtime.frame(EXPLORERS[kind], state.data, state.choices,"
        " __runtime.translator(state.words)),\n"
        "};\n"
        "globalThis.attnExplorers = api;\n"
        'if (typeof document !== "undefined") {\n'
        '  if (document.readyState !== "loading") api.mountAll(document);\n'
        '  else document.addEventListener("DOMContentLoaded", () => api.mountAll(document));\n'
        "}\n"
        "})();\n"
    )
