/* oic-ai in the browser: chat with one live answer per turn (steps, Stop), the template
 * panel (Summary, YAML, Diff, Editor, Packages), drafts that survive a reload, the library
 * and the sessions, on the LangGraph API server that serves it.
 *
 * Turns go through the standard threads and runs API (POST /threads/{id}/runs/stream,
 * stream_mode "updates" and "values", read as server-sent events; the turn's result is its
 * run's last values; Stop is the run cancel); everything else through /api/v1. No
 * framework and no build step: plain DOM, text only.
 */
"use strict";

(function () {
  const T = window.OicText;
  const N = window.OicNet;
  const V = window.OicView;
  const { el, plural } = V;
  const UiError = N.UiError;
  const { api, send, problem } = N;
  const VALIDATE_DELAY = 350; // ms after the last keystroke
  const MAX_REQUEST_CHARS = 2000; // the planner reads this much (tools/planner/builtin.py)
  const DRAFT_KEY = "oic-ai-draft:";
  const $ = (id) => document.getElementById(id);

  const ui = {
    alert: $("alert"), notice: $("notice"), conversation: $("conversation"),
    status: $("status"), request: $("request"), send: $("send"), stop: $("stop"),
    form: $("request-form"), template: $("template"), diff: $("diff"), editor: $("editor"),
    gutter: $("gutter"), findings: $("findings"), packages: $("packages"),
    sessions: $("sessions"), library: $("library"), title: $("session-title"),
    editState: $("edit-state"), editDiff: $("edit-diff"), templateName: $("template-name"),
    summary: $("summary"), count: $("request-count"), welcome: $("welcome"),
  };

  const state = {
    session: null, // the thread id of the session on the page
    values: {}, // the session's state values, as the server last reported them
    template: "", // the session's current (last good) template
    busy: false,
    run: null, // the running turn: {id, runId, stopped}
    findings: [], // findings of the editor's text
    turnFindings: [], // package and plan warnings of the last turn (not the editor's)
    validateSeq: 0,
    validateTimer: 0,
    catalog: null, // the library's templates, once loaded
    preview: null, // {name, template} of the opened library template
    history: [], // the session's turns (times, diffs) from /api/v1/sessions/{id}
    summarySeq: 0,
  };
  // Figures for bench/web_ui.py: when Send was pressed, the first step came, the turn ended.
  window.oicTimings = { send: 0, bubble: 0, firstStep: 0, done: 0, turns: 0 };

  // --- messages on the page ------------------------------------------------------------

  function showError(message) {
    ui.alert.textContent = message;
    ui.alert.hidden = false;
  }
  function clearError() {
    ui.alert.hidden = true;
    ui.alert.textContent = "";
  }
  let noticeTimer = 0;
  function notify(message) {
    ui.notice.textContent = message;
    ui.notice.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { ui.notice.hidden = true; }, 8000);
  }
  function errorText(err) {
    return err instanceof UiError ? err.message : "Unexpected error: " + err;
  }

  // --- dialogs (name, confirm, token) --------------------------------------------------

  const dialog = $("dialog");
  /* A question in the page's dialog. A confirmation (no field) focuses Cancel, so Enter
   * never destroys anything by accident. */
  function ask({ title, text = "", label = "", value = "", input = true, ok = "OK",
    cancel = "Cancel", secret = false }) {
    $("dialog-title").textContent = title;
    $("dialog-text").textContent = text;
    const field = $("dialog-input");
    $("dialog-label").textContent = label;
    $("dialog-label").hidden = !input;
    field.hidden = !input;
    field.type = secret ? "password" : "text";
    field.value = value;
    field.required = input;
    $("dialog-ok").textContent = ok;
    $("dialog-cancel").textContent = cancel;
    dialog.returnValue = "";
    dialog.dataset.seq = String(Number(dialog.dataset.seq || 0) + 1); // one per question
    const before = document.activeElement;
    return new Promise((resolve) => {
      dialog.addEventListener("close", function done() {
        dialog.removeEventListener("close", done);
        // focus goes back where it was (blur first: the browser may think it is there)
        if (before && before !== document.body && before.isConnected) {
          before.blur();
          before.focus();
        }
        if (dialog.returnValue !== "ok") resolve(null);
        else resolve(input ? field.value.trim() : "ok");
      });
      dialog.showModal();
      (input ? field : $("dialog-cancel")).focus();
    });
  }
  N.useDialog(ask);

  // --- drafts: unapplied editor text, per session, kept in the tab ----------------------

  function draftKey(id) { return DRAFT_KEY + (id || "new"); }
  function readDraft(id) {
    try { return JSON.parse(sessionStorage.getItem(draftKey(id)) || "null"); } catch (err) { return null; }
  }
  function keepDraft() {
    const text = ui.editor.value;
    if (text !== state.template && text.trim()) {
      sessionStorage.setItem(draftKey(state.session), JSON.stringify({ text, base: state.template }));
    } else {
      sessionStorage.removeItem(draftKey(state.session));
    }
  }
  function dropDraft(id) { sessionStorage.removeItem(draftKey(id)); }
  function editorDirty() { return ui.editor.value !== state.template && ui.editor.value.trim() !== ""; }

  // --- steps ---------------------------------------------------------------------------

  const NODE_TITLES = {
    classify: "classify", retrieve: "retrieve", generate: "generate", apply_edit: "apply edit",
    validate: "validate", fix: "fix", verify_packages: "verify packages", review: "review",
    explain: "explain", respond: "respond",
  };

  function packageLine(p) {
    if (!p) return "no check";
    if (!p.checked) return "not checked" + (p.reason ? ": " + p.reason : "");
    const missing = p.missing || [];
    let text = `${(p.found || []).length} found, ${missing.length} missing`;
    if (missing.length) text += ": " + missing.join(", ");
    return text;
  }

  /* One streamed update -> one step in the turn's Steps list. */
  function addStep(node, update, run) {
    if (!window.oicTimings.firstStep) window.oicTimings.firstStep = performance.now();
    update = update || {};
    const ms = Math.round(performance.now() - window.oicTimings.send);
    let text = NODE_TITLES[node] || node;
    let detail = null;
    if (node === "retrieve") {
      const sources = update.sources || [];
      run.retrieved = true;
      text += `: ${plural(sources.length, "candidate template")}` +
        (update.base_template ? `, starting from ${update.base_template}` : "");
      if (sources.length) detail = V.scoresTable(sources);
    } else if (node === "generate") {
      const changes = update.changes || [];
      run.changesSeen = changes.length;
      const skipped = (update.not_applied || []).length;
      text += (update.provider ? ` (${update.provider})` : "") +
        `: ${plural(changes.length, "change")}` + (skipped ? `, ${skipped} not applied` : "");
      if (changes.length) detail = el("ul", {}, changes.map((c) => el("li", {}, V.withCode(c))));
    } else if (node === "apply_edit") {
      const changes = update.changes || [];
      run.changesSeen = changes.length;
      text += ": " + (changes.join("; ") || "your template");
    } else if (node === "validate" && update.validation) {
      const v = update.validation;
      const errors = (v.errors || []).length, warnings = (v.warnings || []).length;
      text += v.valid ? ": valid" : `: ${plural(errors, "error")}`;
      if (warnings) text += `, ${plural(warnings, "warning")}`;
      if (run.fixStep && run.errorsBefore !== null && errors < run.errorsBefore) {
        const fixed = run.errorsBefore - errors;
        run.fixStep.querySelector(".step-text").textContent += ` — fixed ${plural(fixed, "error")}`;
      }
      run.fixStep = null;
      run.errorsBefore = errors;
      if (errors) {
        detail = el("ul", {}, v.errors.slice(0, 5).map((f) =>
          el("li", { text: (f.line ? `line ${f.line}: ` : "") + f.message })));
      }
    } else if (node === "fix") {
      const changes = update.changes || [];
      const fixes = changes.slice(run.changesSeen || 0);
      run.changesSeen = changes.length;
      text += ": " + (fixes.length ? fixes.map((c) => c.replace(/^fix: /, "")).join("; ")
        : "no change could be made");
    } else if (node === "verify_packages") {
      text += ": " + packageLine(update.packages);
    } else if (node === "respond") {
      text += ": " + (update.status || "done");
    } else if (node === "__interrupt__") {
      text = "paused for review (continue it in Studio or the CLI)";
    }
    const item = el("li", { class: "step step-" + node, "data-node": node },
      el("span", { class: "step-text", text }),
      el("span", { class: "step-time muted", text: ` ${ms} ms` }), detail);
    run.steps.appendChild(item);
    run.stepsLabel.textContent = `Working… ${plural(run.steps.children.length, "step")}`;
    if (node === "fix") run.fixStep = item;
    return item;
  }

  /* The route is not an output field, so the stream cannot carry it: add it afterwards. */
  function annotateSteps(run, values) {
    const step = run.steps.querySelector('[data-node="classify"] .step-text');
    const r = values.route;
    if (step && r && r.intent) step.textContent += `: ${r.intent}` + (r.reason ? ` (${r.reason})` : "");
  }

  // --- a turn --------------------------------------------------------------------------

  function setBusy(busy) {
    state.busy = busy;
    for (const id of ["send", "apply", "use-template"]) $(id).disabled = busy;
    ui.send.textContent = busy ? "Working…" : "Send";
    ui.send.setAttribute("aria-label", "Send");
    ui.stop.hidden = !busy;
    ui.stop.disabled = true; // until the server names the run
    document.body.classList.toggle("busy", busy);
  }

  function newSessionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function userBubble(text, when) {
    return el("li", { class: "msg user" },
      el("span", { class: "who" }, "you", when ? " · " : "", when ? V.timeEl(when) : null),
      el("p", { class: "said", text }));
  }

  /* The answer bubble of a running turn: its live steps, folded into one line at the end. */
  function pendingBubble() {
    const steps = $("steps"); // one list labelled Steps: the current turn's
    const earlier = steps.closest("li.msg");
    if (earlier) { // the turn before keeps a copy of its steps
      const copy = steps.cloneNode(true);
      copy.removeAttribute("id");
      copy.removeAttribute("aria-live");
      copy.setAttribute("aria-label", `Steps of turn ${earlier.dataset.turn || ""}`.trim());
      steps.replaceWith(copy);
    }
    steps.textContent = "";
    const label = el("span", { class: "steps-label", text: "Working…" });
    const box = el("details", { class: "steps-box", open: true }, el("summary", {}, label), steps);
    const item = el("li", { class: "msg assistant pending", "aria-busy": "true" },
      el("span", { class: "who", text: "oic-ai · working…" }), box);
    return { item, steps, stepsLabel: label, box };
  }

  /* The Steps list goes back home (hidden, empty) before the conversation is redrawn. */
  function homeSteps() {
    const steps = $("steps");
    steps.textContent = "";
    $("steps-home").appendChild(steps);
  }

  function scrollToEnd(node) {
    node.scrollIntoView({ block: "nearest" });
  }

  /* Run one turn and show it as it happens. ``input`` goes to the graph; ``shown`` is what
   * the "you" bubble says; ``onAccepted`` runs once the server has taken the run. */
  async function runTurn(input, shown, { onAccepted = null, onFailed = null, applied = null } = {}) {
    if (state.busy) return null;
    clearError();
    setBusy(true);
    window.oicTimings.send = performance.now();
    window.oicTimings.firstStep = 0;
    window.oicTimings.done = 0;
    const previous = { status: ui.status.dataset.status, text: ui.status.textContent };
    V.setBadge(ui.status, "working");
    ui.welcome.hidden = true;
    const you = userBubble(shown, Date.now());
    const answer = pendingBubble();
    ui.conversation.append(you, answer.item);
    scrollToEnd(answer.item);
    window.oicTimings.bubble = performance.now();
    const run = { ...answer, fixStep: null, errorsBefore: null, error: null, changesSeen: 0,
      retrieved: false, runId: null, stopped: false, accepted: false, applied, values: null };
    state.run = run;
    let ok = false;
    try {
      if (!state.session) adoptSession(newSessionId());
      const id = state.session;
      run.thread = id;
      await N.ensureThread(id);
      const response = await send("POST", `/threads/${id}/runs/stream`, {
        assistant_id: N.GRAPH, input, stream_mode: ["updates", "values"],
      });
      if (!response.ok) {
        const { message } = await problem(response);
        throw new UiError("The server could not run the turn: " + message);
      }
      run.accepted = true;
      if (onAccepted) onAccepted();
      await N.readEvents(response, (name, data) => {
        if (name === "metadata" && data && data.run_id) {
          run.runId = data.run_id;
          ui.stop.disabled = false;
        } else if (name === "error") {
          const what = data && (data.message || data.error) ? (data.message || data.error) : data;
          run.error = typeof what === "string" ? what : JSON.stringify(what);
        } else if (name === "values" && data && Array.isArray(data.messages)) {
          run.values = data; // this run's state: the thread may already be on a later turn
        } else if (name.startsWith("updates") && data && typeof data === "object") {
          for (const [node, update] of Object.entries(data)) addStep(node, update, run);
        }
      });
      if (run.stopped) {
        endStopped(run, previous);
        return false;
      }
      if (run.error) {
        throw new UiError("The turn failed on the server: " + run.error +
          ". The session keeps its last good template.");
      }
      window.oicTimings.done = performance.now();
      window.oicTimings.turns += 1;
      await finishTurn(id, run);
      ok = true;
    } catch (err) {
      if (run.stopped) {
        endStopped(run, previous);
        return false;
      }
      V.setBadge(ui.status, previous.status);
      ui.status.textContent = previous.text;
      showError(errorText(err));
      if (!(err instanceof UiError)) console.warn(err);
      failTurn(run, you, input, shown, err);
      if (onFailed) onFailed();
    } finally {
      state.run = null;
      setBusy(false);
      refreshSessions().catch(() => {});
    }
    return ok;
  }

  /* A turn that never ran (or broke): the "you" bubble says so and offers Retry. */
  function failTurn(run, you, input, shown, err) {
    if (run.accepted) {
      run.item.classList.remove("pending");
      run.item.removeAttribute("aria-busy");
      run.item.querySelector(".who").textContent = "oic-ai · the turn failed";
      run.box.open = false;
      run.stepsLabel.textContent = `Failed after ${plural(run.steps.children.length, "step")}`;
    } else {
      dropBubble(run.item);
    }
    you.classList.add("failed");
    const retry = el("button", { type: "button", class: "small retry", text: "Retry",
      "aria-label": "Retry: " + shown.slice(0, 60),
      onclick: () => { you.remove(); dropBubble(run.item); retryTurn(input, shown); } });
    you.appendChild(el("p", { class: "failed-note" },
      el("span", { text: (run.accepted ? "Failed: " : "Not sent: ") +
        String(err instanceof UiError ? err.message : err).split(":")[0] + ". " }), retry));
    scrollToEnd(you);
  }

  function dropBubble(item) {
    if (item.contains($("steps"))) homeSteps();
    item.remove();
  }

  function retryTurn(input, shown) {
    return runTurn(input, shown);
  }

  function endStopped(run, previous) {
    run.item.classList.remove("pending");
    run.item.classList.add("stopped");
    run.item.removeAttribute("aria-busy");
    run.item.querySelector(".who").textContent = "oic-ai · stopped";
    run.box.open = false;
    run.stepsLabel.textContent = `Stopped after ${plural(run.steps.children.length, "step")}`;
    run.item.appendChild(el("p", { class: "muted",
      text: "Stopped. The session keeps its last good template." }));
    V.setBadge(ui.status, previous.status);
    ui.status.textContent = previous.text;
    notify("Stopped: the session keeps its last good template.");
  }

  /* Stop the running turn: LangGraph's run cancel; the stream then ends. */
  async function stopTurn() {
    const run = state.run;
    if (!run || !run.runId || run.stopped) return;
    run.stopped = true;
    ui.stop.disabled = true;
    try {
      await api("POST", `/threads/${run.thread}/runs/${run.runId}/cancel?action=interrupt`);
    } catch (err) {
      run.stopped = false;
      showError(errorText(err));
    }
  }

  /* The turn ended: fill its bubble from the session's state; fold the steps. */
  async function finishTurn(id, run) {
    const editedBefore = editorDirty() && run.applied !== ui.editor.value ? ui.editor.value : null;
    const values = run.values || await N.threadValues(id);
    adoptSession(id);
    state.values = values;
    annotateSteps(run, values);
    const messages = values.messages || [];
    const last = messages[messages.length - 1];
    const turn = Number(values.turn || 0);
    const content = last && messageRole(last) === "assistant" ? textOf(last) : "";
    run.item.classList.remove("pending");
    run.item.removeAttribute("aria-busy");
    run.item.dataset.turn = String(turn);
    run.box.open = false;
    const took = Math.round((window.oicTimings.done - window.oicTimings.send) / 100) / 10;
    fillAnswer(run.item, turn, content, values, { retrieved: run.retrieved, when: Date.now(),
      last: true });
    renderValues(values, { afterTurn: true, keepEditor: editedBefore });
    run.stepsLabel.textContent = `${plural(run.steps.children.length, "step")} · ${took} s · ` +
      ui.status.textContent;
    keepDraft(); // an applied edit's draft goes; an invalid one stays until fixed
    const summary = state.sessionList?.find((s) => s.id === id);
    ui.title.textContent = summary ? summary.title : (values.request || id);
    if (values.status === "invalid") {
      const errors = ((values.validation || {}).errors || []);
      const first = errors[0];
      showError(`The result is invalid (${plural(errors.length, "error")}` +
        (first ? `; first: ${first.line ? "line " + first.line + ": " : ""}${first.message}` : "") +
        "). The session keeps its last good template; the invalid version is in the editor.");
    }
    loadHistory(id, { known: true });
    scrollToEnd(run.item);
  }

  async function sendRequest(event) {
    if (event) event.preventDefault();
    if (state.busy) return; // the text stays in the box, untouched
    const text = ui.request.value.trim();
    if (!text) {
      showError("Type a request first, e.g. “minimal ubuntu 24.04 raw image for x86_64”.");
      ui.request.focus();
      return;
    }
    const typed = ui.request.value;
    await runTurn({ messages: [{ role: "user", content: text }] }, text, {
      // the box empties once the server has the turn, unless the user typed on meanwhile
      onAccepted: () => {
        if (ui.request.value === typed) { ui.request.value = ""; countRequest(); }
      },
      // a turn that broke after it was taken: the text comes back if the box is empty
      onFailed: () => {
        if (!ui.request.value.trim()) { ui.request.value = typed; countRequest(); }
      },
    });
  }

  function countRequest() {
    const n = ui.request.value.length;
    const over = n > MAX_REQUEST_CHARS;
    ui.count.textContent = over
      ? `${n} / ${MAX_REQUEST_CHARS} characters: over the limit, only the first ` +
        `${MAX_REQUEST_CHARS} are read. Shorten the request.`
      : (n ? `${n} / ${MAX_REQUEST_CHARS} characters` : `up to ${MAX_REQUEST_CHARS} characters`);
    ui.count.classList.toggle("over", over);
    ui.request.setAttribute("aria-invalid", String(over));
  }

  // --- sessions ------------------------------------------------------------------------

  /* The session on the page changes: the address and the list follow. */
  function adoptSession(id) {
    if (state.session !== id && editorDirty() && !state.session) {
      // a draft made before the session had an id moves with it
      const draft = readDraft(null);
      if (draft) { sessionStorage.setItem(draftKey(id), JSON.stringify(draft)); dropDraft(null); }
    }
    state.session = id;
    const hash = id ? "#session=" + id : "";
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
    markCurrentSession();
  }

  function markCurrentSession() {
    for (const item of ui.sessions.querySelectorAll("li[data-session]")) {
      if (item.dataset.session === state.session) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    }
  }

  function newSession() {
    if (state.busy) return;
    keepDraft();
    adoptSession(null);
    state.values = {};
    state.template = "";
    state.history = [];
    homeSteps();
    ui.conversation.textContent = "";
    ui.welcome.hidden = false;
    ui.title.textContent = "new session";
    renderValues({}, { afterTurn: true });
    restoreDraft(null);
    clearError();
    ui.request.focus();
  }

  function messageRole(m) {
    const role = m.type || m.role;
    return role === "human" || role === "user" ? "user" : "assistant";
  }
  function textOf(m) {
    return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  }

  /* An answer bubble's content: the formatted summary, its sources and "not applied" (on
   * the last turn), Fix it (an invalid edit of the user's own), Copy and Fork. */
  function fillAnswer(item, turn, content, values, { retrieved = false, when = null, last = false } = {}) {
    for (const old of item.querySelectorAll(":scope > :not(.steps-box)")) old.remove();
    item.classList.add("assistant");
    item.dataset.turn = String(turn);
    item.insertBefore(el("span", { class: "who" }, `oic-ai · turn ${turn}`,
      when ? " · " : "", when ? V.timeEl(when) : null), item.firstChild);
    const notApplied = last ? (values.not_applied || []) : [];
    item.appendChild(el("div", { class: "summary" },
      V.formatAnswer(content, { skipNotApplied: notApplied.length > 0,
        reasons: last && Array.isArray(values.reasons) ? values.reasons : null })));
    if (last) {
      const box = el("div", { class: "details" });
      const sources = values.sources || [];
      if (retrieved && sources.length) {
        box.appendChild(el("p", { class: "label", text: "Sources" }));
        box.appendChild(V.scoresTable(sources));
      }
      if (notApplied.length) {
        box.appendChild(el("p", { class: "label", text: "Not applied" }));
        box.appendChild(el("ul", { class: "not-applied" },
          notApplied.map((x) => el("li", { text: String(x) }))));
      }
      if (box.children.length) item.appendChild(box);
      if (values.status === "invalid" && values.draft && (values.route || {}).intent === "edit") {
        item.appendChild(el("p", { class: "fixit" },
          "Ask oic-ai to fix your edit: ",
          el("button", { type: "button", class: "fix-it", text: "Fix it",
            onclick: () => fixEdit(values.draft) })));
      }
    }
    item.appendChild(el("div", { class: "row actions" },
      V.copyButton(`Copy answer ${turn}`, () => content),
      el("button", { type: "button", class: "link fork", "data-turn": turn,
        text: `Fork from turn ${turn}`, onclick: () => forkSession(turn) })));
  }

  /* The conversation from the session's messages (and times from its history). */
  function renderConversation(values) {
    homeSteps();
    ui.conversation.textContent = "";
    let turn = 0;
    const messages = values.messages || [];
    const byTurn = new Map(state.history.map((h) => [h.turn, h]));
    messages.forEach((m, index) => {
      const content = textOf(m);
      if (messageRole(m) === "user") {
        ui.conversation.appendChild(userBubble(content, byTurn.get(turn + 1)?.created));
        return;
      }
      turn += 1;
      const item = el("li", { class: "msg assistant" });
      const retrieved = (values.route || {}).intent === "create";
      fillAnswer(item, turn, content, values, { retrieved, when: byTurn.get(turn)?.created,
        last: index === messages.length - 1 });
      ui.conversation.appendChild(item);
    });
    ui.welcome.hidden = messages.length > 0;
    ui.conversation.lastElementChild?.scrollIntoView({ block: "nearest" });
  }

  /* The session's turns (times, diffs): times on the bubbles, the last real change. */
  async function loadHistory(id, { known = false } = {}) {
    // a session the index does not have yet (no finished turn) has no history: no 404
    if (!known && !state.sessionList?.some((s) => s.id === id)) return;
    const { status, data } = await api("GET", `/api/v1/sessions/${id}`, undefined, [404])
      .catch(() => ({ status: 0, data: {} }));
    if (status !== 200 || id !== state.session) return;
    state.history = data.history || [];
    for (const item of ui.conversation.querySelectorAll("li.assistant[data-turn]")) {
      const h = state.history.find((x) => x.turn === Number(item.dataset.turn));
      const who = item.querySelector(".who");
      if (h && h.created && who && !who.querySelector("time")) who.append(" · ", V.timeEl(h.created));
    }
    renderDiff();
  }

  async function loadSession(id) {
    const values = await N.threadValues(id);
    adoptSession(id);
    state.values = values;
    state.history = [];
    renderConversation(values);
    renderValues(values, { afterTurn: true });
    restoreDraft(id);
    const summary = state.sessionList?.find((s) => s.id === id);
    ui.title.textContent = summary ? summary.title : (values.request || id);
    await loadHistory(id);
  }

  async function resume(id) {
    if (state.busy || id === state.session) return;
    clearError();
    keepDraft();
    try {
      await loadSession(id);
    } catch (err) {
      showError(errorText(err));
    }
  }

  async function refreshSessions() {
    const { data } = await api("GET", "/api/v1/sessions");
    state.sessionList = data.sessions || [];
    const focused = document.activeElement && ui.sessions.contains(document.activeElement)
      ? document.activeElement.closest("li")?.dataset.session : null;
    ui.sessions.textContent = "";
    if (!state.sessionList.length) {
      ui.sessions.appendChild(el("li", { class: "muted", text: "No sessions yet." }));
    }
    for (const s of state.sessionList) {
      const title = s.title || s.id;
      const dot = s.status ? el("span", { class: "dot dot-" + s.status, title: s.status,
        role: "img", "aria-label": V.statusText(s.status) }) : null;
      const item = el("li", { "data-session": s.id },
        el("button", { type: "button", class: "link open", text: title,
          "aria-label": `Resume ${title}`, onclick: () => resume(s.id) }),
        el("div", { class: "muted meta" }, dot, ` ${plural(s.turns || 0, "turn")}`,
          s.updated ? " · " : "", s.updated ? V.timeEl(s.updated) : null,
          s.template ? ` · ${s.template}` : ""),
        el("span", { class: "actions" },
          el("button", { type: "button", class: "small rename", text: "Rename", tabindex: "-1",
            "aria-label": `Rename ${title}`, onclick: () => renameSession(s) }),
          el("button", { type: "button", class: "small delete", text: "Delete", tabindex: "-1",
            "aria-label": `Delete ${title}`, onclick: () => deleteSession(s) })));
      if (s.id === state.session) ui.title.textContent = title;
      ui.sessions.appendChild(item);
    }
    markCurrentSession();
    const back = focused && ui.sessions.querySelector(`li[data-session="${focused}"] button.open`);
    if (back) back.focus();
  }

  /* One Tab stop per session row (its title); arrow keys inside the list: Up/Down (Home,
   * End) between rows, Left/Right to the row's Rename and Delete. */
  function sessionKeys(event) {
    const button = event.target.closest("button");
    const row = event.target.closest("li[data-session]");
    if (!button || !row) return;
    const rows = [...ui.sessions.querySelectorAll("li[data-session]")];
    const inRow = [...row.querySelectorAll("button")];
    let target = null;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const next = rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)];
      target = next && next.querySelector("button.open");
    } else if (event.key === "Home" || event.key === "End") {
      target = rows[event.key === "Home" ? 0 : rows.length - 1].querySelector("button.open");
    } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      target = inRow[inRow.indexOf(button) + (event.key === "ArrowRight" ? 1 : -1)];
    }
    if (!target) return;
    event.preventDefault();
    target.focus();
  }

  async function guarded(action) {
    clearError();
    try {
      await action();
    } catch (err) {
      showError(errorText(err));
    }
  }

  function renameSession(s) {
    return guarded(async () => {
      const title = await ask({ title: "Rename session", label: "New title", value: s.title || "" });
      if (!title) return;
      await api("PATCH", `/api/v1/sessions/${s.id}`, { title });
      await refreshSessions();
      notify(`Renamed to “${title}”.`);
    });
  }

  function deleteSession(s) {
    return guarded(async () => {
      const yes = await ask({ title: "Delete session?", input: false, ok: "Delete",
        text: `“${s.title || s.id}” and its history will be deleted. This cannot be undone.` });
      if (!yes) return;
      await api("DELETE", `/api/v1/sessions/${s.id}`);
      dropDraft(s.id);
      if (s.id === state.session) newSession();
      await refreshSessions();
      notify("Session deleted.");
    });
  }

  function forkSession(turn) {
    return guarded(async () => {
      if (!state.session || state.busy) return;
      const { data } = await api("POST", `/api/v1/sessions/${state.session}/fork`, { turn });
      const id = data.session || data.id;
      keepDraft();
      await refreshSessions();
      await loadSession(id);
      notify(`Forked from turn ${turn}: this is a new session.`);
    });
  }

  window.OicApp = { state, ui, ask, notify, showError, clearError, guarded, runTurn, errorText,
    editorDirty, keepDraft, readDraft, dropDraft, draftKey, newSession, resume, refreshSessions,
    sessionKeys, sendRequest, countRequest, stopTurn, renderDiff: () => renderDiff() };

  // the template panel, the editor and the library live in panel.js
  function renderValues(values, options) { return window.OicPanel.renderValues(values, options); }
  function renderDiff() { return window.OicPanel.renderDiff(); }
  function restoreDraft(id) { return window.OicPanel.restoreDraft(id); }
  function fixEdit(draft) { return window.OicPanel.fixEdit(draft); }
})();
