// The booking page's one script. Everything works without it (links and
// form posts); with it, changing month, day or zone swaps only the calendar
// (one small request, no reload), the visitor's zone is picked from the
// browser, and an embedded page tells its parent what was booked.
(() => {
  const body = document.body;

  // An embed reports to the page that frames it, and only to the origin it
  // named (`parent`): the browser drops the message for any other.
  const report = body.dataset.report;
  const parent = body.dataset.parent;
  if (report && parent && window.parent !== window) {
    const { uid, start, end } = body.dataset;
    window.parent.postMessage({ type: `schedule:${report}`, booking: { uid, start, end } }, parent);
  }

  // A form sent back with errors: focus goes to their list, which links to each field.
  document.getElementById('form-errors')?.focus();

  // The chosen time is held while the form is filled in, so no one else takes
  // it meanwhile, and released when the visitor leaves without booking
  // (docs/booking-page.md "Holds"). Without the script the form still books;
  // the time is only not held.
  const bookForm = document.querySelector('form.book[data-hold]');
  const holdField = bookForm?.querySelector('input[name="hold_id"]');
  if (bookForm && holdField) {
    const formFields = (names) => {
      const sent = new URLSearchParams();
      for (const name of names) sent.set(name, bookForm.querySelector(`input[name="${name}"]`)?.value ?? '');
      return sent;
    };
    let sending = false;
    bookForm.addEventListener('submit', () => {
      sending = true;
    });
    if (!holdField.value) {
      fetch(bookForm.dataset.hold, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
        body: formFields(['form_token', 'start']),
      })
        .then((response) => (response.ok ? response.json() : undefined))
        .then((held) => {
          if (!held) return;
          holdField.value = held.hold_id;
          const note = document.getElementById('held');
          if (note) note.textContent = held.message;
        })
        .catch(() => {});
    }
    window.addEventListener('pagehide', () => {
      if (sending || !holdField.value) return;
      navigator.sendBeacon(bookForm.dataset.release, formFields(['form_token', 'hold_id']));
    });
  }

  const zoneForm = document.querySelector('form[data-zone-form]');

  async function swap(href, how) {
    const target = new URL(href, location.href);
    const fragment = new URL(target);
    fragment.searchParams.set('fragment', '1');
    let text;
    try {
      const response = await fetch(fragment, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (!response.ok && response.status !== 409) throw new Error(String(response.status));
      text = await response.text();
    } catch {
      location.assign(target);
      return;
    }
    const holder = document.getElementById('calendar');
    const template = document.createElement('template');
    template.innerHTML = text;
    const next = template.content.getElementById('calendar');
    if (!holder || !next) {
      location.assign(target);
      return;
    }
    holder.replaceWith(next);
    if (how.history === 'push') history.pushState(null, '', target);
    if (how.history === 'replace') history.replaceState(null, '', target);
    syncZoneForm(target);
    const focus = how.focus && document.querySelector(how.focus);
    if (focus) focus.focus();
  }

  /** The zone form keeps the month and day shown, so changing zone stays on them. */
  function syncZoneForm(url) {
    if (!zoneForm) return;
    for (const name of ['month', 'date']) {
      const input = zoneForm.querySelector(`input[name="${name}"]`);
      const value = url.searchParams.get(name);
      if (input && value) input.value = value;
    }
  }

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-nav]') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // A day moves focus to its times; a month keeps it on the arrow pressed.
    const label = link.getAttribute('aria-label');
    const focus = link.classList.contains('day') ? '#day-title' : `a.nav[aria-label="${CSS.escape(label ?? '')}"]`;
    void swap(link.href, { history: 'push', focus: focus ?? '#month-title' });
  });

  window.addEventListener('popstate', () => {
    if (document.getElementById('calendar')) void swap(location.href, { history: 'none' });
  });

  if (zoneForm) {
    const select = zoneForm.querySelector('select[name="tz"]');
    const button = zoneForm.querySelector('button');
    const chosen = () => {
      const url = new URL(zoneForm.action, location.href);
      for (const [name, value] of new FormData(zoneForm)) url.searchParams.set(name, String(value));
      return url;
    };
    // With the script, the zone changes as it is picked; the button is for pages without it.
    if (button) button.hidden = true;
    zoneForm.addEventListener('change', () => {
      const url = chosen();
      // Links outside the calendar (the language switch) keep the zone too: the simplest is to follow it fully.
      void swap(url, { history: 'push' }).then(() => updateZoneLinks(url.searchParams.get('tz')));
    });
    zoneForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const url = chosen();
      void swap(url, { history: 'push' }).then(() => updateZoneLinks(url.searchParams.get('tz')));
    });
    // The first visit shows the host's zone; the visitor's own comes from the browser, remembered in the address.
    const current = new URL(location.href);
    let browserZone;
    try {
      browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {
      browserZone = undefined;
    }
    if (!current.searchParams.has('tz') && select && browserZone && browserZone !== select.value) {
      const option = [...select.options].find((o) => o.value === browserZone);
      if (option) {
        select.value = browserZone;
        const url = chosen();
        void swap(url, { history: 'replace' }).then(() => updateZoneLinks(browserZone));
      } else {
        // A name the list writes otherwise (Asia/Kolkata where ICU lists Asia/Calcutta): the server renders
        // the whole page in it, its picker naming it, rather than this script guessing which entry it is.
        const url = chosen();
        url.searchParams.set('tz', browserZone);
        location.replace(url);
      }
    }
  }

  /** Links that leave the calendar (the language switch) carry the zone picked. */
  function updateZoneLinks(zone) {
    if (!zone) return;
    for (const link of document.querySelectorAll('.langs a')) {
      const url = new URL(link.href);
      url.searchParams.set('tz', zone);
      link.href = url.toString();
    }
  }
})();
