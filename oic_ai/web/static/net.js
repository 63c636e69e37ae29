/* oic-ai in the browser: the server. fetch with the tab's token (a 401 asks for one),
 * JSON calls with one-line errors, the threads of the LangGraph API, and server-sent
 * events read from a fetch body. Exposes window.OicNet; the page's dialog is passed in.
 */
"use strict";

(function () {
  const GRAPH = "oic-ai";
  const TOKEN_KEY = "oic-ai-token";

  class UiError extends Error {}

  let ask = null; // the page's dialog: set by the page (OicNet.useDialog)

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
      const data = response.status === 204 || response.status === 202 ? {} : await response.json();
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

  window.OicNet = {
    GRAPH, UiError, send, problem, api, ensureThread, threadValues, readEvents,
    useDialog(fn) { ask = fn; },
  };
})();
