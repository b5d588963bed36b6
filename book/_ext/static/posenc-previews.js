// Previews of glossary terms and citations (book/_ext/posenc_previews.py).
// A glossary link shows its term's definition, a citation its reference, in
// one small box under the link: on hover (the box stays while the pointer is
// on the link or on the box), on keyboard focus, and on a first tap on a
// touch screen (a second tap on the same link follows it). Escape, a tap
// elsewhere, moving away or leaving the link hides it. The definitions come
// with the page (<script type="application/json" id="posenc-previews">); the
// references are the citation links' own title attributes. Nothing is
// fetched. Loaded with `defer` on the pages that have such links.
(() => {
  const data = document.getElementById("posenc-previews");
  const terms = data ? JSON.parse(data.textContent) : {};
  const root = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
  const DELAY_SHOW = 150, DELAY_HIDE = 300;  // ms: passing over a link shows nothing
  let box = null, shownFor = null, lastPointer = "mouse", showTimer = 0, hideTimer = 0;

  // The preview of a link: {kind, title, text}, or null.
  const previewOf = (link) => {
    if (link.closest(".bibtex-citation")) {
      if (link.hasAttribute("title")) {  // no second, native tooltip
        link.dataset.posencReference = link.getAttribute("title");
        link.removeAttribute("title");
      }
      const text = link.dataset.posencReference;
      return text ? {kind: "reference", title: "", text} : null;
    }
    const url = new URL(link.getAttribute("href") || "", document.baseURI);
    if (!url.hash || !url.href.startsWith(root.href)) return null;
    const docname = decodeURIComponent(url.pathname.slice(root.pathname.length)).replace(/\.html$/, "");
    const entry = terms[docname + "#" + decodeURIComponent(url.hash.slice(1))];
    return entry ? {kind: "term", title: entry.term, text: entry.text} : null;
  };
  const linkOf = (target) => {
    const link = target instanceof Element ? target.closest("a[href]") : null;
    return link && !link.closest("#posenc-preview") && previewOf(link) ? link : null;
  };

  const make = () => {
    box = document.createElement("div");
    box.id = "posenc-preview";
    box.className = "posenc-preview";
    box.setAttribute("role", "tooltip");
    box.hidden = true;
    box.addEventListener("pointerenter", () => clearTimeout(hideTimer));
    box.addEventListener("pointerleave", (e) => { if (e.pointerType !== "touch") later(hide); });
    (document.querySelector("main") || document.body).appendChild(box);
  };

  // Under the link (or above it, when there is more room there), never over
  // it: the box's top follows the link's last line, its left edge the line
  // the pointer is on (a link can wrap), kept on the screen.
  const place = (link, point) => {
    const rects = [...link.getClientRects()];
    if (!rects.length) rects.push(link.getBoundingClientRect());
    const near = (point && rects.find(r => point.y >= r.top && point.y <= r.bottom)) || rects[0];
    const gap = 6, margin = 8, width = document.documentElement.clientWidth;
    box.style.left = "0px";
    box.style.top = "0px";
    const w = box.offsetWidth, h = box.offsetHeight;
    const first = rects[0], last = rects[rects.length - 1];
    const left = Math.max(margin, Math.min(near.left, width - w - margin));
    const below = last.bottom + gap + h <= window.innerHeight || first.top - gap - h < 0;
    const top = below ? last.bottom + gap : first.top - gap - h;
    // the box is positioned in its offset parent (the page, when none is positioned)
    const parent = box.offsetParent;
    let x = -window.scrollX, y = -window.scrollY;
    if (parent && parent !== document.body && parent !== document.documentElement) {
      const r = parent.getBoundingClientRect();
      x = r.left + parent.clientLeft - parent.scrollLeft;
      y = r.top + parent.clientTop - parent.scrollTop;
    }
    box.style.left = `${left - x}px`;
    box.style.top = `${top - y}px`;
  };

  const show = (link, point) => {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    const preview = previewOf(link);
    if (!preview) return;
    if (!box) make();
    if (shownFor && shownFor !== link) shownFor.removeAttribute("aria-describedby");
    box.replaceChildren();
    box.dataset.kind = preview.kind;
    if (preview.title) {
      const title = document.createElement("strong");
      title.className = "posenc-preview-title";
      title.textContent = preview.title;
      box.append(title, " ");
    }
    box.append(preview.text);
    if (lastPointer === "touch") {
      const hint = document.createElement("span");
      hint.className = "posenc-preview-hint";
      hint.textContent = preview.kind === "term" ? "Tap the link again to open the glossary."
                                                 : "Tap the link again to open the references.";
      box.append(hint);
    }
    box.hidden = false;
    place(link, point);
    link.setAttribute("aria-describedby", box.id);
    shownFor = link;
  };

  const hide = () => {
    clearTimeout(showTimer);
    clearTimeout(hideTimer);
    if (box) box.hidden = true;
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
  };
  const later = (what, link, point) => {
    clearTimeout(what === hide ? hideTimer : showTimer);
    if (what === hide) hideTimer = setTimeout(hide, DELAY_HIDE);
    else showTimer = setTimeout(() => show(link, point), DELAY_SHOW);
  };

  document.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType || "mouse";
    if (box && !box.hidden && !box.contains(e.target) && !linkOf(e.target)) hide();
  }, true);
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const link = linkOf(e.target);
    if (link) {
      if (link === shownFor) clearTimeout(hideTimer);
      else later(show, link, {x: e.clientX, y: e.clientY});
    }
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType === "touch") return;
    const link = linkOf(e.target);
    if (!link || link.contains(e.relatedTarget)) return;
    clearTimeout(showTimer);
    if (link === shownFor && document.activeElement !== link) later(hide);
  });
  // A first tap shows the preview; a second tap on the same link follows it.
  document.addEventListener("click", (e) => {
    if (lastPointer !== "touch") return;
    const link = linkOf(e.target);
    if (link && link !== shownFor) {
      e.preventDefault();
      show(link, {x: e.clientX, y: e.clientY});
    }
  });
  document.addEventListener("focusin", (e) => {
    const link = linkOf(e.target);
    if (link && link.matches(":focus-visible")) show(link);
  });
  document.addEventListener("focusout", (e) => {
    if (shownFor && e.target === shownFor) hide();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && shownFor) {
      hide();
      e.stopPropagation();
    }
  }, true);
  window.addEventListener("resize", () => { if (lastPointer !== "touch") hide(); });
})();
