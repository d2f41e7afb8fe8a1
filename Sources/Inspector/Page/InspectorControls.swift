/// The inspector page's forms and recorder: opening a transition with its parameters (from
/// `hello`'s tables) and re-opening the watched one with new values, editing a scene's
/// behaviors with `set_behavior`, running a manual clock, and recording what the page shows as
/// a trace that `dynctl render` reads. Plain ES2017; uses `window.dyndInspector`.
enum InspectorControls {
  static let source = #"""
    "use strict";
    window.dyndControls = (() => {
      const app = () => window.dyndInspector;
      const $ = id => document.getElementById(id);
      let recording = null, recorded = null, stepTimer = null;

      // ---- opening transitions -------------------------------------------------------------
      function setUp(hello) {
        const select = $("open-transition");
        for (const name of hello.transitions) {
          const option = document.createElement("option");
          option.value = option.textContent = name;
          select.appendChild(option);
        }
        select.onchange = () => drawParams(select.value, null);
        drawParams(select.value, null);
        $("open-form").onsubmit = event => { event.preventDefault(); openFromForm(false); };
        $("reopen-button").onclick = () => openFromForm(true);
        $("record-button").onclick = toggleRecording;
        $("download-button").onclick = download;
        $("step-button").onclick = toggleStepping;
      }
      /* The parameter inputs of `transition`, with `values` (a session's) or the defaults. */
      function drawParams(transition, values) {
        const box = $("params");
        box.querySelectorAll("label, p").forEach(e => e.remove());
        const table = (app().hello.parameters || {})[transition];
        if (!table) {
          const p = document.createElement("p");
          p.className = "hint";
          p.textContent = "This dynd does not describe the parameters of " + transition + ".";
          box.appendChild(p);
          return;
        }
        for (const param of table) {
          const label = document.createElement("label");
          label.title = param.source || "";
          label.appendChild(document.createTextNode(param.name));
          const value = values && param.name in values ? values[param.name] : param.default;
          let input;
          if (param.choices) {
            input = document.createElement("select");
            for (const choice of param.choices) {
              const option = document.createElement("option");
              option.value = option.textContent = choice;
              input.appendChild(option);
            }
            input.value = value;
          } else {
            input = document.createElement("input");
            input.type = "number"; input.step = "any";
            input.min = param.min; input.max = param.max; input.value = value;
            input.dataset.default = param.default;
          }
          input.name = param.name;
          input.dataset.param = param.name;
          label.appendChild(input);
          const unit = document.createElement("span");
          unit.className = "unit";
          unit.textContent = (param.unit ? param.unit + ", " : "") +
            (param.choices ? param.choices.join(" | ") : param.min + " … " + param.max);
          label.appendChild(unit);
          box.appendChild(label);
        }
      }
      /* The parameters that differ from their defaults (all of them would do as well). */
      function formParams() {
        const params = {};
        for (const input of $("params").querySelectorAll("[data-param]")) {
          if (input.tagName === "SELECT") params[input.dataset.param] = input.value;
          else if (input.value !== "") params[input.dataset.param] = Number(input.value);
        }
        return params;
      }
      /* Why `params` would be refused by `open` of `transition`, in dynd's words, or null. */
      function paramFault(transition, params) {
        const table = (app().hello.parameters || {})[transition] || [];
        for (const [name, value] of Object.entries(params)) {
          const p = table.find(q => q.name === name);
          if (!p) return "unknown_field — unknown parameter '" + name + "'";
          if (p.choices && !p.choices.includes(value))
            return "out_of_range — parameter '" + name + "' must be one of " + p.choices.join(", ");
          if (!p.choices && !(Number.isFinite(value) && value >= p.min && value <= p.max))
            return "out_of_range — parameter '" + name + "' must be within " + p.min + "…" + p.max;
        }
        return null;
      }
      async function openFromForm(reopen) {
        const a = app();
        const view = a.view;
        const op = { op: "open", transition: $("open-transition").value, params: formParams(), clock: "realtime" };
        if (reopen) {
          if (!view || !view.transition) return;
          op.transition = view.transition;
          if (view.entry && view.entry.clock === "manual") op.clock = "manual";
          // Checked against hello's tables (what open checks) before anything is closed, so
          // that a value out of range does not leave the person with no session at all.
          const fault = paramFault(op.transition, op.params);
          if (fault) { window.dyndInspector.showError(fault + "; nothing was re-opened"); return; }
          // A session this page opened is replaced under its name; one it did not open is never
          // closed by it: the new values open a session beside it, named by dynd.
          if (view.opened) {
            op.session = view.name;
            const closed = await a.ask(a.control, { op: "close", session: view.name });
            if (!closed.ok && closed.error.code !== "unknown_session") return;
          }
        } else {
          const name = $("open-session").value.trim();
          if (name) op.session = name;
          const fault = paramFault(op.transition, op.params);
          if (fault) { window.dyndInspector.showError(fault + "; nothing was opened"); return; }
        }
        document.body.dataset.opening = "true";
        const ok = await a.watch(op.session || null, op);
        document.body.dataset.opening = "false";
        if (ok) document.body.dataset.opened = JSON.stringify({ session: a.view.name, params: op.params });
      }

      // ---- the watched session --------------------------------------------------------------
      function resetView() {
        stopStepping();
        recording = null;
        for (const id of ["outcome", "handoff-item", "gesture-velocity", "item-velocity", "velocity-error"])
          $(id).textContent = "—";
        $("record-state").textContent = "";
        $("record-button").textContent = "Record";
        $("behaviors-panel").hidden = true;
        $("open-title").textContent = "Open a transition";
        $("reopen-button").disabled = true;
        $("record-button").disabled = true;
        delete document.body.dataset.outcome;
        delete document.body.dataset.handoff;
      }
      function viewReady(view) {
        $("record-button").disabled = false;
        $("step-button").hidden = !view.manual;
        if (view.transition) {
          $("reopen-button").disabled = false;
          $("open-transition").value = view.transition;
          drawParams(view.transition, view.params);
          $("open-title").textContent = "Open a transition (watching " + view.transition + ")";
        } else {
          drawBehaviors(view);
        }
      }
      function onEvent(view, event) {
        if (event.ev === "closed") stopStepping();
      }
      function toggleStepping() {
        if (stepTimer) { stopStepping(); return; }
        const view = app().view;
        if (!view || !view.manual) return;
        $("step-button").textContent = "Stop the manual clock";
        stepTimer = setInterval(() => {
          if (app().view !== view || view.closed) { stopStepping(); return; }
          view.link.request({ op: "step", session: view.name });
        }, 1000 / 60);
      }
      function stopStepping() {
        if (stepTimer) clearInterval(stepTimer);
        stepTimer = null;
        $("step-button").textContent = "Run the manual clock";
      }

      // ---- a scene's behaviors --------------------------------------------------------------
      // Fields set_behavior cannot change are shown in the title, not as editors.
      const FIXED = new Set(["type", "id", "item", "kind", "children"]);
      async function drawBehaviors(view) {
        const reply = await app().ask(view.link, { op: "behaviors", session: view.name });
        if (!reply.ok || app().view !== view) return;
        const box = $("behaviors");
        box.textContent = "";
        $("behaviors-panel").hidden = false;
        // A composite's children follow it, depth first, each with its own editors.
        const all = [];
        (function walk(list) { for (const b of list) { all.push(b); if (b.children) walk(b.children); } })(reply.behaviors);
        for (const behavior of all) {
          const section = document.createElement("div");
          section.className = "behavior";
          section.dataset.behavior = behavior.id;
          const title = document.createElement("b");
          title.textContent = behavior.id + " (" + behavior.type + (behavior.kind ? " " + behavior.kind : "") + ")";
          section.appendChild(title);
          const error = document.createElement("div");
          error.className = "field-error";
          for (const [field, value] of Object.entries(behavior)) {
            if (FIXED.has(field)) continue;
            section.appendChild(fieldEditor(view, behavior.id, field, value, error));
          }
          section.appendChild(error);
          box.appendChild(section);
        }
      }
      /* An input for one settable field, sending set_behavior when it changes. */
      function fieldEditor(view, id, field, value, error) {
        const label = document.createElement("label");
        label.appendChild(document.createTextNode(field));
        const input = document.createElement("input");
        let read;
        if (typeof value === "number") {
          input.type = "number"; input.step = "any"; input.value = value; read = () => Number(input.value);
        } else if (typeof value === "boolean") {
          input.type = "checkbox"; input.checked = value; read = () => input.checked;
        } else {
          input.value = JSON.stringify(value); input.size = 18;
          read = () => JSON.parse(input.value);
        }
        input.dataset.field = field;
        input.onchange = async () => {
          let parsed;
          try { parsed = read(); } catch (e) { error.textContent = field + ": not JSON"; return; }
          const reply = await app().ask(view.link, { op: "set_behavior", session: view.name, behavior: id, [field]: parsed });
          error.textContent = reply.ok ? "" : reply.error.message;
          input.dataset.sent = reply.ok ? "ok" : reply.error.code;
        };
        label.appendChild(input);
        return label;
      }

      // ---- recording ------------------------------------------------------------------------
      function toggleRecording() {
        const view = app().view;
        if (!view) return;
        if (recording) {
          view.link.listeners.delete(recording.listener);
          recorded = recording;
          recording = null;
          $("record-button").textContent = "Record";
          $("download-button").disabled = false;
          $("record-state").textContent = recorded.lines.length + " lines, " + recorded.frames + " frames recorded";
          document.body.dataset.recorded = String(recorded.frames);
          return;
        }
        const lines = [];
        const rec = { view, lines, frames: 0, listener: null };
        rec.listener = (direction, line) => {
          if (direction === "sent") lines.push({ sent: line });
          else { lines.push(line); if (line.ev === "frame") rec.frames += 1; }
        };
        view.link.listeners.add(rec.listener);
        recording = rec;
        // As `dynctl record --session` does: `get` for the items' sizes, the bounds and the
        // parameters the session was opened with, `hello` for their units and defaults.
        view.link.request({ op: "get", session: view.name });
        if (view.transition) view.link.request({ op: "hello" });
        $("record-button").textContent = "Stop recording";
        $("download-button").disabled = true;
        $("record-state").textContent = "recording…";
      }
      function download() {
        if (!recorded) return;
        const view = recorded.view;
        // "session": recorded from a running session, as `dynctl record --session` does.
        const header = { trace: 1, source: "session", transition: view.transition, session: view.name,
          bounds: view.bounds };
        if (view.params) header.params = view.params;
        const text = [header].concat(recorded.lines).map(l => JSON.stringify(l)).join("\n") + "\n";
        const link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
        link.download = view.name + ".trace.jsonl";
        document.body.appendChild(link);
        link.click();
        link.remove();
      }

      return { setUp, resetView, viewReady, onEvent, drawParams };
    })();
    """#
}
