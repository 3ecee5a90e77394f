// text_touch.js: a finger on the conversation's text layer (text_layer.js).
// On a touch screen (a coarse pointer, or once a finger touched the page)
// the lines take it from the start (class tl-touch), so the engine's own
// long press selects the word with its handles and dragging a handle meets
// the text; a touch that lands on a line goes on to the canvas (forward()),
// and a tap's own mouse events land on the canvas (the lines let go of the
// pointer from the tap's end to its click), so taps and swipes still reach
// the app.
'use strict';
(function () {
  var api = window['roomkey'];
  var tl = api['_tl'];
  // A finger held still on the canvas for LONG_PRESS ms selects the word
  // under it and is a right-click there: the message's menu opens (as a
  // long press does in the service's own app), its Copy and Quote on that
  // word. The touch then ends without a tap.
  var LONG_PRESS = 500;
  var longPressed = false;  // this touch was a long press: its end is no tap
  // A touch screen: the browser's own long press hit-tests the finger's
  // first place, so the lines take the finger before it comes. A mouse
  // moved (a laptop's touch screen beside its touchpad) gives them back.
  var coarse = !!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
  var tapping = false;  // a tap's mouse events are under way: they go to the canvas
  function release() { if (tl.held) clearTimeout(tl.held.timer); tl.held = null; }
  // The layer's lines take the pointer on a touch screen, while a finger is
  // down and while a selection it made is shown (dragging the browser's
  // handles hit-tests the text); a mouse never meets them.
  function touchSelected() {
    var sel = window.getSelection();
    return !!(sel && !sel.isCollapsed && tl.layer && tl.layer.contains(sel.anchorNode));
  }
  function touchText(on) {
    if (tl.layer && tl.layer.classList.contains('tl-touch') !== on) tl.layer.classList.toggle('tl-touch', on);
  }
  // (A selection keeps them only when they already had them: a mouse's never does.)
  function lines() {
    var had = !!tl.layer && tl.layer.classList.contains('tl-touch');
    touchText(!tapping && (coarse || tl.fingerDown || (had && touchSelected())));
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
    if (!tl.held || !canvas) return;
    var at = { clientX: tl.held.x, clientY: tl.held.y, bubbles: true, cancelable: true, view: window };
    var p = tl.inside(at) ? tl.pointAt(tl.held.x, tl.held.y, false) : null;  // not a line hidden under the composer
    tl.held = null;
    longPressed = true;
    if (p) {
      tl.model = tl.word(p);
      tl.heldWord = true;
      tl.apply();
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
    tl.fingerDown = event.touches.length > 0;
    if (!t) return release();
    if (event.type === 'touchstart') {
      release();
      tl.heldWord = longPressed = false;
      // The browser's own long press hit-tests where the finger first
      // landed: on a touch screen the lines took it already (coarse); where
      // a finger comes unannounced, they take it from this touch on.
      tapping = false;
      if (tl.inside(t)) touchText(true);
      tl.held = { x: t.clientX, y: t.clientY, timer: setTimeout(longPress, LONG_PRESS) };
    } else if (tl.held && (Math.abs(t.clientX - tl.held.x) > 10 || Math.abs(t.clientY - tl.held.y) > 10)) {
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
      tapping = !!tl.held && !event.touches.length && !touchSelected();
      release();
      tl.fingerDown = event.touches.length > 0;
      lines();
      // No tap after a long press: the menu it opened is under the finger.
      if (longPressed && event.cancelable) event.preventDefault();
      longPressed = false;
    });
    canvas.addEventListener('touchcancel', function () { release(); tl.fingerDown = false; lines(); }, { passive: true });
    window.addEventListener('touchstart', function () { coarse = true; }, { capture: true, passive: true });
    // The tap's click is the last of its mouse events: the lines take the finger again.
    window.addEventListener('click', function () { if (tapping) { tapping = false; lines(); } }, true);
    window.addEventListener('pointermove', function (event) {
      if (coarse && event.isTrusted && event.pointerType === 'mouse') { coarse = false; lines(); }
    }, { capture: true, passive: true });
    // The rest of the touch follows its line itself: a line a scroll
    // replaces leaves the layer, and its events no longer pass through it.
    tl.root().addEventListener('touchstart', function (event) {
      var line = event.target, rest = ['touchmove', 'touchend', 'touchcancel'];
      var follow = function (e) {
        forward(e);
        if (e.type !== 'touchmove' && !e.touches.length) rest.forEach(function (t) { line.removeEventListener(t, follow); });
      };
      forward(event);
      rest.forEach(function (t) { line.addEventListener(t, follow, { passive: true }); });
    }, { passive: true });
  }

  tl.lines = lines;
  listenTouch();  // the canvas comes before this script (index.html)
})();
