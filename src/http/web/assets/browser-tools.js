// WebMCP tools of the Public CVE Records service: each public read-only operation, registered with the
// browser's model context (navigator.modelContext, or document.modelContext where Chromium puts it)
// when there is one. A call becomes a request to the API of the origin this script was loaded from.
// Where the browser has no WebMCP it does nothing, and it never throws into the page that includes it.
// The service writes its tool definitions, generated from its contract, in place of the argument below.
(function (tools) {
  'use strict';
  try {
    var script = document.currentScript;
    var origin = new URL(script && script.src ? script.src : location.href).origin;
    var context = (typeof navigator !== 'undefined' && navigator.modelContext) || document.modelContext;
    if (!context || typeof context.registerTool !== 'function') return;
    tools.forEach(function (tool) {
      try {
        context.registerTool({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          annotations: { readOnlyHint: true },
          execute: function (input) {
            return call(tool, input);
          },
        });
      } catch (error) {
        // Already registered (the script included twice) or refused: the page goes on without it.
      }
    });
  } catch (error) {
    // No DOM, no URL support or a model context of another shape: nothing to register.
  }

  function call(tool, input) {
    var args = input && typeof input === 'object' ? input : {};
    var url = new URL(origin);
    var path = tool.path;
    var body = {};
    Object.keys(tool.places).forEach(function (name) {
      var value = args[name];
      if (value === undefined || value === null) return;
      var place = tool.places[name];
      if (place === 'path') path = path.replace('{' + name + '}', encodeURIComponent(String(value)));
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
      .then(function (response) {
        return response.json().then(function (data) {
          var result = { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
          if (!response.ok) result.isError = true;
          return result;
        });
      })
      .catch(function (error) {
        return { content: [{ type: 'text', text: 'The request failed: ' + (error && error.message) }], isError: true };
      });
  }
})(TOOL_DEFINITIONS);
