// page_api_hook.mjs: lets a bench wrap members of the page API
// (window.roomkey, shell/page.js) in every document of a page before the app
// first calls them: _publish to note when a state is published,
// _publishFrame when a frame is drawn. shell/page.js defines window.roomkey
// in one assignment; a setter catches it and hands it to each hook a bench
// pushed onto window.__roomkeyApiHooks from its own init script.
//   await addPageApiHooks(page);
//   await page.addInitScript(() => window.__roomkeyApiHooks.push((api) => { ... }));
export function addPageApiHooks(page) {
  return page.addInitScript(() => {
    const hooks = window.__roomkeyApiHooks = [];
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
