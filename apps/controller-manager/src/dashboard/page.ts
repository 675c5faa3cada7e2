// The status page: one self-contained HTML document (inline style and script, no external requests) and
// the Content-Security-Policy that allows exactly that style and script, by hash, and nothing else but
// same-origin EventSource connections.
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>warmstart</title>
<style>${PAGE_STYLE}</style>
</head>
<body class="stale">
<header>
  <div class="title">
    <h1>warmstart <small>controller manager</small></h1>
    <span class="pill warn" id="conn" data-testid="connection" data-state="connecting">connecting</span>
  </div>
  <div class="cards">
    <div class="card"><div class="label">cache-sync strategy</div><div class="value" id="strategy" data-testid="strategy">&ndash;</div><div class="sub" id="uptime" data-testid="uptime">&nbsp;</div></div>
    <div class="card"><div class="label">leader election</div><div class="value" id="leader" data-testid="leader">&ndash;</div><div class="sub" id="leader-holder" data-testid="leader-holder">&nbsp;</div></div>
    <div class="card"><div class="label">readiness</div><div class="value" id="ready" data-testid="ready">&ndash;</div><div class="sub" id="synced" data-testid="caches-synced">&nbsp;</div></div>
    <div class="card"><div class="label">work queues</div><div class="value" id="queued" data-testid="queued">&ndash;</div><div class="sub" id="in-flight" data-testid="in-flight">&nbsp;</div></div>
    <div class="card reads" id="reads-card" data-testid="direct-reads-card"><div class="label">direct<br>reads</div><div class="value" id="direct-reads" data-testid="direct-reads">&ndash;</div></div>
  </div>
</header>
<main>
  <h2>Informers <span class="count" id="inf-count" data-testid="informers-count"></span></h2>
  <table class="informers" id="informers">
    <thead><tr><th>cluster / resource</th><th>state</th><th class="num">objects</th><th class="num">list rate</th><th class="num">waiting / took</th><th>progress</th></tr></thead>
    <tbody id="inf-empty" class="empty"><tr><td colspan="6">no informers registered yet</td></tr></tbody>
  </table>
  <h2>Controllers <span class="count" id="ctl-count" data-testid="controllers-count"></span></h2>
  <table id="controllers">
    <thead><tr><th>controller</th><th>status</th><th class="num">queue</th><th class="num">in flight</th><th class="num">reader waits</th><th>last error</th></tr></thead>
    <tbody id="ctl-body"></tbody>
    <tbody id="ctl-empty" class="empty"><tr><td colspan="6">no controllers</td></tr></tbody>
  </table>
</main>
<footer>Read-only: states and counts, never object contents. <span id="updated" data-testid="updated"></span></footer>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;

/**
 * Only the inline style and script above (by hash), same-origin EventSource, and the empty data: icon.
 * Everything else, frames and form posts included, is refused.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${hash(PAGE_SCRIPT)}`,
  `style-src ${hash(PAGE_STYLE)}`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function hash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
