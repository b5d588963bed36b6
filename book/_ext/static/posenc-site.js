// Small fixes to the book's pages (see book/_ext/posenc_site.py).
//
// Solution toggles: sphinx-togglebutton labels every toggle button "Toggle
// hidden content", so a screen reader's list of buttons holds a dozen
// identical names. Each button is named after the solution it opens
// ("Solution to Exercise 2.1 (The longest wavelength)"); aria-expanded,
// which togglebutton keeps up to date, says whether it is open.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll(".admonition .toggle-button")) {
    const title = button.closest(".admonition-title");
    const name = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
    if (name) button.setAttribute("aria-label", name);
  }
});
