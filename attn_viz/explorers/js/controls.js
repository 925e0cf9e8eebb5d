// Labelled controls for an explorer, built from the specs Python sends (data.controls), with native
// inputs so that keyboard use and screen readers work without help: a <label> names every control,
// arrow keys move sliders and radio groups, space flips a switch.
//
// A slider's keys (arrows, PageUp/PageDown, Home/End) and a radio group's arrows are handled here, not left
// to the browser: Jupyter
// Notebook 7 listens for keydown on the document in the capture phase, and its shortcuts (lumino) would
// take the arrows before the control sees them (preventDefault and stopPropagation). So a listener on the
// window, which runs before any of the document's, prevents the default of such a key (lumino skips a key
// already handled, and the browser does not act: one step per keypress), and the control's own listener
// steps the slider (or checks the next radio) as the browser would and fires the same input and change
// events; the controls' column then stops the key there, so that no notebook acts on it too.
//
// A spec is {name, kind, label, ...}:
//   kind "choice": one of `options` (values), shown as `labels`; a row of radio buttons, or a slider
//                  over the options when `slider` is true (aria-valuetext = the option, not its index);
//   kind "range":  a number from `min` to `max` in steps of `step`, its readout with `digits` decimals;
//   kind "toggle": true / false, a checkbox.
// buildControls(specs, values, onChange) returns {element, update(values)}; onChange(name, value) runs on
// every input event (continuous update: the picture follows the handle while it moves).

import { fmt, FONT_FAMILY } from "./draw.js";

const CONTROL_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", " "]);
const SLIDER_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);
const SLIDER = ".attn-controls input[type=range]";
const RADIO = ".attn-controls input[type=radio]";
const RADIO_KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }; // next or previous radio
// ids and radio-group names unique in the whole page: each explorer loads this module anew, so a counter of
// its own would restart at 1 and two explorers' radio groups would share a name (the browser then unchecks
// one explorer's choice when another is clicked); the count lives on the page's global object instead
function nextId(kind) {
  globalThis.__attnControlCount = (globalThis.__attnControlCount || 0) + 1;
  return `attn-${kind}-${globalThis.__attnControlCount}`;
}
const listening = new WeakSet(); // the windows where claimControlKey listens

// the value `key` gives a slider at `value`, as the browser's own: an arrow one step (right and up add),
// PageUp/PageDown a tenth of the range (at least one step), Home/End the ends; always on the steps from
// `min`, within [min, max]; null for a key that does not move a slider
export function keyedValue(key, value, min, max, step) {
  if (!SLIDER_KEYS.has(key)) return null;
  const last = Math.floor((max - min) / step + 1e-9); // the last step at or below max
  const big = Math.max(Math.round((max - min) / 10 / step), 1);
  const delta = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: big, PageDown: -big }[key];
  const at = Math.round((value - min) / step);
  const k = key === "Home" ? 0 : key === "End" ? last : Math.min(Math.max(at + delta, 0), last);
  return Number((min + k * step).toPrecision(12)); // 0.1 * 11 = 1.1, not 1.1000000000000001
}

// a number attribute of the input (min, max, step), or `fallback` where it is missing or not a number
function numberAttr(input, name, fallback) {
  const text = input.getAttribute(name);
  const v = text === null || text.trim() === "" ? NaN : Number(text);
  return Number.isFinite(v) ? v : fallback;
}

// a slider's or radio group's key, on the window in the capture phase: its default prevented, before any
// shortcut sees it
function claimControlKey(event) {
  if (isSliderKey(event) || isRadioKey(event)) event.preventDefault();
}

function isRadioKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !(event.key in RADIO_KEYS)) return false;
  return Boolean(event.target?.matches?.(RADIO)) && !event.target.disabled;
}

// keydown on a radio of `inputs` (its group): check the next one (right, down) or the previous one (left,
// up), round from the last to the first, as the browser does, and fire input and change
function moveByKey(event, inputs) {
  if (!isRadioKey(event)) return;
  event.preventDefault();
  const at = inputs.indexOf(event.target);
  const next = inputs[(at + RADIO_KEYS[event.key] + inputs.length) % inputs.length];
  next.checked = true;
  next.focus();
  next.dispatchEvent(new Event("input", { bubbles: true }));
  next.dispatchEvent(new Event("change", { bubbles: true }));
}

function isSliderKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !SLIDER_KEYS.has(event.key)) return false;
  return Boolean(event.target?.matches?.(SLIDER)) && !event.target.disabled;
}

function listenForControlKeys(win) {
  if (!win || listening.has(win)) return;
  listening.add(win);
  win.addEventListener("keydown", claimControlKey, true);
}

// keydown on a slider (range input): step it as the browser would, and fire input and change if it moved
function stepByKey(event) {
  if (!isSliderKey(event)) return;
  event.preventDefault(); // the browser's own step would be a second one
  const input = event.target;
  const before = input.value;
  const min = numberAttr(input, "min", 0);
  const max = Math.max(numberAttr(input, "max", 100), min);
  input.value = String(keyedValue(event.key, Number(before), min, max, numberAttr(input, "step", 1) || 1));
  if (input.value === before) return; // at the end already: no event, as the browser
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

const SUBSCRIPTED = /(?<![A-Za-z0-9_])d_(k|v|model|head|ff)(?![A-Za-z0-9_])/; // as draw.js, svg.SUBSCRIPTED

// `text` added to `el` with d_k (d_v, d_model, d_head, d_ff) written as d with a real subscript (<sub>k</sub>)
function appendText(el, text) {
  String(text)
    .split(SUBSCRIPTED)
    .forEach((part, i) => {
      if (i % 2) el.append("d", node("sub", {}, [part]));
      else if (part) el.append(part);
    });
}

function node(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "style") el.style.cssText = v;
    else if (k === "text") appendText(el, v);
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}

// the text a choice shows for a value
function choiceLabel(spec, value) {
  const i = spec.options.indexOf(value);
  return spec.labels ? spec.labels[i] : String(value);
}

function rangeControl(spec, value, onChange) {
  const id = nextId("control");
  const input = node("input", { type: "range", id, min: spec.min, max: spec.max, step: spec.step, "data-attn-name": spec.name });
  const out = node("output", { for: id, style: "min-width:3em;font-variant-numeric:tabular-nums" });
  const show = (v) => {
    input.value = String(v);
    out.textContent = fmt(v, spec.digits ?? 1);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  show(value);
  input.addEventListener("keydown", stepByKey);
  input.addEventListener("input", () => {
    const v = Number(input.value);
    out.textContent = fmt(v, spec.digits ?? 1);
    input.setAttribute("aria-valuetext", out.textContent);
    onChange(spec.name, v);
  });
  const row = node("div", { class: "attn-control" }, [
    node("label", { for: id, text: spec.label }),
    node("div", { style: "display:flex;gap:8px;align-items:center" }, [input, out]),
  ]);
  return { row, update: show };
}

function choiceSlider(spec, value, onChange) {
  const id = nextId("control");
  const input = node("input", { type: "range", id, min: 0, max: spec.options.length - 1, step: 1, "data-attn-name": spec.name });
  const out = node("output", { for: id, style: "min-width:3em;white-space:nowrap;font-variant-numeric:tabular-nums" });
  const show = (v) => {
    input.value = String(Math.max(spec.options.indexOf(v), 0));
    out.textContent = choiceLabel(spec, v);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  show(value);
  input.addEventListener("keydown", stepByKey);
  input.addEventListener("input", () => {
    const v = spec.options[Number(input.value)];
    out.textContent = choiceLabel(spec, v);
    input.setAttribute("aria-valuetext", out.textContent);
    onChange(spec.name, v);
  });
  const row = node("div", { class: "attn-control" }, [
    node("label", { for: id, text: spec.label }),
    node("div", { style: "display:flex;gap:8px;align-items:center" }, [input, out]),
  ]);
  return { row, update: show };
}

function choiceButtons(spec, value, onChange) {
  const group = nextId("group");
  const inputs = [];
  const items = spec.options.map((option, i) => {
    const input = node("input", { type: "radio", name: group, value: String(i), "data-attn-name": spec.name });
    input.addEventListener("change", () => input.checked && onChange(spec.name, option));
    input.addEventListener("keydown", (event) => moveByKey(event, inputs));
    inputs.push(input);
    return node("label", { class: "attn-choice" }, [input, node("span", { text: choiceLabel(spec, option) })]);
  });
  const show = (v) => inputs.forEach((input, i) => (input.checked = spec.options[i] === v));
  show(value);
  const row = node("fieldset", { class: "attn-control", role: "radiogroup" }, [node("legend", { text: spec.label }), ...items]);
  return { row, update: show };
}

function toggle(spec, value, onChange) {
  const input = node("input", { type: "checkbox", "data-attn-name": spec.name });
  input.checked = Boolean(value);
  input.addEventListener("change", () => onChange(spec.name, input.checked));
  const row = node("div", { class: "attn-control" }, [node("label", {}, [input, " ", node("span", { text: spec.label })])]);
  return { row, update: (v) => (input.checked = Boolean(v)) };
}

export const STYLE = `
.attn-explorer-live{display:flex;flex-wrap:wrap;gap:12px 20px;align-items:flex-start;font-family:${FONT_FAMILY};font-size:max(15px,1em);color:#222;background:#fff}
.attn-explorer-live .attn-controls{flex:0 1 250px;min-width:200px;display:flex;flex-direction:column;gap:10px}
.attn-explorer-live .attn-figure{flex:1 1 520px;min-width:0}
.attn-explorer-live.attn-wide .attn-controls{flex:1 1 100%;flex-direction:row;flex-wrap:wrap;gap:10px 28px}
.attn-explorer-live.attn-wide .attn-controls>.attn-control{flex:0 1 260px}
.attn-explorer-live.attn-wide .attn-figure{flex:1 1 100%}
.attn-explorer-live.attn-wide .attn-picture svg{max-height:calc(100vh - 300px)}
.attn-explorer-live .attn-picture svg{display:block;width:100%;height:auto;max-height:calc(100vh - 160px)}
.attn-explorer-live input,.attn-explorer-live select,.attn-explorer-live button,.attn-explorer-live option{font-family:inherit}
.attn-explorer-live .attn-control{margin:0;padding:0;border:0;display:flex;flex-direction:column;gap:4px}
.attn-explorer-live fieldset.attn-control{flex-direction:row;flex-wrap:wrap;gap:4px}
.attn-explorer-live legend{padding:0;margin-bottom:4px;width:100%}
.attn-explorer-live .attn-choice{display:inline-flex;align-items:center;gap:2px;border:1px solid #767676;border-radius:4px;padding:2px 8px 2px 4px;cursor:pointer}
.attn-explorer-live .attn-choice:has(input:checked){background:#31688e;color:#fff;border-color:#31688e}
.attn-explorer-live input[type=range]{width:100%;min-width:120px;accent-color:#31688e}
.attn-explorer-live :focus-visible{outline:3px solid #c05a00;outline-offset:2px}
.attn-explorer-live .attn-lines{line-height:1.5;margin:4px 0}
`;

// the controls of one explorer in a column; update(values) sets them from new values (e.g. from Python)
export function buildControls(specs, values, onChange) {
  const built = specs.map((spec) => {
    if (spec.kind === "range") return rangeControl(spec, values[spec.name], onChange);
    if (spec.kind === "toggle") return toggle(spec, values[spec.name], onChange);
    if (spec.slider) return choiceSlider(spec, values[spec.name], onChange);
    return choiceButtons(spec, values[spec.name], onChange);
  });
  const element = node("div", { class: "attn-controls" }, built.map((b) => b.row));
  listenForControlKeys(element.ownerDocument.defaultView);
  // the keys that operate a control stay with it: JupyterLab would also take arrows to move between cells
  element.addEventListener("keydown", (event) => {
    if (CONTROL_KEYS.has(event.key) && event.target.closest?.("input")) event.stopPropagation();
  });
  return {
    element,
    update(next) {
      specs.forEach((spec, i) => built[i].update(next[spec.name]));
    },
  };
}
