// text_layer.js: the conversation's text as the page's own text (web/src/
// text_layer.cpp is its other half), laid over the drawn glyphs the way
// pdf.js lays its text layer over a page: each drawn line is a transparent
// span at the line's place, in the same fonts, spaced to the drawn width.
// The lines of a paragraph are one run of inline text (moved to their places
// relatively, each taking no room), joined by what joins them in the text
// (a wrap's space, nothing between two CJK lines): the browser's find, which
// matches only within a block, finds words across a wrap.
// Every loaded message is in the layer, the ones not drawn as hidden text
// (find reaches them). A drawn message's lines are placed relative to its
// first line and the message moved as a whole: a scroll sends places, not
// lines. Nothing here runs while nothing happens: the app sends the layer
// only when the drawn lines or their places change.
//
// The layer is four files of one purpose each, sharing window.roomkey._tl
// (loaded in this order, index.html): text_layer.js places the lines the
// app sends; text_select.js keeps the selection (positions in the texts,
// the pointer, find); text_copy.js joins the lines as they read (copy);
// text_touch.js is a finger's long press.
'use strict';
(function () {
  var api = window['roomkey'];
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif, ' +
             '"Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"';
  // What the layer's files share.
  var tl = api['_tl'] = {
    layer: null,
    messages: [],     // in order: {id, text, el, runs: [{el, start, end}] (drawn lines; empty: not drawn)}
    byId: {},
    model: null,      // {a: {id, o}, f: {id, o}}: anchor and focus in the messages' texts
    asked: null,      // the message last asked to be shown
    dragging: false,  // a press selecting text is held
    lastPointer: null,  // where the selecting drag is (client px)
    held: null,       // a finger held still (text_touch.js): {x, y, timer}
    heldWord: false,  // the selection is the word a long press chose
    fingerDown: false
  };
  var measure = null;
  // Lines whose text came from the app, and of those the ones the page held
  // already (_textStats: a scroll sends none again).
  var stats = { lines: 0, again: 0 };

  function root() {
    if (tl.layer) return tl.layer;
    tl.layer = document.createElement('div');
    tl.layer.id = 'textlayer';
    // Assistive technology reads the conversation's log (#a11y), not this copy.
    tl.layer.setAttribute('aria-hidden', 'true');
    var a11y = document.getElementById('a11y');
    // Before the accessibility tree: the browser's find meets this text first.
    document.body.insertBefore(tl.layer, a11y || null);
    tl.lines();
    return tl.layer;
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
    moveTo(m, null);
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
    m.labels = [];
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
        m.labels[run.l] = r[4];
        run.el.dataset.label = String(run.l);
      }
      place(run.el, r);
      // What joins it to the line before: a line break starts a paragraph
      // of its own; a space (or nothing) stays in the text, taking no room.
      var last = m.runs[m.runs.length - 1];
      var join = last ? tl.between(m, last, run) : '\n';
      if (join.indexOf('\n') >= 0) {
        block = document.createElement('div');
        block.className = 'tl-para';
        m.el.appendChild(block);
      } else if (join) {
        var gap = tl.isText(last) ? span('tl-gap', join, last.end) : span('tl-gap', join, last.anchor);
        if (!tl.isText(last)) {
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
    var old = tl.byId;
    tl.messages = [];
    tl.byId = {};
    var box = root();
    list.forEach(function (pair) {
      var m = old[pair[0]];
      if (!m || m.text !== pair[1]) {
        // labels: the texts of its labels as last drawn, by index (a label
        // selected by find stays the selection's text when scrolled away).
        m = { id: pair[0], text: pair[1], el: document.createElement('div'), runs: [], labels: [] };
        m.el.className = 'tl-msg';
        m.el.dataset.id = m.id;
        hidden(m);
      }
      tl.messages.push(m);
      tl.byId[m.id] = m;
    });
    // In the conversation's order. A kept element already in its place is
    // not moved: moving it would drop a selection inside it.
    tl.messages.forEach(function (m, i) {
      var at = box.childNodes[i];
      if (at !== m.el) box.insertBefore(m.el, at || null);
    });
    while (box.childNodes.length > tl.messages.length) box.removeChild(box.lastChild);
    // The DOM selection is read only when the model has one to set, or lost
    // one: reading it lays out the page, and a selection the browser just
    // made (find's match, its selectionchange still to come) must not be
    // cleared before it is read.
    if (tl.model) {
      if (!tl.byId[tl.model.a.id] || !tl.byId[tl.model.f.id]) tl.model = null;
      tl.apply();
    }
  }

  // A drawn message's lines are placed relative to its first line; the
  // message as a whole is moved to where that is (a scroll moves only this).
  function moveTo(m, at) {
    var x = at ? at[0] : 0, y = at ? at[1] : 0;
    if (m.x === x && m.y === y) return;
    m.x = x;
    m.y = y;
    m.el.style.transform = at ? 'translate(' + x + 'px,' + y + 'px)' : '';
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
    tl.messages.forEach(function (m) {
      var entry = data.runs[m.id];
      if (!entry) {
        if (m.runs.length) hidden(m);
        return;
      }
      // [x, y] of its first line, then its lines only when they changed
      // (relative to the first): a scroll sends places alone.
      var list = entry[2];
      if (list) {
        stats.lines += list.length;
        var same = list.length === m.runs.length &&
                   list.every(function (r, i) { return r[4] === m.runs[i].text && r[5] === m.runs[i].label; });
        if (!same) {
          drawRuns(m, list);
        } else {
          stats.again += list.length;
          // Only moved within the message: the spans stay, and so does the selection in them.
          list.forEach(function (r, i) { place(m.runs[i].el, r); m.runs[i].y = r[1]; });
        }
      }
      if (m.runs.length) moveTo(m, entry);
    });
    // A drag held still beyond an edge while the conversation scrolls: the
    // selection follows the text passing under the pointer.
    if (tl.dragging && tl.lastPointer) tl.extend(tl.lastPointer.x, tl.lastPointer.y);
    if (tl.model) tl.apply();
    tl.asked = null;
  }

  tl.root = root;
  api['_textStats'] = function () { return { lines: stats.lines, again: stats.again }; };
  api['_textMessages'] = setMessages;
  api['_textRuns'] = setRuns;
})();
