// WebMCP tools of the Public CVE Records service: each public read-only operation, registered with the
// browser's model context (navigator.modelContext, or document.modelContext where Chromium puts it)
// when there is one. A call becomes a request to the API of the origin this script was loaded from.
// Where the browser has no WebMCP it does nothing, and it never throws into the page that includes it.
// The service writes its tool definitions, generated from its contract, in place of the argument below.
((tools) => {
  'use strict';
  var origin;
  var context;
  var script;
  try {
    script = document.currentScript;
    origin = new URL(script?.src ? script.src : location.href).origin;
    context = (typeof navigator !== 'undefined' && navigator.modelContext) || document.modelContext;
  } catch {
    // No DOM or no URL support: nothing to register.
    return;
  }
  if (!context || typeof context.registerTool !== 'function') return;
  tools.forEach((tool) => {
    try {
      context.registerTool({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: true },
        execute: (input) => call(tool, input),
      });
    } catch {
      // Already registered (the script included twice), refused, or a model context of another shape:
      // the page goes on without it.
    }
  });

  function call(tool, input) {
    var args = input && typeof input === 'object' ? input : {};
    var url = new URL(origin);
    var path = tool.path;
    var body = {};
    Object.keys(tool.places).forEach((name) => {
      var value = args[name];
      if (value === undefined || value === null) return;
      var place = tool.places[name];
      if (place === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
      else if (place === 'query') url.searchParams.set(name, String(value));
      else body[name] = value;
    });
    url.pathname = path;
    var init = { method: tool.method, headers: { accept: 'application/json' }, credentials: 'omit' };
    if (tool.method === 'POST') {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url.href, init)
      .then((response) =>
        response.json().then((data) => {
          var result = { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
          if (!response.ok) result.isError = true;
          return result;
        }),
      )
      .catch((error) => ({ content: [{ type: 'text', text: `The request failed: ${error?.message}` }], isError: true }));
  }
})(TOOL_DEFINITIONS);
