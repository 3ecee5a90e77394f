// main_thread_trace.mjs: records a Chrome trace of one page while `during()`
// runs, and says what the page's main thread did around one request: when
// each request was sent and finished by the network (ms from that request's
// finish), and the main thread's tasks longer than `minTaskMs` with their
// longest parts (a frame's Commit and GLES2::ReadPixels, an XHR load...).
// Used by dashboard.mjs --trace: a fetch answer that arrives while the main
// thread is busy waits for it, whatever the app does.
const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,blink,toplevel,loading,gpu';

export async function traceMainThread(context, page, during) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  try {
    await during();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  return events;
}

// Requests by Chrome's requestId: { url, send, finish } (trace µs).
function requestsOf(events) {
  const requests = new Map();
  for (const e of events) {
    const data = e.args && e.args.data;
    if (!data || !data.requestId) continue;
    if (e.name === 'ResourceSendRequest' && data.url) {
      requests.set(data.requestId, { url: data.url, send: e.ts, pid: e.pid, tid: e.tid, finish: null });
    } else if (e.name === 'ResourceFinish' && requests.has(data.requestId)) {
      requests.get(data.requestId).finish = e.ts;
    }
  }
  return [...requests.values()];
}

// Lines of text: the requests, then the long main-thread tasks from
// `beforeMs` before the request whose path is `anchorPath` finished.
export function describeMainThread(events, anchorPath, { beforeMs = 150, afterMs = 400, minTaskMs = 10 } = {}) {
  const requests = requestsOf(events);
  const anchor = requests.find((r) => new URL(r.url).pathname === anchorPath && r.finish !== null);
  if (!anchor) return [`trace: no finished request to ${anchorPath} in the trace`];
  const ms = (ts) => ((ts - anchor.finish) / 1000).toFixed(1).padStart(7);
  const lines = [`requests, ms from the network finishing ${anchorPath} (trace clock):`];
  for (const r of requests) {
    if (r.send < anchor.finish - beforeMs * 1000) continue;
    lines.push(`  ${ms(r.send)} sent, ${r.finish === null ? '    -  ' : ms(r.finish)} finished  ${new URL(r.url).pathname}`);
  }
  const onMain = events.filter((e) => e.pid === anchor.pid && e.tid === anchor.tid && e.ph === 'X' && e.dur);
  const from = anchor.finish - beforeMs * 1000;
  const to = anchor.finish + afterMs * 1000;
  // Top-level tasks: the scheduler's RunTask slices (each appears once per
  // nesting level; the outermost is kept).
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur >= minTaskMs * 1000 &&
    e.ts + e.dur >= from && e.ts <= to);
  lines.push(`main-thread tasks of ${minTaskMs} ms or more, ms from the same point (longest parts in brackets):`);
  for (const task of tasks) {
    const parts = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur &&
      !/RunTask/.test(e.name)).sort((a, b) => b.dur - a.dur).slice(0, 3);
    lines.push(`  ${ms(task.ts)} for ${(task.dur / 1000).toFixed(1).padStart(6)} ms  ` +
      `[${parts.map((p) => `${p.name} ${(p.dur / 1000).toFixed(1)}`).join(', ')}]`);
  }
  return lines;
}
