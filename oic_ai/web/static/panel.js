/* oic-ai in the browser: the template panel (Summary, YAML, Diff, Editor, Packages,
 * Findings), the editor's drafts and live validation, the library, and the page's start.
 * Uses window.OicApp (app.js) for turns, sessions and messages.
 */
"use strict";

(function () {
  const T = window.OicText;
  const N = window.OicNet;
  const V = window.OicView;
  const A = window.OicApp;
  const { el, plural } = V;
  const { api } = N;
  const { state, ui } = A;
  const $ = (id) => document.getElementById(id);
  const VALIDATE_DELAY = 350;

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

  /* Package and plan warnings of the turn: listed in Findings beside the validator's. */
  function turnFindings(values) {
    const out = [];
    const p = values.packages || {};
    for (const name of p.missing || []) {
      const options = (p.suggestions || {})[name] || [];
      out.push({ line: null, path: "packages", code: "package-missing", level: "warning",
        message: `package ${name} is not in the index for this target` +
          (options.length ? ` (suggestions: ${options.join(", ")})` : "") });
    }
    for (const name of p.unverified || []) {
      out.push({ line: null, path: "packages", code: "package-unverified", level: "warning",
        message: `package ${name} is unverified: ` + (p.checked
          ? "no index covers the repository it may come from"
          : "no index, and neither the catalog, the library nor the base template knows it") });
    }
    for (const w of values.warnings || []) {
      out.push({ line: null, path: "plan", code: "plan-warning", level: "warning", message: String(w) });
    }
    return out;
  }

  function badge(values) {
    const v = values.validation || { errors: [], warnings: [] };
    const warnings = (v.warnings || []).length + state.turnFindings.length;
    // a stopped turn leaves no status in the thread: the last finished turn's stands
    const row = (state.sessionList || []).find((s) => s.id === state.session);
    const status = values.status || (values.template && row ? row.status || "" : "");
    V.setBadge(ui.status, status, warnings, (v.errors || []).length);
  }

  /* Put the session's values on the page: badge, template, diff, summary, findings. With
   * ``keepEditor`` (the user's unapplied text) the editor is left alone. */
  function renderValues(values, { afterTurn = false, keepEditor = null } = {}) {
    state.template = values.template || "";
    state.turnFindings = turnFindings(values);
    renderYaml(ui.template, state.template);
    badge(values);
    ui.templateName.textContent = templateName(state.template) || values.base_template || "";
    $("download").disabled = $("copy").disabled = !state.template;
    renderDiff();
    renderPackages(values.packages);
    loadSummary(state.template, values.packages);
    if (!afterTurn) return;
    const invalidDraft = values.status === "invalid" && values.draft;
    if (keepEditor !== null) {
      editorChanged(true);
      A.notify("Your unapplied edit is kept in the editor.");
      return;
    }
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

  /* Diff: the last change that changed something (a question changes nothing). */
  function renderDiff() {
    ui.diff.textContent = "";
    const values = state.values || {};
    let diff = values.diff || "";
    let caption = values.turn ? `Turn ${values.turn}'s changes.` : "The last change.";
    if (!diff.trim()) {
      const last = [...(state.history || [])].reverse().find((h) => (h.diff || "").trim());
      if (last) {
        diff = last.diff;
        caption = `Turn ${last.turn}'s changes (the last turn that changed the template).`;
      }
    }
    $("diff-caption").textContent = diff.trim() ? caption : "No changes yet.";
    if (diff.trim()) ui.diff.appendChild(T.renderDiff(T.unifiedLines(diff), -1));
    else ui.diff.appendChild(el("span", { class: "muted", text: "No changes yet." }));
  }

  async function loadSummary(text, packages) {
    const seq = ++state.summarySeq;
    if (!text) {
      V.renderSummary(ui.summary, null);
      renderPackageList(null, packages);
      return;
    }
    try {
      const { data } = await api("POST", "/api/v1/summary", { template: text });
      if (seq !== state.summarySeq) return;
      V.renderSummary(ui.summary, data, packages);
      renderPackageList(data, packages);
    } catch (err) {
      if (seq === state.summarySeq) ui.summary.textContent = A.errorText(err);
    }
  }

  /* Packages tab: the template's packages (verified or not), and how to sync an index. */
  function renderPackageList(summary, packages) {
    const list = $("package-list");
    const advice = $("sync-advice");
    list.textContent = "";
    advice.textContent = "";
    if (!summary) {
      list.appendChild(el("p", { class: "muted", text: "No template yet." }));
      return;
    }
    const names = [...(summary.packages || []), ...(summary.kernel_packages || [])];
    const p = packages || {};
    const target = [summary.target.dist, summary.target.arch].filter(Boolean).join("/");
    list.appendChild(el("p", { class: "lead", text: `${plural(names.length, "package")} in the ` +
      "template" + (p.checked ? "" : ` · unverified: no package index for ${target || "the target"}`) }));
    list.appendChild(V.packageChips(names, packages));
    if (p.checked) return;
    const sync = summary.sync || {};
    advice.append(
      el("p", { text: "To verify them, sync the target's package index:" }),
      el("div", { class: "command" }, el("code", { class: "cmd", text: sync.command || "" }),
        V.copyButton("Copy the sync command", () => sync.command || "",
          () => A.notify("Command copied."))),
      sync.providerconfig
        ? el("p", { class: "muted" }, "Providerconfig: ", el("code", { class: "providerconfig",
          text: sync.providerconfig }), ` (${sync.note})`)
        : el("p", { class: "muted", text: sync.note || "" }));
  }

  /* Missing packages and their suggestions (a click is a turn). */
  function renderPackages(p) {
    ui.packages.textContent = "";
    if (!p) return;
    if (!p.checked) return; // the list and the sync command above say it all
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
      A.keepDraft();
      return A.runTurn({ messages: [{ role: "user", content: `apply my edit (${name} → ${choice})` }],
        template_edit: edited }, `replace ${name} with ${choice} in my edit`, { applied: edited });
    }
    const request = `remove ${name} and add ${choice}`;
    return A.runTurn({ messages: [{ role: "user", content: request }] }, request);
  }

  function checkPackages() {
    return A.guarded(async () => {
      const text = ui.editor.value;
      if (!text.trim()) throw new N.UiError("The editor is empty: there are no packages to check.");
      const { data } = await api("POST", "/api/v1/packages/check", { template: text });
      renderPackages(data);
      if (!data.checked) {
        ui.packages.appendChild(el("p", { text: "Not checked: " + (data.reason || "no index") }));
      }
    });
  }

  function download() {
    const text = state.template;
    if (!text) return;
    const name = (templateName(text) || "template") + ".yml";
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-yaml" }));
    const link = el("a", { href: url, download: name });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function copy() {
    if (!state.template) return;
    try {
      await navigator.clipboard.writeText(state.template);
    } catch (err) {
      const area = el("textarea", { class: "sr-only", "aria-hidden": "true" });
      area.value = state.template;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    A.notify("Template copied.");
  }

  // --- the editor, its draft and its findings ------------------------------------------

  function setEditor(text) {
    ui.editor.value = text;
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
    const dirty = A.editorDirty();
    ui.editState.textContent = dirty ? "edited, not applied (kept as a draft in this tab)" : "";
    ui.editDiff.textContent = "";
    if (dirty) ui.editDiff.appendChild(T.renderDiff(T.lineDiff(state.template, ui.editor.value), 2));
    if (validate) scheduleValidate(VALIDATE_DELAY);
  }

  /* A session's unapplied draft comes back into the editor (after a reload, or a switch). */
  function restoreDraft(id) {
    const draft = A.readDraft(id);
    if (!draft || !draft.text || draft.text === state.template) return;
    ui.editor.value = draft.text;
    editorChanged(true);
    selectTab($("tab-edit"));
    A.notify("Your unapplied edit was restored into the editor.");
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
      if (seq === state.validateSeq) A.showError(A.errorText(err));
    }
  }

  /* The validator's findings of the editor's text, and the turn's package warnings while
   * the editor holds the session's template. */
  function setFindings(findings) {
    state.findings = findings;
    const shown = [...findings, ...(A.editorDirty() ? [] : state.turnFindings)];
    ui.findings.textContent = "";
    ui.findings.dataset.count = String(shown.length);
    if (!shown.length) {
      const notes = (state.values.not_applied || []).length;
      ui.findings.appendChild(el("li", { class: "muted none", text: "No findings." +
        (notes && !A.editorDirty() ? ` The last answer lists ${plural(notes, "part")} of the ` +
          "request that could not be applied." : "") }));
    }
    for (const f of shown) {
      const where = f.line ? `line ${f.line}` : (f.path || "template");
      ui.findings.appendChild(el("li", { class: "finding " + f.level, "data-line": f.line || "",
        "data-code": f.code || "" },
        el("button", {
          type: "button", class: "link",
          "aria-label": `${f.level} at ${where}: ${f.message}`,
          onclick: () => (f.line ? goToLine(f.line) : selectTab($("tab-packages"))),
        }, el("span", { class: "badge", text: f.level }), ` ${where}: `,
        ...V.withCode(f.message),
        f.code ? el("span", { class: "muted", text: ` (${f.code})` }) : null)));
    }
    editorChanged(false);
  }

  /* Jump to a line: in the editor when it holds an edit, else in the YAML view. */
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
    if (!text.trim()) return A.showError("The editor is empty: nothing to apply.");
    A.runTurn({ messages: [{ role: "user", content: "apply my edit" }], template_edit: text },
      "apply my edit", { applied: text });
  }

  /* "Fix it": a follow-up turn that asks for the fix of the user's own edit. */
  function fixEdit(draft) {
    A.runTurn({ messages: [{ role: "user", content: "fix my edit" }], template_edit: draft,
      fix_edit: true }, "fix my edit", { applied: draft });
  }

  async function revert() {
    if (A.editorDirty()) {
      const yes = await A.ask({ title: "Discard your edit?", input: false, ok: "Discard",
        cancel: "Keep editing",
        text: "The editor's unapplied changes will be replaced by the session's template." });
      if (!yes) return;
    }
    setEditor(state.template);
    A.dropDraft(state.session);
    scheduleValidate(0);
  }

  function saveTemplate() {
    return A.guarded(async () => {
      const text = ui.editor.value;
      const check = await api("POST", "/api/v1/validate", { template: text });
      if (!check.data.valid) {
        setFindings((check.data.errors || []).map((f) => ({ ...f, level: "error" })));
        throw new N.UiError(`Not saved: the template has ${plural((check.data.errors || []).length,
          "error")}; fix the findings first.`);
      }
      const name = await A.ask({ title: "Save to the library", label: "File name",
        text: "The template is written into the templates folder and added to the library.",
        value: templateName(text) || "my-template", ok: "Save" });
      if (!name) return;
      let answer = await api("POST", "/api/v1/templates", { name, template: text }, [409, 422]);
      if (answer.status === 409) {
        const yes = await A.ask({ title: "Overwrite?", input: false, ok: "Overwrite",
          text: `A template named “${name}” exists in the library. Replace it?` });
        if (!yes) return A.notify("Not saved: the existing template was kept.");
        answer = await api("POST", "/api/v1/templates",
          { name, template: text, overwrite: true }, [422]);
      }
      if (answer.status === 422) {
        const v = answer.data.validation || {};
        setFindings((v.errors || []).map((f) => ({ ...f, level: "error" })));
        throw new N.UiError("Not saved: " + (answer.data.error || "the template is invalid"));
      }
      state.catalog = null;
      A.notify(`Saved as ${answer.data.name || name} (${answer.data.path || "library"}).`);
      if (!$("panel-library").hidden) await loadLibrary();
    });
  }

  // --- the library ---------------------------------------------------------------------

  function describe(t) {
    return [t.dist, t.arch, t.image_type].filter(Boolean).join(" ") +
      (t.description ? " · " + t.description : "");
  }

  async function loadLibrary() {
    const { data } = await api("GET", "/api/v1/templates");
    state.catalog = (data.templates || []).map((t) => ({ ...t, info: describe(t) }));
    filterLibrary();
  }

  /* Filter as you type: every word must be in the name, target or description. */
  function filterLibrary() {
    if (!state.catalog) return;
    const words = $("search-q").value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = state.catalog.filter((t) => {
      const hay = (t.name + " " + t.info).toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    showLibrary(shown);
    $("library-count").textContent = words.length
      ? `${shown.length} of ${state.catalog.length} templates match; Search ranks them by meaning.`
      : `${state.catalog.length} templates`;
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
    return A.guarded(async () => {
      const q = $("search-q").value.trim();
      if (!state.catalog) await loadLibrary();
      if (!q) return filterLibrary();
      const { data } = await api("GET", `/api/v1/search?q=${encodeURIComponent(q)}&top_k=10`);
      const known = new Map(state.catalog.map((t) => [t.name, t]));
      const byFile = new Map(state.catalog.map((t) => [t.path, t]));
      showLibrary((data.results || []).map((r) => {
        const entry = known.get(r.template.replace(/\.ya?ml$/, "")) || byFile.get(r.path) ||
          known.get(r.template) || {};
        return { ...r, name: r.template, info: entry.info || "" };
      }), true);
      $("library-count").textContent = `${plural((data.results || []).length, "result")} by meaning`;
    });
  }

  function openTemplate(name) {
    return A.guarded(async () => {
      const { data } = await api("GET", `/api/v1/templates/${encodeURIComponent(name)}`);
      state.preview = { name: data.name || name, template: data.template };
      const entry = (state.catalog || []).find((t) => t.name === state.preview.name) || {};
      $("preview-name").textContent = state.preview.name;
      $("preview-info").textContent = [entry.description,
        [entry.os, entry.dist, entry.arch, entry.image_type].filter(Boolean).join(" / "),
        entry.packages !== undefined ? plural(entry.packages, "package") : ""]
        .filter(Boolean).join(" · ");
      renderYaml($("preview-yaml"), data.template);
      $("template-views").hidden = true;
      $("library-preview").hidden = false;
      $("library-preview").scrollIntoView({ block: "nearest" });
      $("use-template").focus();
    });
  }

  function closePreview() {
    $("library-preview").hidden = true;
    $("template-views").hidden = false;
  }

  function useAsStart() {
    const p = state.preview;
    if (!p || state.busy) return;
    closePreview();
    A.newSession();
    const request = `start from ${p.name}`;
    A.runTurn({ messages: [{ role: "user", content: request }], template_edit: p.template,
      template_origin: p.name }, request);
  }

  // --- wiring and start ----------------------------------------------------------------

  function wire() {
    ui.form.addEventListener("submit", A.sendRequest);
    ui.request.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) A.sendRequest(e);
    });
    ui.request.addEventListener("input", A.countRequest);
    for (const example of document.querySelectorAll("#examples .example")) {
      example.addEventListener("click", () => {
        ui.request.value = example.textContent.trim();
        A.countRequest();
        ui.request.focus();
      });
    }
    ui.stop.addEventListener("click", A.stopTurn);
    $("new-session").addEventListener("click", A.newSession);
    $("refresh-sessions").addEventListener("click", () => A.guarded(A.refreshSessions));
    ui.sessions.addEventListener("keydown", A.sessionKeys);
    $("download").addEventListener("click", download);
    $("copy").addEventListener("click", copy);
    $("apply").addEventListener("click", applyEdit);
    $("check-packages").addEventListener("click", checkPackages);
    $("save").addEventListener("click", saveTemplate);
    $("revert").addEventListener("click", () => A.guarded(revert));
    $("wrap-yaml").addEventListener("change", (e) => {
      ui.template.classList.toggle("wrap", e.target.checked);
    });
    ui.editor.addEventListener("input", () => { editorChanged(true); A.keepDraft(); });
    ui.editor.addEventListener("scroll", () => { ui.gutter.scrollTop = ui.editor.scrollTop; });
    $("search-form").addEventListener("submit", search);
    $("search-q").addEventListener("input", filterLibrary);
    $("use-template").addEventListener("click", useAsStart);
    $("close-preview").addEventListener("click", closePreview);
    for (const tab of document.querySelectorAll("[role=tab]")) {
      tab.addEventListener("click", () => {
        selectTab(tab);
        if (tab.id === "tab-library" && !state.catalog) A.guarded(loadLibrary);
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
      if (id && id !== state.session) A.resume(id);
    });
    setInterval(() => V.ageTimes(), 30000);
  }

  function sessionFromHash() {
    const match = /session=([0-9a-fA-F-]{36})/.exec(location.hash);
    return match ? match[1] : null;
  }

  window.OicPanel = { renderValues, renderDiff, restoreDraft, fixEdit, selectTab };

  async function start() {
    wire();
    A.countRequest();
    renderValues({}, { afterTurn: true });
    ui.request.focus();
    await A.guarded(A.refreshSessions);
    const id = sessionFromHash();
    if (id) await A.resume(id);
    else restoreDraft(null);
    if (!document.querySelector("dialog[open]")) ui.request.focus();
    document.body.dataset.ready = "true";
  }

  start();
})();
