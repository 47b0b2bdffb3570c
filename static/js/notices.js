// Notes at the foot of the screen, over the page: the network gone or back, a new version, how to
// install on iOS.  Their box is fixed to the screen (static/css/app.css, .notices), so a note that
// comes or goes moves nothing on the page, and the page gets that much more room at its end, so
// that nothing stays under a note; the box is a live region, so each note is read out once.

/**
 * The notes shown in `box` (an element with aria-live): show(key, {words, action, closeAfter})
 * puts up the note named `key` (replacing one of the same key), with an optional button
 * `action` = {label, run} and a Close button; `closeAfter` (ms) takes it down by itself;
 * hide(key) takes it down; shown(key) says whether it is up.
 */
export function createNotices(box) {
  const notes = new Map(); // key -> {element, timer}
  // The page gets as much room below it as the notes take, so that it scrolls out from under them.
  const root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty("--notices-height", `${box.offsetHeight}px`)).observe(box);

  function hide(key) {
    const note = notes.get(key);
    if (!note) return;
    clearTimeout(note.timer);
    note.element.remove();
    notes.delete(key);
  }

  function show(key, { words, action = null, closeAfter = null }) {
    hide(key);
    const element = document.createElement("div");
    element.className = "notice";
    element.dataset.notice = key;
    const text = document.createElement("p");
    text.textContent = words;
    element.append(text);
    if (action) element.append(button(action.label, "btn btn-primary", action.run));
    element.append(button("Close", "btn btn-ghost", () => hide(key)));
    box.append(element);
    notes.set(key, { element, timer: closeAfter === null ? null : setTimeout(() => hide(key), closeAfter) });
  }

  return { show, hide, shown: (key) => notes.has(key) };
}

function button(label, className, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.addEventListener("click", onClick);
  return element;
}
