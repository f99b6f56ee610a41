// Enhances the server-rendered page where scripts run: the forms, page links and project links load
// their view in place (the results section only), the address bar and history follow, the result is
// announced to screen readers, choosing a status, severity or KEV filter applies it, and the project
// field suggests the projects its text names. Every link and form works without it.
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

  // After a history step the forms show the values of the view they lead to: every field of the finder
  // forms, whichever filters the server's table gives a field.
  function syncFields(next) {
    document.querySelectorAll('form[data-enhance] [id][name]').forEach((field) => {
      var source = next.getElementById(field.id);
      if (source) field.value = source.value;
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

  document.querySelectorAll('.filter-form select').forEach((select) => {
    select.addEventListener('change', () => {
      select.form.requestSubmit();
    });
  });

  suggestProjects(document.getElementById('filter-project'), document.getElementById('project-suggestions'));

  // The project field's suggestions follow its text: the projects operation (its path is the field's
  // `data-projects`) names the projects it begins or misspells. The server's suggestions (the largest
  // projects) stay when the field is empty or a request fails, and an answer to older text is dropped.
  function suggestProjects(field, list) {
    var path = field?.getAttribute('data-projects');
    if (!path || !list) return;
    var served = [...list.children];
    var typing;
    var asked = 0;
    field.addEventListener('input', () => {
      clearTimeout(typing);
      var ticket = ++asked;
      var text = field.value.trim();
      if (text === '') {
        list.replaceChildren(...served);
        return;
      }
      typing = setTimeout(() => {
        var url = new URL(path, location.href);
        url.searchParams.set('q', text);
        url.searchParams.set('limit', '10');
        fetch(url, { headers: { accept: 'application/json' } })
          .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
          .then((page) => {
            if (ticket !== asked) return; // the text changed meanwhile
            list.replaceChildren(
              ...page.projects.map((project) => {
                var option = document.createElement('option');
                option.value = project.name;
                return option;
              }),
            );
          })
          .catch(() => {
            // The suggestions on screen stay: they are only a help.
          });
      }, 200);
    });
  }
})();
