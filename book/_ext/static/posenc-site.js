// Small fixes to the book's pages (see book/_ext/posenc_site.py).
//
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
