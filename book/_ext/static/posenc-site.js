// Small fixes to the book's pages (loaded by book/_ext/posenc_assets.py). Loaded
// with `defer`, like the theme's scripts: it runs once the page is parsed.

// Solution toggles: sphinx-togglebutton labels every toggle button "Toggle
// hidden content", so a screen reader's list of buttons holds a dozen
// identical names. Each button is named after the solution it opens
// ("Solution to Exercise 2.1 (The longest wavelength)"); aria-expanded,
// which togglebutton keeps up to date, says whether it is open.
// togglebutton adds its buttons on DOMContentLoaded, after this script's
// listener: name them once every listener has run.
document.addEventListener("DOMContentLoaded", () => setTimeout(() => {
  for (const button of document.querySelectorAll(".admonition .toggle-button")) {
    const title = button.closest(".admonition-title");
    const name = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
    if (name) button.setAttribute("aria-label", name);
  }
}, 0));

// A tap or click anywhere on a toggle's title opens or closes it.
// togglebutton's own handler finds its button only when the click lands on
// the title itself, the button or the chevron's <polyline>; a click on any
// other part (a word in a <span>, the chevron's <path>) threw "button is not
// defined" and did nothing. This listener runs first (capture phase), does
// the toggling, and keeps the event from reaching togglebutton's handler.
document.addEventListener("click", (event) => {
  const title = event.target.closest && event.target.closest(".admonition.toggle > .admonition-title");
  const button = title && title.querySelector(".toggle-button");
  if (!button || typeof window.toggleHidden !== "function") return;
  event.preventDefault();  // a link in a title (there should be none) does not jump away
  event.stopPropagation();
  window.toggleHidden(button);
}, true);

// Boxes that may scroll sideways on a narrow screen: display formulas,
// tables, code and text outputs. Each one that does scroll can take keyboard
// focus, so that the arrow keys scroll it; the others cannot, so they are not
// extra stops for the Tab key. Formulas and tables that scroll also show a cue
// (posenc-site.css): a class for the box, and one for each edge that hides
// more of it.
// Measuring a box lays it out, and a phone lays out only the sections near
// the screen (posenc-site.css, content-visibility): measuring every box at
// load, as the theme did (its script is changed at build time, see
// book/_ext/posenc_assets.py), laid the whole chapter out again and again.
// So a box is measured when it comes near the screen, and every box at a
// keyboard user's first Tab, before the focus moves.
{
  const SCROLLERS = ['div.math mjx-container[display="true"]', ".pst-scrollable-table-container",
                     "pre", ".cell_output > .output"].join(", ");
  const CUED = 'div.math mjx-container[display="true"], .pst-scrollable-table-container';
  const edges = (box) => {
    box.classList.toggle("posenc-more-left", box.scrollLeft > 1);
    box.classList.toggle("posenc-more-right", box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  };
  const mark = (boxes) => {
    // All the measuring first, then all the marking: measuring after a
    // change would lay the page out again for every box.
    const scrolling = boxes.map(box => box.scrollWidth > box.clientWidth + 1);
    boxes.forEach((box, i) => {
      const scrolls = scrolling[i];
      if (scrolls) box.setAttribute("tabindex", "0");
      else if (box.getAttribute("tabindex") === "0") box.setAttribute("tabindex", "-1");
      if (box.matches(CUED)) {
        box.classList.toggle("posenc-scrolls", scrolls);
        if (scrolls) edges(box);
        else box.classList.remove("posenc-more-left", "posenc-more-right");
      }
    });
  };
  const near = new Set();
  let everything = false;  // every box measured (after a Tab)
  const all = () => [...document.querySelectorAll(SCROLLERS)];
  const watcher = new IntersectionObserver((entries) => {
    const seen = [];
    for (const entry of entries) {
      if (entry.isIntersecting) { near.add(entry.target); seen.push(entry.target); }
      else near.delete(entry.target);
    }
    if (seen.length) mark(seen);
  }, {rootMargin: "200px 0px"});
  const start = () => all().forEach(box => watcher.observe(box));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !everything) { everything = true; mark(all()); }
  }, true);
  document.addEventListener("scroll", (event) => {
    const box = event.target;
    if (box.classList && box.classList.contains("posenc-scrolls")) edges(box);
  }, true);
  const again = () => mark(everything ? all() : [...near]);
  if (document.fonts) document.fonts.ready.then(again);
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(again, 100);
  });
}

// The phone drawers (the chapter list and the page's contents) are <dialog>
// elements that the theme opens from the menu and contents buttons. The
// theme takes the focus off the button as it opens the drawer, so Escape
// left the focus on <body>: it goes back to the button that opened it.
document.addEventListener("DOMContentLoaded", () => {
  const drawers = [["pst-primary-sidebar-modal", ".primary-toggle"],
                   ["pst-secondary-sidebar-modal", ".secondary-toggle"]];
  for (const [id, opener] of drawers) {
    const dialog = document.getElementById(id);
    const button = document.querySelector(opener);
    if (dialog && button) dialog.addEventListener("close", () => button.focus());
  }
});

// Search excerpts: on the search page, Sphinx fetches each result's page to
// cut an excerpt from it. From file:// the browser refuses (CORS), and over
// http the text holds formulas as TeX. The search page also loads
// search-texts.js (book/_ext/posenc_search.py): every page's text, formulas
// readable, sections with their ids. Requests for the book's own pages are
// answered from it; anything else goes to the real fetch.
{
  const realFetch = window.fetch.bind(window);
  window.fetch = (resource, options) => {
    if (!window.POSENC_SEARCH_TEXTS) return realFetch(resource, options);
    const root = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
    const page = new URL(String(resource), document.baseURI);
    if (page.href.startsWith(root.href)) {
      const docname = decodeURIComponent(page.pathname.slice(root.pathname.length))
        .replace(/\.html$/, "");
      const text = window.POSENC_SEARCH_TEXTS[docname];
      if (text !== undefined) {
        return Promise.resolve(new Response(text, {headers: {"Content-Type": "text/html"}}));
      }
    }
    return realFetch(resource, options);
  };
}
