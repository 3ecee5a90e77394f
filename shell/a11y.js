// a11y.js: the accessibility tree beside the canvas (web/src/a11y.cpp is its
// other half), the way Flutter's semantics layer or AccessKit do it.
//   - The app sends operations (add/update/move/remove, web/app/a11y_tree.hpp)
//     that keep a visually hidden DOM subtree (#a11y) in step with its
//     widgets: buttons, checkboxes, text fields, headings, lists of items
//     (the rooms), the conversation as a log (role log, a live region) of
//     articles that read as the messages are drawn, and described drawings
//     (the rate plot), and the app's question as a modal dialog named by
//     its title. Each element sits over its widget (CSS px), so
//     screen magnifiers follow the focus.
//   - Activating an element (a click, a screen reader's "press") asks the
//     app to activate the same widget; focus moves both ways.
//   - Text reaches the app through the real DOM input of the focused field:
//     typed keys, IME composition (compositionstart/update/end), paste and
//     mobile keyboards (their deletions too), one path. GLFW's own key-char handler is kept away
//     from these inputs so nothing arrives twice.
//   - A field's copy and cut (Ctrl+C/X) are its input's copy and cut events,
//     set from the selection the app publishes (_a11ySelected): the one
//     place every engine lets the page write the clipboard.
// Loaded after page.js, before roomkey.js: its window listeners run first.
'use strict';
(function () {
  var api = window['roomkey'];
  var root = null;
  var nodes = {};      // id -> {el (outer), target (focusable), role}
  var requests = [];   // for the app: [{type, id, ...}]
  var syncing = false; // focus moved by the app: no echo
  // The control that Enter/Space went to the app from, as keys, within this
  // task: the browser's own click on it that follows is not a second
  // activation. Only that control's click: a Space typed in a text field is
  // a character, and a click on another control right behind it (a script's,
  // assistive technology's) is its own activation (it was dropped).
  var keyActivation = null;
  var composing = false;
  var keyDeletion = false;    // Backspace/Delete went to the app as a key already
  var selected = '';          // the focused field's selection as the app last drew it ('': none)
  var appFocus = '';          // the app's focused item (_a11yFocus), as a data-id

  // A request for the app, taken at once (web/src/main.cpp listens for
  // "roomkey:a11y"): it joins the app's input queue behind the keys that
  // came before it, so typed text, a paste and a click keep their order.
  // Text goes through askText, so a held half (below) goes first.
  function ask(request) {
    if (heldHigh && request.type !== 'text') flushHeld();
    requests.push(request);
    window.dispatchEvent(new Event('roomkey:a11y'));
  }

  // Firefox's WebDriver BiDi types a character beyond U+FFFF (an
  // emoji) as two input events, one UTF-16 half each. A lone half is no
  // text: it has no UTF-8 form, and the app's JSON reader refuses the whole
  // request. So a high half at the end of an input waits here for the low
  // half that starts the next one. When anything else comes first (other
  // text, a deletion, a composition, a focus move, an editing key), the
  // held half goes as U+FFFD, the replacement character, where it was
  // typed: the loss shows, and nothing after it is lost or reordered. A
  // lone half anywhere else becomes U+FFFD too. No timer: a half waits
  // only for the next event.
  var heldHigh = null;  // {id, half, replace}: the field, the high half, the replace flag it came with
  function isHigh(code) { return code >= 0xD800 && code <= 0xDBFF; }
  function isLow(code) { return code >= 0xDC00 && code <= 0xDFFF; }
  function flushHeld() {
    var held = heldHigh;
    heldHigh = null;
    if (held) ask({ type: 'text', id: held.id, text: '\uFFFD', replace: held.replace });
  }
  function wellFormed(text) {
    var out = '';
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      if (isHigh(code) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
        out += text.substr(i, 2);
        i += 1;
      } else {
        out += isHigh(code) || isLow(code) ? '\uFFFD' : text.charAt(i);
      }
    }
    return out;
  }
  function askText(id, text, replace) {
    if (heldHigh && heldHigh.id === id && isLow(text.charCodeAt(0))) {
      text = heldHigh.half + text;
      replace = heldHigh.replace;  // the pair replaces what its first half would have
      heldHigh = null;
    } else {
      flushHeld();
    }
    if (isHigh(text.charCodeAt(text.length - 1))) {
      var before = text.slice(0, -1);
      heldHigh = { id: id, half: text.slice(-1), replace: replace && before === '' };
      text = before;
    }
    if (text) ask({ type: 'text', id: id, text: wellFormed(text), replace: replace });
  }

  function container() {
    if (!root) root = document.getElementById('a11y');
    return root;
  }

  function place(node, rect) {
    var s = node.el.style;
    s.left = rect[0] + 'px';
    s.top = rect[1] + 'px';
    s.width = Math.max(1, rect[2]) + 'px';
    s.height = Math.max(1, rect[3]) + 'px';
  }

  // A message's text is laid out (shaped) once, in the idle time after it
  // first comes: until then it is `a11y-later`, above the page, where
  // `content-visibility: auto` skips it and keeps it in the accessibility
  // tree. Opening a long room shaped every message's text (57,000
  // characters of Japanese) before its first frame, and the drawn ones'
  // still before the frame that first shows them. The drawn ones go first,
  // at the first idle time (at most 100 ms on), however short, then placed
  // over their message. Once laid out, a message not drawn is 1 px at the
  // corner (no `content-visibility`: its viewport checks and re-shaping cost
  // every scrolled frame more than the text's one layout, bench/scale.mjs --trace).
  var later = [];        // nodes whose text is a11y-later, oldest first
  var laterAsked = false;
  function placeText(node) {
    place({ el: node.text }, node.later ? [0, -99999, 1, 1] : node.rect || [0, 0, 1, 1]);
  }
  function laidOut(node) {
    if (!node.later) return;
    node.later = false;
    node.text.classList.remove('a11y-later');
  }
  function layOutLater(node) {
    node.later = true;
    later.push(node);
    askIdle();
  }
  function askIdle() {
    if (laterAsked) return;
    laterAsked = true;
    if (window.requestIdleCallback) window.requestIdleCallback(layOutSome, { timeout: 100 });
    else setTimeout(function () { layOutSome(null); }, 50);
  }
  function layOutNow(node) {
    laidOut(node);
    placeText(node);
    if (node.el.isConnected) void node.text.offsetWidth;
  }
  // The drawn ones, then as many as the idle time holds (8 ms without
  // requestIdleCallback), each laid out at once so the cost stays here.
  function layOutSome(deadline) {
    laterAsked = false;
    var until = performance.now() + 8;
    later = later.filter(function (node) {
      if (node.drawn) layOutNow(node);
      return node.later;
    });
    while (later.length && (deadline ? deadline.timeRemaining() > 1 : performance.now() < until)) {
      layOutNow(later.shift());
    }
    if (later.length) askIdle();
  }

  function isText(role) { return role === 'textbox' || role === 'textarea'; }
  // Elements that hold others: named by aria-label, never by their text,
  // and not positioned, so their children sit over the canvas like the rest.
  function isContainer(role) {
    return role === 'list' || role === 'listitem' || role === 'group' || role === 'log' || role === 'article' ||
      role === 'dialog';
  }

  function create(op) {
    var el, target, text;
    if (op.role === 'heading') {
      el = document.createElement('h' + (op.value || '2'));
      target = document.createElement('button');
      target.type = 'button';
      el.appendChild(target);
    } else if (op.role === 'checkbox') {
      el = target = document.createElement('div');
      el.setAttribute('role', 'checkbox');
      el.tabIndex = -1;
    } else if (op.role === 'textbox' || op.role === 'textarea') {
      el = target = document.createElement(op.role === 'textarea' ? 'textarea' : 'input');
      if (op.role === 'textbox') el.type = 'text';
      el.autocomplete = 'off';
      el.spellcheck = false;
      wireText(el, op.id);
    } else if (op.role === 'list' || op.role === 'listitem') {
      el = target = document.createElement(op.role === 'list' ? 'ul' : 'li');
    } else if (op.role === 'group' || op.role === 'img' || op.role === 'log' || op.role === 'dialog') {
      el = target = document.createElement('div');
      el.setAttribute('role', op.role);
      // The app's question is modal: nothing beneath it takes input.
      if (op.role === 'dialog') el.setAttribute('aria-modal', 'true');
    } else if (op.role === 'article') {
      // A message: its text first (what a screen reader reads, and what a
      // live log announces), positioned over the message; its controls after.
      el = target = document.createElement('div');
      el.setAttribute('role', 'article');
      var text = document.createElement('p');
      text.className = 'a11y-text a11y-later';
      el.appendChild(text);
    } else {
      el = target = document.createElement('button');
      el.type = 'button';
    }
    el.className = 'a11y-node';
    el.dataset.id = op.id;
    // The app owns Tab (it moves its own focus ring, which this tree then
    // follows): no element here is a stop of the browser's own Tab order.
    // WebKitGTK moved the DOM focus to the tree's first button on a Tab
    // whose keydown the app had prevented (the first Tab landed on
    // "Developer (F2)" or "A-", not on the app's main action). Script
    // and assistive technology still focus them.
    target.tabIndex = -1;
    var node = { el: el, target: target, role: op.role, id: op.id, text: text || null };
    if (text) layOutLater(node);
    if (isContainer(op.role) || op.role === 'img') return node;  // nothing to activate or focus
    target.addEventListener('click', function (event) {
      event.preventDefault();
      // Enter/Space on this focused element already reached the app as keys.
      if (keyActivation === target) return;
      ask({ type: 'activate', id: op.id });
    });
    target.addEventListener('focus', function () {
      if (!syncing) ask({ type: 'focus', id: op.id });
    });
    return node;
  }

  function update(node, op) {
    var t = node.target;
    var state = op.state || 0;
    node.value = op.value;
    if (isText(node.role)) {
      t.setAttribute('aria-label', op.name);
      if (op.value !== undefined && !composing && t.value !== op.value) t.value = op.value;
      if (node.role === 'textbox') t.type = state & 16 ? 'password' : 'text';
      t.readOnly = !!(state & 32);
    } else if (node.role === 'article') {
      // Read as its text, not a label: a label would be said besides it.
      if (node.text.textContent !== op.name) node.text.textContent = op.name;
      node.drawn = !!op.rect;
      node.rect = op.rect;
      placeText(node);  // a drawn one still later is laid out first at the next idle time
      return;
    } else if (isContainer(node.role) || node.role === 'img') {
      if (op.name) t.setAttribute('aria-label', op.name); else t.removeAttribute('aria-label');
      if (node.role !== 'img') return;
    } else {
      t.textContent = op.name;
    }
    if (node.role === 'checkbox') t.setAttribute('aria-checked', state & 1 ? 'true' : 'false');
    if (state & 2) t.setAttribute('aria-expanded', state & 4 ? 'true' : 'false'); else t.removeAttribute('aria-expanded');
    if (state & 8) t.setAttribute('aria-disabled', 'true'); else t.removeAttribute('aria-disabled');
    if (op.shortcut) t.setAttribute('aria-keyshortcuts', op.shortcut); else t.removeAttribute('aria-keyshortcuts');
    place(node, op.rect || [0, 0, 1, 1]);
  }

  function insert(node, parentId, afterId) {
    var parent = parentId ? (nodes[parentId] && nodes[parentId].el) : container();
    if (!parent) parent = container();
    var after = afterId ? nodes[afterId] : null;
    var first = parentId && nodes[parentId] && nodes[parentId].text;  // an article's text stays first
    var before = after ? after.el.nextSibling : first ? first.nextSibling : parent.firstChild;
    parent.insertBefore(node.el, before);
  }

  function apply(json) {
    var ops;
    try { ops = JSON.parse(json); } catch (e) { return; }
    if (!container()) return;
    ops.forEach(function (op) {
      var node = nodes[op.id];
      if (op.op === 'remove') {
        if (!node) return;
        node.el.remove();
        delete nodes[op.id];
        Array.prototype.forEach.call(node.el.querySelectorAll('[data-id]'), function (child) {
          delete nodes[child.dataset.id];
        });
      } else if (op.op === 'add') {
        node = nodes[op.id] = create(op);
        update(node, op);
        insert(node, op.parent, op.after);
      } else if (op.op === 'move' && node) {
        insert(node, op.parent, op.after);
      } else if (op.op === 'update' && node) {
        update(node, op);
      }
    });
  }

  function focus(id) {
    var node = nodes[id];
    appFocus = String(id);
    var active = document.activeElement;
    var inTree = active && container() && container().contains(active);
    syncing = true;
    try {
      if (node) {
        node.target.focus({ preventScroll: true });
      } else if (inTree) {
        // The app's focus left the tree's controls: keys go to the canvas.
        var canvas = document.getElementById('canvas');
        if (canvas) canvas.focus({ preventScroll: true });
      }
    } finally {
      syncing = false;
    }
  }

  // The focused field's input sits at its caret: an IME's candidate window
  // opens there.
  function caret(id, x, y, height) {
    var node = nodes[id];
    if (!node || !isText(node.role)) return;
    var s = node.el.style;
    s.left = x + 'px';
    s.top = y + 'px';
    s.height = Math.max(1, height) + 'px';
  }

  function selectedAll(el) {
    return el.value.length > 0 && el.selectionStart === 0 && el.selectionEnd === el.value.length;
  }

  // Text of the field's DOM input goes to the app, which owns the text: the
  // input's own value is put back from the app's next update.
  function wireText(el, id) {
    el.addEventListener('beforeinput', function (event) {
      var type = event.inputType || '';
      if (type === 'insertCompositionText' || event.isComposing) return;  // not cancelable; see compositionend
      var text = null;
      if (type === 'insertText' || type === 'insertReplacementText') {
        text = event.data;
        if (text === null && event.dataTransfer) text = event.dataTransfer.getData('text/plain');
      } else if (type === 'insertFromPaste' || type === 'insertFromDrop' || type === 'insertFromYank') {
        text = event.dataTransfer ? event.dataTransfer.getData('text/plain') : event.data;
      } else if (type === 'insertLineBreak' || type === 'insertParagraph') {
        // Enter: the keydown reached the app through GLFW.
        event.preventDefault();
        return;
      } else if (type.indexOf('delete') === 0) {
        event.preventDefault();
        // A desktop Backspace or Delete reached the app as a key. A mobile
        // keyboard sends no such key (keydown says "Unidentified"): its
        // deletion comes only as this event, and goes to the app from here.
        if (!keyDeletion) {
          ask({ type: 'delete', id: id, forward: type.indexOf('Forward') > 0,
            span: type.indexOf('Word') > 0 ? 'word' : type.indexOf('Line') > 0 ? 'line' : 'char',
            replace: selectedAll(el) });
        }
        return;
      } else {
        return;  // history (undo, redo): not the app's to take from the DOM
      }
      event.preventDefault();
      if (text) askText(id, String(text), selectedAll(el));
    });
    // A paste brings its text in the event itself (clipboardData): taken
    // here, at once, so no later frame can read a stale clipboard.
    // beforeinput's insertFromPaste gives no text for an <input> in Chromium.
    el.addEventListener('paste', function (event) {
      var text = event.clipboardData ? event.clipboardData.getData('text/plain') : '';
      event.preventDefault();
      if (text) askText(id, String(text), selectedAll(el));
    });
    // Copy and cut: the app's selection (its whole text when none, as
    // ImGui's own Ctrl+C) once the keys before them are applied, as typed,
    // set in the event itself: Firefox and
    // WebKit refuse a clipboard write from a later frame. The input holds no
    // selection (Ctrl+A is the app's): Chromium and WebKit fire the events
    // then only when beforecopy/beforecut is cancelled. The keys' own
    // Ctrl+C/X stay away from the app (keydown below), so a cut removes the
    // text only when the clipboard got it.
    var enable = function (event) { event.preventDefault(); };
    el.addEventListener('beforecopy', enable);
    el.addEventListener('beforecut', enable);
    var clip = function (event) {
      if (!event.clipboardData || el.type === 'password') return;
      // What the keys before it selected: keys of a burst may still wait in
      // the app's queue; the app applies them now and publishes the selection.
      ask({ type: 'keys_first' });
      var node = nodes[id];
      if (!node || appFocus !== String(id)) return;
      event.preventDefault();
      event.stopPropagation();  // the conversation's copy (text_copy.js) is not this one
      var text = selected || node.value || '';
      if (!text) return;
      event.clipboardData.setData('text/plain', text);
      if (event.type === 'cut' && !el.readOnly) {
        ask({ type: 'delete', id: id, forward: false, span: 'char', replace: !selected });
      }
    };
    el.addEventListener('copy', clip);
    el.addEventListener('cut', clip);
    el.addEventListener('compositionstart', function () {
      composing = true;
      ask({ type: 'compose', id: id, text: '' });
    });
    el.addEventListener('compositionupdate', function (event) {
      ask({ type: 'compose', id: id, text: event.data || '' });
    });
    el.addEventListener('compositionend', function (event) {
      composing = false;
      ask({ type: 'compose', id: id, text: '' });
      if (event.data) askText(id, event.data, false);
      // The composed text is the app's now; the input shows the app's value.
      var node = nodes[id];
      if (node) node.target.value = node.value || '';
    });
  }

  function inTextInput(target) {
    return target && container() && container().contains(target) &&
           (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA');
  }

  // The text field whose element lies under a point (CSS px), if any.
  function textFieldAt(x, y) {
    for (var id in nodes) {
      var node = nodes[id];
      if (!isText(node.role) || node.target.readOnly) continue;
      var r = node.el.getBoundingClientRect();
      if (x >= r.left && x < r.right && y >= r.top && y < r.bottom) return node;
    }
    return null;
  }

  // A finger's tap on a text field: the field's input takes the focus in the
  // tap's own event, the one moment a phone opens its on-screen keyboard for
  // a page (iOS Safari opens it only for a focus() inside the gesture; the
  // app's own focus comes a frame later). The tap's mouse events are
  // cancelled: the canvas would take the focus back with them. The input's
  // focus asks the app to focus the same field, as a screen reader's would.
  // A drag (the finger moved more than a tap's slop) scrolls; it focuses nothing.
  var tapStart = null;
  window.addEventListener('touchstart', function (event) {
    var touch = event.touches.length === 1 ? event.touches[0] : null;
    tapStart = touch ? { x: touch.clientX, y: touch.clientY } : null;
  }, { capture: true, passive: true });
  window.addEventListener('touchend', function (event) {
    var touch = event.changedTouches && event.changedTouches[0];
    if (!touch || !tapStart || event.touches.length > 0 || !event.cancelable ||
        event.target !== document.getElementById('canvas')) return;
    if (Math.abs(touch.clientX - tapStart.x) > 10 || Math.abs(touch.clientY - tapStart.y) > 10) return;
    var field = textFieldAt(touch.clientX, touch.clientY);
    if (!field) return;
    event.preventDefault();
    if (document.activeElement !== field.target) field.target.focus({ preventScroll: true });
  }, true);

  // A click on the canvas while a field's input has the focus leaves the
  // focus there, so an IME keeps reaching the field (a click in the field
  // being edited changes nothing); a click that takes the app's focus
  // elsewhere moves the DOM focus after it (focus() above).
  window.addEventListener('mousedown', function (event) {
    if (event.target === document.getElementById('canvas') && inTextInput(document.activeElement)) {
      event.preventDefault();
    }
  }, true);

  // Before GLFW's listeners (roomkey.js loads after this file): characters
  // typed into a field's input come through beforeinput, not keypress.
  window.addEventListener('keypress', function (event) {
    if (inTextInput(event.target)) event.stopImmediatePropagation();
  }, true);
  // Keys that are not characters (Backspace, arrows, Enter, shortcuts) reach
  // the app through GLFW, not through ask(): a held half goes before them.
  var NOT_EDITING = ['Unidentified', 'Process', 'Dead', 'Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock'];
  window.addEventListener('keydown', function (event) {
    var inTree = container() && container().contains(event.target);
    if (heldHigh && ((event.key || '').length > 1 && NOT_EDITING.indexOf(event.key) < 0 ||
                     event.ctrlKey || event.metaKey || event.altKey)) {
      flushHeld();
    }
    // Ctrl+A (Cmd+A) selects in the app's field, which gets the keys: the
    // input must not also select its own, possibly older, copy of the text,
    // or the next typed character would be sent as "replace everything"
    // ("typed 14, " was lost to a select-all the app had already acted
    // on). A selection made another way (a script's fill(), assistive
    // technology) still replaces.
    var key = (event.key || '').toLowerCase();
    if (inTextInput(event.target) && (event.ctrlKey || event.metaKey) && key === 'a') {
      event.preventDefault();
      selected = '';  // all, as the app's next frame draws it
    }
    // Copy and cut are the input's copy and cut events (wireText).
    if (inTextInput(event.target) && event.target.dataset.id === appFocus && (event.ctrlKey || event.metaKey) &&
        !event.altKey && (key === 'c' || key === 'x')) {
      event.stopImmediatePropagation();
      return;
    }
    if (inTextInput(event.target) && (event.key === 'Backspace' || event.key === 'Delete')) {
      keyDeletion = true;
      setTimeout(function () { keyDeletion = false; }, 0);
    }
    if (inTree && !inTextInput(event.target) && (event.key === 'Enter' || event.key === ' ')) {
      keyActivation = event.target;
      setTimeout(function () { keyActivation = null; }, 0);
    }
  }, true);
  window.addEventListener('keyup', function (event) {
    if (event.key === ' ' && container() && container().contains(event.target) && !inTextInput(event.target)) {
      keyActivation = event.target;
      setTimeout(function () { keyActivation = null; }, 0);
    }
  }, true);

  // The link under the pointer (the app draws it): a real <a> laid over it,
  // so a click, a middle-click or Ctrl+click opens it in a new tab and a
  // right-click gives the browser's own link menu. The canvas does not
  // hear the pointer leave for it (the app would take the link as left and
  // take the <a> away); the wheel over it scrolls the canvas.
  var link = null;
  function showLink(url, x, y, width, height) {
    if (!link) {
      link = document.createElement('a');
      link.id = 'link-over';
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.addEventListener('wheel', function (event) {
        event.preventDefault();
        var canvas = document.getElementById('canvas');
        if (canvas) canvas.dispatchEvent(new WheelEvent('wheel', event));
      }, { passive: false });
      document.body.appendChild(link);
    }
    if (!/^https?:\/\//i.test(url)) {
      link.hidden = true;
      link.removeAttribute('href');
      return;
    }
    link.href = url;
    link.textContent = url;
    var s = link.style;
    s.left = x + 'px';
    s.top = y + 'px';
    s.width = Math.max(1, width) + 'px';
    s.height = Math.max(1, height) + 'px';
    link.hidden = false;
  }
  window.addEventListener('mouseleave', function (event) {
    if (link && event.relatedTarget === link && event.target === document.getElementById('canvas')) {
      event.stopImmediatePropagation();
    }
  }, true);

  api['_a11yLink'] = showLink;
  api['_a11yAsk'] = ask;  // the text layer's requests (shell/text_layer.js) take the same road
  api['_a11yApply'] = apply;
  api['_a11yFocus'] = focus;
  api['_a11yCaret'] = caret;
  api['_a11ySelected'] = function (text) { selected = text; };
  api['_a11yTake'] = function () {
    var list = requests;
    requests = [];
    return list.length ? JSON.stringify(list) : '';
  };
  api['_a11yTextFocused'] = function () { return inTextInput(document.activeElement); };
})();
