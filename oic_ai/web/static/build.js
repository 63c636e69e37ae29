/* The page's Build action: shown only when the server has a composer (GET /api/v1/build).
 * "Build" sends the template in the Template panel to POST /api/v1/build, shows each stage
 * the server streams (server-sent events: stage, then report or error), then the verify
 * table: one row per check, with the known composer behaviour that explains a difference.
 * Kept apart from app.js: it reads only the Template panel and the session's token. */
(function () {
  "use strict";
  const TOKEN_KEY = "oic-ai-token";
  const $ = (id) => document.getElementById(id);

  function headers(json) {
    const h = json ? { "Content-Type": "application/json" } : {};
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) h.Authorization = "Bearer " + token;
    return h;
  }

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    row.appendChild(td);
  }

  function showReport(report) {
    const table = $("build-verify");
    table.replaceChildren();
    const say = (line) => { $("build-log").textContent += line + "\n"; };
    if (!report.ok) { say("The composer failed: " + (report.error || "")); return; }
    say("Built: " + (report.image || "no raw image") + " (" +
        report.stages.map((s) => s.name + " " + s.seconds + " s").join(", ") + ")");
    if (!report.verify) { say("Not verified: " + (report.verify_skipped || "")); return; }
    const head = table.insertRow();
    ["", "check", "template", "image"].forEach((h) => cell(head, h, "head"));
    for (const c of report.verify.checks) {
      const row = table.insertRow();
      cell(row, c.ok ? "ok" : c.known ? "known" : "differs", c.ok ? "ok" : c.known ? "known" : "bad");
      cell(row, c.what + (c.known ? " (" + c.known + ")" : ""));
      cell(row, c.expected);
      cell(row, c.found);
    }
    const verdict = report.verify.matches ? "The image matches the template."
      : report.verify.explained ? "The image matches, but for known composer behaviour."
      : "The image differs from the template.";
    say(verdict);
    if (report.boot) say(report.boot.login ? "Boot: " + report.boot.prompt : "Boot failed: " + report.boot.reason);
  }

  async function build() {
    const button = $("build-start");
    const log = $("build-log");
    const template = ($("template") || {}).textContent || "";
    if (!template.trim()) { log.textContent = "No template to build yet.\n"; return; }
    button.disabled = true;
    log.textContent = "";
    $("build-verify").replaceChildren();
    try {
      const response = await fetch("/api/v1/build", {
        method: "POST", headers: headers(true), body: JSON.stringify({ template }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        log.textContent = (body.error || response.statusText) + (body.fix ? " (" + body.fix + ")" : "") + "\n";
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const kind = (frame.match(/^event: (.*)$/m) || [])[1];
          const data = JSON.parse((frame.match(/^data: (.*)$/m) || [])[1] || "{}");
          if (kind === "stage") log.textContent += data.line + "\n";
          else if (kind === "report") showReport(data);
          else if (kind === "error") log.textContent += data.error + (data.fix ? " (" + data.fix + ")" : "") + "\n";
        }
      }
    } catch (err) {
      log.textContent += "The build stream broke: " + err + "\n";
    } finally {
      button.disabled = false;
    }
  }

  async function start() {
    try {
      const response = await fetch("/api/v1/build", { headers: headers(false) });
      if (!response.ok) return;
      const info = await response.json();
      if (!info.enabled) return;
    } catch (err) {
      return;
    }
    $("build-box").hidden = false;
    $("build-start").addEventListener("click", build);
  }

  /* Ask once the page is ready (app.js sets body[data-ready]): on a server with users the
   * token is known by then, so the question is never refused. */
  function whenReady() {
    if (document.body.dataset.ready === "true") { start(); return; }
    const watch = new MutationObserver(() => {
      if (document.body.dataset.ready === "true") { watch.disconnect(); start(); }
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  }

  document.addEventListener("DOMContentLoaded", whenReady);
})();
