// Puts an explorer in the page and keeps it live: the controls, the picture and its readout lines.
//
// mount(model, el, explorers) works with an anywidget model (in a notebook) or with the small shim that
// mountAll makes (a static page): both answer get / set / on / off / save_changes. The model's keys:
//   kind     the explorer ("pipeline", "keys", "dk", …): which module of `explorers` draws it
//   data     what Python fixed when it built the explorer: tokens, their labels (with glosses in the
//            English edition), matrices, settings, `title` and `controls` (the specs of controls.js)
//   words    the explorer's words in its language: key -> template with {fields} (attn_viz.messages)
//   choices  the learner's values, name -> value; the page writes them back, so Python can read them
// Every input redraws synchronously (no kernel round trip): compute(data, choices) does the arithmetic,
// render(data, choices, state, t) draws. The picture's element carries data-attn-frame, a counter that
// grows by one per redraw, so a test or a benchmark can wait for the new picture.

import { buildControls, STYLE } from "./controls.js";
import * as draw from "./draw.js";

// "{field}" templates, as str.format with plain fields; a missing word shows as ⟨key⟩ (tests look for it)
export function translator(words) {
  return (key, fields = {}) => {
    const template = words[key];
    if (template === undefined) return `⟨${key}⟩`;
    return template.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
  };
}

// the picture, its lines and its description for these values; a failure becomes a message in the picture
export function frame(explorer, data, values, t) {
  try {
    const state = explorer.compute(data, values);
    const out = explorer.render(data, values, state, t);
    out.picture.description = out.description;
    return { svg: out.picture.render(), lines: out.lines, description: out.description, error: null };
  } catch (e) {
    const message = t("error_line", { error: e.message });
    const pic = draw.picture(data.title, data.title, 760, 110);
    draw.notice(pic, draw.MARGIN, draw.PANELS_TOP, 740, [message]);
    pic.description = message;
    return { svg: pic.render(), lines: [], description: message, error: message };
  }
}

// the choices after the learner sets `name` to `value`: a value that fixes other controls (a model preset:
// its own head count) sets them too, through the explorer's optional `linked` (Python: Explorer's `linked`)
export function afterInput(explorer, data, choices, name, value) {
  const next = { ...choices, [name]: value };
  if (!explorer.linked || value === choices[name]) return next;
  return { ...next, ...explorer.linked(data, name, value, next), [name]: value };
}

function ensureStyle(el) {
  const doc = el.ownerDocument;
  if (doc.getElementById("attn-explorer-style")) return;
  const style = doc.createElement("style");
  style.id = "attn-explorer-style";
  style.textContent = STYLE;
  doc.head.append(style);
}

export function mount(model, el, explorers) {
  const data = model.get("data");
  const explorer = explorers[model.get("kind")];
  const t = translator(model.get("words"));
  ensureStyle(el);
  const root = document.createElement("div");
  root.className = "attn-explorer-live";
  root.dataset.attnKind = model.get("kind");
  root.lang = model.get("lang") || "zh";
  if (data.wide) root.classList.add("attn-wide"); // a wide picture: a row of its own, under the controls
  const figure = document.createElement("div");
  figure.className = "attn-figure";
  const picture = document.createElement("div");
  picture.className = "attn-picture";
  picture.dataset.attnFrame = "0";
  const lines = document.createElement("div");
  lines.className = "attn-lines";
  figure.append(picture, lines);
  let frames = 0;

  const redraw = () => {
    const out = frame(explorer, data, model.get("choices"), t);
    picture.innerHTML = out.svg;
    lines.replaceChildren(
      ...out.lines.map((line) => {
        const div = document.createElement("div");
        div.textContent = line;
        return div;
      }),
    );
    picture.dataset.attnFrame = String(++frames);
    picture.dataset.attnError = out.error ? "1" : "0";
  };
  const onInput = (name, value) => {
    model.set("choices", afterInput(explorer, data, model.get("choices"), name, value)); // fires change:choices → redraw
    model.save_changes();
  };
  const controls = buildControls(data.controls, model.get("choices"), onInput);
  const onChange = () => {
    controls.update(model.get("choices"));
    redraw();
  };
  model.on("change:choices", onChange);
  root.append(controls.element, figure);
  el.append(root);
  redraw();
  return () => {
    model.off("change:choices", onChange);
    root.remove();
  };
}

// a model without a widget manager, for a static page: the same get / set / on / off / save_changes
export function shimModel(state) {
  const values = { ...state };
  const handlers = {};
  return {
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      for (const h of handlers[`change:${key}`] || []) h();
    },
    on(event, h) {
      (handlers[event] ||= []).push(h);
    },
    off(event, h) {
      handlers[event] = (handlers[event] || []).filter((x) => x !== h);
    },
    save_changes() {},
  };
}

// every [data-attn-explorer] element under root (its state as JSON in a <script type="application/json">
// inside it, its static picture beside) becomes a live explorer; returns the models, one per explorer
export function mountAll(root, explorers) {
  const models = [];
  for (const el of root.querySelectorAll("[data-attn-explorer]")) {
    if (el.dataset.attnMounted) continue;
    const script = el.querySelector('script[type="application/json"]');
    if (!script) continue;
    const state = JSON.parse(script.textContent);
    if (!explorers[state.kind]) continue;
    const model = shimModel(state);
    for (const child of el.children) if (child !== script) child.style.display = "none";
    mount(model, el, explorers);
    el.dataset.attnMounted = "1";
    models.push(model);
  }
  return models;
}
