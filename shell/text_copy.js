// text_copy.js: the conversation's text layer read as it reads (text_
// layer.js places its lines, text_select.js keeps the selection): the
// lines of a message joined by what joins them in the text (a wrap's space,
// nothing between two CJK lines, a line break), labels included. Copy
// (Ctrl+C, or the page API's copy_selection) writes the selected text of the
// messages' `text` (state().room.messages[].text), in order, one message a
// line.
'use strict';
(function () {
  var api = window['roomkey'];
  var tl = api['_tl'];
  // Between two drawn lines of a message: a line break where the text has
  // one or the second is drawn below the first; the text's own spaces
  // between the parts of a wrapped paragraph, a space within a wrapped label.
  function between(m, r, q) {
    if (tl.isText(r) && tl.isText(q)) {
      var gap = m.text.slice(r.end, q.start);
      if (gap.indexOf('\n') >= 0) return '\n';
      if (/^\s*$/.test(gap)) return gap;
    }
    return q.y > r.y + r.size / 2 && q.label !== 3 ? '\n' : ' ';
  }

  // The part of message `m` from `lo` (null: its start) to `hi` (null: its
  // end), as it reads: its drawn lines, labels included, in order.
  function part(m, lo, hi) {
    if (!m.runs.length) {
      // Within one label of a message not drawn now: the label as last drawn.
      if (lo && hi && lo.l >= 0 && lo.l === hi.l) return (m.labels[lo.l] || '').slice(lo.c, hi.c);
      return m.text.slice(lo ? Math.max(0, lo.o) : 0, hi ? hi.o : m.text.length);
    }
    var from = lo ? tl.position(lo) : -1, to = hi ? tl.position(hi) : m.runs.length;
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
    if (!tl.model) return null;
    var lo = tl.before(tl.model.f, tl.model.a) ? tl.model.f : tl.model.a;
    var hi = lo === tl.model.a ? tl.model.f : tl.model.a;
    var first = tl.order(lo), last = tl.order(hi);
    if (first < 0 || last < 0) return null;
    var parts = [], ids = [];
    for (var i = first; i <= last; i++) {
      var m = tl.messages[i];
      var text = part(m, i === first ? lo : null, i === last ? hi : null);
      if (!text) continue;
      parts.push(text);
      ids.push(m.id);
    }
    return parts.length ? { text: parts.join('\n'), message_ids: ids } : null;
  }

  // Ctrl+C (and the browser's Copy): the text as the reader sees it, not
  // the spans' own (their lines, in the order they are laid out).
  document.addEventListener('copy', function (event) {
    var sel = selected();
    var target = event.target;
    if (!sel || !event.clipboardData) return;
    if (tl.inField(target) && target.selectionStart !== target.selectionEnd) return;  // the field's own copy
    var dom = window.getSelection();
    if (!dom || !dom.rangeCount || !tl.layer || !tl.layer.contains(dom.anchorNode)) return;
    event.clipboardData.setData('text/plain', sel.text);
    event.preventDefault();
  });

  api['_textCopy'] = function () {
    var sel = selected();
    if (!sel || !navigator.clipboard || !navigator.clipboard.writeText) return;
    navigator.clipboard.writeText(sel.text).catch(function () {
      console.warn('roomkey: the browser refused clipboard access; select the text and press Ctrl+C');
    });
  };

  tl.between = between;
  tl.selected = selected;
})();
