// Starts Swagger UI on the service's own OpenAPI document. A file rather than an inline script, so the
// page's Content-Security-Policy needs no 'unsafe-inline' for scripts. The plugin and onComplete below
// fix what axe-core finds in Swagger UI's own markup (issue 16); api-reference.css fixes its contrast.
(() => {
  'use strict';

  /** Swagger UI's React elements, rebuilt with `main` as `div`, the rest unchanged. */
  function withoutMain(React, element) {
    if (!React.isValidElement(element)) return element;
    var children = React.Children.map(element.props.children, (child) => withoutMain(React, child));
    var props = Object.assign({}, element.props, { key: element.key });
    return React.createElement(element.type === 'main' ? 'div' : element.type, props, children);
  }

  function accessibleMarkup(system) {
    var React = system.React;
    return {
      wrapComponents: {
        // The page's own <main> holds the whole reference; a second one inside it is a misplaced landmark.
        // Swagger UI wraps its layout in an error boundary whose child is the layout class itself: that
        // child is replaced by a subclass whose markup has no <main>.
        BaseLayout: (Original) => {
          var Layout;
          return class extends Original {
            render() {
              var boundary = super.render();
              var layout = boundary.props.children;
              Layout ??= class extends layout.type {
                render() {
                  return withoutMain(React, super.render());
                }
              };
              return React.cloneElement(boundary, null, React.createElement(Layout, layout.props));
            }
          };
        },
        // The path is a link inside the operation's toggle button, an interactive control inside another;
        // without it the path is text and deep links still open the operation and follow it in the address.
        OperationSummaryPath: (Original) => (props) =>
          React.createElement(
            Original,
            Object.assign({}, props, { operationProps: props.operationProps.set('isDeepLinkingEnabled', false) }),
          ),
        // Swagger UI labels the server list with an empty <label>.
        Servers: (Original) => (props) =>
          React.createElement(
            React.Fragment,
            null,
            React.createElement('label', { htmlFor: 'servers', className: 'visually-hidden' }, 'Server'),
            React.createElement(Original, props),
          ),
      },
    };
  }

  window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    // The validator badge would send the document to a third-party service.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    plugins: [accessibleMarkup],
    onComplete: () => {
      // The document's title is a heading below the page's own <h1>, above the tags' <h3>: level 2.
      document.querySelector('#api-reference .info .title')?.setAttribute('aria-level', '2');
    },
  });
})();
