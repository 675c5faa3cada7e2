// The status page's stylesheet, inlined into the page (and hashed into its Content-Security-Policy).
// Plain CSS, light and dark by the system setting; numbers use tabular figures so columns do not jitter.
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f4f6f8; --panel: #ffffff; --text: #1b2230; --muted: #5f6b7c; --line: #e3e7ed; --head: #f8f9fb;
  --green: #0f7a55; --green-bg: #def4ea; --amber: #9a5b00; --amber-bg: #fdf0d8;
  --red: #b4232a; --red-bg: #fde6e6; --blue: #2458d3; --blue-bg: #e4ecfd;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #12161c; --panel: #1a2028; --text: #e5e9ef; --muted: #97a1b0; --line: #2b333e; --head: #202731;
    --green: #4fd39c; --green-bg: #173a2d; --amber: #f0b45a; --amber-bg: #3b2e17;
    --red: #ff7b7f; --red-bg: #421f22; --blue: #86a9ff; --blue-bg: #1f2c4a;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  font-variant-numeric: tabular-nums;
}
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
.title { display: flex; align-items: center; gap: 12px; margin-bottom: 14px; }
h1 { font-size: 18px; font-weight: 600; margin: 0; }
h1 small { color: var(--muted); font-weight: 400; }
h2 { font-size: 15px; font-weight: 600; margin: 22px 0 8px; display: flex; align-items: baseline; gap: 10px; }
h2 .count { color: var(--muted); font-weight: 400; font-size: 13px; }
.pill {
  display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600;
  white-space: nowrap; background: var(--line); color: var(--muted);
}
.pill.ok { background: var(--green-bg); color: var(--green); }
.pill.warn { background: var(--amber-bg); color: var(--amber); }
.pill.bad { background: var(--red-bg); color: var(--red); }
.pill.info { background: var(--blue-bg); color: var(--blue); }
.cards { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)) minmax(170px, 1.1fr); gap: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 0; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 18px; font-weight: 600; margin-top: 2px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.card .sub { color: var(--muted); font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.card.reads { display: flex; align-items: center; justify-content: space-between; gap: 10px; }
.card.reads .value { font-size: 40px; line-height: 1; margin: 0; }
.card.reads.ok { border-color: var(--green); background: var(--green-bg); }
.card.reads.ok .value, .card.reads.ok .label { color: var(--green); }
.card.reads.bad { border-color: var(--red); background: var(--red-bg); }
.card.reads.bad .value, .card.reads.bad .label { color: var(--red); }
.ok-text { color: var(--green); } .warn-text { color: var(--amber); } .bad-text { color: var(--red); }
table {
  width: 100%; border-collapse: separate; border-spacing: 0; background: var(--panel);
  border: 1px solid var(--line); border-radius: 8px; overflow: hidden;
}
th, td { padding: 6px 12px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: middle; }
thead th { background: var(--head); color: var(--muted); font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
tbody tr:last-child td { border-bottom: 0; }
table.informers tbody + tbody tr.group th { border-top: 1px solid var(--line); }
tr.group th { background: var(--head); font-weight: 600; padding-top: 8px; }
tr.group .meta { color: var(--muted); font-weight: 400; margin-left: 10px; font-size: 13px; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.name { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 13px; white-space: nowrap; }
td.muted, .muted { color: var(--muted); }
td.detail { width: 34%; min-width: 220px; }
.bar { height: 6px; border-radius: 3px; background: var(--line); overflow: hidden; margin: 2px 0 3px; }
.bar i { display: block; height: 100%; width: 35%; background: var(--amber); border-radius: 3px; animation: slide 1.4s ease-in-out infinite; }
.bar[hidden] { display: none; }
@keyframes slide { from { transform: translateX(-100%); } to { transform: translateX(290%); } }
@media (prefers-reduced-motion: reduce) { .bar i { animation: none; width: 100%; opacity: .5; } }
.detail-text { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
.detail-text.bad-text { color: var(--red); }
.err-key { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; }
.err-age { color: var(--muted); font-size: 12px; }
.err-msg { color: var(--red); font-size: 12px; overflow-wrap: anywhere; }
.empty td { color: var(--muted); text-align: center; padding: 16px; }
footer { color: var(--muted); font-size: 12px; padding-top: 14px; padding-bottom: 24px; }
body.stale main, body.stale .cards { opacity: .5; }
@media (max-width: 900px) { .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); } td.detail { min-width: 0; } }
`;
