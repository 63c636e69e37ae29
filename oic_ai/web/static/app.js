/* oic-ai in the browser: chat with live steps, the template panel, an editor with live
 * validation, the library and the sessions, on the LangGraph API server that serves it.
 *
 * Turns go through the standard threads and runs API (POST /threads/{id}/runs/stream,
 * stream_mode "updates", read as server-sent events); everything else through /api/v1.
 * No framework and no build step: plain DOM, text only (never innerHTML with data).
 */
"use strict";

(function () {
  const T = window.OicText;
  const GRAPH = "oic-ai";
  const TOKEN_KEY = "oic-ai-token";
  const VALIDATE_DELAY = 350; // ms after the last keystroke
  const $ = (id) => document.getElementById(id);

  const ui = {
    alert: $("alert"), notice: $("notice"), conversation: $("conversation"), steps: $("steps"),
    status: $("status"), request: $("request"), send: $("send"), form: $("request-form"),
    template: $("template"), diff: $("diff"), editor: $("editor"), gutter: $("gutter"),
    findings: $("findings"), packages: $("packages"), sessions: $("sessions"),
    library: $("library"), title: $("session-title"), editState: $("edit-state"),
    editDiff: $("edit-diff"), templateName: $("template-name"),
  };

  const state = {
    session: null, // the thread id of the session on the page
    values: {}, // the session's state values, as the server last reported them
    template: "", // the session's current (last good) template
    busy: false,
    findings: [], // findings of the editor's text
    validateSeq: 0,
    validateTimer: 0,
    libraryLoaded: false,
    preview: null, // {name, template} of the opened library template
  };
  // Figures for bench/web_ui.py: when Send was pressed, the first step came, the turn ended.
  window.oicTimings = { send: 0, firstStep: 0, done: 0, turns: 0 };

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

  class UiError extends Error {}

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  // --- dialogs (name, confirm, token) --------------------------------------------------

  const dialog = $("dialog");
  function ask({ title, text = "", label = "", value = "", input = true, ok = "OK",
    secret = false }) {
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
    dialog.returnValue = "";
    dialog.dataset.seq = String(Number(dialog.dataset.seq || 0) + 1); // one per question
    return new Promise((resolve) => {
      dialog.addEventListener("close", function done() {
        dialog.removeEventListener("close", done);
        if (dialog.returnValue !== "ok") resolve(null);
        else resolve(input ? field.value.trim() : "ok");
      });
      dialog.showModal();
      (input ? field : $("dialog-ok")).focus();
    });
  }

  // --- the server ----------------------------------------------------------------------

  function headers(json) {
    const h = {};
    if (json) h["Content-Type"] = "application/json";
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }

  /* One token prompt at a time: requests refused together wait for the same answer. */
  let tokenPrompt = null;
  function askToken() {
    if (!tokenPrompt) tokenPrompt = promptToken().finally(() => { tokenPrompt = null; });
    return tokenPrompt;
  }

  async function promptToken() {
    const token = await ask({
      title: "This server needs a token",
      text: "Paste the token from `oic-ai users add NAME`. It is kept for this tab only.",
      label: "Token", secret: true, ok: "Use token",
    });
    if (!token) throw new UiError("Not signed in: the server answered 401; reload and give a token.");
    sessionStorage.setItem(TOKEN_KEY, token);
  }

  /* fetch with the token; a 401 asks for one and tries again; no connection -> UiError. */
  async function send(method, path, body) {
    for (let attempt = 0; ; attempt++) {
      const used = sessionStorage.getItem(TOKEN_KEY);
      let response;
      try {
        response = await fetch(path, {
          method,
          headers: headers(body !== undefined),
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        throw new UiError(
          "Lost the connection to the server at " + location.host +
          ": check that `oic-ai serve` is still running, then try again.");
      }
      if (response.status === 401 && attempt < 3) {
        if (sessionStorage.getItem(TOKEN_KEY) !== used) continue; // a newer token came meanwhile
        sessionStorage.removeItem(TOKEN_KEY);
        await askToken();
        continue;
      }
      return response;
    }
  }

  async function problem(response) {
    let data = {};
    try { data = await response.json(); } catch (err) { /* not JSON */ }
    const detail = data.error || data.detail || data.message || response.statusText;
    const text = typeof detail === "string" ? detail : JSON.stringify(detail);
    return { data, message: text + (data.fix ? " (" + data.fix + ")" : "") };
  }

  /* JSON in, JSON out; statuses in ``allow`` come back as {status, data}, others throw. */
  async function api(method, path, body, allow = []) {
    const response = await send(method, path, body);
    if (response.ok) {
      const data = response.status === 204 ? {} : await response.json();
      return { status: response.status, data };
    }
    const { data, message } = await problem(response);
    if (allow.includes(response.status)) return { status: response.status, data };
    throw new UiError(`The server refused ${method} ${path.split("?")[0]}: ${message}`);
  }

  /* The thread of a session; its graph_id lets the server read a session that has not run
   * through it yet (a fork, a session the CLI started). */
  async function ensureThread(id) {
    await api("POST", "/threads", {
      thread_id: id, if_exists: "do_nothing", metadata: { graph_id: GRAPH },
    });
  }

  async function threadValues(id) {
    await ensureThread(id);
    let { data } = await api("GET", `/threads/${id}/state`);
    if (!data.values || !Object.keys(data.values).length) {
      // a thread made before it had a graph: name the graph, then read again
      await api("PATCH", `/threads/${id}`, { metadata: { graph_id: GRAPH } });
      ({ data } = await api("GET", `/threads/${id}/state`));
    }
    return data.values || {};
  }

  /* Server-sent events from a fetch body: calls onEvent(name, data) per event. */
  async function readEvents(response, onEvent) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw new UiError("Lost the connection to the server during the turn; the session " +
          "keeps its last good template. Reload the session and try again.");
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        let name = "message";
        const data = [];
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (!data.length) continue;
        let parsed = data.join("\n");
        try { parsed = JSON.parse(parsed); } catch (err) { /* plain text */ }
        onEvent(name, parsed);
      }
    }
  }

  // --- steps ---------------------------------------------------------------------------

  const NODE_TITLES = {
    classify: "classify", retrieve: "retrieve", generate: "generate", apply_edit: "apply edit",
    validate: "validate",
    fix: "fix", verify_packages: "verify packages", review: "review", explain: "explain",
    respond: "respond",
  };

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  function scoresTable(sources) {
    const fmt = (x) => (typeof x === "number" ? x.toFixed(2) : "");
    return el("table", { class: "scores" },
      el("caption", { class: "sr-only", text: "Candidate templates and their scores" }),
      el("thead", {}, el("tr", {}, ["template", "score", "semantic", "keyword", "package"]
        .map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, sources.map((s) => el("tr", {},
        el("td", { text: s.template }), el("td", { text: fmt(s.score) }),
        el("td", { text: fmt(s.semantic) }), el("td", { text: fmt(s.keyword) }),
        el("td", { text: fmt(s.package) })))));
  }

  function packageLine(p) {
    if (!p) return "no check";
    if (!p.checked) return "not checked" + (p.reason ? ": " + p.reason : "");
    const missing = p.missing || [];
    let text = `${(p.found || []).length} found, ${missing.length} missing`;
    if (missing.length) text += ": " + missing.join(", ");
    return text;
  }

  /* One streamed update -> one step in the Steps list. */
  function addStep(node, update, run) {
    if (!window.oicTimings.firstStep) window.oicTimings.firstStep = performance.now();
    update = update || {};
    const ms = Math.round(performance.now() - window.oicTimings.send);
    let text = NODE_TITLES[node] || node;
    let detail = null;
    if (node === "classify" && update.route) {
      const r = update.route;
      text += `: ${r.intent}` + (r.reason ? ` (${r.reason})` : "");
    } else if (node === "retrieve") {
      const sources = update.sources || [];
      text += `: ${plural(sources.length, "candidate template")}` +
        (update.base_template ? `, starting from ${update.base_template}` : "");
      if (sources.length) detail = scoresTable(sources);
    } else if (node === "generate") {
      const changes = update.changes || [];
      run.changesSeen = changes.length;
      text += (update.provider ? ` (${update.provider})` : "") +
        `: ${plural(changes.length, "change")}`;
      if (changes.length) detail = el("ul", {}, changes.map((c) => el("li", { text: c })));
      const skipped = update.not_applied || [];
      if (skipped.length) {
        detail = el("div", {}, detail, el("p", { class: "muted", text: "not applied:" }),
          el("ul", {}, skipped.map((c) => el("li", { text: c }))));
      }
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
      // the stream carries the output fields: the fix's own lines are its new "changes"
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
    ui.steps.appendChild(item);
    if (node === "fix") run.fixStep = item;
    return item;
  }

  /* The route is not an output field, so the stream cannot carry it: add it afterwards. */
  function annotateSteps(values) {
    const step = ui.steps.querySelector('[data-node="classify"] .step-text');
    const r = values.route;
    if (step && r && r.intent) step.textContent += `: ${r.intent}` + (r.reason ? ` (${r.reason})` : "");
  }

  // --- a turn --------------------------------------------------------------------------

  function setBusy(busy) {
    state.busy = busy;
    for (const id of ["send", "apply", "use-template"]) $(id).disabled = busy;
    ui.send.textContent = busy ? "Working…" : "Send";
    ui.send.setAttribute("aria-label", "Send");
    document.body.classList.toggle("busy", busy);
  }

  function newSessionId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /* Run one turn on the session (a new one when there is none) and show it as it happens. */
  async function runTurn(input, shown) {
    if (state.busy) return null;
    clearError();
    setBusy(true);
    window.oicTimings.send = performance.now();
    window.oicTimings.firstStep = 0;
    window.oicTimings.done = 0;
    ui.steps.textContent = "";
    ui.status.textContent = "working…";
    ui.conversation.appendChild(el("li", { class: "msg user" },
      el("span", { class: "who", text: "you" }), el("p", { text: shown })));
    const run = { fixStep: null, errorsBefore: null, error: null, changesSeen: 0 };
    let ok = false;
    try {
      if (!state.session) setSession(newSessionId());
      const id = state.session;
      await ensureThread(id);
      const response = await send("POST", `/threads/${id}/runs/stream`, {
        assistant_id: GRAPH, input, stream_mode: ["updates"],
      });
      if (!response.ok) {
        const { message } = await problem(response);
        throw new UiError("The server could not run the turn: " + message);
      }
      await readEvents(response, (name, data) => {
        if (name === "error") {
          const what = data && (data.message || data.error) ? (data.message || data.error) : data;
          run.error = typeof what === "string" ? what : JSON.stringify(what);
        } else if (name.startsWith("updates") && data && typeof data === "object") {
          for (const [node, update] of Object.entries(data)) addStep(node, update, run);
        }
      });
      if (run.error) {
        throw new UiError("The turn failed on the server: " + run.error +
          ". The session keeps its last good template.");
      }
      window.oicTimings.done = performance.now();
      window.oicTimings.turns += 1;
      await loadSession(id, { afterTurn: true });
      annotateSteps(state.values);
      ok = true;
    } catch (err) {
      ui.status.textContent = state.values.status || "none yet";
      showError(err instanceof UiError ? err.message : "Unexpected error: " + err);
      if (!(err instanceof UiError)) console.warn(err);
    } finally {
      setBusy(false);
      refreshSessions().catch(() => {});
    }
    return ok;
  }

  async function sendRequest(event) {
    if (event) event.preventDefault();
    const text = ui.request.value.trim();
    if (!text) {
      showError("Type a request first, e.g. “minimal ubuntu 24.04 raw image for x86_64”.");
      ui.request.focus();
      return;
    }
    const ok = await runTurn({ messages: [{ role: "user", content: text }] }, text);
    if (ok !== null) ui.request.value = "";
  }

  // --- sessions ------------------------------------------------------------------------

  function setSession(id) {
    state.session = id;
    const hash = id ? "#session=" + id : "";
    if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
    for (const item of ui.sessions.querySelectorAll("li")) {
      if (item.dataset.session === id) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    }
  }

  function newSession() {
    if (state.busy) return;
    setSession(null);
    state.values = {};
    state.template = "";
    ui.conversation.textContent = "";
    ui.steps.textContent = "";
    ui.title.textContent = "new session";
    renderValues({}, { afterTurn: true });
    clearError();
    ui.request.focus();
  }

  function messageRole(m) {
    const role = m.type || m.role;
    return role === "human" || role === "user" ? "user" : "assistant";
  }

  /* The conversation from the session's messages; each answer can be forked from. */
  function renderConversation(values) {
    ui.conversation.textContent = "";
    let turn = 0;
    const messages = values.messages || [];
    messages.forEach((m, index) => {
      const role = messageRole(m);
      const content = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
      if (role === "user") {
        ui.conversation.appendChild(el("li", { class: "msg user" },
          el("span", { class: "who", text: "you" }), el("p", { text: content })));
        return;
      }
      turn += 1;
      const number = turn; // the click needs this turn's number, not the loop's last
      const last = index === messages.length - 1;
      const item = el("li", { class: "msg assistant", "data-turn": number },
        el("span", { class: "who", text: `oic-ai · turn ${number}` }),
        el("p", { class: "summary", text: content }));
      if (last) item.appendChild(answerDetails(values));
      item.appendChild(el("button", {
        type: "button", class: "link fork", "data-turn": number,
        text: `Fork from turn ${number}`, onclick: () => forkSession(number),
      }));
      ui.conversation.appendChild(item);
    });
    ui.conversation.lastElementChild?.scrollIntoView({ block: "nearest" });
  }

  /* Sources with scores, "not applied", warnings and notices of the last turn. */
  function answerDetails(values) {
    const box = el("div", { class: "details" });
    const sources = values.sources || [];
    if (sources.length) {
      box.appendChild(el("h3", { class: "small", text: "Sources" }));
      box.appendChild(scoresTable(sources));
    }
    const groups = [["Not applied", values.not_applied], ["Warnings", values.warnings],
      ["Notices", values.notices], ["Why not plain valid", values.reasons]];
    for (const [title, items] of groups) {
      if (!items || !items.length) continue;
      box.appendChild(el("h3", { class: "small", text: title }));
      box.appendChild(el("ul", { class: title.toLowerCase().replace(/ /g, "-") },
        items.map((x) => el("li", { text: String(x) }))));
    }
    return box;
  }

  /* Show a session: its conversation, status, template, diff, findings and packages. */
  async function loadSession(id, { afterTurn = false } = {}) {
    const values = await threadValues(id);
    setSession(id);
    state.values = values;
    renderConversation(values);
    renderValues(values, { afterTurn: true });
    const summary = state.sessionList?.find((s) => s.id === id);
    ui.title.textContent = summary ? summary.title : (values.request || id);
    if (afterTurn && values.status === "invalid") {
      const errors = ((values.validation || {}).errors || []);
      const first = errors[0];
      showError(`The result is invalid (${plural(errors.length, "error")}` +
        (first ? `; first: ${first.line ? "line " + first.line + ": " : ""}${first.message}` : "") +
        "). The session keeps its last good template; the invalid version is in the editor.");
    }
  }

  async function resume(id) {
    if (state.busy) return;
    clearError();
    try {
      ui.steps.textContent = "";
      await loadSession(id);
    } catch (err) {
      showError(err instanceof UiError ? err.message : String(err));
    }
  }

  async function refreshSessions() {
    const { data } = await api("GET", "/api/v1/sessions");
    state.sessionList = data.sessions || [];
    ui.sessions.textContent = "";
    if (!state.sessionList.length) {
      ui.sessions.appendChild(el("li", { class: "muted", text: "No sessions yet." }));
    }
    for (const s of state.sessionList) {
      const title = s.title || s.id;
      const item = el("li", { "data-session": s.id },
        el("button", { type: "button", class: "link open", text: title,
          "aria-label": `Resume ${title}`, onclick: () => resume(s.id) }),
        el("span", { class: "muted meta",
          text: ` ${plural(s.turns || 0, "turn")}` + (s.template ? ` · ${s.template}` : "") }),
        el("span", { class: "actions" },
          el("button", { type: "button", class: "small rename", text: "Rename",
            "aria-label": `Rename ${title}`, onclick: () => renameSession(s) }),
          el("button", { type: "button", class: "small delete", text: "Delete",
            "aria-label": `Delete ${title}`, onclick: () => deleteSession(s) })));
      if (s.id === state.session) {
        item.setAttribute("aria-current", "true");
        ui.title.textContent = title;
      }
      ui.sessions.appendChild(item);
    }
  }

  async function guarded(action) {
    clearError();
    try {
      await action();
    } catch (err) {
      showError(err instanceof UiError ? err.message : "Unexpected error: " + err);
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
      await refreshSessions();
      ui.steps.textContent = "";
      await loadSession(id);
      notify(`Forked from turn ${turn}: this is a new session.`);
    });
  }

  // --- the template panel --------------------------------------------------------------

  function selectTab(tab) {
    const list = tab.closest("[role=tablist]");
    for (const other of list.querySelectorAll("[role=tab]")) {
      const on = other === tab;
      other.setAttribute("aria-selected", String(on));
      other.tabIndex = on ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !on;
    }
  }

  function templateName(text) {
    const match = /^image:\s*\n(?:[ \t]+.*\n)*?[ \t]+name:[ \t]*["']?([^"'\s#]+)/m.exec(text || "");
    return match ? match[1] : "";
  }

  function renderYaml(target, text) {
    target.textContent = "";
    if (text) target.appendChild(T.highlightLines(text));
    else target.appendChild(el("span", { class: "muted", text: "No template yet." }));
  }

  /* Put the session's values on the page (template, diff, findings, packages, status). */
  function renderValues(values, { afterTurn = false } = {}) {
    state.template = values.template || "";
    renderYaml(ui.template, state.template);
    ui.status.textContent = values.status || "none yet";
    ui.templateName.textContent = templateName(state.template) || values.base_template || "";
    ui.diff.textContent = "";
    if (values.diff) ui.diff.appendChild(T.renderDiff(T.unifiedLines(values.diff), -1));
    else ui.diff.appendChild(el("span", { class: "muted", text: "No changes in the last turn." }));
    renderPackages(values.packages);
    if (afterTurn) {
      const invalidDraft = values.status === "invalid" && values.draft;
      setEditor(invalidDraft ? values.draft : state.template);
      const v = values.validation || { errors: [], warnings: [] };
      if (invalidDraft || (values.draft && values.draft === state.template)) {
        setFindings([...(v.errors || []).map((f) => ({ ...f, level: "error" })),
          ...(v.warnings || []).map((f) => ({ ...f, level: "warning" }))]);
      } else {
        setFindings([]);
        if (state.template) scheduleValidate(0);
      }
      if (invalidDraft) selectTab($("tab-edit"));
    }
  }

  function renderPackages(p) {
    ui.packages.textContent = "";
    if (!p) {
      ui.packages.appendChild(el("p", { class: "muted", text: "No package check yet." }));
      return;
    }
    if (!p.checked) {
      ui.packages.appendChild(el("p", { text: "Packages not checked: " + (p.reason || "no index") }));
      if (p.fix) ui.packages.appendChild(el("p", { class: "muted", text: "To check them: " + p.fix }));
      return;
    }
    const missing = p.missing || [];
    ui.packages.appendChild(el("p", {
      text: `${(p.found || []).length} found, ${missing.length} missing.` }));
    if (!missing.length) return;
    const list = el("ul", { class: "missing" });
    for (const name of missing) {
      const suggestions = (p.suggestions || {})[name] || [];
      list.appendChild(el("li", { "data-package": name },
        el("code", { text: name }),
        suggestions.length ? " → " : " (no suggestion)",
        suggestions.map((s) => el("button", {
          type: "button", class: "small suggestion", text: s,
          "aria-label": `Replace ${name} with ${s}`,
          onclick: () => applySuggestion(name, s),
        }))));
    }
    ui.packages.appendChild(list);
  }

  /* A suggestion becomes a turn: a request on the session's template, or, when the
   * package is only in the editor's text, the edited text with the package replaced. */
  function applySuggestion(name, choice) {
    const text = ui.editor.value;
    const escaped = name.replace(/[.*+?^$|()[\]{}\\]/g, "\\$&");
    const line = new RegExp("^(\\s*-\\s*)" + escaped + "\\s*$", "m");
    if (text !== state.template && line.test(text)) {
      const edited = text.replace(line, `$1${choice}`);
      ui.editor.value = edited;
      editorChanged(false);
      return runTurn({ messages: [{ role: "user", content: `apply my edit (${name} → ${choice})` }],
        template_edit: edited }, `replace ${name} with ${choice} in my edit`);
    }
    const request = `remove ${name} and add ${choice}`;
    return runTurn({ messages: [{ role: "user", content: request }] }, request);
  }

  function checkPackages() {
    return guarded(async () => {
      const text = ui.editor.value;
      if (!text.trim()) throw new UiError("The editor is empty: there are no packages to check.");
      const { data } = await api("POST", "/api/v1/packages/check", { template: text });
      renderPackages(data);
    });
  }

  function download() {
    const text = state.template;
    if (!text) return showError("There is no template to download yet.");
    const name = (templateName(text) || "template") + ".yml";
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-yaml" }));
    const link = el("a", { href: url, download: name });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function copy() {
    if (!state.template) return showError("There is no template to copy yet.");
    try {
      await navigator.clipboard.writeText(state.template);
    } catch (err) {
      const area = el("textarea", { class: "sr-only" });
      area.value = state.template;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    notify("Template copied.");
  }

  // --- the editor and its findings -----------------------------------------------------

  function setEditor(text) {
    ui.editor.value = text;
    state.editBase = text;
    editorChanged(false);
  }

  function editorChanged(validate = true) {
    const lines = ui.editor.value.split("\n").length;
    const marks = new Map();
    for (const f of state.findings) {
      if (f.line && (!marks.has(f.line) || f.level === "error")) marks.set(f.line, f);
    }
    ui.gutter.textContent = "";
    for (let n = 1; n <= lines; n++) {
      const f = marks.get(n);
      ui.gutter.appendChild(el("span", {
        class: "gl" + (f ? " finding " + f.level : ""), "data-line": n, title: f ? f.message : null,
        text: String(n) + "\n" }));
    }
    ui.gutter.scrollTop = ui.editor.scrollTop;
    const dirty = ui.editor.value !== state.template;
    ui.editState.textContent = dirty ? "edited, not applied" : "";
    ui.editDiff.textContent = "";
    if (dirty) ui.editDiff.appendChild(T.renderDiff(T.lineDiff(state.template, ui.editor.value), 2));
    if (validate) scheduleValidate(VALIDATE_DELAY);
  }

  function scheduleValidate(delay) {
    clearTimeout(state.validateTimer);
    state.validateTimer = setTimeout(validateEditor, delay);
  }

  async function validateEditor() {
    const text = ui.editor.value;
    const seq = ++state.validateSeq;
    if (!text.trim()) {
      setFindings([{ line: null, message: "The template is empty.", code: "empty", level: "error" }]);
      return;
    }
    try {
      const { data } = await api("POST", "/api/v1/validate", { template: text });
      if (seq !== state.validateSeq) return; // a newer edit is being checked
      setFindings([...(data.errors || []).map((f) => ({ ...f, level: "error" })),
        ...(data.warnings || []).map((f) => ({ ...f, level: "warning" }))]);
      ui.findings.dataset.valid = String(Boolean(data.valid));
    } catch (err) {
      if (seq === state.validateSeq) showError(err instanceof UiError ? err.message : String(err));
    }
  }

  function setFindings(findings) {
    state.findings = findings;
    ui.findings.textContent = "";
    ui.findings.dataset.count = String(findings.length);
    if (!findings.length) {
      ui.findings.appendChild(el("li", { class: "muted none", text: "No findings." }));
    }
    for (const f of findings) {
      const where = f.line ? `line ${f.line}` : (f.path || "template");
      ui.findings.appendChild(el("li", { class: "finding " + f.level, "data-line": f.line || "" },
        el("button", {
          type: "button", class: "link",
          "aria-label": `${f.level} at ${where}: ${f.message}`,
          onclick: () => goToLine(f.line),
        }, el("span", { class: "badge", text: f.level }), ` ${where}: ${f.message}`,
        f.code ? el("span", { class: "muted", text: ` (${f.code})` }) : null)));
    }
    editorChanged(false);
  }

  /* Jump to a line: in the editor when it holds an edit, else in the Template view. */
  function goToLine(line) {
    if (!line) return;
    const editing = ui.editor.value !== state.template || !$("pane-edit").hidden;
    if (editing) {
      selectTab($("tab-edit"));
      const lines = ui.editor.value.split("\n");
      let start = 0;
      for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
      const end = start + (lines[line - 1] || "").length;
      ui.editor.focus();
      ui.editor.setSelectionRange(start, end);
      const height = ui.editor.scrollHeight / Math.max(lines.length, 1);
      ui.editor.scrollTop = Math.max(0, (line - 5) * height);
      return;
    }
    selectTab($("tab-view"));
    const row = ui.template.querySelector(`.line[data-line="${line}"]`);
    if (!row) return;
    for (const old of ui.template.querySelectorAll(".line.target")) old.classList.remove("target");
    row.classList.add("target");
    row.scrollIntoView({ block: "center" });
    ui.template.focus();
  }

  function applyEdit() {
    const text = ui.editor.value;
    if (!text.trim()) return showError("The editor is empty: nothing to apply.");
    runTurn({ messages: [{ role: "user", content: "apply my edit" }], template_edit: text },
      "apply my edit");
  }

  function saveTemplate() {
    return guarded(async () => {
      const text = ui.editor.value;
      const check = await api("POST", "/api/v1/validate", { template: text });
      if (!check.data.valid) {
        setFindings((check.data.errors || []).map((f) => ({ ...f, level: "error" })));
        throw new UiError(`Not saved: the template has ${plural((check.data.errors || []).length,
          "error")}; fix the findings first.`);
      }
      const name = await ask({ title: "Save to the library", label: "File name",
        text: "The template is written into the templates folder and added to the library.",
        value: templateName(text) || "my-template", ok: "Save" });
      if (!name) return;
      let answer = await api("POST", "/api/v1/templates", { name, template: text }, [409, 422]);
      if (answer.status === 409) {
        const yes = await ask({ title: "Overwrite?", input: false, ok: "Overwrite",
          text: `A template named “${name}” exists in the library. Replace it?` });
        if (!yes) return notify("Not saved: the existing template was kept.");
        answer = await api("POST", "/api/v1/templates",
          { name, template: text, overwrite: true }, [422]);
      }
      if (answer.status === 422) {
        const v = answer.data.validation || {};
        setFindings((v.errors || []).map((f) => ({ ...f, level: "error" })));
        throw new UiError("Not saved: " + (answer.data.error || "the template is invalid"));
      }
      state.libraryLoaded = false;
      notify(`Saved as ${answer.data.name || name} (${answer.data.path || "library"}).`);
      if (!$("panel-library").hidden) await loadLibrary();
    });
  }

  // --- the library ---------------------------------------------------------------------

  async function loadLibrary() {
    const { data } = await api("GET", "/api/v1/templates");
    state.libraryLoaded = true;
    showLibrary((data.templates || []).map((t) => ({ name: t.name, path: t.path,
      info: [t.dist, t.arch, t.image_type].filter(Boolean).join(" ") +
        (t.description ? " · " + t.description : "") })));
  }

  function showLibrary(entries, scored = false) {
    ui.library.textContent = "";
    if (!entries.length) {
      ui.library.appendChild(el("li", { class: "muted", text: "No templates found." }));
    }
    for (const t of entries) {
      ui.library.appendChild(el("li", { "data-template": t.name },
        el("button", { type: "button", class: "link open", text: t.name,
          "aria-label": `Open ${t.name}`, onclick: () => openTemplate(t.name) }),
        scored ? el("span", { class: "muted meta", text:
          ` ${t.score.toFixed(2)} (semantic ${t.semantic.toFixed(2)}, keyword ` +
          `${t.keyword.toFixed(2)}, package ${t.package.toFixed(2)})` }) : null,
        t.info ? el("div", { class: "muted meta", text: t.info }) : null));
    }
  }

  function search(event) {
    event.preventDefault();
    return guarded(async () => {
      const q = $("search-q").value.trim();
      if (!q) return loadLibrary();
      const { data } = await api("GET", `/api/v1/search?q=${encodeURIComponent(q)}&top_k=10`);
      showLibrary((data.results || []).map((r) => ({ ...r, name: r.template })), true);
    });
  }

  function openTemplate(name) {
    return guarded(async () => {
      const { data } = await api("GET", `/api/v1/templates/${encodeURIComponent(name)}`);
      state.preview = { name: data.name || name, template: data.template };
      $("preview-name").textContent = state.preview.name;
      renderYaml($("preview-yaml"), data.template);
      $("library-preview").hidden = false;
      $("use-template").focus();
    });
  }

  function useAsStart() {
    const p = state.preview;
    if (!p || state.busy) return;
    newSession();
    const request = `start from ${p.name}`;
    runTurn({ messages: [{ role: "user", content: request }], template_edit: p.template,
      template_origin: p.name }, request);
  }

  // --- wiring --------------------------------------------------------------------------

  function wire() {
    ui.form.addEventListener("submit", sendRequest);
    ui.request.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) sendRequest(e);
    });
    $("new-session").addEventListener("click", newSession);
    $("refresh-sessions").addEventListener("click", () => guarded(refreshSessions));
    $("download").addEventListener("click", download);
    $("copy").addEventListener("click", copy);
    $("apply").addEventListener("click", applyEdit);
    $("check-packages").addEventListener("click", checkPackages);
    $("save").addEventListener("click", saveTemplate);
    $("revert").addEventListener("click", () => { setEditor(state.template); scheduleValidate(0); });
    ui.editor.addEventListener("input", () => editorChanged(true));
    ui.editor.addEventListener("scroll", () => { ui.gutter.scrollTop = ui.editor.scrollTop; });
    $("search-form").addEventListener("submit", search);
    $("use-template").addEventListener("click", useAsStart);
    $("close-preview").addEventListener("click", () => { $("library-preview").hidden = true; });
    for (const tab of document.querySelectorAll("[role=tab]")) {
      tab.addEventListener("click", () => {
        selectTab(tab);
        if (tab.id === "tab-library" && !state.libraryLoaded) guarded(loadLibrary);
      });
      tab.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
        const tabs = [...tab.closest("[role=tablist]").querySelectorAll("[role=tab]")];
        const next = tabs[(tabs.indexOf(tab) + (e.key === "ArrowRight" ? 1 : -1) + tabs.length)
          % tabs.length];
        next.focus();
        next.click();
      });
    }
    window.addEventListener("hashchange", () => {
      const id = sessionFromHash();
      if (id && id !== state.session) resume(id);
    });
  }

  function sessionFromHash() {
    const match = /session=([0-9a-fA-F-]{36})/.exec(location.hash);
    return match ? match[1] : null;
  }

  async function start() {
    wire();
    renderValues({}, { afterTurn: true });
    await guarded(refreshSessions);
    const id = sessionFromHash();
    if (id) await resume(id);
    document.body.dataset.ready = "true";
  }

  start();
})();
