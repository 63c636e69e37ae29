/* oic-ai page helpers without a framework: a YAML line highlighter and a line diff.
 *
 * Both work on plain text and return DOM nodes, so nothing user-supplied is ever parsed as
 * HTML. Exposed as window.OicText = {highlightLines, lineDiff, unifiedLines}.
 */
"use strict";

(function () {
  const SCALAR = /^(?:true|false|yes|no|on|off|null|~)$/i;
  const NUMBER = /^[-+]?(?:\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|\.inf|\.nan)$/;

  function span(cls, text) {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  /* Where an unquoted comment starts (" #" or a leading "#"), or -1. */
  function commentStart(line) {
    let quote = "";
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === quote && !(quote === '"' && line[i - 1] === "\\")) quote = "";
      } else if (c === '"' || c === "'") {
        const before = line.slice(0, i).trimEnd();
        if (before === "" || /[:\-\[{,]$/.test(before)) quote = c;
      } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) {
        return i;
      }
    }
    return -1;
  }

  function scalarNodes(out, text) {
    const value = text.trim();
    if (!value) {
      out.push(document.createTextNode(text));
      return;
    }
    const lead = text.slice(0, text.indexOf(value));
    const tail = text.slice(lead.length + value.length);
    if (lead) out.push(document.createTextNode(lead));
    let cls = "";
    if (/^["']/.test(value)) cls = "y-str";
    else if (NUMBER.test(value)) cls = "y-num";
    else if (SCALAR.test(value)) cls = "y-bool";
    else if (/^[&*][\w-]+/.test(value)) cls = "y-anchor";
    else if (/^[|>][-+0-9]*$/.test(value)) cls = "y-block";
    else if (/^!/.test(value)) cls = "y-tag";
    out.push(cls ? span(cls, value) : document.createTextNode(value));
    if (tail) out.push(document.createTextNode(tail));
  }

  /* Highlight one line of YAML into a list of nodes. */
  function highlightLine(line, inBlock) {
    const out = [];
    if (inBlock) {
      out.push(span("y-str", line));
      return out;
    }
    if (/^(?:---|\.\.\.)\s*$/.test(line)) {
      out.push(span("y-doc", line));
      return out;
    }
    const hash = commentStart(line);
    const code = hash >= 0 ? line.slice(0, hash) : line;
    let rest = code;
    const indent = /^\s*/.exec(rest)[0];
    if (indent) out.push(document.createTextNode(indent));
    rest = rest.slice(indent.length);
    while (/^-(?:\s|$)/.test(rest)) {
      const dash = /^-\s*/.exec(rest)[0];
      out.push(span("y-dash", "-"));
      if (dash.length > 1) out.push(document.createTextNode(dash.slice(1)));
      rest = rest.slice(dash.length);
    }
    const key = /^((?:"[^"]*"|'[^']*'|[^\s#:][^#:]*?))(\s*:)(?=\s|$)/.exec(rest);
    if (key) {
      out.push(span("y-key", key[1]));
      out.push(span("y-punct", key[2]));
      rest = rest.slice(key[0].length);
    }
    if (rest) scalarNodes(out, rest);
    if (hash >= 0) out.push(span("y-comment", line.slice(hash)));
    return out;
  }

  /* One <span class="line" data-line="N"> per line of ``text`` (block scalars tracked). */
  function highlightLines(text) {
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const frag = document.createDocumentFragment();
    let blockIndent = -1;
    lines.forEach((line, i) => {
      const indent = /^\s*/.exec(line)[0].length;
      const blank = line.trim() === "";
      const inBlock = blockIndent >= 0 && (blank || indent > blockIndent);
      if (!inBlock) blockIndent = -1;
      const row = document.createElement("span");
      row.className = "line";
      row.dataset.line = String(i + 1);
      for (const node of highlightLine(line, inBlock)) row.appendChild(node);
      row.appendChild(document.createTextNode("\n"));
      frag.appendChild(row);
      if (!inBlock && /:\s*[|>][-+0-9]*\s*(?:#.*)?$/.test(line)) {
        blockIndent = indent;
      }
    });
    return frag;
  }

  /* A line diff of two texts: [{op: " "|"-"|"+", text, a, b}] (a/b: 1-based line numbers).
   * Longest common subsequence after trimming the common head and tail; a huge middle part
   * (over 4 million cells) falls back to "all removed, all added". */
  function lineDiff(before, after) {
    const a = before ? before.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n") : [];
    const b = after ? after.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n") : [];
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (
      tail < a.length - head && tail < b.length - head &&
      a[a.length - 1 - tail] === b[b.length - 1 - tail]
    ) tail++;
    const ma = a.slice(head, a.length - tail);
    const mb = b.slice(head, b.length - tail);
    const out = [];
    for (let i = 0; i < head; i++) out.push({ op: " ", text: a[i], a: i + 1, b: i + 1 });
    if (ma.length * mb.length > 4e6) {
      ma.forEach((t, i) => out.push({ op: "-", text: t, a: head + i + 1, b: null }));
      mb.forEach((t, j) => out.push({ op: "+", text: t, a: null, b: head + j + 1 }));
    } else {
      const n = ma.length, m = mb.length;
      const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
      for (let i = n - 1; i >= 0; i--) {
        for (let j = m - 1; j >= 0; j--) {
          table[i][j] = ma[i] === mb[j] ? table[i + 1][j + 1] + 1
            : Math.max(table[i + 1][j], table[i][j + 1]);
        }
      }
      let i = 0, j = 0;
      while (i < n || j < m) {
        if (i < n && j < m && ma[i] === mb[j]) {
          out.push({ op: " ", text: ma[i], a: head + i + 1, b: head + j + 1 });
          i++; j++;
        } else if (j < m && (i >= n || table[i][j + 1] >= table[i + 1][j])) {
          out.push({ op: "+", text: mb[j], a: null, b: head + j + 1 });
          j++;
        } else {
          out.push({ op: "-", text: ma[i], a: head + i + 1, b: null });
          i++;
        }
      }
    }
    const offA = a.length - tail, offB = b.length - tail;
    for (let k = 0; k < tail; k++) {
      out.push({ op: " ", text: a[offA + k], a: offA + k + 1, b: offB + k + 1 });
    }
    return out;
  }

  /* Parse a unified diff into the same row shape (headers dropped, hunks kept). */
  function unifiedLines(diff) {
    const out = [];
    let a = 0, b = 0;
    for (const line of diff.replace(/\r\n?/g, "\n").split("\n")) {
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (hunk) {
        a = Number(hunk[1]); b = Number(hunk[2]);
        out.push({ op: "@", text: line, a: null, b: null });
      } else if (line.startsWith("---") || line.startsWith("+++")) {
        continue;
      } else if (line.startsWith("+")) {
        out.push({ op: "+", text: line.slice(1), a: null, b: b++ });
      } else if (line.startsWith("-")) {
        out.push({ op: "-", text: line.slice(1), a: a++, b: null });
      } else if (line.startsWith(" ")) {
        out.push({ op: " ", text: line.slice(1), a: a++, b: b++ });
      }
    }
    return out;
  }

  /* Diff rows as DOM, with only ``context`` unchanged lines around each change. */
  function renderDiff(rows, context) {
    const frag = document.createDocumentFragment();
    const keep = rows.map((r) => r.op !== " ");
    if (context >= 0) {
      rows.forEach((r, i) => {
        if (r.op !== " ") {
          for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) {
            keep[k] = true;
          }
        }
      });
    } else {
      keep.fill(true);
    }
    let skipped = false;
    rows.forEach((r, i) => {
      if (!keep[i]) {
        if (!skipped) {
          frag.appendChild(span("d-skip", "\u22ef\n"));
          skipped = true;
        }
        return;
      }
      skipped = false;
      const cls = { "+": "d-add", "-": "d-del", "@": "d-hunk", " ": "d-same" }[r.op];
      const num = r.op === "@" ? "" : String(r.b || r.a || "");
      const row = span("dline " + cls, "");
      row.appendChild(span("d-num", num.padStart(4, " ") + " "));
      row.appendChild(span("d-op", r.op === "@" ? "" : r.op + " "));
      row.appendChild(document.createTextNode(r.text + "\n"));
      frag.appendChild(row);
    });
    return frag;
  }

  window.OicText = { highlightLines, lineDiff, unifiedLines, renderDiff };
})();
