// Starts Swagger UI on the service's own OpenAPI document. A file rather than an inline script, so the
// page's Content-Security-Policy needs no 'unsafe-inline' for scripts.
window.SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  // The validator badge would send the document to a third-party service.
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
});
