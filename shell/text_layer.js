// text_layer.js: the conversation's text as the page's own text (web/src/
// text_layer.cpp is its other half), laid over the drawn glyphs the way
// pdf.js lays its text layer over a page: each drawn line is a transparent
// span at the line's place, in the same fonts, spaced to the drawn width.
// The lines of a paragraph are one run of inline text (moved to their places
// relatively, each taking no room), joined by what joins them in the text
// (a wrap's space, nothing between two CJK lines): the browser's find, which
// matches only within a block, finds words across a wrap.
//   - Selection: a press, drag, double-click (a word), triple-click (a
//     paragraph), Shift+click (extends) over the conversation, and Ctrl+A
//     after a press in it (every loaded message), select the layer's text;
//     the browser draws the selection over the canvas. The layer never
//     takes a mouse (the canvas keeps every mouse event): presses are mapped
//     to text positions here. A finger is different: on a touch screen
//     (a coarse pointer, or once a finger touched the page) the lines take
//     it from the start (class tl-touch), so the engine's own long press
//     selects the word with its handles and dragging a handle meets the
//     text; a touch that lands on a line goes on to the canvas (forward()),
//     and a tap's own mouse events land on the canvas (the lines let go of
//     the pointer from the tap's end to its click), so taps and swipes
//     still reach the app.
//   - Copy (Ctrl+C, or the page API's copy_selection) writes the selected
//     text of the messages' `text` (state().room.messages[].text), in order,
//     one message a line.
//   - Find: every loaded message is in the layer, the ones not drawn as
//     hidden text; when the browser's find (window.find(), or closing
//     Ctrl+F's bar on a match) selects text of a message not drawn, the app
//     is asked to show it, and the selection follows onto its drawn lines.
// The selection is kept as positions in the messages' texts (UTF-16 code
// units), so it outlives the spans, which change as the conversation scrolls.
// Nothing here runs while nothing happens: the app sends the layer only when
// the drawn lines or their places change.
'use strict';
(function () {
  var api = window['roomkey'];
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif, ' +
             '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"';
  var layer = null;
  var messages = [];    // in order: {id, text, el, runs: [{el, start, end}] (drawn lines; empty: not drawn)}
  var byId = {};
  var model = null;     // {a: {id, o}, f: {id, o}}: anchor and focus in the messages' texts
  var published = 'null';
  var asked = null;     // the message last asked to be shown
  var measure = null;
  var pressInside = false;  // the last press was over the conversation (Ctrl+A selects it)
  var dragging = false;
  var lastPointer = null;  // where the selecting drag is (client px)

  function root() {
    if (layer) return layer;
    layer = document.createElement('div');
    layer.id = 'textlayer';
    // Assistive technology reads the conversation's log (#a11y), not this copy.
    layer.setAttribute('aria-hidden', 'true');
    var a11y = document.getElementById('a11y');
    // Before the accessibility tree: the browser's find meets this text first.
    document.body.insertBefore(layer, a11y || null);
    lines();
    return layer;
  }

  function span(cls, text, start) {
    var el = document.createElement('span');
    el.className = cls;
    el.textContent = text;
    el.dataset.start = String(start);
    return el;
  }

  // A message not drawn: its whole text, hidden, where find still reaches it
  // (style.css: neither laid out nor shaped until find or a selection meets
  // it). Made once per text: a scroll hides messages at every step.
  function hidden(m) {
    m.el.textContent = '';
    m.runs = [];
    if (!m.hidden) m.hidden = span('tl-hidden', m.text, 0);
    m.el.appendChild(m.hidden);
  }

  function naturalWidth(text, px) {
    if (!measure) measure = document.createElement('canvas').getContext('2d');
    if (!measure) return 0;
    measure.font = px + 'px ' + FONT;
    return measure.measureText(text).width;
  }

  // A line at its place (relative to where the paragraph's inline text
  // would put it: every line before it takes no room), as wide as drawn.
  function place(el, r) {
    var s = el.style;
    s.left = r[0] + 'px';
    s.top = r[1] + 'px';
    // A line only moved (a scroll) keeps its size and spacing: measuring its
    // text again each frame was most of what a scroll cost here.
    var size = r[2] + ' ' + r[3];
    if (el.placedSize === size) return;
    el.placedSize = size;
    s.fontSize = r[3] + 'px';
    var natural = naturalWidth(r[4], r[3]);
    var count = Array.from(r[4]).length;
    var spacing = natural > 0 && count ? (r[2] - natural) / count : 0;
    s.letterSpacing = spacing ? spacing + 'px' : '';
    s.marginRight = -(natural + spacing * count) + 'px';
  }

  // The drawn lines of a message in reading order, each at its place in
  // the message's text (found in order). A label (r[5]: a To/Re label, a
  // box's heading, a file card) is found only where the text goes on with
  // it; one the text does not hold ("Quote: Alice 10:02", "due tomorrow")
  // is a line of its own, kept at the text position it is drawn at.
  function drawRuns(m, list) {
    m.el.textContent = '';
    m.runs = [];
    var cursor = 0, labels = 0, block = null;
    list.forEach(function (r) {
      var at = m.text.indexOf(r[4], cursor);
      if (at >= 0 && r[5] && !/^[\s>]*$/.test(m.text.slice(cursor, at))) at = -1;
      var run = { text: r[4], label: r[5], y: r[1], size: r[3] };
      if (at >= 0) {
        run.el = span('tl-run', r[4], at);
        run.start = at;
        run.end = cursor = at + r[4].length;
      } else {
        run.el = span('tl-run tl-label', r[4], cursor);
        run.anchor = cursor;
        run.l = labels++;
        run.el.dataset.label = String(run.l);
      }
      place(run.el, r);
      // What joins it to the line before: a line break starts a paragraph
      // of its own; a space (or nothing) stays in the text, taking no room.
      var last = m.runs[m.runs.length - 1];
      var join = last ? between(m, last, run) : '\n';
      if (join.indexOf('\n') >= 0) {
        block = document.createElement('div');
        block.className = 'tl-para';
        m.el.appendChild(block);
      } else if (join) {
        var gap = isText(last) ? span('tl-gap', join, last.end) : span('tl-gap', join, last.anchor);
        if (!isText(last)) {
          gap.dataset.label = String(last.l);
          gap.dataset.base = String(last.text.length);
        }
        block.appendChild(gap);
      }
      block.appendChild(run.el);
      m.runs.push(run);
    });
    if (!m.runs.length) hidden(m);
  }

  function setMessages(json) {
    var list;
    try { list = JSON.parse(json); } catch (e) { return; }
    var old = byId;
    messages = [];
    byId = {};
    var box = root();
    list.forEach(function (pair) {
      var m = old[pair[0]];
      if (!m || m.text !== pair[1]) {
        m = { id: pair[0], text: pair[1], el: document.createElement('div'), runs: [] };
        m.el.className = 'tl-msg';
        m.el.dataset.id = m.id;
        hidden(m);
      }
      messages.push(m);
      byId[m.id] = m;
    });
    // In the conversation's order (appending moves a kept element).
    box.textContent = '';
    messages.forEach(function (m) { box.appendChild(m.el); });
    if (model && (!byId[model.a.id] || !byId[model.f.id])) model = null;
    apply();
  }

  function setRuns(json) {
    var data;
    try { data = JSON.parse(json); } catch (e) { return; }
    var box = root();
    var c = data.clip;
    box.style.left = c[0] + 'px';
    box.style.top = c[1] + 'px';
    box.style.width = c[2] + 'px';
    box.style.height = c[3] + 'px';
    messages.forEach(function (m) {
      var list = data.runs[m.id];
      if (!list) {
        if (m.runs.length) hidden(m);
        return;
      }
      var same = list.length === m.runs.length &&
                 list.every(function (r, i) { return r[4] === m.runs[i].text && r[5] === m.runs[i].label; });
      if (!same) {
        drawRuns(m, list);
        return;
      }
      // Only moved (a scroll): the spans stay, and so does the selection in them.
      list.forEach(function (r, i) { place(m.runs[i].el, r); m.runs[i].y = r[1]; });
    });
    // A drag held still beyond an edge while the conversation scrolls: the
    // selection follows the text passing under the pointer.
    if (dragging && lastPointer) extend(lastPointer.x, lastPointer.y);
    if (model) apply();
    asked = null;
  }

  // ---- positions: the model (message, offset) and the DOM (node, offset) ----
  // A point is {id, o} (o: UTF-16 offset in the message's text), or in a
  // label not in the text {id, o: where it stands in the text, l: its
  // index among the message's labels, c: offset in it}.

  function point(id, o, l, c) { return l >= 0 ? { id: id, o: o, l: l, c: c } : { id: id, o: o }; }
  function isText(r) { return r.l === undefined; }
  function labelOf(m, l) {
    for (var i = 0; i < m.runs.length; i++) if (m.runs[i].l === l) return i;
    return -1;
  }

  // Where `p` stands in the message's drawn lines: index of the line +
  // offset / (length + 1); -1 before them all, runs.length after. Not drawn:
  // the offset in the text (a label's point: where it stands).
  function position(p) {
    var m = byId[p.id];
    if (p.l >= 0 && m.runs.length) {
      var at = labelOf(m, p.l);
      if (at >= 0) return at + Math.min(p.c, m.runs[at].text.length) / (m.runs[at].text.length + 1);
    }
    if (!m.runs.length) return p.o;
    if (p.o <= 0 && !(m.runs[0].start === 0)) return -1;
    if (p.o >= m.text.length) return m.runs.length;
    var previous = -1;
    for (var i = 0; i < m.runs.length; i++) {
      var r = m.runs[i];
      if (!isText(r)) continue;
      if (p.o <= r.end) {
        if (p.o >= r.start) return i + (p.o - r.start) / (r.text.length + 1);
        break;
      }
      previous = i;
    }
    return previous < 0 ? -1 : previous + m.runs[previous].text.length / (m.runs[previous].text.length + 1);
  }

  function domPoint(p) {
    var m = byId[p.id];
    if (!m.runs.length) {
      var el = m.el.firstChild;
      return el.firstChild ? [el.firstChild, Math.max(0, Math.min(p.o, m.text.length))] : [el, 0];
    }
    var at = position(p);
    if (at < 0) return [m.el, 0];
    if (at >= m.runs.length) return [m.el, m.el.childNodes.length];
    var i = Math.floor(at), r = m.runs[i];
    return [r.el.firstChild, Math.round((at - i) * (r.text.length + 1))];
  }

  function modelPoint(node, offset) {
    if (!node || !layer || !layer.contains(node)) return null;
    var el = node.nodeType === 3 ? node.parentNode : node;
    if (el === layer) {
      var at = messages[Math.min(offset, messages.length - 1)];
      if (!at) return null;
      return offset < messages.length ? { id: at.id, o: 0 } : { id: at.id, o: at.text.length };
    }
    var msg = el.closest('.tl-msg');
    var m = msg && byId[msg.dataset.id];
    if (!m) return null;
    // Between a message's paragraphs or a paragraph's lines: at the start
    // of the one after, or the end of the last.
    while (el === msg || el.className === 'tl-para') {
      var child = el.childNodes[offset];
      if (!child && el === msg) return { id: m.id, o: m.text.length };
      if (!child) {
        el = el.lastChild;
        offset = el.childNodes.length;
      } else {
        el = child;
        offset = 0;
      }
      node = el;
    }
    var start = Number(el.dataset.start);
    var length = el.textContent.length;
    var k = (node.nodeType === 3 ? offset : offset > 0 ? length : 0) + Number(el.dataset.base || 0);
    if (el.dataset.label) return point(m.id, start, Number(el.dataset.label), k);
    return { id: m.id, o: start + k };
  }

  function inField(el) { return el && /^(INPUT|TEXTAREA)$/.test(el.tagName); }

  function order(p) { return messages.indexOf(byId[p.id]); }
  function before(p, q) { var a = order(p), b = order(q); return a < b || (a === b && position(p) < position(q)); }
  function same(p, q) { return p.id === q.id && p.o === q.o && p.l === q.l && p.c === q.c; }

  // Between two drawn lines of a message: a line break where the text has
  // one or the second is drawn below the first; the text's own spaces
  // between the parts of a wrapped paragraph, a space within a wrapped label.
  function between(m, r, q) {
    if (isText(r) && isText(q)) {
      var gap = m.text.slice(r.end, q.start);
      if (gap.indexOf('\n') >= 0) return '\n';
      if (/^\s*$/.test(gap)) return gap;
    }
    return q.y > r.y + r.size / 2 && q.label !== 3 ? '\n' : ' ';
  }

  // The part of message `m` from `lo` (null: its start) to `hi` (null: its
  // end), as it reads: its drawn lines, labels included, in order.
  function part(m, lo, hi) {
    if (!m.runs.length) return m.text.slice(lo ? Math.max(0, lo.o) : 0, hi ? hi.o : m.text.length);
    var from = lo ? position(lo) : -1, to = hi ? position(hi) : m.runs.length;
    var out = '', last = null;
    m.runs.forEach(function (r, i) {
      var n = r.text.length;
      if (to < i || from >= i + 1) return;
      var a = from < i ? 0 : Math.round((from - i) * (n + 1));
      var b = to >= i + 1 ? n : Math.round((to - i) * (n + 1));
      if (a >= b) return;
      if (last) out += between(m, last, r);
      out += r.text.slice(a, b);
      last = r;
    });
    return out;
  }

  // The selected text, as the reader sees it: each message's part, in order, a line each.
  function selected() {
    if (!model) return null;
    var lo = before(model.f, model.a) ? model.f : model.a;
    var hi = lo === model.a ? model.f : model.a;
    var first = order(lo), last = order(hi);
    if (first < 0 || last < 0) return null;
    var parts = [], ids = [];
    for (var i = first; i <= last; i++) {
      var m = messages[i];
      var text = part(m, i === first ? lo : null, i === last ? hi : null);
      if (!text) continue;
      parts.push(text);
      ids.push(m.id);
    }
    return parts.length ? { text: parts.join('\n'), message_ids: ids } : null;
  }

  function publish() {
    var sel = selected();
    var json = JSON.stringify(sel);
    if (json === published) return;
    published = json;
    api['_publishSelection'](sel);
    // The app hears of it too: a Quote from the message's menu takes the selected part.
    if (api['_a11yAsk']) api['_a11yAsk']({ type: 'selection', text: sel ? sel.text : '', message_ids: sel ? sel.message_ids : [] });
  }

  function show(id) {
    if (asked === id || !api['_a11yAsk']) return;
    asked = id;
    api['_a11yAsk']({ type: 'show', message_id: id });
  }

  // The model onto the DOM selection (the browser draws it). It never asks
  // for a message to be shown: the frame that shows it calls this again.
  function apply() {
    var sel = window.getSelection();
    if (!sel) return;
    if (!model) {
      if (sel.rangeCount && layer && layer.contains(sel.anchorNode)) sel.removeAllRanges();
      publish();
      return;
    }
    var a = domPoint(model.a), f = domPoint(model.f);
    // Set again only when it differs: a script's selection, even the same
    // one, hides the handles the browser gave a finger's selection.
    if (sel.anchorNode !== a[0] || sel.anchorOffset !== a[1] || sel.focusNode !== f[0] || sel.focusOffset !== f[1]) {
      try { sel.setBaseAndExtent(a[0], a[1], f[0], f[1]); } catch (e) { /* a node just replaced */ }
    }
    publish();
  }

  // Whether the line holding `p` is drawn on screen.
  function inView(p) {
    var m = byId[p.id];
    if (!m || !m.runs.length || !layer) return false;
    var node = domPoint(p)[0];
    var line = (node.nodeType === 3 ? node.parentNode : node).getBoundingClientRect();
    var box = layer.getBoundingClientRect();
    return line.bottom > box.top && line.top < box.bottom;
  }

  // The DOM selection onto the model: the browser's own changes (find, a
  // script's selection).
  document.addEventListener('selectionchange', function () {
    var sel = window.getSelection();
    // A finger's word, once no longer selected, gives the lines back to the
    // canvas where no finger takes them (checked after this handler, which
    // may put the word back).
    if (!held && !fingerDown) Promise.resolve().then(lines);
    if (!sel || !sel.rangeCount || !layer) return;
    // Ctrl+A after a press in the conversation: the browser selected the
    // whole page; the conversation takes every loaded message instead.
    // (No key listener of its own: with a window keydown listener here,
    // WebKitGTK lost the click after typed text in tests/engines; why is
    // not known.)
    var whole = !layer.contains(sel.anchorNode) || !layer.contains(sel.focusNode);
    if (whole && pressInside && messages.length && !sel.isCollapsed && !inField(document.activeElement) &&
        sel.containsNode(layer, true)) {
      var last = messages[messages.length - 1];
      model = { a: { id: messages[0].id, o: 0 }, f: { id: last.id, o: last.text.length } };
      apply();
      return;
    }
    // The browser's own long press leaves a caret where the finger was:
    // the word a finger's long press selected stays until the next press.
    if (model && heldWord && sel.isCollapsed) {
      apply();
      return;
    }
    if (!layer.contains(sel.anchorNode)) {
      if (model && !inField(document.activeElement)) {
        model = null;
        publish();
      }
      return;
    }
    var a = modelPoint(sel.anchorNode, sel.anchorOffset), f = modelPoint(sel.focusNode, sel.focusOffset);
    if (!a || !f) return;
    if (model && same(a, model.a) && same(f, model.f)) return;
    model = { a: a, f: f };
    publish();
    if (!inView(f)) show(f.id);
  });

  // ---- the pointer over the canvas ----

  function inside(event) {
    if (!layer) return false;
    var r = layer.getBoundingClientRect();
    return event.clientX >= r.left && event.clientX < r.right && event.clientY >= r.top && event.clientY < r.bottom;
  }

  // The text position under (x, y) (client px): on a drawn line, or with
  // `nearest` the nearest line's nearest end (a drag past the text).
  function pointAt(x, y, nearest) {
    var best = null, bestDistance = Infinity;
    messages.forEach(function (m) {
      m.runs.forEach(function (r) {
        var box = r.el.getBoundingClientRect();
        var dy = y < box.top ? box.top - y : y >= box.bottom ? y - box.bottom + 1 : 0;
        var dx = x < box.left ? box.left - x : x > box.right ? x - box.right : 0;
        var distance = dy * 10000 + dx;
        if (distance < bestDistance) { bestDistance = distance; best = { m: m, r: r, box: box }; }
      });
    });
    if (!best) return null;
    if (!nearest && (bestDistance >= 10000 || x < best.box.left - 4)) return null;
    var node = best.r.el.firstChild;
    var length = node.length;
    // The boundary nearest to x: the widths of the line's beginnings.
    var range = document.createRange();
    var lo = 0, hi = length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      range.setStart(node, mid);
      range.setEnd(node, mid + 1);
      var rect = range.getBoundingClientRect();
      if (x >= (rect.left + rect.right) / 2) lo = mid + 1; else hi = mid;
    }
    var code = lo > 0 ? node.data.charCodeAt(lo - 1) : 0;
    if (code >= 0xD800 && code <= 0xDBFF) lo++;  // never inside a surrogate pair
    return isText(best.r) ? { id: best.m.id, o: best.r.start + lo } : point(best.m.id, best.r.anchor, best.r.l, lo);
  }

  var words = typeof Intl === 'object' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  function word(p) {
    if (p.l >= 0) return { a: point(p.id, p.o, p.l, 0), f: point(p.id, p.o, p.l, 1e9) };  // a label: all of it
    var text = byId[p.id].text;
    if (words) {
      var it = words.segment(text).containing(Math.min(p.o, text.length - 1));
      if (it) return { a: { id: p.id, o: it.index }, f: { id: p.id, o: it.index + it.segment.length } };
    }
    var s = p.o, e = p.o;
    while (s > 0 && /\w/.test(text[s - 1])) s--;
    while (e < text.length && /\w/.test(text[e])) e++;
    return { a: { id: p.id, o: s }, f: { id: p.id, o: e } };
  }
  function paragraph(p) {
    if (p.l >= 0) return word(p);
    var text = byId[p.id].text;
    var s = text.lastIndexOf('\n', p.o - 1) + 1;
    var e = text.indexOf('\n', p.o);
    return { a: { id: p.id, o: s }, f: { id: p.id, o: e < 0 ? text.length : e } };
  }

  window.addEventListener('mousedown', function (event) {
    var canvas = document.getElementById('canvas');
    pressInside = event.target === canvas && inside(event);
    if (event.isTrusted) heldWord = false;
    if (!pressInside || event.button !== 0) return;
    var p = pointAt(event.clientX, event.clientY, false);
    if (!p) {
      if (!event.shiftKey) { model = null; apply(); }
      return;
    }
    if (event.detail === 2) {
      model = word(p);
    } else if (event.detail >= 3) {
      model = paragraph(p);
    } else if (event.shiftKey && model) {
      model = { a: model.a, f: p };
      dragging = true;
    } else {
      model = { a: p, f: p };
      dragging = true;
    }
    apply();
  }, true);
  function extend(x, y) {
    var p = pointAt(x, y, true);
    if (!p || !model || same(p, model.f)) return false;
    model = { a: model.a, f: p };
    return true;
  }

  // The I-beam over the conversation's text (a link's own <a> keeps its
  // pointer; a label on a button keeps the arrow).
  function overText(x, y) {
    return messages.some(function (m) {
      return m.runs.some(function (r) {
        if (r.label === 2) return false;
        var b = r.el.getBoundingClientRect();
        return x >= b.left && x < b.right && y >= b.top && y < b.bottom;
      });
    });
  }
  function pointer(event) {
    var canvas = document.getElementById('canvas');
    if (!canvas) return;
    var want = dragging || (event.target === canvas && !event.buttons && inside(event) &&
               overText(event.clientX, event.clientY)) ? 'text' : '';
    if (canvas.style.cursor !== want) canvas.style.cursor = want;
  }

  window.addEventListener('mousemove', function (event) {
    pointer(event);
    if (!dragging) return;
    if (!(event.buttons & 1)) { dragging = false; lastPointer = null; return; }
    lastPointer = { x: event.clientX, y: event.clientY };
    if (extend(event.clientX, event.clientY)) apply();
  }, true);
  window.addEventListener('mouseup', function () { dragging = false; lastPointer = null; }, true);

  // A finger held still on the canvas for LONG_PRESS ms selects the word
  // under it and is a right-click there: the message's menu opens (as a
  // long press does in the service's own app), its Copy and Quote on that
  // word. The touch then ends without a tap.
  var LONG_PRESS = 500;
  var held = null;
  var heldWord = false;  // the selection is the word a long press chose (touchAt)
  var longPressed = false;  // this touch was a long press: its end is no tap
  var fingerDown = false;
  // A touch screen: the browser's own long press hit-tests the finger's
  // first place, so the lines take the finger before it comes. A mouse
  // moved (a laptop's touch screen beside its touchpad) gives them back.
  var coarse = !!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
  var tapping = false;  // a tap's mouse events are under way: they go to the canvas
  function release() { if (held) clearTimeout(held.timer); held = null; }
  // The layer's lines take the pointer on a touch screen, while a finger is
  // down and while a selection it made is shown (dragging the browser's
  // handles hit-tests the text); a mouse never meets them.
  function touchSelected() {
    var sel = window.getSelection();
    return !!(sel && !sel.isCollapsed && layer && layer.contains(sel.anchorNode));
  }
  function touchText(on) {
    if (layer && layer.classList.contains('tl-touch') !== on) layer.classList.toggle('tl-touch', on);
  }
  // (A selection keeps them only when they already had them: a mouse's never does.)
  function lines() {
    var had = !!layer && layer.classList.contains('tl-touch');
    touchText(!tapping && (coarse || fingerDown || (had && touchSelected())));
  }
  // A finger that lands on a line while they take it: the canvas gets the
  // touch all the same (a swipe scrolls the conversation, a tap taps).
  function forward(event) {
    var canvas = document.getElementById('canvas');
    if (!canvas || event.target === canvas || !window.TouchEvent) return;
    var touches = function (list) {
      return Array.prototype.map.call(list, function (t) {
        return new Touch({ identifier: t.identifier, target: canvas, clientX: t.clientX, clientY: t.clientY,
          screenX: t.screenX, screenY: t.screenY, pageX: t.pageX, pageY: t.pageY });
      });
    };
    canvas.dispatchEvent(new TouchEvent(event.type, { bubbles: true, cancelable: event.cancelable,
      touches: touches(event.touches), targetTouches: touches(event.touches), changedTouches: touches(event.changedTouches) }));
  }
  function longPress() {
    var canvas = document.getElementById('canvas');
    if (!held || !canvas) return;
    var at = { clientX: held.x, clientY: held.y, bubbles: true, cancelable: true, view: window };
    var p = inside(at) ? pointAt(held.x, held.y, false) : null;  // not a line hidden under the composer
    held = null;
    longPressed = true;
    if (p) {
      model = word(p);
      heldWord = true;
      apply();
    }
    canvas.dispatchEvent(new MouseEvent('mousemove', at));
    at.button = 2;
    at.buttons = 2;
    canvas.dispatchEvent(new MouseEvent('mousedown', at));
    at.buttons = 0;
    canvas.dispatchEvent(new MouseEvent('mouseup', at));
  }
  function touchAt(event) {
    var t = event.touches.length === 1 ? event.touches[0] : null;
    fingerDown = event.touches.length > 0;
    if (!t) return release();
    if (event.type === 'touchstart') {
      release();
      heldWord = longPressed = false;
      // The browser's own long press hit-tests where the finger first
      // landed: on a touch screen the lines took it already (coarse); where
      // a finger comes unannounced, they take it from this touch on.
      tapping = false;
      if (inside(t)) touchText(true);
      held = { x: t.clientX, y: t.clientY, timer: setTimeout(longPress, LONG_PRESS) };
    } else if (held && (Math.abs(t.clientX - held.x) > 10 || Math.abs(t.clientY - held.y) > 10)) {
      release();
    }
  }
  function listenTouch() {
    var canvas = document.getElementById('canvas');
    if (!canvas) return;
    canvas.addEventListener('touchstart', touchAt, { passive: true });
    canvas.addEventListener('touchmove', touchAt, { passive: true });
    canvas.addEventListener('touchend', function (event) {
      // Lifted still, before the long press: a tap, whose mouse events
      // (hit-tested after this) go to the canvas; a selection the finger
      // made keeps its handles.
      tapping = !!held && !event.touches.length && !touchSelected();
      release();
      fingerDown = event.touches.length > 0;
      lines();
      // No tap after a long press: the menu it opened is under the finger.
      if (longPressed && event.cancelable) event.preventDefault();
      longPressed = false;
    });
    canvas.addEventListener('touchcancel', function () { release(); fingerDown = false; lines(); }, { passive: true });
    window.addEventListener('touchstart', function () { coarse = true; }, { capture: true, passive: true });
    // The tap's click is the last of its mouse events: the lines take the finger again.
    window.addEventListener('click', function () { if (tapping) { tapping = false; lines(); } }, true);
    window.addEventListener('pointermove', function (event) {
      if (coarse && event.isTrusted && event.pointerType === 'mouse') { coarse = false; lines(); }
    }, { capture: true, passive: true });
    // The rest of the touch follows its line itself: a line a scroll
    // replaces leaves the layer, and its events no longer pass through it.
    root().addEventListener('touchstart', function (event) {
      var line = event.target, rest = ['touchmove', 'touchend', 'touchcancel'];
      var follow = function (e) {
        forward(e);
        if (e.type !== 'touchmove' && !e.touches.length) rest.forEach(function (t) { line.removeEventListener(t, follow); });
      };
      forward(event);
      rest.forEach(function (t) { line.addEventListener(t, follow, { passive: true }); });
    }, { passive: true });
  }
  listenTouch();  // the canvas comes before this script (index.html)

  // Ctrl+C (and the browser's Copy): the text as the reader sees it, not
  // the spans' own (their lines, in the order they are laid out).
  document.addEventListener('copy', function (event) {
    var sel = selected();
    var target = event.target;
    if (!sel || !event.clipboardData) return;
    if (inField(target) && target.selectionStart !== target.selectionEnd) return;  // the field's own copy
    var dom = window.getSelection();
    if (!dom || !dom.rangeCount || !layer || !layer.contains(dom.anchorNode)) return;
    event.clipboardData.setData('text/plain', sel.text);
    event.preventDefault();
  });

  api['_textDragging'] = function () { return dragging; };
  api['_textMessages'] = setMessages;
  api['_textRuns'] = setRuns;
  api['_textSelect'] = function (id, start, end) {
    var m = byId[id];
    if (!m) {
      console.warn('roomkey.act select_text: message ' + id + ' is not loaded in the conversation');
      return;
    }
    model = { a: { id: id, o: Math.min(start, m.text.length) }, f: { id: id, o: Math.min(end, m.text.length) } };
    apply();
    if (!inView(model.f)) show(id);
  };
  api['_textCopy'] = function () {
    var sel = selected();
    if (!sel || !navigator.clipboard || !navigator.clipboard.writeText) return;
    navigator.clipboard.writeText(sel.text).catch(function () {
      console.warn('roomkey: the browser refused clipboard access; select the text and press Ctrl+C');
    });
  };
})();
