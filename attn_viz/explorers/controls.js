// Names an explorer's controls for screen readers and gives its toggle buttons arrow keys.
//
// ipywidgets 8 leaves gaps that only its front end can close (jupyter-widgets/ipywidgets#2650): a slider's
// handle (role="slider") has no accessible name, a SelectionSlider announces the index of its value
// ("11") instead of the value ("64"), and ToggleButtons say neither which button is pressed nor answer the
// arrow keys. This module runs inside the explorer (an invisible anywidget child of its VBox, class
// "attn-explorer-live") and fixes what it finds there, again whenever ipywidgets redraws a control:
//   - every slider handle gets aria-label = the slider's description, and aria-valuetext = its readout;
//   - every toggle-button group becomes role="group" named by its description, each button gets
//     aria-pressed, and ArrowLeft / ArrowRight press the previous / next button;
//   - the keys that operate a control (arrows, Home, End, Page Up/Down, space) stay with it: JupyterLab
//     would otherwise also take ArrowUp / ArrowDown on a drop-down to move to another cell.
// It touches nothing outside its explorer and changes no value itself.

const ROOT = ".attn-explorer-live";

function setAttribute(element, name, value) {
  if (value && element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function describe(root) {
  for (const slider of root.querySelectorAll(".widget-slider")) {
    const name = slider.querySelector(".widget-label")?.textContent.trim();
    const readout = slider.querySelector(".widget-readout");
    for (const handle of slider.querySelectorAll(".noUi-handle")) {
      setAttribute(handle, "aria-label", name);
      setAttribute(handle, "aria-valuetext", readout?.textContent.trim());
    }
    if (readout) setAttribute(readout, "aria-label", name);
  }
  for (const group of root.querySelectorAll(".widget-toggle-buttons")) {
    setAttribute(group, "role", "group");
    setAttribute(group, "aria-label", group.querySelector(".widget-label")?.textContent.trim());
    for (const button of group.querySelectorAll("button")) {
      setAttribute(button, "aria-pressed", String(button.classList.contains("mod-active")));
    }
  }
}

const CONTROL = ".noUi-handle, select, input, .widget-toggle-buttons button";
const CONTROL_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", " "]);

function keyboard(event) {
  if (!CONTROL_KEYS.has(event.key) || !event.target.closest?.(CONTROL)) return;
  event.stopPropagation(); // the control's own handler has run; the notebook's shortcuts must not
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  const button = step && event.target.closest(".widget-toggle-buttons button");
  if (!button) return;
  const buttons = [...button.parentElement.querySelectorAll("button:not(:disabled)")];
  const next = buttons[(buttons.indexOf(button) + step + buttons.length) % buttons.length];
  event.preventDefault();
  next.focus();
  next.click();
}

export default {
  render({ el }) {
    el.style.display = "none";
    let root = null;
    let observer = null;
    let frames = 0;
    const attach = () => {
      root = el.closest(ROOT);
      if (!root) {
        // the explorer's box puts this view into the page after rendering it: wait a few frames
        if (++frames < 600) requestAnimationFrame(attach);
        return;
      }
      describe(root);
      observer = new MutationObserver(() => describe(root));
      observer.observe(root, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ["class", "aria-valuetext"],
      });
      root.addEventListener("keydown", keyboard);
    };
    attach();
    return () => {
      observer?.disconnect();
      root?.removeEventListener("keydown", keyboard);
    };
  },
};
