"use strict";
/* global dyndMotion */
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
    $("reset-button").onclick = resetSession;
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
    // The fields of a spring or a decay the parameters give (hello's "motion") are given as
    // one set: a list picks the set (a decay's model), and only its fields are shown and sent.
    const pickers = {};
    for (const param of table) {
      if (param.motion && !pickers[param.motion]) {
        pickers[param.motion] = motionPicker(param.motion, table, values);
        box.appendChild(pickers[param.motion]);
      }
      const label = document.createElement("label");
      if (param.motion) label.dataset.motion = param.motion;
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
      }
      input.dataset.default = param.default;
      // A value typed or picked is sent even when it equals the default (friction 1 names
      // Android's decay for fling, as its default does not).
      input.addEventListener("input", () => { input.dataset.edited = "1"; });
      input.addEventListener("change", () => { input.dataset.edited = "1"; });
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
    for (const picker of Object.values(pickers)) picker.querySelector("select").onchange();
  }
  /* The list of a motion's ways: a spring's five sets (dyndMotion.SPRING_SETS), a decay's three
     models. It starts on the way the session's values give (one whose fields differ from the
     defaults), else the default's (SwiftUI's duration + bounce; UIScrollView's rate). */
  function motionPicker(motion, table, values) {
    const ways = motion === "spring"
      ? dyndMotion.SPRING_SETS.map(s => ({ key: s.key, fields: s.fields, label: s.label }))
      : table.filter(p => p.motion === "decay").map(p => ({ key: p.name, fields: [p.name],
        label: p.name + (p.source ? " (" + p.source.split(":")[0] + ")" : "") }));
    const label = document.createElement("label");
    label.className = "motion-set";
    label.appendChild(document.createTextNode(motion === "spring" ? "spring given as" : "decay"));
    const pick = document.createElement("select");
    pick.dataset.motionSet = motion;
    for (const way of ways) {
      const option = document.createElement("option");
      option.value = way.key; option.textContent = way.label;
      pick.appendChild(option);
    }
    const differs = way => way.fields.some(f => {
      const p = table.find(q => q.name === f);
      return values && p && f in values && values[f] !== p.default;
    });
    pick.value = (ways.find(differs) || ways.find(w => w.key === (motion === "spring"
      ? "duration" : "deceleration_rate")) || ways[0]).key;
    pick.onchange = () => {
      const way = ways.find(w => w.key === pick.value);
      for (const field of $("params").querySelectorAll("label[data-motion='" + motion + "']")) {
        const input = field.querySelector("[data-param]");
        field.hidden = !way.fields.includes(input.dataset.param);
      }
    };
    label.appendChild(pick);
    return label;
  }
  /* The parameters that differ from their defaults, and those the person set. Not all of
     them: a transition that takes one of several ways to give a thing (the sheet's spring
     sets, fling's decay fields) refuses two at once. */
  function formParams() {
    const params = {};
    for (const input of $("params").querySelectorAll("[data-param]")) {
      if (input.value === "" || input.closest("label").hidden) continue;
      const value = input.tagName === "SELECT" ? input.value : Number(input.value);
      const fromDefault = input.tagName === "SELECT"
        ? value !== input.dataset.default : value !== Number(input.dataset.default);
      if (fromDefault || input.dataset.edited) params[input.dataset.param] = value;
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
    if (reopen) {
      if (!a.view || !a.view.transition) return;
      await reopenWatched(formParams(), "nothing was re-opened");
      return;
    }
    const op = { op: "open", transition: $("open-transition").value, params: formParams(), clock: "realtime" };
    const name = $("open-session").value.trim();
    if (name) op.session = name;
    const fault = paramFault(op.transition, op.params);
    if (fault) { a.showError(fault + "; nothing was opened"); return; }
    await openAndWatch(op);
  }
  /* The watched transition opened again with `params`: a session this page opened is
     replaced under its name; one it did not open is never closed by it, the new values
     open a session beside it, named by dynd. */
  async function reopenWatched(params, refusal) {
    const a = app(), view = a.view;
    const op = { op: "open", transition: view.transition, params, clock: view.manual ? "manual" : "realtime" };
    // Checked against hello's tables (what open checks) before anything is closed, so
    // that a value out of range does not leave the person with no session at all.
    const fault = paramFault(op.transition, op.params);
    if (fault) { a.showError(fault + "; " + refusal); return; }
    if (view.opened) {
      op.session = view.name;
      const closed = await a.ask(a.control, { op: "close", session: view.name });
      if (!closed.ok && closed.error.code !== "unknown_session") return;
    }
    await openAndWatch(op);
  }
  async function openAndWatch(op) {
    const a = app();
    document.body.dataset.opening = "true";
    const ok = await a.watch(op.session || null, op);
    document.body.dataset.opening = "false";
    if (ok) document.body.dataset.opened = JSON.stringify({ session: a.view.name, params: op.params });
  }
  /* A transition at its end state, back to its start: opened again with the values it has
     (beside it when this page did not open it). */
  function resetSession() {
    const view = app().view;
    if (!view || !view.transition) return;
    reopenWatched(Object.assign({}, view.params || {}), "nothing was reset");
  }
  function offerReset(view) {
    const button = $("reset-button");
    button.hidden = !view.transition;
    button.textContent = view.opened ? "Reset (open " + view.name + " again)"
      : "Reset (open a new " + view.transition + " beside " + view.name + ")";
    button.title = view.opened ? "This page opened " + view.name + ": it is closed and opened again with its values."
      : "This page did not open " + view.name + ", so it never closes it: a new session with its values opens beside it.";
  }

  // ---- the watched session --------------------------------------------------------------
  function resetView() {
    stopStepping();
    recording = null;
    for (const id of ["outcome", "handoff-item", "gesture-velocity", "item-velocity", "velocity-error"])
      $(id).textContent = "—";
    $("handoff-reason").textContent = $("handoff-constraints").textContent = "";
    $("landing").textContent = "";
    $("reset-button").hidden = true;
    $("summary").hidden = false;
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
      $("summary").hidden = true;
      drawBehaviors(view);
    }
  }
  function onEvent(view, event) {
    if (event.ev === "closed") stopStepping();
    if (event.ev === "done") offerReset(view);
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
  // Fields set_behavior cannot change are shown in the title, not as editors (a spring's or
  // decay's initial velocity is where it started, already past).
  const FIXED = new Set(["type", "id", "item", "kind", "children", "initial_velocity"]);
  // A spring's parameters: edited as one parameter set (springEditor), never one by one.
  const SPRING_FIELDS = new Set(["mass", "stiffness", "damping", "damping_ratio", "response", "duration", "bounce"]);
  // The words a field takes (PROTOCOL.md section 6), offered as a list.
  const CHOICES = { collision: { mode: ["everything", "items", "boundaries"] },
    push: { mode: ["continuous", "instantaneous"] } };
  let editors = new Map();  // behavior id → {field → editor}

  function flatten(list) {
    const all = [];
    (function walk(l) { for (const b of l) { all.push(b); if (b.children) walk(b.children); } })(list);
    return all;
  }
  async function drawBehaviors(view) {
    const reply = await app().ask(view.link, { op: "behaviors", session: view.name });
    if (!reply.ok || app().view !== view) return;
    const box = $("behaviors");
    box.textContent = "";
    editors = new Map();
    $("behaviors-panel").hidden = false;
    // A composite's children follow it, depth first, each with its own editors.
    for (const behavior of flatten(reply.behaviors)) {
      const section = document.createElement("div");
      section.className = "behavior" + (behavior.type === "spring" ? " spring" : "");
      section.dataset.behavior = behavior.id;
      const title = document.createElement("b");
      title.textContent = behavior.id + " (" + behavior.type + (behavior.kind ? " " + behavior.kind : "") + ")";
      section.appendChild(title);
      const error = document.createElement("div");
      error.className = "field-error";
      const fields = {};
      if (behavior.type === "spring") {
        const spring = springEditor(view, behavior, error);
        fields.spring = spring;
        section.appendChild(spring.element);
      }
      for (const [field, value] of Object.entries(behavior)) {
        if (FIXED.has(field) || (behavior.type === "spring" && SPRING_FIELDS.has(field))) continue;
        const choices = (CHOICES[behavior.type] || {})[field];
        const editor = fieldEditor(field, value, choices);
        editor.element.dataset.field = field;
        editor.onChange = () => send(view, behavior.id, field, editor, error);
        fields[field] = editor;
        const label = document.createElement("label");
        const name = document.createElement("span");
        name.className = "name"; name.textContent = field;
        label.appendChild(name);
        label.appendChild(editor.element);
        section.appendChild(label);
      }
      editors.set(behavior.id, fields);
      section.appendChild(error);
      box.appendChild(section);
    }
  }
  /* Sends one field, then shows every field as dynd now reports it. */
  async function send(view, id, field, editor, error) {
    let value;
    try { value = editor.read(); } catch (e) {
      error.textContent = field + ": " + e.message;
      editor.element.dataset.sent = "not_sent";
      return;
    }
    for (const control of controlsOf(editor)) control.dataset.sentValue = control.value;
    const reply = await view.link.request({ op: "set_behavior", session: view.name, behavior: id, [field]: value });
    error.textContent = reply.ok ? "" : field + ": " + reply.error.message;
    await refreshBehaviors(view);
    // The debug overlay as it is now (a manual clock sends no frame to carry it).
    const debug = await view.link.request({ op: "debug", session: view.name });
    if (debug.ok && app().view === view) { view.debug = debug.debug; app().draw(); }
    editor.element.dataset.sent = reply.ok ? "ok" : reply.error.code;
  }
  /* Every field as dynd reports it (but an input the person has typed in since). */
  async function refreshBehaviors(view) {
    const reply = await view.link.request({ op: "behaviors", session: view.name });
    if (!reply.ok || app().view !== view) return;
    const all = flatten(reply.behaviors);
    if (all.length !== editors.size || all.some(b => !editors.has(b.id))) { drawBehaviors(view); return; }
    for (const behavior of all) {
      const fields = editors.get(behavior.id);
      for (const [field, value] of Object.entries(behavior)) {
        if (fields[field] && !(behavior.type === "spring" && SPRING_FIELDS.has(field))) fields[field].write(value);
      }
      if (fields.spring) fields.spring.write(behavior);
    }
    document.body.dataset.behaviorsRefreshed = String(Number(document.body.dataset.behaviorsRefreshed || 0) + 1);
  }
  /* A spring's parameters as one of its five sets (dyndMotion.SPRING_SETS): a list picks the
     set, its fields show the spring in force in that set's terms, and a change sends the
     whole set with set_behavior (a lone field is refused). Beneath: the spring in force, all
     its values, and the same spring in every platform's terms, one line each to copy. */
  function springEditor(view, behavior, error) {
    const element = document.createElement("div");
    element.className = "spring-editor";
    const pick = document.createElement("select");
    pick.dataset.springSet = "";
    for (const set of dyndMotion.SPRING_SETS) {
      const option = document.createElement("option");
      option.value = set.key; option.textContent = set.label;
      pick.appendChild(option);
    }
    pick.value = "duration";
    const setLabel = document.createElement("label");
    const name = document.createElement("span");
    name.className = "name"; name.textContent = "parameter set";
    setLabel.appendChild(name); setLabel.appendChild(pick);
    element.appendChild(setLabel);
    const fieldsBox = document.createElement("div");
    element.appendChild(fieldsBox);
    const inForce = document.createElement("div");
    inForce.className = "in-force";
    element.appendChild(inForce);
    let current = { mass: behavior.mass, stiffness: behavior.stiffness, damping: behavior.damping };
    let inputs = {};
    function drawFields() {
      fieldsBox.textContent = "";
      inputs = {};
      const values = dyndMotion.springSetValues(pick.value, current);
      for (const [field, value] of Object.entries(values)) {
        const label = document.createElement("label");
        const span = document.createElement("span");
        span.className = "name"; span.textContent = field;
        const input = numberInput(value);
        input.dataset.springField = field;
        input.onchange = () => sendSet();
        label.appendChild(span); label.appendChild(input);
        fieldsBox.appendChild(label);
        inputs[field] = input;
      }
    }
    function drawInForce() {
      const v = dyndMotion.springValues(current), n = x => dyndMotion.number(x);
      inForce.textContent = "";
      const line = document.createElement("div");
      line.className = "hint";
      line.textContent = "in force: mass " + n(v.mass) + ", stiffness " + n(v.stiffness) + ", damping " + n(v.damping) +
        ", damping ratio " + n(v.damping_ratio) + ", response " + n(v.response) + " s, bounce " + n(v.bounce) +
        ", Origami tension " + n(v.tension) + ", friction " + n(v.friction);
      inForce.appendChild(line);
      inForce.appendChild(platformLines(dyndMotion.platformLines(current)));
    }
    async function sendSet() {
      const op = { op: "set_behavior", session: view.name, behavior: behavior.id };
      for (const [field, input] of Object.entries(inputs)) {
        const v = Number(input.value);
        if (input.value.trim() === "" || !Number.isFinite(v)) {
          error.textContent = field + ": a number, please";
          element.dataset.sent = "not_sent";
          return;
        }
        op[field] = v;
        input.dataset.sentValue = input.value;
      }
      const reply = await view.link.request(op);
      error.textContent = reply.ok ? "" : "spring: " + reply.error.message;
      document.body.dataset.springReply = JSON.stringify({ sent: op, reply });
      await refreshBehaviors(view);
      element.dataset.sent = reply.ok ? "ok" : reply.error.code;
    }
    pick.onchange = () => drawFields();
    drawFields();
    drawInForce();
    return { element, write(entry) {
      current = { mass: entry.mass, stiffness: entry.stiffness, damping: entry.damping };
      const values = dyndMotion.springSetValues(pick.value, current);
      for (const [field, input] of Object.entries(inputs)) {
        put(input, values[field]); fitNumber(input);
      }
      drawInForce();
    } };
  }
  /* The same spring in every platform's terms: one line each, selected whole by a click,
     with a button that copies it. */
  function platformLines(lines) {
    const list = document.createElement("div");
    list.className = "platform-lines";
    for (const { platform, line } of lines) {
      const row = document.createElement("div");
      const name = document.createElement("span");
      name.className = "platform"; name.textContent = platform;
      const code = document.createElement("code");
      code.textContent = line; code.dataset.platform = platform;
      const copy = document.createElement("button");
      copy.type = "button"; copy.textContent = "copy"; copy.title = "copy this line";
      copy.onclick = () => {
        if (navigator.clipboard) navigator.clipboard.writeText(line).then(() => { copy.textContent = "copied"; }, () => {
          copy.textContent = "select it";
        });
      };
      row.appendChild(name); row.appendChild(code); row.appendChild(copy);
      list.appendChild(row);
    }
    return list;
  }
  /* A number box as wide as its value, so that nothing is cut off (157.91367 shows whole). */
  function numberInput(v) {
    const input = document.createElement("input");
    input.type = "number"; input.step = "any"; input.value = v;
    fitNumber(input);
    input.addEventListener("input", () => fitNumber(input));
    return input;
  }
  function fitNumber(input) {
    input.style.width = "calc(" + Math.max(6, String(input.value).length + 1) + "ch + 26px)";
  }
  /* A typed editor for one value: {element, read() (throws with a reason), write(value),
     onChange}. A word with choices is a list; a number a number field; a boolean a
     checkbox; a vector of 2 to 4 numbers that many number fields; `items` a text field of
     ids separated by commas; anything else (regions, boundaries, rules, an
     unlimited range) its JSON. */
  function controlsOf(editor) {
    const e = editor.element;
    return e.matches("input, select, textarea") ? [e] : Array.from(e.querySelectorAll("input, select, textarea"));
  }
  /* Writes dynd's value into a control, unless the person is typing something new in it
     (focused, and not what was last sent). */
  function put(control, text) {
    if (control === document.activeElement && control.value !== control.dataset.sentValue) return;
    control.value = text;
  }
  function fieldEditor(field, value, choices) {
    const editor = { onChange: null };
    const changed = () => editor.onChange && editor.onChange();
    const number = v => {
      const input = numberInput(v);
      input.onchange = changed;
      return input;
    };
    const readNumber = input => {
      const v = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(v)) throw new Error("a number, please");
      return v;
    };
    if (choices) {
      const select = document.createElement("select");
      for (const c of choices) {
        const option = document.createElement("option");
        option.value = option.textContent = c;
        select.appendChild(option);
      }
      select.value = value; select.onchange = changed;
      Object.assign(editor, { element: select, read: () => select.value, write: v => put(select, v) });
    } else if (typeof value === "number") {
      const input = number(value);
      Object.assign(editor, { element: input, read: () => readNumber(input), write: v => { put(input, v); fitNumber(input); } });
    } else if (typeof value === "boolean") {
      const input = document.createElement("input");
      input.type = "checkbox"; input.checked = value; input.onchange = changed;
      Object.assign(editor, { element: input, read: () => input.checked, write: v => { input.checked = v; } });
    } else if (Array.isArray(value) && value.length >= 2 && value.length <= 4 && value.every(v => typeof v === "number")) {
      const box = document.createElement("span");
      box.className = "vector";
      const inputs = value.map((v, i) => { const input = number(v); input.dataset.part = String(i); box.appendChild(input); return input; });
      Object.assign(editor, { element: box, read: () => inputs.map(readNumber),
        write: v => { if (Array.isArray(v)) v.forEach((x, i) => { if (inputs[i]) { put(inputs[i], x); fitNumber(inputs[i]); } }); } });
    } else if (field === "items" && Array.isArray(value)) {
      const input = document.createElement("input");
      input.type = "text"; input.value = value.join(", "); input.onchange = changed;
      input.title = "item ids, separated by commas";
      Object.assign(editor, { element: input, read: () => input.value.split(/[\s,]+/).filter(Boolean),
        write: v => put(input, Array.isArray(v) ? v.join(", ") : "") });
    } else {
      const area = document.createElement("textarea");
      area.rows = 2; area.value = JSON.stringify(value); area.onchange = changed;
      Object.assign(editor, { element: area, write: v => put(area, JSON.stringify(v)),
        read: () => { try { return JSON.parse(area.value); } catch (e) { throw new Error("not JSON (" + e.message + ")"); } } });
    }
    return editor;
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

  return { setUp, resetView, viewReady, onEvent, drawParams, platformLines };
})();
