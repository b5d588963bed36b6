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

// Formulas wider than their column scroll sideways inside their own box
// (posenc-site.css draws the cue). Each one that does scroll can take
// keyboard focus, so that the arrow keys scroll it; the others cannot, so
// they are not extra stops for the Tab key. Checked again when the fonts
// have loaded and when the window changes size.
const markScrollingFormulas = () => {
  // All the measuring first, then all the marking: measuring after a change
  // would lay the page out again for every formula (300 on chapter 2).
  const boxes = [...document.querySelectorAll('div.math mjx-container[display="true"]')];
  const scrolling = boxes.map(box => box.scrollWidth > box.clientWidth + 1);
  boxes.forEach((box, i) => {
    const scrolls = scrolling[i];
    box.classList.toggle("posenc-scrolls", scrolls);
    if (scrolls) {
      box.setAttribute("tabindex", "0");
    } else if (box.getAttribute("tabindex") === "0") {
      box.removeAttribute("tabindex");
    }
  });
};
document.addEventListener("DOMContentLoaded", markScrollingFormulas);
if (document.fonts) document.fonts.ready.then(markScrollingFormulas);
{
  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(markScrollingFormulas, 100);
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
