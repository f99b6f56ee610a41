// Enhances the server-rendered page where scripts run: the forms, page links and project links load
// their view in place (the results section only), the address bar and history follow, the result is
// announced to screen readers, and choosing a status applies it. Every link and form works without it.
(() => {
  'use strict';
  if (!document.getElementById('results') || !window.fetch || !window.DOMParser || !history.pushState) return;
  var live = document.getElementById('live-status');
  var loading = 0;
  // The view on screen; a history step within it (the skip link's #main) loads nothing.
  var shown = withoutFragment(location.href);

  function withoutFragment(url) {
    return url.split('#')[0];
  }

  function show(url, push) {
    var current = document.getElementById('results');
    var ticket = ++loading;
    current.setAttribute('aria-busy', 'true');
    fetch(url, { headers: { accept: 'text/html' } })
      .then((response) => response.text())
      .then((text) => {
        if (ticket !== loading) return; // a later view was asked for meanwhile
        var next = new DOMParser().parseFromString(text, 'text/html');
        var results = next.getElementById('results');
        if (!results) throw new Error('no results in the answer');
        document.getElementById('results').replaceWith(document.adoptNode(results));
        syncFields(next);
        document.title = next.title;
        if (push) history.pushState(null, '', url);
        shown = withoutFragment(url);
        if (live) live.textContent = results.getAttribute('data-summary') || '';
        results.querySelector('h2').focus();
      })
      .catch(() => {
        location.assign(url);
      });
  }

  // After a history step the forms show the values of the view they lead to.
  function syncFields(next) {
    ['search-query', 'filter-project', 'filter-status'].forEach((id) => {
      var field = document.getElementById(id);
      var source = next.getElementById(id);
      if (field && source) field.value = source.value;
    });
  }

  document.addEventListener('submit', (event) => {
    var form = event.target;
    if (!form.hasAttribute('data-enhance')) return;
    event.preventDefault();
    var url = new URL(form.action);
    new FormData(form).forEach((value, name) => {
      if (String(value).trim() !== '') url.searchParams.append(name, value);
    });
    show(url.href, true);
  });

  document.addEventListener('click', (event) => {
    var link = event.target.closest?.('a[data-enhance]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    show(link.href, true);
  });

  window.addEventListener('popstate', () => {
    if (withoutFragment(location.href) !== shown) show(location.href, false);
  });

  var status = document.getElementById('filter-status');
  if (status) {
    status.addEventListener('change', () => {
      status.form.requestSubmit();
    });
  }
})();
