// bare_page.js: loads bare.js the way shell/page.js loads roomkey.js.
'use strict';
window['Module'] = { 'canvas': document.getElementById('canvas') };
(function () {
  var script = document.createElement('script');
  script.src = 'bare.js';
  document.body.appendChild(script);
})();
