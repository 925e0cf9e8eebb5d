// Labelled controls for an explorer, built from the specs Python sends (data.controls), with native
// inputs so that keyboard use and screen readers work without help: a <label> names every control,
// arrow keys move sliders and radio groups, space flips a switch.
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
let counter = 0; // unique ids for label → input

function node(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "style") el.style.cssText = v;
    else if (k === "text") el.textContent = v;
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
  const id = `attn-control-${++counter}`;
  const input = node("input", { type: "range", id, min: spec.min, max: spec.max, step: spec.step, "data-attn-name": spec.name });
  const out = node("output", { for: id, style: "min-width:3em;font-variant-numeric:tabular-nums" });
  const show = (v) => {
    input.value = String(v);
    out.textContent = fmt(v, spec.digits ?? 1);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  show(value);
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
  const id = `attn-control-${++counter}`;
  const input = node("input", { type: "range", id, min: 0, max: spec.options.length - 1, step: 1, "data-attn-name": spec.name });
  const out = node("output", { for: id, style: "min-width:3em;font-variant-numeric:tabular-nums" });
  const show = (v) => {
    input.value = String(Math.max(spec.options.indexOf(v), 0));
    out.textContent = choiceLabel(spec, v);
    input.setAttribute("aria-valuetext", out.textContent);
  };
  show(value);
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
  const group = `attn-group-${++counter}`;
  const inputs = [];
  const items = spec.options.map((option, i) => {
    const input = node("input", { type: "radio", name: group, value: String(i), "data-attn-name": spec.name });
    input.addEventListener("change", () => input.checked && onChange(spec.name, option));
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
  const row = node("div", { class: "attn-control" }, [node("label", {}, [input, " ", spec.label])]);
  return { row, update: (v) => (input.checked = Boolean(v)) };
}

export const STYLE = `
.attn-explorer-live{display:flex;flex-wrap:wrap;gap:12px 20px;align-items:flex-start;font-family:${FONT_FAMILY};font-size:max(15px,1em);color:#222;background:#fff}
.attn-explorer-live .attn-controls{flex:0 1 250px;min-width:200px;display:flex;flex-direction:column;gap:10px}
.attn-explorer-live .attn-figure{flex:1 1 520px;min-width:0}
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
