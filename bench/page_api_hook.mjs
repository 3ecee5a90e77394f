// page_api_hook.mjs: lets a bench wrap members of the page API
// (window.roomkey, shell/page.js) in every document of a page before the app
// first calls them: _publish to note when a state is published,
// _publishFrame when a frame is drawn. shell/page.js defines window.roomkey
// in one assignment; a setter catches it and hands it to each hook a bench
// pushed onto window.__roomkeyApiHooks from its own init script.
//   await addPageApiHooks(page);
//   await page.addInitScript(() => window.__roomkeyApiHooks.push((api) => { ... }));
// _publish takes the parts of the state that changed (web/app/page_state.hpp);
// window.__roomkeyMergeParts(state, json) applies them to a hook's own copy
// as shell/page.js does, and answers that copy.
export function addPageApiHooks(page) {
  return page.addInitScript(() => {
    const hooks = window.__roomkeyApiHooks = [];
    window.__roomkeyMergeParts = (state, json) => {
      const parts = JSON.parse(json);
      for (const name of Object.keys(parts)) {
        const dot = name.indexOf('.');
        if (dot < 0) state[name] = parts[name];
        else if (state[name.slice(0, dot)] && typeof state[name.slice(0, dot)] === 'object') {
          state[name.slice(0, dot)][name.slice(dot + 1)] = parts[name];
        }
      }
      return state;
    };
    let api;
    Object.defineProperty(window, 'roomkey', {
      configurable: true,
      get() { return api; },
      set(value) {
        api = value;
        for (const hook of hooks) hook(value);
      },
    });
  });
}
