import PageScripts

/// The inspector's page: one self-contained document (no network but its own WebSocket, no
/// external script), assembled from the shared stage and plot drawers and the inspector's own
/// scripts.
public enum InspectorPage {
  public static let html = """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>dynd inspector</title><style>\(style)</style></head>
    <body>
    <header><h1>dynd inspector</h1><span id="link-state" class="connecting">connecting…</span>
    <span id="error" role="alert"></span></header>
    <main>
    <aside>
      <h2>Sessions</h2>
      <table id="sessions"><thead><tr><th>session</th><th>what</th><th>clock</th>
      <th>state</th></tr></thead><tbody></tbody></table>
      <p class="hint">Click a session to watch it. Sessions this page opens close when it
      watches another one or closes; it never closes one it did not open (re-opening such a
      session with new values opens a new one beside it).</p>
      <h2 id="open-title">Open a transition</h2>
      <form id="open-form">
        <label>transition <select id="open-transition"></select></label>
        <label>session <input id="open-session" placeholder="(a new name)"
          pattern="[A-Za-z0-9_.\\-]{1,64}"></label>
        <fieldset id="params"><legend>parameters</legend></fieldset>
        <button type="submit" id="open-button">Open</button>
        <button type="button" id="reopen-button" disabled>Re-open the watched session with
        these values</button>
      </form>
    </aside>
    <section id="view">
      <div id="status">No session watched.</div>
      <div id="stage-row"><canvas id="stage" width="380" height="620"></canvas>
        <div id="side">
          <section id="behaviors-panel" hidden><h2>Behaviors</h2>
            <p class="hint">Each change is sent as <code>set_behavior</code>; every field then
            shows what dynd reports (a direction changes the angle and magnitude too).</p>
            <div id="behaviors"></div></section>
          <div id="summary">
            <div>outcome <b id="outcome">—</b> <button id="reset-button" hidden></button></div>
            <div>handoff to <b id="handoff-item">—</b></div>
            <div>gesture velocity <b id="gesture-velocity">—</b>
              <span id="handoff-reason" class="explain"></span></div>
            <div>item velocity <b id="item-velocity">—</b>
              <span id="handoff-constraints" class="explain"></span></div>
            <div>velocity error <b id="velocity-error">—</b></div>
            <div id="landing"></div>
          </div>
          <div id="controls">
            <button id="step-button" hidden>Run the manual clock</button>
            <button id="record-button" disabled>Record</button>
            <button id="download-button" disabled>Download trace</button>
            <span id="record-state"></span>
          </div>
          <label class="plot-pick">plotted item <select id="plot-item"></select></label>
          <canvas id="plot" width="620" height="386"></canvas>
          <ul class="dynd-legend plot-legend">
            <li><span class="key" style="border-color:#1c7ed6"></span><span class="key"
              style="border-color:#7048e8"></span>item vx, vy (faint while the finger holds it)</li>
            <li><span class="key thick dashed" style="border-color:#1c7ed6"></span><span
              class="key thick dashed" style="border-color:#7048e8"></span>finger vx, vy (dynd's
              estimate)</li>
            <li><span class="key band"></span>finger down</li>
            <li><span class="key dashed" style="border-color:#e03131"></span>release, dots: the
              velocity handed over</li>
            <li><span class="key" style="border-color:#2b8a3e"></span>done</li>
            <li><span class="key dotted" style="border-color:#868e96"></span>tap</li>
            <li><span class="key wide" style="border-color:rgba(28,126,214,0.45)"></span>position
              below: the closed form of the release's spring or decay, behind the frames</li>
          </ul>
          <p class="hint">Drag an item with the mouse or a finger: the page sends
          <code>gesture</code> began/changed/ended with each pointer event's own timestamp (all
          coalesced events included) and lets dynd estimate the release velocity; a press that
          does not move 8 px is a <code>tap</code>. The plot shows the last 4 s: the velocity of
          the item picked in its list (the first item until another is picked) and, while the
          page drags, the finger's velocity as dynd's estimator sees it (Android's and Flutter's
          rules, from the same samples).</p>
          <div id="legend"></div>
        </div>
      </div>
    </section>
    </main>
    <script>\(PageBasics.source)</script>
    <script>\(StageScript.source)</script>
    <script>\(PlotScript.source)</script>
    <script>\(MotionScript.source)</script>
    <script>\(FingerVelocityScript.source)</script>
    <script>\(HandoffWords.source)</script>
    <script>\(InspectorScript.source)</script>
    <script>\(InspectorControls.source)</script>
    </body></html>

    """

  static let style = """
    body{font:14px system-ui,sans-serif;margin:0;color:#212529}
    header{display:flex;gap:16px;align-items:baseline;padding:8px 16px;border-bottom:1px solid #dee2e6}
    h1{font-size:18px;margin:0}h2{font-size:15px;margin:16px 0 6px}
    #link-state{color:#495057}#link-state.gone{color:#fff;background:#c92a2a;padding:2px 8px;border-radius:3px;font-weight:600}
    #error{color:#c92a2a}
    body[data-link=gone] #stage,body[data-link=gone] #plot{opacity:.3}
    main{display:flex;gap:16px;padding:0 16px}aside{width:330px;flex:none}
    table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:2px 6px;font-size:13px}
    tbody tr{cursor:pointer}tbody tr:hover{background:#f1f3f5}tr.watched{background:#e7f5ff}
    .hint{color:#868e96;font-size:12px}form label{display:block;margin:4px 0}
    fieldset{border:1px solid #dee2e6;margin:6px 0}fieldset label{display:flex;gap:6px;align-items:center}
    fieldset input{width:90px}.unit{color:#868e96;font-size:12px}
    #stage-row{display:flex;gap:16px;align-items:flex-start}#side{flex:1;min-width:0}
    .explain{display:block;font-weight:normal;color:#495057;font-size:12px;max-width:600px}
    .explain:empty{display:none}#reset-button{margin-left:8px}
    #stage{border:1px solid #ced4da;touch-action:none;cursor:grab}
    #summary div{margin:2px 0;font-variant-numeric:tabular-nums}
    #controls{display:flex;gap:8px;flex-wrap:wrap;margin-top:10px}
    .dynd-legend{list-style:none;padding:0;margin:8px 0;font-size:12px}
    .dynd-legend li{display:flex;gap:6px;align-items:center;margin:2px 0}
    .plot-pick{display:block;margin:10px 0 2px 64px}
    .plot-legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:0 0 4px 64px}
    .plot-legend .key{display:inline-block;width:18px;border-top:2px solid;vertical-align:middle}
    .plot-legend .key.band{border:none;height:10px;background:rgba(134,142,150,0.3)}
    .plot-legend .key.dashed{border-top-style:dashed}.plot-legend .key.wide{border-top-width:7px}.plot-legend .key.thick{border-top-width:3px}.plot-legend .key.dotted{border-top-style:dotted}
    #behaviors-panel h2{margin-top:0}
    #behaviors{max-height:calc(100vh - 190px);overflow:auto;display:flex;flex-wrap:wrap;gap:6px;align-content:flex-start}
    .behavior{border:1px solid #dee2e6;padding:4px 8px;width:306px;box-sizing:border-box}
    .behavior label{display:flex;gap:6px;align-items:center;margin:2px 0;font-size:13px}
    .behavior label>span.name{width:118px;flex:none;color:#495057;font-size:12px;overflow-wrap:anywhere}
    .behavior input[type=text],.behavior textarea{width:152px}.behavior.spring{width:100%;max-width:640px}
    .field-error{color:#c92a2a;font-size:12px}
    #status{margin:8px 0 8px;line-height:1.35;min-height:1.35em;overflow-wrap:anywhere}
    .behavior input[type=number]{min-width:74px;max-width:100%}
    .spring-editor select{max-width:100%}.in-force{margin:4px 0}
    .platform-lines div{display:flex;gap:6px;align-items:baseline;margin:2px 0;font-size:12px}
    .platform-lines .platform{width:54px;flex:none;color:#495057}
    .platform-lines code{user-select:all;background:#f1f3f5;padding:1px 4px;overflow-wrap:anywhere}
    .platform-lines button{font-size:11px;padding:0 4px}
    #landing div{margin:2px 0}#landing b{font-weight:600}
    #stage{max-width:100%;height:auto}
    @media (max-width:760px){main{flex-direction:column}aside{width:auto}#view{order:-1}
    #stage-row{flex-direction:column;align-items:stretch}#plot{max-width:100%;height:auto}}
    """
}
