// Run by tests/test_explorers_js.py: node explorers_node.js BUNDLE < {"state": …, "grid": [values, …]}
// For every values of the grid, the page's numbers (compute) and picture (frame), as JSON on stdout.
const fs = require("fs");
require(process.argv[2]); // the classic-script bundle: defines globalThis.attnExplorers
const api = globalThis.attnExplorers;
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const explorer = api.explorers[input.state.kind];
const out = input.grid.map((choices) => {
  const state = { ...input.state, choices };
  let numbers = null;
  let error = null;
  try {
    numbers = explorer.compute(state.data, choices);
  } catch (e) {
    error = String(e.message);
  }
  const frame = api.frame(state.kind, state);
  return { numbers, error, svg: frame.svg, lines: frame.lines, description: frame.description, frame_error: frame.error };
});
process.stdout.write(JSON.stringify(out));
