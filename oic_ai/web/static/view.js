/* oic-ai in the browser: how things look. DOM building (text only, never innerHTML with
 * data), relative times, the status badge, formatted answers and the template's Summary.
 * Exposes window.OicView.
 */
"use strict";

(function () {
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

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  /* "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", else the date. */
  function relativeTime(when, now = Date.now()) {
    const t = typeof when === "number" ? when : Date.parse(when);
    if (!t || Number.isNaN(t)) return "";
    const s = Math.max(0, Math.round((now - t) / 1000));
    if (s < 45) return "just now";
    if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
    if (s < 86400) return `${Math.round(s / 3600)} h ago`;
    if (s < 172800) return "yesterday";
    if (s < 7 * 86400) return `${Math.round(s / 86400)} days ago`;
    return new Date(t).toISOString().slice(0, 10);
  }

  function timeEl(when) {
    const t = typeof when === "number" ? when : Date.parse(when);
    if (!t || Number.isNaN(t)) return null;
    return el("time", { class: "when muted", datetime: new Date(t).toISOString(),
      title: new Date(t).toLocaleString(), text: relativeTime(t) });
  }

  /* Refresh every relative time on the page (they age). */
  function ageTimes(root = document) {
    for (const node of root.querySelectorAll("time.when")) {
      node.textContent = relativeTime(node.getAttribute("datetime"));
    }
  }

  const STATUS_TEXT = {
    valid: "Valid", valid_with_warnings: "Valid", invalid: "Invalid",
    unsupported: "Unsupported", working: "Working…", stopped: "Stopped", "": "No template yet",
  };

  /* The badge's words: "Valid", "Valid · 2 warnings", "Invalid · 1 error", ... */
  function statusText(status, warnings = 0, errors = 0) {
    let text = STATUS_TEXT[status] ?? status;
    if (status === "valid_with_warnings") {
      text += warnings ? ` · ${plural(warnings, "warning")}` : " · see the notes";
    } else if (status === "invalid" && errors) {
      text += ` · ${plural(errors, "error")}`;
    }
    return text;
  }

  function setBadge(output, status, warnings, errors) {
    output.dataset.status = status || "";
    output.className = "badge badge-" + (status || "none");
    output.textContent = statusText(status || "", warnings, errors);
  }

  /* Text with package names (after "packages", in "Unverified packages: a, b") as code. */
  function withCode(text) {
    const out = [];
    const re = /\b((?:kernel )?packages?:? )([A-Za-z0-9][\w.+:~-]*(?:, [A-Za-z0-9][\w.+:~-]*)*)/g;
    let last = 0;
    let m;
    while ((m = re.exec(text))) {
      out.push(text.slice(last, m.index) + m[1]);
      m[2].split(", ").forEach((name, i) => {
        if (i) out.push(", ");
        out.push(el("code", { text: name }));
      });
      last = m.index + m[0].length;
    }
    out.push(text.slice(last));
    return out;
  }

  function splitItems(text) {
    return text.replace(/\.$/, "").split(/; (?=[a-z(])/).filter(Boolean);
  }

  /* A turn's summary message as formatted parts: lists as lists, names as code. The
   * status line becomes its reasons (the badge says the status); the package-sync hint
   * is left to the Packages tab; "not applied" items are left out when the answer lists
   * them itself (``skipNotApplied``). */
  function formatAnswer(text, { skipNotApplied = false, reasons = null } = {}) {
    const box = el("div", { class: "answer-body" });
    for (const line of String(text || "").split("\n")) {
      if (!line.trim()) continue;
      let m;
      if ((m = /^Changes: (.*)$/.exec(line))) {
        const items = m[1] === "none." ? [] : splitItems(m[1]);
        if (!items.length) { box.appendChild(el("p", { class: "muted", text: "No changes." })); continue; }
        box.appendChild(el("p", { class: "label", text: "Changes" }));
        box.appendChild(el("ul", { class: "changes" }, items.map((c) => el("li", {}, withCode(c)))));
      } else if ((m = /^Status: ([a-z_]+)\.(?: (.*))?$/.exec(line))) {
        const why = (reasons || (m[2] ? splitItems(m[2]) : [])).filter((r) =>
          !(skipNotApplied && r.startsWith("not applied")));
        if (why.length) {
          box.appendChild(el("p", { class: "label", text: m[1] === "invalid" ? "Why invalid" : "Notes" }));
          box.appendChild(el("ul", { class: "reasons" }, why.map((r) => el("li", {}, withCode(r)))));
        }
      } else if (/^Unverified packages: /.test(line)) {
        continue; // the status line's reasons name them
      } else if ((m = /^Packages not checked: ([^.]*)\./.exec(line))) {
        box.appendChild(el("p", { class: "muted",
          text: `Packages not checked (${m[1]}): see the Packages tab.` }));
      } else {
        box.appendChild(el("p", {}, withCode(line)));
      }
    }
    return box;
  }

  function scoresTable(sources) {
    const fmt = (x) => (typeof x === "number" ? x.toFixed(2) : "");
    return el("div", { class: "table-scroll", tabindex: "0", role: "region",
      "aria-label": "Candidate templates and their scores" },
    el("table", { class: "scores" },
      el("thead", {}, el("tr", {}, ["template", "score", "semantic", "keyword", "package"]
        .map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, sources.map((s) => el("tr", {},
        el("td", { text: s.template }), el("td", { text: fmt(s.score) }),
        el("td", { text: fmt(s.semantic) }), el("td", { text: fmt(s.keyword) }),
        el("td", { text: fmt(s.package) }))))));
  }

  /* How each package stands: verified (in the index), missing, or unverified. */
  function packageMarks(names, packages) {
    const p = packages || {};
    const found = new Set(p.found || []);
    const missing = new Set(p.missing || []);
    return names.map((name) => {
      if (p.checked && found.has(name)) return [name, "verified"];
      if (p.checked && missing.has(name)) return [name, "missing"];
      return [name, "unverified"];
    });
  }

  function packageChips(names, packages) {
    return el("ul", { class: "chips" }, packageMarks(names, packages).map(([name, mark]) =>
      el("li", { class: "chip " + mark, "data-package": name, "data-mark": mark },
        el("code", { text: name }), el("span", { class: "mark", text: mark }))));
  }

  const PART_COLOURS = 6;

  /* The disk as a bar: one segment per partition, widths by size. */
  function diskBar(disk) {
    const parts = disk.partitions || [];
    const total = disk.size_mib || Math.max(0, ...parts.map((p) => p.end_mib || p.start_mib || 0));
    const bar = el("div", { class: "diskbar", role: "img",
      "aria-label": "Disk layout: " + parts.map((p) => `${p.id} ${p.start || "?"} to ${p.end === "0" ? "the end" : (p.end || "?")}`).join(", ") });
    parts.forEach((p, i) => {
      const start = p.start_mib || 0;
      const end = p.end_mib || total;
      const width = total ? Math.max(2, ((end - start) / total) * 100) : 100 / parts.length;
      bar.appendChild(el("span", { class: `seg seg-${i % PART_COLOURS}`, style: `flex-basis:${width}%`,
        title: `${p.id}: ${p.start} – ${p.end === "0" ? "end" : p.end}`, text: p.mount || p.id }));
    });
    return bar;
  }

  function section(title, ...content) {
    return el("section", { class: "sum" }, el("h3", { class: "small", text: title }), ...content);
  }

  /* The Summary tab: target, disk, packages, users, repositories. */
  function renderSummary(box, s, packages) {
    box.textContent = "";
    if (!s) { box.appendChild(el("p", { class: "muted", text: "No template yet." })); return; }
    const t = s.target || {};
    if (s.description) box.appendChild(el("p", { class: "desc", text: s.description }));
    box.appendChild(section("Target", el("dl", { class: "facts" },
      [["OS", t.os], ["Dist", t.dist], ["Arch", t.arch], ["Image type", t.image_type],
        ["Hostname", s.hostname]].filter(([, v]) => v)
        .flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, el("code", { text: v }))]))));
    const disk = s.disk || {};
    box.appendChild(section("Disk" + (disk.size ? ` · ${disk.size}` : "") +
      (disk.partition_table ? ` · ${disk.partition_table}` : ""),
    (disk.partitions || []).length ? diskBar(disk) : el("p", { class: "muted", text: "No partitions." }),
    el("ul", { class: "parts" }, (disk.partitions || []).map((p) => el("li", {},
      el("code", { text: p.id }), ` ${p.mount || "(no mount)"} · ${p.fs || p.type || ""} · ` +
      `${p.start || "?"} – ${p.end === "0" ? "end of disk" : (p.end || "?")}`)))));
    const names = [...(s.packages || []), ...(s.kernel_packages || [])];
    const marks = packageMarks(names, packages);
    const verified = marks.filter(([, m]) => m === "verified").length;
    box.appendChild(section(`Packages · ${names.length}` +
      (packages && packages.checked ? ` · ${verified} verified` : " · unverified (no index)"),
    packageChips(names, packages)));
    box.appendChild(section("Users", (s.users || []).length
      ? el("ul", {}, s.users.map((u) => el("li", {}, el("code", { text: u.name || "?" }),
        (u.sudo ? " · sudo" : "") + (u.groups.length ? " · " + u.groups.join(", ") : ""))))
      : el("p", { class: "muted", text: "None." })));
    box.appendChild(section("Repositories", (s.repositories || []).length
      ? el("ul", {}, s.repositories.map((r) => el("li", {},
        el("code", { text: r.codename || "?" }), r.url ? " " + r.url : "")))
      : el("p", { class: "muted", text: "Only the distribution's own." })));
  }

  /* A copy button: copies ``text()`` and says so in its label for a moment. */
  function copyButton(label, text, done) {
    return el("button", { type: "button", class: "small copy-answer", "aria-label": label,
      text: "Copy", onclick: async (event) => {
        const button = event.currentTarget;
        const value = text();
        try {
          await navigator.clipboard.writeText(value);
        } catch (err) {
          const area = el("textarea", { class: "sr-only", "aria-hidden": "true" });
          area.value = value;
          document.body.appendChild(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        button.textContent = "Copied";
        setTimeout(() => { button.textContent = "Copy"; }, 1500);
        if (done) done();
      } });
  }

  window.OicView = {
    el, plural, relativeTime, timeEl, ageTimes, statusText, setBadge, withCode, formatAnswer,
    scoresTable, packageMarks, packageChips, renderSummary, copyButton,
  };
})();
