// text_select.js: the selection in the conversation's text layer
// (text_layer.js places its lines): kept as positions in the messages'
// texts (UTF-16 code units), so it outlives the spans, which change as the
// conversation scrolls.
//   - A press, drag, double-click (a word), triple-click (a paragraph),
//     Shift+click (extends) over the conversation, and Ctrl+A after a press
//     in it (every loaded message), select the layer's text; the browser
//     draws the selection over the canvas. The layer never takes a mouse
//     (the canvas keeps every mouse event): presses are mapped to text
//     positions here.
//   - Find: every loaded message is in the layer, the ones not drawn as
//     hidden text; when the browser's find (window.find(), or closing
//     Ctrl+F's bar on a match) selects text of a message not drawn, the app
//     is asked to show it, and the selection follows onto its drawn lines.
'use strict';
(function () {
  var api = window['roomkey'];
  var tl = api['_tl'];
  var published = 'null';
  var pressInside = false;  // the last press was over the conversation (Ctrl+A selects it)
  // The DOM selection as apply() last left it. Its selectionchange comes
  // after, as a task: it is not news. (A message scrolled out of view turns
  // into hidden text, where a selected label has no text of its own: read
  // back as news, the selection changed and the app was asked to show the
  // message, pulling the reader back up from where they had scrolled.)
  var setByLayer = null;

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
    var m = tl.byId[p.id];
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
    var m = tl.byId[p.id];
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
    if (!node || !tl.layer || !tl.layer.contains(node)) return null;
    var el = node.nodeType === 3 ? node.parentNode : node;
    if (el === tl.layer) {
      var at = tl.messages[Math.min(offset, tl.messages.length - 1)];
      if (!at) return null;
      return offset < tl.messages.length ? { id: at.id, o: 0 } : { id: at.id, o: at.text.length };
    }
    var msg = el.closest('.tl-msg');
    var m = msg && tl.byId[msg.dataset.id];
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

  function order(p) { return tl.messages.indexOf(tl.byId[p.id]); }
  function before(p, q) { var a = order(p), b = order(q); return a < b || (a === b && position(p) < position(q)); }
  function same(p, q) { return p.id === q.id && p.o === q.o && p.l === q.l && p.c === q.c; }

  function publish() {
    var sel = tl.selected();
    var json = JSON.stringify(sel);
    if (json === published) return;
    published = json;
    api['_publishSelection'](sel);
    // The app hears of it too: a Quote from the message's menu takes the selected part.
    if (api['_a11yAsk']) api['_a11yAsk']({ type: 'selection', text: sel ? sel.text : '', message_ids: sel ? sel.message_ids : [] });
  }

  function show(id) {
    if (tl.asked === id || !api['_a11yAsk']) return;
    tl.asked = id;
    api['_a11yAsk']({ type: 'show', message_id: id });
  }

  // The model onto the DOM selection (the browser draws it). It never asks
  // for a message to be shown: the frame that shows it calls this again.
  function apply() {
    var sel = window.getSelection();
    if (!sel) return;
    if (!tl.model) {
      if (sel.rangeCount && tl.layer && tl.layer.contains(sel.anchorNode)) sel.removeAllRanges();
      publish();
      return;
    }
    var a = domPoint(tl.model.a), f = domPoint(tl.model.f);
    // Set again only when it differs: a script's selection, even the same
    // one, hides the handles the browser gave a finger's selection.
    if (sel.anchorNode !== a[0] || sel.anchorOffset !== a[1] || sel.focusNode !== f[0] || sel.focusOffset !== f[1]) {
      try { sel.setBaseAndExtent(a[0], a[1], f[0], f[1]); } catch (e) { /* a node just replaced */ }
    }
    setByLayer = domSelection(sel);
    publish();
  }

  // The DOM selection's ends, to tell the layer's own setting of it from
  // the browser's (find) or the reader's.
  function domSelection(sel) {
    return { an: sel.anchorNode, ao: sel.anchorOffset, fn: sel.focusNode, fo: sel.focusOffset };
  }
  function sameDom(x, y) {
    return !!x && !!y && x.an === y.an && x.ao === y.ao && x.fn === y.fn && x.fo === y.fo;
  }

  // Whether the line holding `p` is drawn on screen.
  function inView(p) {
    var m = tl.byId[p.id];
    if (!m || !m.runs.length || !tl.layer) return false;
    var node = domPoint(p)[0];
    var line = (node.nodeType === 3 ? node.parentNode : node).getBoundingClientRect();
    var box = tl.layer.getBoundingClientRect();
    return line.bottom > box.top && line.top < box.bottom;
  }

  // The DOM selection onto the model: the browser's own changes (find, a
  // script's selection).
  document.addEventListener('selectionchange', function () {
    var sel = window.getSelection();
    // A finger's word, once no longer selected, gives the lines back to the
    // canvas where no finger takes them (checked after this handler, which
    // may put the word back).
    if (!tl.held && !tl.fingerDown) Promise.resolve().then(tl.lines);
    if (!sel || !sel.rangeCount || !tl.layer) return;
    // Ctrl+A after a press in the conversation: the browser selected the
    // whole page; the conversation takes every loaded message instead.
    // (No key listener of its own: with a window keydown listener here,
    // WebKitGTK lost the click after typed text in tests/engines; why is
    // not known.)
    var whole = !tl.layer.contains(sel.anchorNode) || !tl.layer.contains(sel.focusNode);
    if (whole && pressInside && tl.messages.length && !sel.isCollapsed && !inField(document.activeElement) &&
        sel.containsNode(tl.layer, true)) {
      var last = tl.messages[tl.messages.length - 1];
      tl.model = { a: { id: tl.messages[0].id, o: 0 }, f: { id: last.id, o: last.text.length } };
      apply();
      return;
    }
    // The browser's own long press leaves a caret where the finger was:
    // the word a finger's long press selected stays until the next press.
    if (tl.model && tl.heldWord && sel.isCollapsed) {
      apply();
      return;
    }
    if (tl.model && sameDom(domSelection(sel), setByLayer)) return;
    if (!tl.layer.contains(sel.anchorNode)) {
      if (tl.model && !inField(document.activeElement)) {
        tl.model = null;
        publish();
      }
      return;
    }
    var a = modelPoint(sel.anchorNode, sel.anchorOffset), f = modelPoint(sel.focusNode, sel.focusOffset);
    if (!a || !f) return;
    if (tl.model && same(a, tl.model.a) && same(f, tl.model.f)) return;
    tl.model = { a: a, f: f };
    publish();
    if (!inView(f)) show(f.id);
  });

  // ---- the pointer over the canvas ----

  function inside(event) {
    if (!tl.layer) return false;
    var r = tl.layer.getBoundingClientRect();
    return event.clientX >= r.left && event.clientX < r.right && event.clientY >= r.top && event.clientY < r.bottom;
  }

  // The text position under (x, y) (client px): on a drawn line, or with
  // `nearest` the nearest line's nearest end (a drag past the text).
  function pointAt(x, y, nearest) {
    var best = null, bestDistance = Infinity;
    tl.messages.forEach(function (m) {
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
    var text = tl.byId[p.id].text;
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
    var text = tl.byId[p.id].text;
    var s = text.lastIndexOf('\n', p.o - 1) + 1;
    var e = text.indexOf('\n', p.o);
    return { a: { id: p.id, o: s }, f: { id: p.id, o: e < 0 ? text.length : e } };
  }

  window.addEventListener('mousedown', function (event) {
    var canvas = document.getElementById('canvas');
    pressInside = event.target === canvas && inside(event);
    if (event.isTrusted) tl.heldWord = false;
    if (!pressInside || event.button !== 0) return;
    var p = pointAt(event.clientX, event.clientY, false);
    if (!p) {
      if (!event.shiftKey) { tl.model = null; apply(); }
      return;
    }
    if (event.detail === 2) {
      tl.model = word(p);
    } else if (event.detail >= 3) {
      tl.model = paragraph(p);
    } else if (event.shiftKey && tl.model) {
      tl.model = { a: tl.model.a, f: p };
      tl.dragging = true;
    } else {
      tl.model = { a: p, f: p };
      tl.dragging = true;
    }
    apply();
  }, true);
  function extend(x, y) {
    var p = pointAt(x, y, true);
    if (!p || !tl.model || same(p, tl.model.f)) return false;
    tl.model = { a: tl.model.a, f: p };
    return true;
  }

  // The I-beam over the conversation's text (a link's own <a> keeps its
  // pointer; a label on a button keeps the arrow).
  function overText(x, y) {
    return tl.messages.some(function (m) {
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
    var want = tl.dragging || (event.target === canvas && !event.buttons && inside(event) &&
               overText(event.clientX, event.clientY)) ? 'text' : '';
    if (canvas.style.cursor !== want) canvas.style.cursor = want;
  }

  window.addEventListener('mousemove', function (event) {
    pointer(event);
    if (!tl.dragging) return;
    if (!(event.buttons & 1)) { tl.dragging = false; tl.lastPointer = null; return; }
    tl.lastPointer = { x: event.clientX, y: event.clientY };
    if (extend(event.clientX, event.clientY)) apply();
  }, true);
  window.addEventListener('mouseup', function () { tl.dragging = false; tl.lastPointer = null; }, true);

  api['_textSelect'] = function (id, start, end) {
    var m = tl.byId[id];
    if (!m) {
      console.warn('roomkey.act select_text: message ' + id + ' is not loaded in the conversation');
      return;
    }
    tl.model = { a: { id: id, o: Math.min(start, m.text.length) }, f: { id: id, o: Math.min(end, m.text.length) } };
    apply();
    if (!inView(tl.model.f)) show(id);
  };

  tl.point = point;
  tl.isText = isText;
  tl.position = position;
  tl.order = order;
  tl.before = before;
  tl.inField = inField;
  tl.apply = apply;
  tl.extend = extend;
  tl.inside = inside;
  tl.pointAt = pointAt;
  tl.word = word;
  api['_textDragging'] = function () { return tl.dragging; };
})();
