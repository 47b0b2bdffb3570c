// The language picker of every page: a choice is remembered in the cookie the server reads when it
// chooses a page's language (its name and lifetime come with the picker, from
// web/words/languages.py), and the page opens again in it.  A page whose address names its language
// (?lang=, a shared link) takes the new one there too, so that its address still says what it shows.
// The service worker that answers the page (static/sw.js) is told first, and keeps the reader's pages
// in the new language before the page opens again: else the reload would get the old one's copy.

/** Wire the picker `select` (its options' values are language tags); nothing when the page has none. */
export function bindLanguagePicker(select) {
  if (!select) return;
  select.addEventListener("change", async () => {
    const tag = select.value;
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${select.dataset.cookie}=${encodeURIComponent(tag)}; Path=/; ` +
      `Max-Age=${select.dataset.maxAge}; SameSite=Lax${secure}`;
    await workerTold(tag);
    const address = new URL(window.location.href);
    if (address.searchParams.has("lang")) {
      address.searchParams.set("lang", tag);
      window.location.assign(address.href);
    } else {
      window.location.reload();
    }
  });
}

/** Resolves once the worker that answers the page (if any) has kept the reader's pages in `tag`. */
function workerTold(tag) {
  const worker = navigator.serviceWorker?.controller;
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(); // "kept", or "not kept" (offline): the page opens again either way
    worker.postMessage({ type: "language", tag }, [channel.port2]);
  });
}
