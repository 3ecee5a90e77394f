// page.js: boots the wasm app and is the page-level JS API around it.
//   window.roomkey.ready()   -> true once the app has drawn its first frame
//   window.roomkey.state()   -> the app's last published state (object)
//   window.roomkey.error()   -> a readable message if loading failed, else null
// The same state is written as text into #mirror (aria-live) for assistive
// technology. The app publishes through roomkey._publish (web/src/page_bridge.cpp).
'use strict';
(function () {
  var state = { ready: false };
  var loadError = null;
  var mirrorText = '';

  function overlay(text, isError) {
    var el = document.getElementById('overlay');
    document.getElementById('overlay-text').textContent = text;
    el.classList.toggle('error', !!isError);
    el.classList.toggle('hidden', text === null);
  }

  function fail(message) {
    loadError = message;
    overlay(message, true);
    updateMirror();
  }

  function describe(s) {
    if (loadError) return 'roomkey failed to start: ' + loadError;
    if (!s.ready) return 'roomkey is loading.';
    var parts = ['roomkey is ready.', 'Session: ' + (s.session || 'unknown') + '.'];
    if (s.account) parts.push('Signed in as ' + s.account + '.');
    if (s.last_error) parts.push('Last error: ' + s.last_error + '.');
    return parts.join(' ');
  }

  function updateMirror() {
    var text = describe(state);
    if (text !== mirrorText) {
      mirrorText = text;
      document.getElementById('mirror').textContent = text;
    }
  }

  window['roomkey'] = {
    'ready': function () { return state.ready === true && loadError === null; },
    'state': function () { return JSON.parse(JSON.stringify(state)); },
    'error': function () { return loadError; },
    '_publish': function (json) {
      try { state = JSON.parse(json); } catch (e) { return; }
      if (state.ready) overlay(null);
      updateMirror();
    }
  };

  function webgl2Available() {
    try { return !!document.createElement('canvas').getContext('webgl2'); } catch (e) { return false; }
  }

  function boot() {
    if (typeof WebAssembly !== 'object') {
      fail('this browser does not support WebAssembly. Use a current Chromium, Firefox or Safari.');
      return;
    }
    if (!webgl2Available()) {
      fail('WebGL 2 is not available, so the app cannot draw. Enable hardware acceleration ' +
           '(or WebGL) in the browser settings and reload.');
      return;
    }
    window['Module'] = {
      'canvas': document.getElementById('canvas'),
      'print': function (text) { console.log(text); },
      'printErr': function (text) { console.warn(text); },
      'onAbort': function (what) { fail('the app stopped unexpectedly (' + what + '). Reload the page to start again.'); }
    };
    var script = document.createElement('script');
    script.src = 'roomkey.js';
    script.onerror = function () {
      fail('roomkey.js could not be loaded. Is the build complete? Run ./scripts/run.sh again.');
    };
    document.body.appendChild(script);
    updateMirror();
  }

  window.addEventListener('error', function (event) {
    if (!state.ready) fail(event.message || 'a script error occurred while loading.');
  });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot); else boot();
})();
