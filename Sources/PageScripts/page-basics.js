"use strict";
/* exported AXIS_COLORS, MARK_COLORS */
// Script errors are counted on <body data-errors> so that a browser test can report them.
document.body.dataset.errors = "0";
window.addEventListener("error", () => {
  document.body.dataset.errors = String(Number(document.body.dataset.errors) + 1);
});
// x blue, y violet (green is `done`); the release red, contacts grey, taps light grey.
const AXIS_COLORS = { x: "#1c7ed6", y: "#7048e8" };
const MARK_COLORS = { handoff: "#e03131", done: "#2b8a3e", contact: "#495057", tap: "#868e96" };
