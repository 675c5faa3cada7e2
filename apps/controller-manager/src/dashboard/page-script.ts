// The status page's script, inlined into the page (and hashed into its Content-Security-Policy). Plain
// browser JavaScript, no framework and no build step: it opens /events, renders each `status` event into
// keyed rows (so rows keep their identity and data-testid across updates) and ticks the clocks between
// events. Text goes in through textContent only, never as HTML. Keep it free of backticks and dollar-brace,
// since it lives in a template literal.
export const PAGE_SCRIPT = `
(function () {
  'use strict';
  var nf = new Intl.NumberFormat('en-US');
  var snap = null;
  var receivedAt = 0;
  var groups = new Map();
  var controllers = new Map();
  var retryMs = 1000;
  var retryTimer = 0;

  function byId(id) { return document.getElementById(id); }
  function make(tag, className, testid) {
    var n = document.createElement(tag);
    if (className) n.className = className;
    if (testid) n.setAttribute('data-testid', testid);
    return n;
  }
  function put(node, text) { if (node.textContent !== text) node.textContent = text; }
  function cls(node, name) { if (node.className !== name) node.className = name; }
  function attr(node, name, value) { if (node.getAttribute(name) !== value) node.setAttribute(name, value); }
  function show(node, visible) { if (node.hidden === visible) node.hidden = !visible; }
  // Inserts node right after prev unless it is already there, so unchanged rows are never moved.
  function place(parent, node, prev) {
    var want = prev ? prev.nextSibling : parent.firstChild;
    if (want !== node) parent.insertBefore(node, want);
  }
  function num(n) { return nf.format(n); }
  function pad(n) { return n < 10 ? '0' + n : String(n); }
  function dur(ms) {
    var s = Math.max(0, ms) / 1000;
    if (s < 60) return s.toFixed(1) + 's';
    var t = Math.floor(s), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60);
    return h === 0 ? m + 'm' + pad(t % 60) + 's' : h + 'h' + pad(m) + 'm';
  }
  function since() { return snap ? performance.now() - receivedAt : 0; }

  function newGroup(cluster) {
    var body = make('tbody', '', 'cluster-' + cluster);
    var tr = make('tr', 'group');
    var th = make('th');
    th.colSpan = 6;
    var name = make('span', '', 'cluster-name-' + cluster);
    name.textContent = cluster;
    var meta = make('span', 'meta', 'cluster-summary-' + cluster);
    th.appendChild(name);
    th.appendChild(meta);
    tr.appendChild(th);
    body.appendChild(tr);
    var g = { body: body, head: tr, meta: meta, rows: new Map() };
    groups.set(cluster, g);
    return g;
  }

  function newInformerRow(g, key, resource) {
    var r = { tr: make('tr', '', 'informer-row-' + key), item: null };
    var name = make('td', 'name', 'informer-resource-' + key);
    name.textContent = resource;
    var state = make('td');
    r.badge = make('span', 'pill', 'informer-state-' + key);
    state.appendChild(r.badge);
    r.objects = make('td', 'num', 'informer-objects-' + key);
    r.rate = make('td', 'num', 'informer-rate-' + key);
    r.waiting = make('td', 'num', 'informer-waiting-' + key);
    var detail = make('td', 'detail');
    r.bar = make('div', 'bar', 'informer-bar-' + key);
    r.bar.appendChild(make('i'));
    r.progress = make('div', 'detail-text', 'informer-progress-' + key);
    r.error = make('div', 'detail-text bad-text', 'informer-error-' + key);
    detail.appendChild(r.bar);
    detail.appendChild(r.progress);
    detail.appendChild(r.error);
    [name, state, r.objects, r.rate, r.waiting, detail].forEach(function (td) { r.tr.appendChild(td); });
    g.rows.set(resource, r);
    return r;
  }

  function fillInformer(r, i) {
    r.item = i;
    var label = i.state === 'open' ? 'synced' : i.state === 'failed' ? 'failed' : 'listing';
    put(r.badge, label);
    cls(r.badge, 'pill ' + (i.state === 'open' ? 'ok' : i.state === 'failed' ? 'bad' : 'warn'));
    attr(r.badge, 'data-state', i.state);
    put(r.objects, num(i.objects));
    attr(r.objects, 'data-value', String(i.objects));
    put(r.rate, i.listRatePerSecond == null ? '\\u2013' : num(Math.round(i.listRatePerSecond)) + '/s');
    // Only lists under way get a bar, so the rows still listing stand out in a long table.
    show(r.bar, i.state === 'pending');
    put(r.progress, i.state === 'pending' ? i.progress || 'listing\\u2026' : i.state === 'open' ? 'watching' : '');
    show(r.progress, i.state !== 'failed');
    put(r.error, i.state === 'failed' ? i.error || 'failed' : '');
    show(r.error, i.state === 'failed');
    r.tr.title = i.state === 'pending' ? 'waiting since the informer started' : i.state === 'open' ? 'time the initial list took' : '';
  }

  function renderInformers(list) {
    var table = byId('informers');
    var byCluster = new Map();
    list.forEach(function (i) {
      if (!byCluster.has(i.cluster)) byCluster.set(i.cluster, []);
      byCluster.get(i.cluster).push(i);
    });
    groups.forEach(function (g, cluster) {
      if (!byCluster.has(cluster)) { g.body.remove(); groups.delete(cluster); }
    });
    var prevBody = byId('inf-empty');
    var total = 0, synced = 0, failed = 0;
    byCluster.forEach(function (items, cluster) {
      var g = groups.get(cluster) || newGroup(cluster);
      place(table, g.body, prevBody);
      prevBody = g.body;
      var keep = new Set(), prev = g.head, ok = 0, bad = 0, objects = 0;
      items.forEach(function (i) {
        var r = g.rows.get(i.resource) || newInformerRow(g, cluster + '/' + i.resource, i.resource);
        place(g.body, r.tr, prev);
        prev = r.tr;
        fillInformer(r, i);
        keep.add(i.resource);
        objects += i.objects;
        if (i.state === 'open') ok++;
        if (i.state === 'failed') bad++;
      });
      g.rows.forEach(function (r, resource) {
        if (!keep.has(resource)) { r.tr.remove(); g.rows.delete(resource); }
      });
      put(g.meta, ok + '/' + items.length + ' synced' + (bad ? ', ' + bad + ' failed' : '') + ' \\u00b7 ' + num(objects) + ' objects');
      total += items.length; synced += ok; failed += bad;
    });
    show(byId('inf-empty'), list.length === 0);
    put(byId('inf-count'), list.length ? synced + ' of ' + total + ' synced' + (failed ? ', ' + failed + ' failed' : '') : '');
    return { total: total, synced: synced, failed: failed };
  }

  function newControllerRow(name) {
    var r = { tr: make('tr', '', 'controller-row-' + name), item: null };
    var n = make('td', 'name', 'controller-name-' + name);
    n.textContent = name;
    var status = make('td');
    r.state = make('span', 'pill', 'controller-state-' + name);
    status.appendChild(r.state);
    r.queue = make('td', 'num', 'controller-queue-' + name);
    r.inFlight = make('td', 'num', 'controller-in-flight-' + name);
    r.waits = make('td', 'num', 'controller-reader-waits-' + name);
    var last = make('td', 'detail');
    r.none = make('span', 'muted', 'controller-no-error-' + name);
    r.none.textContent = '\\u2013';
    r.errKey = make('span', 'err-key', 'controller-last-error-key-' + name);
    r.errAge = make('span', 'err-age', 'controller-last-error-age-' + name);
    r.errMsg = make('div', 'err-msg', 'controller-last-error-' + name);
    var line = make('div');
    line.appendChild(r.errKey);
    line.appendChild(document.createTextNode(' '));
    line.appendChild(r.errAge);
    r.errLine = line;
    last.appendChild(r.none);
    last.appendChild(line);
    last.appendChild(r.errMsg);
    [n, status, r.queue, r.inFlight, r.waits, last].forEach(function (td) { r.tr.appendChild(td); });
    controllers.set(name, r);
    return r;
  }

  function fillController(r, c) {
    r.item = c;
    var waiting = c.waitingFor != null;
    put(r.state, waiting ? 'waiting for ' + c.waitingFor : 'running');
    cls(r.state, 'pill ' + (waiting ? 'warn' : 'ok'));
    attr(r.state, 'data-waiting-for', waiting ? c.waitingFor : '');
    put(r.queue, num(c.queueDepth));
    attr(r.queue, 'data-value', String(c.queueDepth));
    put(r.inFlight, num(c.inFlight));
    attr(r.inFlight, 'data-value', String(c.inFlight));
    put(r.waits, num(c.readerWaits));
    attr(r.waits, 'data-value', String(c.readerWaits));
    var e = c.lastError;
    show(r.none, !e);
    show(r.errLine, !!e);
    show(r.errMsg, !!e);
    put(r.errKey, e ? e.key : '');
    put(r.errMsg, e ? e.message : '');
  }

  function renderControllers(list) {
    var body = byId('ctl-body');
    var keep = new Set(), prev = null, queued = 0, inFlight = 0;
    list.forEach(function (c) {
      var r = controllers.get(c.name) || newControllerRow(c.name);
      place(body, r.tr, prev);
      prev = r.tr;
      fillController(r, c);
      keep.add(c.name);
      queued += c.queueDepth;
      inFlight += c.inFlight;
    });
    controllers.forEach(function (r, name) {
      if (!keep.has(name)) { r.tr.remove(); controllers.delete(name); }
    });
    show(byId('ctl-empty'), list.length === 0);
    var running = list.filter(function (c) { return c.waitingFor == null; }).length;
    put(byId('ctl-count'), list.length ? running + ' of ' + list.length + ' running' : '');
    put(byId('queued'), num(queued) + ' queued');
    put(byId('in-flight'), num(inFlight) + ' in flight');
  }

  function render(s) {
    put(byId('strategy'), s.strategy);
    var leading = s.leader.leading;
    var leader = byId('leader');
    put(leader, leading ? 'leading' : 'standby');
    cls(leader, 'value ' + (leading ? 'ok-text' : 'warn-text'));
    put(byId('leader-holder'), leading ? 'this replica: ' + s.leader.identity
      : s.leader.holder ? 'leader: ' + s.leader.holder : 'no leader yet');
    byId('leader-holder').title = 'this replica: ' + s.leader.identity;
    var counts = renderInformers(s.informers);
    var ready = byId('ready');
    put(ready, s.ready ? 'ready' : 'not ready');
    cls(ready, 'value ' + (s.ready ? 'ok-text' : 'warn-text'));
    put(byId('synced'), counts.synced + '/' + counts.total + ' caches synced' + (counts.failed ? ', ' + counts.failed + ' failed' : ''));
    renderControllers(s.controllers);
    var reads = byId('direct-reads');
    put(reads, num(s.directReads));
    attr(reads, 'data-value', String(s.directReads));
    cls(byId('reads-card'), 'card reads ' + (s.directReads === 0 ? 'ok' : 'bad'));
    document.title = (s.ready ? 'ready' : 'not ready') + ' \\u00b7 warmstart';
    tick();
  }

  // Clocks move between events: pending informers' waits, error ages, uptime.
  function tick() {
    if (!snap) return;
    var d = since();
    put(byId('uptime'), 'up ' + dur(snap.now - snap.startedAt + d));
    groups.forEach(function (g) {
      g.rows.forEach(function (r) {
        var i = r.item;
        put(r.waiting, dur(i.state === 'pending' ? i.waitingMs + d : i.waitingMs));
      });
    });
    controllers.forEach(function (r) {
      var e = r.item.lastError;
      put(r.errAge, e ? dur(snap.now - e.at + d) + ' ago' : '');
    });
    put(byId('updated'), 'Updated ' + dur(d) + ' ago.');
  }

  function connection(live) {
    var c = byId('conn');
    put(c, live ? 'live' : 'disconnected');
    cls(c, 'pill ' + (live ? 'ok' : 'bad'));
    attr(c, 'data-state', live ? 'live' : 'disconnected');
    document.body.classList.toggle('stale', !live);
  }

  function connect() {
    retryTimer = 0;
    var es = new EventSource('events');
    es.addEventListener('status', function (event) {
      var s;
      try { s = JSON.parse(event.data); } catch (err) { return; }
      snap = s;
      receivedAt = performance.now();
      retryMs = 1000;
      connection(true);
      render(s);
    });
    es.onerror = function () {
      connection(false);
      // The browser retries by itself after a dropped stream; after an error answer it gives up (CLOSED),
      // so the page retries with a growing delay.
      if (es.readyState === 2 && !retryTimer) {
        es.close();
        retryTimer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 30000);
      }
    };
  }

  setInterval(function () { if (!document.hidden) tick(); }, 500);
  connect();
})();
`;
