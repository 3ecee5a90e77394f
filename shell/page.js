// page.js: boots the wasm app and is the page-level JS API around it.
//   window.roomkey.ready()        -> true once the app has drawn its first frame
//   window.roomkey.state()        -> the app's last published state (object, no secrets);
//                                    state().catalog lists every REST endpoint as
//                                    [{method, path, scope, room_post, destructive}]
//                                    (shared/include/roomkey/endpoint_catalog.hpp);
//                                    room {room_id, name, messages, tasks,
//                                    members, files, loading, error, poll_in_ms},
//                                    my_tasks, contacts, incoming_requests, room_unread,
//                                    console {last:{method, path, status, json,
//                                    scope_needed, scope_granted, rate, error, sent,
//                                    anyway, check}, problems [{param, kind, message}],
//                                    missing_scope, confirm, sending}
//                                    log_filter {text, method, status}, last_export
//                                    {name, bytes} of the last HAR download, or null
//                                    (web/app/views_state.cpp, web/app/console.hpp);
//                                    room.files[] {file_id, filename, filesize,
//                                    account_id, upload_time}, room.upload {name, sent,
//                                    total, status, file_id, error}, room.download
//                                    {file_id, url, expires_at} (web/app/room_view.hpp);
//                                    previews {file_id: {room_id, state ('', 'asking',
//                                    'loading', 'shown', 'failed'), width, height, asked}}
//                                    (web/app/file_preview.hpp, docs/file_previews.md)
//                                    clipboard_notice: sign-out's clipboard clear waits
//                                    for a click or key press, else null
//                                    view ('workspace'|'developer'), room_filter,
//                                    rooms[] {room_id, name, unread_num, mention_num, sticky,
//                                    last_update_time} in the order drawn, room.messages[]
//                                    {..., text, mentions_me, reply_to, system, edited,
//                                    time_text, links [{url, text}]: its http(s) links},
//                                    room.tasks[] {..., limit_time, limit_type},
//                                    notifications {enabled, permission}, title;
//                                    selection {text, message_ids}: the conversation's
//                                    selected text as copied (each message's part of
//                                    its `text`, in order, a line each) and the
//                                    messages it spans, or null (shell/text_layer.js);
//                                    frame: the number of the frame that drew this state,
//                                    or will draw it (web/src/main.cpp publish)
//                                    mode ('none'|'oauth'|'api_token'|'bff'),
//                                    config.session ('browser'|'bff'), tokens_held_by
//                                    ('page'|'helper'|null), tokens_where (the session
//                                    panel's sentence), bff {signed_in, expires_in,
//                                    refresh_expires_in, token_requests[] {grant_type,
//                                    status, ms, at, scope, error}} or null outside the
//                                    BFF mode (web/app/bff_state.hpp); in BFF mode
//                                    sign_in, sign_out, refresh_now, refresh_scopes and
//                                    add_scopes go through roomkey-helper's /bff/* routes
//   window.roomkey.error()        -> a readable message if loading failed, else null
//   window.roomkey.act(action)    -> queues an action for the app, the same
//                                    intents the UI produces, e.g.
//                                    {type:'sign_in', scope:'users.all:read rooms.all:read_write'}
//                                    {type:'post_message', room_id:'7', body:'hi', count:30}
//                                    {type:'upload_file', room_id, name, mime, data_base64, message}
//                                    {type:'open_file', room_id, file_id}
//                                    {type:'copy_as', entry, format:'curl_service'|'curl_helper'|
//                                    'fetch'|'python'} (always masked), {type:'export_har'},
//                                    {type:'set_log_filter', text, method, status}
//                                    {type:'attach_file', ...} (as upload_file)
//                                    {type:'set_setting', name:'send_key', value:'enter'|'ctrl_enter'}
//                                    {type:'set_setting', name:'mark_read_on_view', value:true}
//                                    {type:'select_text', room_id, message_id, start, end}: selects
//                                    characters [start, end) of a loaded message's `text` (UTF-16
//                                    code units, as text.slice takes them) and shows the message;
//                                    {type:'copy_selection'} puts state().selection.text on the clipboard
//                                    (state: composer {text, room_id}, settings {send_key,
//                                    mark_read_on_view}, dialog {title, quote, detail, yes, no} or null)
//                                    {type:'refresh_scopes', scope:'users.all:read'} (a subset of
//                                    state().scopes.granted, spec 4.3; the outcome in
//                                    state().scope_refresh {pending, requested,
//                                    granted_before, granted})
//                                    (list: web/app/intents.hpp)
//   window.roomkey.mirrorText()   -> the text of the aria-live mirror
//   window.roomkey.widget(name)   -> {x, y, width, height} (CSS px) of a main control
//                                    drawn in the canvas (sign_in, message,
//                                    queue_message, queue_hint, sign_out, reveal,
//                                    copy_curl, log_latest, export_har, log_filter, log_new,
//                                    console_send_anyway, open_room, mark_read,
//                                    console_endpoint, console_send, add_scopes,
//                                    rate_plot, refresh_scopes, files_tab,
//                                    upload_file, upload_message; room_list, conversation,
//                                    composer, details, developer, back, attach,
//                                    mention_option, send_key, menu (a narrow header),
//                                    session (the header's session words),
//                                    settings, dialog, dialog_yes, dialog_no (while a
//                                    question is open); and `frame`, the
//                                    frame it was drawn in: once widget(n).frame >=
//                                    state().frame it shows that state; `settled`:
//                                    that frame was final, none is due after it (a
//                                    scroll, a measuring window, input still to
//                                    take would move things): the part of it
//                                    on screen, or null when it is not drawn or
//                                    is scrolled out of its panel's view
//   window.roomkey.firstFrameAt() -> performance.now() of the first drawn frame (bench/)
//   window.roomkey.frameStats()   -> {frame, settled} as widget() has them; asked_ms: how
//                                    long the animation frame the app asked for has not
//                                    run (null: none asked); late: frames the app drew
//                                    from its timer because the browser ran none for
//                                    500 ms while the page was shown (web/src/main.cpp
//                                    kFrameFallback). For a test whose wait for a frame
//                                    timed out: was a frame asked for, and withheld?
//   'roomkey:state' event on window -> fired after the app publishes a changed
//                                    state (once per turn of the event loop
//                                    for one or more changes; state() returns
//                                    the latest): a script waits for it instead
//                                    of polling. None for a load failure (error())
//   window.roomkey.scopeHelp()    -> [{name, explanation, includes, available}] for the scope picker
//   window.roomkey.fontStats()    -> {resident, missing, capacity, rebuilds, colored, builtin,
//                                    notice, missing_scripts}: the glyph atlas
//                                    (web/src/browser_font.hpp); missing counts
//                                    codepoints drawn that the atlas does not hold;
//                                    builtin: canvas read-back is noise (an engine's fingerprinting guard),
//                                    so the built-in Latin font draws, notice says
//                                    why (the mirror too), missing_scripts what it lacks
// The app's controls are also published as an accessibility tree (#a11y,
// shell/a11y.js), which Playwright's role queries and screen readers see.
// The same state is written as text into #mirror (aria-live) for assistive
// technology, and the scope explanations into #scope-help. The app publishes
// through roomkey._publish* and reads what the page holds for it through the
// other _underscore members (web/src/*.cpp).
//
// Every script on the page can call this API, so it never returns a secret:
// no token, code or verifier, no clipboard text (pastes go straight into the
// app's memory, web/src/browser.cpp), and revealing secrets is not an action
// it accepts (web/app/intents.cpp). That keeps secrets out of what tests,
// extensions' content scripts reading the API, and assistive technology
// see. It is not a wall against a script running in the page: such a script
// can read the wasm memory or click the canvas like a user (widget() gives
// positions). What keeps foreign scripts out of the page is the helper's
// Content-Security-Policy (only the site's own scripts, no inline script).
//
// This file is the first resource of the page, loaded blocking in <head>
// (shell/index.html); it strips the address bar (step 1) and only then adds
// the stylesheet (step 2) and asks for the app's files (step 3), so no other
// request happens before the strip.
'use strict';
(function () {
  // The app's files. The build (cmake/PackageWebDist.cmake) rewrites this line
  // with content-hashed names, which the helper serves as immutable.
  var ASSETS = { js: 'roomkey.js', wasm: 'roomkey.wasm' };

  // 1. Before anything else loads: an authorization answer (code, state,
  // error...) is taken out of the address bar and the history entry, so it
  // cannot leak through the URL, a bookmark, a Referer or a reload. The app
  // receives the original URL once, from memory (spec 4.2; RFC 9700 4.2.4),
  // and shared/'s read_launch_url says what it holds.
  // This is the page's only history.replaceState. Its rule is
  // read_launch_url's clean address (shared/include/roomkey/launch_url.hpp:
  // kAuthorizationAnswerFields, kRedirectPath, kBffErrorField), written here
  // because it must run before the wasm is even requested;
  // tests/unit/launch_url_test.cpp and the e2e test "every shape of launch
  // URL" (app_signin) hold both to the same table.
  var CALLBACK_PARAMS = ['code', 'state', 'error', 'error_description', 'error_uri', 'error_code', 'iss'];
  // The pending authorization (state + code_verifier) the app kept in
  // sessionStorage before leaving for the consent screen (web/src/browser.hpp
  // kPendingKey). Single use: it leaves storage now, whether or not the app
  // ever starts, and the app gets it once from memory.
  var PENDING_KEY = 'roomkey.pending_authorization';
  var launchUrl = window.location.href;
  var pending = '';
  (function stripCallbackParams() {
    try {
      pending = window.sessionStorage.getItem(PENDING_KEY) || '';
      window.sessionStorage.removeItem(PENDING_KEY);
    } catch (e) { pending = ''; }
    var url;
    try { url = new URL(window.location.href); } catch (e) { return; }
    var changed = false;
    CALLBACK_PARAMS.forEach(function (name) {
      if (url.searchParams.has(name)) { url.searchParams.delete(name); changed = true; }
    });
    // The callback's own path goes too: after sign-in the address is `/`.
    if (url.pathname === '/callback') { url.pathname = '/'; changed = true; }
    // roomkey-helper's BFF callback reports a failed sign-in in the fragment
    // (#bff_error=...&bff_error_description=...); the app shows it once,
    // from launchUrl, and a reload must not show it again.
    if (new URLSearchParams(url.hash.slice(1)).has('bff_error')) { url.hash = ''; changed = true; }
    if (changed) window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  })();

  // 1b. Where you are: the fragment names the place (#/rooms/2100,
  // #/developer). A reload or a pasted link opens it once signed in; the
  // tab keeps the last place too (PLACE_KEY), so a sign-in through the
  // consent screen, whose callback address has no fragment, comes back to
  // it. The app's state().location says where it is: a new place is a new
  // history entry, and Back and Forward go to theirs. Nothing here runs
  // between changes: it follows the app's publishes and popstate only.
  var PLACE_KEY = 'roomkey.location';
  var PLACE = /^#\/(rooms\/\d{1,20}(\/tasks)?|developer)$/;
  var wantedPlace = null;
  try {
    wantedPlace = PLACE.test(window.location.hash) ? window.location.hash
                                                   : (window.sessionStorage.getItem(PLACE_KEY) || null);
  } catch (e) { wantedPlace = PLACE.test(window.location.hash) ? window.location.hash : null; }
  if (wantedPlace && !PLACE.test(wantedPlace)) wantedPlace = null;

  // 1c. The page's language, chosen here for the page and the app alike
  // (web/src/language.cpp takes it through _language(): one owner of the
  // rule): ?lang= first (kept in this browser, so it outlasts the sign-in's
  // round trip), then the choice kept in this browser (LANG_KEY, which the
  // app writes when the language is switched), then the first of
  // navigator.languages the app has, else English. The pseudo-locale (qps)
  // only by name. Known before the wasm is even requested, so the loading
  // words and the page's own labels are in that language from the start.
  var LANG_KEY = 'roomkey.lang';
  // The page's own words (the "shell." entries of web/i18n/*.json), said
  // before the app runs: the build (cmake/PackageWebDist.cmake) fills this
  // line in from the catalog, every language, {lang: {key: text}}. Its
  // languages are the catalog's: the ones a tag is read as.
  var PAGE_WORDS = {};
  function langOf(tag) {
    var primary = String(tag || '').split(/[-_]/)[0].toLowerCase();
    return PAGE_WORDS.hasOwnProperty(primary) || primary === 'qps' ? primary : null;
  }
  var pageLang = (function chooseLanguage() {
    var query = null;
    var stored = null;
    try { query = langOf(new URLSearchParams(window.location.search).get('lang')); } catch (e) { /* no query */ }
    try { stored = langOf(window.localStorage.getItem(LANG_KEY)); } catch (e) { /* storage off */ }
    if (query) {
      try { window.localStorage.setItem(LANG_KEY, query); } catch (e) { /* storage off: this load only */ }
      return query;
    }
    if (stored) return stored;
    var list = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (var i = 0; i < list.length; i++) {
      var lang = langOf(list[i]);
      if (lang && lang !== 'qps') return lang;
    }
    return 'en';
  })();
  // The pseudo-locale is English's text in disguise.
  document.documentElement.lang = pageLang === 'ja' ? 'ja' : 'en';

  // 2. Only now the stylesheet. A <link> in the HTML would be fetched by the
  // browser's preload scanner while this script is still downloading, that
  // is before the strip above; added from here it is requested after it.
  // `blocking=render` keeps the unstyled page from flashing meanwhile.
  (function addStylesheet() {
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = 'style.css';
    link.setAttribute('blocking', 'render');
    (document.head || document.documentElement).appendChild(link);
  })();

  // 3. The app's files are asked for now, not when boot() adds roomkey.js and
  // that script asks for roomkey.wasm: the download and the compilation of the
  // wasm run while the rest of the page is parsed and boot() runs, instead of
  // one after another (bench/web_size.mjs: first frame). roomkey.js is
  // preloaded for the same reason; boot() still runs it. Both are requested
  // after the strip (step 1). The compiled module reaches roomkey.js through
  // Module.instantiateWasm (boot()).
  (function preloadScript() {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'script';
    link.href = ASSETS.js;
    (document.head || document.documentElement).appendChild(link);
  })();
  var appModule = (function compileApp() {
    if (typeof WebAssembly !== 'object' || typeof fetch !== 'function') return null;  // boot() says so
    var request = function () { return fetch(ASSETS.wasm, { credentials: 'same-origin' }); };
    var fromBytes = function () {
      return request().then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.arrayBuffer();
      }).then(function (bytes) { return WebAssembly.compile(bytes); });
    };
    // Streaming needs the application/wasm type; a server that sends another
    // one still gets the app started, from the bytes.
    var compiled = typeof WebAssembly.compileStreaming === 'function' ?
      WebAssembly.compileStreaming(request()).catch(fromBytes) : fromBytes();
    compiled.catch(function () {});  // a failure is reported when the app asks for the module
    return compiled;
  })();

  var state = { ready: false, selection: null };
  // The fields published inside a part ("room.messages": value), kept to be
  // set again inside a new copy of that part.
  var inner = {};
  function setInside(name, value) {
    var dot = name.indexOf('.');
    var owner = state[name.slice(0, dot)];
    if (owner && typeof owner === 'object') owner[name.slice(dot + 1)] = value;
  }
  var loadError = null;
  var mirrorText = '';
  var actions = [];
  var staged = '';
  var firstFrameAt = null;
  var widgets = {};
  var drawnFrame = 0;  // the last frame drawn: widget(name).frame
  var drawnSettled = false;  // and whether no frame is due after it: widget(name).settled
  var lateFrames = 0;  // frameStats()
  var frameAskedAt = null;
  var scopeHelp = [];
  var fontStats = null;

  // The 'roomkey:state' event goes out once the app's own call has returned
  // (a microtask), never inside it: a listener that calls act() would
  // otherwise re-enter the app halfway through its publishing.
  var stateAnnounced = true;
  function announceState() {
    if (!stateAnnounced) return;
    stateAnnounced = false;
    queueMicrotask(function () {
      stateAnnounced = true;
      window.dispatchEvent(new Event('roomkey:state'));
    });
  }

  // Opens `place` through the page's own actions (after this publish returns).
  var leaving = null;  // the place a goTo leaves: not written back while the app is still there
  function goTo(place) {
    leaving = state.location || null;
    var room = /^#\/rooms\/(\d+)/.exec(place);
    queueMicrotask(function () {
      if (room) {
        window.roomkey.act({ type: 'show_view', view: 'workspace' });
        window.roomkey.act({ type: 'open_room', room_id: room[1] });
        // #/rooms/ID/tasks is the room's Tasks tab; #/rooms/ID, the room alone.
        window.roomkey.act({ type: 'show_details', tab: /\/tasks$/.test(place) ? 'tasks' : 'none' });
      } else if (place === '#/developer') {
        window.roomkey.act({ type: 'show_view', view: 'developer' });
      }
    });
  }
  var hadAccount = false;
  function followPlace() {
    // A sign-out ends the place with the session: the next person at this
    // tab starts at the beginning. (A reload that lost the page's session
    // keeps it: signing in again returns there.)
    if (hadAccount && !state.account && state.session === 'signed out') {
      wantedPlace = null;
      try { window.sessionStorage.removeItem(PLACE_KEY); } catch (e) { /* storage off */ }
    }
    hadAccount = !!state.account;
    if (!state.account || !(state.room_count > 0)) return;  // signed out: no place yet
    if (wantedPlace) {
      var place = wantedPlace;
      wantedPlace = null;
      goTo(place);
      return;
    }
    var here = state.location;
    if (leaving !== null && here === leaving) return;
    leaving = null;
    if (typeof here !== 'string' || !PLACE.test(here) || window.location.hash === here) return;
    try { window.sessionStorage.setItem(PLACE_KEY, here); } catch (e) { /* storage off: the address still says it */ }
    window.history.pushState(null, '', window.location.pathname + window.location.search + here);
  }
  window.addEventListener('popstate', function () {
    if (PLACE.test(window.location.hash)) goTo(window.location.hash);
  });

  function overlay(text, isError) {
    var el = document.getElementById('overlay');
    if (!el) return;  // still parsing <head>: boot() shows the page
    document.getElementById('overlay-text').textContent = text;
    el.classList.toggle('error', !!isError);
    el.classList.toggle('hidden', text === null);
  }

  function fail(message) {
    loadError = message;
    overlay(message, true);
    updateMirror();
  }

  // The mirror's words, in the app's language: the "mirror." entries of the
  // catalog (web/i18n/*.json), which the app publishes when its language is
  // set (web/src/language.cpp); the page's own words ("shell." entries,
  // PAGE_WORDS) in the language chosen above, until the app says another.
  var words = {};
  var wordsLang = pageLang === 'ja' ? 'ja' : 'en';
  function say(key, values, english) {
    var text = words[key];
    if (text === undefined) text = (PAGE_WORDS[wordsLang] || {})[key];
    if (text === undefined) text = (PAGE_WORDS.en || {})[key];
    if (values && typeof values.n === 'number' && words[key + '#other'] !== undefined) {
      var form = 'other';
      try { form = new Intl.PluralRules(wordsLang).select(values.n); } catch (e) {}
      text = words[key + '#' + form] !== undefined ? words[key + '#' + form] : words[key + '#other'];
    }
    if (text === undefined) text = english || key;
    return text.replace(/\{([a-z_]+)\}/g, function (all, name) {
      return values && values[name] !== undefined ? String(values[name]) : all;
    });
  }

  // The mirror says what a sighted user sees at a glance; it leaves out what
  // changes every second (countdowns) so screen readers are not flooded.
  function describe(s) {
    if (loadError) return say('shell.failed', { error: loadError });
    if (!s.ready) return say('shell.loading_said');
    var parts = [say('mirror.ready'), say('mirror.session', { session: say('session.' + String(s.session || 'unknown').replace(/ /g, '_'), null, s.session || 'unknown') })];
    // The account by its name; its id only in the developer view (or when it has no name).
    const developer = s.view === 'developer';
    if (s.account) {
      parts.push(s.account.name && !developer ? say('mirror.signed_in_name', { name: s.account.name })
        : say('mirror.signed_in_as', { name: s.account.name ? s.account.name + ' ' : '', id: s.account.account_id }));
    }
    // Where the tokens are (roomkey-helper in BFF mode, or this page).
    if (s.tokens_where) parts.push(say('mirror.tokens', { where: s.tokens_where }));
    if (s.status) {
      parts.push(say('mirror.status', { unread: s.status.unread_num, rooms: s.status.unread_room_num,
        mentions: s.status.mention_num, tasks: s.status.mytask_num }));
    }
    if (s.room_count) parts.push(say('mirror.room_count', { n: s.room_count }));
    if (s.queue && s.queue.total) {
      // A burst is announced when it starts, every 10 deliveries and when it
      // ends, not at every single post.
      var q = s.queue;
      if (q.waiting + q.sending > 0) {
        var step = Math.floor(q.delivered / 10) * 10;
        parts.push(step === 0 ? say('mirror.posting', { n: q.total })
                              : say('mirror.posting_progress', { step: step, total: q.total }));
        if (q.failed) parts.push(say('mirror.failed', { n: q.failed }));
      } else {
        parts.push(say(q.failed ? 'mirror.posts_done_failed' : 'mirror.posts_done',
                       { delivered: q.delivered, total: q.total, failed: q.failed }));
      }
    }
    if (s.connection && s.connection.helper === 'unreachable') parts.push(say('mirror.helper_unreachable'));
    // Posts the user has to act on, and posts waiting to be sent again.
    (s.posts || []).forEach(function (p) {
      if (p.stage === 'unknown' || p.stage === 'refused' || p.stage === 'retrying' || p.stage === 'checking') {
        // In words as its row says them; the stage and the queue's note in the developer view.
        parts.push(developer ? say('mirror.post', { body: p.body, stage: p.stage, note: p.note })
                             : say('mirror.post_said', { body: p.body, words: p.words }));
      }
    });
    // The open room, its newest messages as they arrive.
    // A room without a name in words; its id only in the developer view.
    if (s.room) {
      var counts = { room: s.room.name || s.room.room_id, messages: s.room.messages.length, tasks: s.room.tasks.length };
      parts.push(say(s.room.name || developer ? 'mirror.room' : 'mirror.room_unnamed', counts));
    }
    if (s.announce && s.announce.room) parts.push(s.announce.room + '.');
    if (s.announce && s.announce.console) parts.push(s.announce.console);
    if (s.sign_out_confirm) parts.push(say('mirror.sign_out_confirm', { posts: s.sign_out_confirm.posts }));
    if (s.scope_refresh && s.scope_refresh.granted !== null) {
      parts.push(say('mirror.scope_refresh', { granted: s.scope_refresh.granted || say('mirror.none') }));
    }
    if (s.scopes && s.scopes.differ) parts.push(say('mirror.scopes_differ'));
    // Each view's own error: in the developer view as the panel shows it
    // (status and the wire's words); elsewhere as the error box says it
    // (state().error_words), and not again when it is the box's error.
    const lastSaid = s.last_error ? s.last_error.title + '. ' + s.last_error.shown +
                                    (s.last_error.remedy ? ' ' + s.last_error.remedy : '') : '';
    ['config', 'account', 'status', 'rooms', 'posting', 'form', 'room', 'my_tasks', 'contacts', 'console',
      'scope_refresh'].forEach(function (key) {
      if (!s.errors || !s.errors[key]) return;
      const said = !developer && s.error_words && s.error_words[key];
      if (said === lastSaid) return;
      parts.push(say('mirror.view_error', { view: say('mirror.view.' + key), error: said ? said.replace(/[.。]$/, '') : s.errors[key] }));
    });
    // Text drawn with the built-in font (canvas read-back is noise);
    // a clipboard clear that waits for the next click or key press.
    if (fontStats && fontStats.notice) parts.push(fontStats.notice);
    if (s.clipboard_notice) parts.push(s.clipboard_notice);
    // The status line under the header ("Signed out: ...", "Copied as curl"), as drawn.
    if (s.notice) parts.push(s.notice);
    if (s.last_error) {
      // As the error box says it: the code and the wire's words only in the developer view.
      parts.push(say('mirror.last_error', { title: s.last_error.title }) +
                 (developer && s.last_error.code ? ' (' + s.last_error.code + ')' : '') + '. ' +
                 (developer ? s.last_error.message : s.last_error.shown) +
                 (s.last_error.remedy ? ' ' + s.last_error.remedy : ''));
    }
    return parts.join(' ');
  }

  function updateMirror() {
    var text = describe(state);
    var el = document.getElementById('mirror');
    if (el && text !== mirrorText) {
      mirrorText = text;
      el.textContent = text;
    }
  }

  // The page's own labels (the canvas's and the scope section's accessible
  // names) and the loading words, in the page's language: at boot and again
  // whenever the app's language changes (_publishWords).
  function labelPage() {
    var canvas = document.getElementById('canvas');
    if (canvas) canvas.setAttribute('aria-label', say('shell.app_label'));
    var help = document.getElementById('scope-help');
    if (help) help.setAttribute('aria-label', say('shell.scope_help_label'));
    if (!state.ready && !loadError) overlay(say('shell.loading'));
  }

  // The scope picker's explanations as a list (not live: read on demand).
  function renderScopeHelp() {
    var el = document.getElementById('scope-help');
    if (!el || !scopeHelp.length) return;
    var heading = document.createElement('p');
    // In the catalog's words (no spec section: a screen reader hears it as the canvas's description).
    heading.textContent = say('mirror.scope_help', null, 'Scopes you can request when signing in:');
    var list = document.createElement('ul');
    scopeHelp.forEach(function (scope) {
      var item = document.createElement('li');
      item.textContent = scope.name + (scope.available ? '' : say('mirror.scope_unavailable', null, ' (not available to this app)')) + ': ' +
                         scope.explanation;
      list.appendChild(item);
    });
    el.textContent = '';
    el.appendChild(heading);
    el.appendChild(list);
  }

  // Text the app reads is staged here and copied into wasm memory by the
  // caller (web/src/page_bridge.cpp), so no allocator export is needed.
  function stage(text) { staged = String(text || ''); return staged; }

  window['roomkey'] = {
    'ready': function () { return state.ready === true && loadError === null; },
    'state': function () { return JSON.parse(JSON.stringify(state)); },
    'error': function () { return loadError; },
    'mirrorText': function () { return mirrorText; },
    'firstFrameAt': function () { return firstFrameAt; },
    'widget': function (name) {
      var r = widgets[name];
      return r ? { 'x': r[0], 'y': r[1], 'width': r[2], 'height': r[3], 'frame': drawnFrame, 'settled': drawnSettled }
        : null;
    },
    '_publishWords': function (lang, json) {
      try { words = JSON.parse(json); wordsLang = lang; } catch (e) { return; }
      labelPage();
      updateMirror();
      renderScopeHelp();
    },
    // The language chosen above (1c), for the app (web/src/language.cpp),
    // and the user's switch of it, kept in this browser for the next load.
    '_language': function () { return stage(pageLang); },
    '_keepLanguage': function (lang) {
      try { window.localStorage.setItem(LANG_KEY, lang); } catch (e) { /* storage off: this load only */ }
    },
    '_publishWidgets': function (json) { try { widgets = JSON.parse(json); } catch (e) { widgets = {}; } },
    '_publishFrame': function (frame, settled, late) { drawnFrame = frame; drawnSettled = settled; lateFrames = late; },
    '_frameAsked': function (asked) { frameAskedAt = asked ? performance.now() : null; },
    'frameStats': function () {
      return { 'frame': drawnFrame, 'settled': drawnSettled, 'late': lateFrames,
        'asked_ms': frameAskedAt === null ? null : Math.round(performance.now() - frameAskedAt) };
    },
    'act': function (action) {
      if (!action || typeof action !== 'object') throw new TypeError('roomkey.act expects an object');
      actions.push(action);
      // Wakes the app (web/src/main.cpp listens): an event, not a callback
      // member, so no caller of this API can replace or break the wake-up.
      window.dispatchEvent(new Event('roomkey:act'));
    },
    // The parts of the state that changed (web/app/page_state.hpp): each
    // top-level name replaces that part; a name with a dot ("room.messages",
    // "room.poll_in_ms") sets a field inside its part, and the field stays
    // when its part is replaced (the room's messages are not sent again
    // when only a task or a member changed).
    '_publish': function (json) {
      var parts;
      var whole = false;  // a part replaced, not only a countdown inside one
      try { parts = JSON.parse(json); } catch (e) { return; }
      // In the order of their names: a part before the fields set inside it.
      Object.keys(parts).forEach(function (name) {
        var dot = name.indexOf('.');
        // `frame` (the frame that draws this state) is in every publish: not a part the mirror reads.
        if (dot < 0) {
          state[name] = parts[name];
          whole = whole || name !== 'frame';
          Object.keys(inner).forEach(function (field) {
            if (field.slice(0, field.indexOf('.')) === name) setInside(field, inner[field]);
          });
          return;
        }
        inner[name] = parts[name];
        setInside(name, parts[name]);
        whole = whole || !/_in_ms$/.test(name);  // a countdown (poll_in_ms) alone is not news
      });
      announceState();
      // A countdown alone (a scroll's frames, with their frame numbers)
      // changes neither the mirror (it leaves countdowns out) nor the place.
      if (!whole) return;
      if (state.ready && firstFrameAt === null) firstFrameAt = performance.now();
      if (state.ready) overlay(null);
      updateMirror();
      followPlace();
    },
    // The conversation's selection (shell/text_layer.js): page state of its own.
    '_publishSelection': function (selection) {
      state.selection = selection;
      announceState();
    },
    '_cannotDraw': function () { fail(noWebGL2()); },
    'fontStats': function () { return fontStats ? JSON.parse(JSON.stringify(fontStats)) : null; },
    '_publishFont': function (stats) {
      var notice = fontStats && fontStats.notice;
      fontStats = stats;
      if ((stats && stats.notice) !== notice) updateMirror();
    },
    'scopeHelp': function () { return JSON.parse(JSON.stringify(scopeHelp)); },
    '_publishScopeHelp': function (json) {
      try { scopeHelp = JSON.parse(json); } catch (e) { return; }
      renderScopeHelp();
    },
    // Single use, like the sessionStorage record it came from.
    '_stageLaunchUrl': function () { var url = launchUrl; launchUrl = ''; return stage(url); },
    '_takePending': function () { var record = pending; pending = ''; return record; },
    '_stageActions': function () { var list = actions; actions = []; return stage(list.length ? JSON.stringify(list) : ''); },
    '_stageText': function (text) { return stage(text); },
    '_staged': function () { var text = staged; staged = ''; return text; },
  };

  // Said by boot() when the browser has no WebGL 2 at all, and by the app
  // when it gets no WebGL 2 context (hardware acceleration off, WebGL
  // disabled or blocklisted). The app asks instead of boot() probing with a
  // context of its own: a second context cost the start 20-30 ms.
  function noWebGL2() { return say('shell.no_webgl2'); }

  function boot() {
    labelPage();
    if (loadError) overlay(loadError, true);  // failed while <head> was parsed
    if (typeof WebAssembly !== 'object') {
      fail(say('shell.no_wasm'));
      return;
    }
    if (typeof WebGL2RenderingContext !== 'function') {
      fail(noWebGL2());
      return;
    }
    var canvas = document.getElementById('canvas');
    canvas.addEventListener('contextmenu', function (event) { event.preventDefault(); });
    window['Module'] = {
      'canvas': canvas,
      'print': function (text) { console.log(text); },
      'printErr': function (text) { console.warn(text); },
      'onAbort': function (what) { fail(say('shell.aborted', { what: what })); },
      'locateFile': function (path) { return path === 'roomkey.wasm' ? ASSETS.wasm : path; }
    };
    // The module compiled since step 3; roomkey.js gets its instance.
    if (appModule) {
      window['Module']['instantiateWasm'] = function (imports, receiveInstance) {
        appModule.then(function (module) { return WebAssembly.instantiate(module, imports); })
          .then(function (instance) { receiveInstance(instance); }, function (error) {
            fail(say('shell.wasm_failed', { error: error }));
          });
        return {};  // the exports arrive through receiveInstance
      };
    }
    var script = document.createElement('script');
    script.src = ASSETS.js;
    script.onerror = function () {
      fail(say('shell.script_failed'));
    };
    document.body.appendChild(script);
    canvas.focus();
    updateMirror();
    renderScopeHelp();
  }

  window.addEventListener('error', function (event) {
    if (!state.ready) fail(event.message || say('shell.script_error'));
  });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot); else boot();
})();
