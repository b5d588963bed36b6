// Interactive figures of the book: the core (book/_ext/posenc_widgets.py).
//
// This file holds what every figure shares: numbers as text, a small
// plotting kit (scales, ticks, axes, lines, dots, heat maps), the formulas
// that several chapters use, the sliders, and the registry `PosencWidgets`.
// The figures themselves live in figures/<chapter slug>.js, one file per
// chapter (or per figure), each calling
//
//     PosencWidgets.register("name", {controls, compute, draw});
//
// A page loads this file and the files of the figures it holds, nothing
// else. Each figure computes its numbers in double precision, from the
// formula its chapter states, and draws them as plain SVG. The same files run
// twice:
//
// * when the book is built, in an embedded V8 (mini-racer, no DOM): the
//   extension asks `PosencWidgets.markup(name, id)` for the figure's HTML at
//   its default settings, so the page holds a finished static figure (what
//   print, the PDF and a reader without JavaScript see);
// * in the reader's browser, where it wires the sliders: every change
//   recomputes the numbers and redraws the figure at the width of the column.
//   A figure is first measured and drawn when it nears the screen
//   (IntersectionObserver); until then the reader sees the build's figure.
//
// `PosencWidgets.values(figure)` returns the numbers of the figure as drawn
// last, with its settings: tests/book/test_widgets.py compares them with
// posenc's to 1e-12.
(function (root) {
  "use strict";

  const TWO_PI = 2 * Math.PI;
  const range = (n) => Array.from({length: n}, (_, i) => i);

  // --- numbers as text ------------------------------------------------------
  //
  // As typeset, not as typed: a minus sign (−, not a hyphen), × and
  // superscripts for powers, commas between thousands.

  const MINUS = "\u2212";

  // 2^-3 as 2⁻³, 10^5 as 10⁵
  const SUPERSCRIPT = {"-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3",
                       4: "\u2074", 5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078",
                       9: "\u2079"};
  const superscript = (n) => String(n).split("").map((c) => SUPERSCRIPT[c]).join("");

  function thousands(text) {
    const [whole, frac] = text.split(".");
    const sign = whole.startsWith("-") ? MINUS : "";
    const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return sign + digits + (frac === undefined ? "" : "." + frac);
  }

  // A number as the book prints it: 6.28, 54,410, 0.0022, −0.5, 1e-05 -> 1.0×10⁻⁵.
  function fmt(x, digits = 3) {
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    if (a === 0) return "0";
    if (a >= 1e7 || a < 1e-3) {
      const [m, e] = x.toExponential(1).split("e");
      return `${m.replace("-", MINUS)}\u00d710${superscript(Number(e))}`;
    }
    if (a >= 1000) return thousands(x.toFixed(0));
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(a)));
    return thousands(x.toFixed(Math.min(decimals, 6)));
  }

  // A tick label or a setting: 20, 0.5, 1,000, 1×10⁻⁴ (no trailing zeros).
  function num(x, digits = 4) {
    if (x === 0) return "0";
    if (Math.abs(x) >= 1e7 || Math.abs(x) < 1e-3) return fmt(x);
    return thousands(String(Number(x.toPrecision(digits))));
  }

  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
      .replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  const r1 = (x) => Math.round(x * 10) / 10;  // SVG coordinates, 0.1 px

  // --- a small plotting kit: scales, ticks, axes, lines, dots ---------------

  function niceStep(span, count) {
    const raw = span / Math.max(count, 1);
    const power = 10 ** Math.floor(Math.log10(raw));
    const unit = raw / power;
    return power * (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10);
  }

  // Ticks at round numbers from lo to hi, in either order (a domain [100, 0]
  // runs downwards).
  function linearTicks(lo, hi, count) {
    if (lo > hi) [lo, hi] = [hi, lo];
    const step = niceStep(hi - lo, count);
    const ticks = [];
    for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) {
      ticks.push(Math.abs(t) < step * 1e-9 ? 0 : Number(t.toPrecision(12)));
    }
    return ticks;
  }

  function logTicks(lo, hi, base, count) {
    const a = Math.ceil(Math.log(lo) / Math.log(base) - 1e-9);
    const b = Math.floor(Math.log(hi) / Math.log(base) + 1e-9);
    const every = Math.max(1, Math.ceil((b - a + 1) / Math.max(count, 1)));
    const ticks = [];
    for (let e = a; e <= b; e += every) ticks.push(base ** e);
    return ticks;
  }

  // A panel: a plot area at (x, y) of size w x h with its two scales.
  class Panel {
    constructor(x, y, w, h, xs, ys, svgWidth) {
      Object.assign(this, {x, y, w, h, xs, ys, svgWidth});
      this.parts = [];
    }

    static scale(spec, lo, hi) {
      const [a, b] = spec.domain;
      if (spec.log) {
        const la = Math.log(a), lb = Math.log(b);
        return (v) => lo + (hi - lo) * (Math.log(v) - la) / (lb - la);
      }
      return (v) => lo + (hi - lo) * (v - a) / (b - a);
    }

    X(v) { return Panel.scale(this.xs, this.x, this.x + this.w)(v); }
    Y(v) { return Panel.scale(this.ys, this.y + this.h, this.y)(v); }

    // About one tick per 70 px across (the labels' width), per 45 px up.
    ticks(spec, length, vertical = false) {
      if (spec.ticks) return spec.ticks;
      const [a, b] = spec.domain;
      const count = Math.max(2, Math.floor(length / (spec.log || vertical ? 45 : 70)));
      return spec.log ? logTicks(a, b, spec.log, count) : linearTicks(a, b, count);
    }

    // Frame, grid, ticks and labels.
    axes({xlabel = "", ylabel = "", title = "", grid = true} = {}) {
      const out = [];
      const {x, y, w, h} = this;
      const inside = (v, spec) => v >= Math.min(...spec.domain) - 1e-12 &&
                                  v <= Math.max(...spec.domain) * (1 + 1e-12);
      for (const t of this.ticks(this.xs, w).filter((v) => inside(v, this.xs))) {
        const px = r1(this.X(t));
        if (grid) out.push(`<line class="pw-grid" x1="${px}" x2="${px}" y1="${y}" y2="${y + h}"/>`);
        out.push(`<line class="pw-axis" x1="${px}" x2="${px}" y1="${y + h}" y2="${y + h + 4}"/>`);
        out.push(`<text class="pw-tick" x="${px}" y="${y + h + 16}" text-anchor="middle">` +
                 `${esc((this.xs.format || num)(t))}</text>`);
      }
      for (const t of this.ticks(this.ys, h, true).filter((v) => inside(v, this.ys))) {
        const py = r1(this.Y(t));
        if (grid) out.push(`<line class="pw-grid" x1="${x}" x2="${x + w}" y1="${py}" y2="${py}"/>`);
        out.push(`<line class="pw-axis" x1="${x - 4}" x2="${x}" y1="${py}" y2="${py}"/>`);
        out.push(`<text class="pw-tick" x="${x - 6}" y="${py + 4}" text-anchor="end">` +
                 `${esc((this.ys.format || num)(t))}</text>`);
      }
      out.push(`<rect class="pw-frame" x="${x}" y="${y}" width="${w}" height="${h}"/>`);
      if (xlabel) {
        out.push(`<text class="pw-label" x="${r1(x + w / 2)}" y="${y + h + 32}" ` +
                 `text-anchor="middle">${esc(xlabel)}</text>`);
      }
      if (ylabel) {
        const cx = x - 44, cy = r1(y + h / 2);
        out.push(`<text class="pw-label" x="${cx}" y="${cy}" text-anchor="middle" ` +
                 `transform="rotate(-90 ${cx} ${cy})">${esc(ylabel)}</text>`);
      }
      if (title) out.push(titleText(title, this.svgWidth || x + w, y - 8));
      this.parts.unshift(...out);
      return this;
    }

    clip(id) {
      this.clipId = id;
      this.parts.push(`<clipPath id="${id}"><rect x="${this.x}" y="${this.y}" ` +
                      `width="${this.w}" height="${this.h}"/></clipPath>`);
      return this;
    }

    line(xs, ys, attrs = "") {
      let d = "";
      let pen = false;
      for (let i = 0; i < xs.length; i++) {
        const px = this.X(xs[i]), py = this.Y(ys[i]);
        if (!isFinite(px) || !isFinite(py)) { pen = false; continue; }
        d += `${pen ? "L" : "M"}${r1(px)} ${r1(py)}`;
        pen = true;
      }
      const clip = this.clipId ? ` clip-path="url(#${this.clipId})"` : "";
      this.parts.push(`<path fill="none" d="${d}"${clip} ${attrs}/>`);
      return this;
    }

    dots(xs, ys, radius, attrs = "") {
      const marks = xs.map((v, i) => {
        const px = r1(this.X(v)), py = r1(this.Y(ys[i]));
        return `M${r1(px - radius)} ${py}a${radius} ${radius} 0 1 0 ${2 * radius} 0` +
               `a${radius} ${radius} 0 1 0 ${-2 * radius} 0`;
      });
      this.parts.push(`<path d="${marks.join("")}" ${attrs}/>`);
      return this;
    }

    // A horizontal line at v, its label just above it at the left (the
    // labels of these lines, pw-note, have a halo: they stay legible where
    // they cross a curve).
    hline(v, attrs, label) {
      const py = r1(this.Y(v));
      this.parts.push(`<line x1="${this.x}" x2="${this.x + this.w}" y1="${py}" y2="${py}" ${attrs}/>`);
      if (label) {
        this.parts.push(`<text class="pw-note" x="${this.x + 6}" y="${py - 5}">${esc(label)}</text>`);
      }
      return this;
    }

    // A vertical line at v, its label beside it near the top: on its right,
    // or on its left when the line is near the right edge.
    vline(v, attrs, label) {
      const px = r1(this.X(v));
      this.parts.push(`<line x1="${px}" x2="${px}" y1="${this.y}" y2="${this.y + this.h}" ${attrs}/>`);
      if (label) {
        const left = px + 8 + 7 * label.length > this.x + this.w;
        this.parts.push(`<text class="pw-note" x="${r1(left ? px - 4 : px + 4)}" y="${this.y + 13}" ` +
                        `text-anchor="${left ? "end" : "start"}">${esc(label)}</text>`);
      }
      return this;
    }

    svg() { return this.parts.join(""); }
  }

  // A title centred on the figure; squeezed (not cut) if the figure is too
  // narrow for it (about 7 px per character of 13-px bold text).
  function titleText(title, width, y) {
    const fit = title.length * 7.2 > width - 8 ?
      ` textLength="${width - 8}" lengthAdjust="spacingAndGlyphs"` : "";
    return `<text class="pw-title" x="${r1(width / 2)}" y="${y}" text-anchor="middle"${fit}>` +
           `${esc(title)}</text>`;
  }

  // 2^-3 as 2⁻³ (tick labels of a base-2 log axis)
  const powerOf2Text = (t) => "2" + superscript(Math.round(Math.log2(t)));

  // A legend of line styles, wrapped into rows that fit the width.
  function legend(items, x, y, width) {
    const per = Math.max(1, Math.floor(width / 190));
    const out = items.map((item, i) => {
      const lx = x + (i % per) * (width / per), ly = y + Math.floor(i / per) * 18;
      return `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" ${item.attrs}/>` +
             `<text class="pw-tick" x="${lx + 30}" y="${ly}">${esc(item.label)}</text>`;
    });
    return {svg: out.join(""), height: Math.ceil(items.length / per) * 18};
  }

  function stroke(colour, extra = "") {
    return `class="pw-series pw-${colour}" stroke-width="2" ${extra}`;
  }

  function svgDoc(width, height, body) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${r1(height)}" ` +
           `width="${width}" height="${r1(height)}" aria-hidden="true" focusable="false">` +
           body + "</svg>";
  }

  // --- a heat map as an 8-bit BMP image (no canvas needed, so it is drawn
  // the same way at build time and in the browser) --------------------------

  // matplotlib's RdBu_r, the book's colour map for tables: -1 blue, 1 red.
  const RDBU_R = ["#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7",
                  "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f"];

  function rgb(hex) {
    return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }

  function colourMap(anchors, levels) {
    const stops = anchors.map(rgb);
    return range(levels).map((k) => {
      const t = k / (levels - 1) * (stops.length - 1);
      const i = Math.min(Math.floor(t), stops.length - 2), f = t - i;
      return stops[i].map((c, j) => Math.round(c + (stops[i + 1][j] - c) * f));
    });
  }

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  function base64(bytes) {
    let out = "";
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] +
             (i + 1 < bytes.length ? B64[(n >> 6) & 63] : "=") +
             (i + 2 < bytes.length ? B64[n & 63] : "=");
    }
    return out;
  }

  // rows x cols values in [lo, hi] -> data: URL of an indexed-colour BMP,
  // row 0 at the top.
  function heatmapURL(values, rows, cols, lo, hi, palette) {
    const stride = (cols + 3) & ~3;
    const offset = 14 + 40 + 4 * palette.length;
    const size = offset + stride * rows;
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    bytes[0] = 66; bytes[1] = 77;  // "BM"
    view.setUint32(2, size, true);
    view.setUint32(10, offset, true);
    view.setUint32(14, 40, true);
    view.setInt32(18, cols, true);
    view.setInt32(22, -rows, true);  // negative: rows from the top down
    view.setUint16(26, 1, true);
    view.setUint16(28, 8, true);
    view.setUint32(34, stride * rows, true);
    view.setUint32(46, palette.length, true);
    palette.forEach(([r, g, b], k) => {
      bytes[54 + 4 * k] = b; bytes[55 + 4 * k] = g; bytes[56 + 4 * k] = r;
    });
    const top = palette.length - 1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const t = (values[r * cols + c] - lo) / (hi - lo);
        bytes[offset + r * stride + c] = Math.max(0, Math.min(top, Math.round(t * top)));
      }
    }
    return "data:image/bmp;base64," + base64(bytes);
  }

  // --- the formulas ----------------------------------------------------------

  // Chapter 2: omega_i = base^(-2i/d_model), i = 0 .. ceil(d_model/2) - 1.
  function frequencies(d, base) {
    return range(Math.ceil(d / 2)).map((i) => base ** -(2 * i / d));
  }

  // Chapter 2: PE(pos, 2i) = sin(pos omega_i), PE(pos, 2i+1) = cos(pos omega_i).
  function peRow(pos, d, base) {
    const omega = frequencies(d, base);
    return range(d).map((j) => {
      const angle = pos * omega[j >> 1];
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    });
  }

  function dot(a, b) {
    let s = 0;
    for (let j = 0; j < a.length; j++) s += a[j] * b[j];
    return s;
  }

  // Chapters 5, 6 and 8: f(x, m) = R(m theta_i) x, pair i = (x[2i], x[2i+1]) turned
  // anticlockwise by m theta_i, theta_i = base^(-2i/d).
  function rope(x, m, base) {
    const theta = frequencies(x.length, base);
    const out = new Array(x.length);
    for (let i = 0; i < x.length / 2; i++) {
      const c = Math.cos(m * theta[i]), s = Math.sin(m * theta[i]);
      out[2 * i] = c * x[2 * i] - s * x[2 * i + 1];
      out[2 * i + 1] = s * x[2 * i] + c * x[2 * i + 1];
    }
    return out;
  }

  // softmax(x) = e^(x - max) / sum, as posenc.softmax.
  function softmax(x) {
    const m = Math.max(...x);
    const e = x.map((v) => Math.exp(v - m));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / total);
  }

  // Settings that several figures offer.
  const BASES = [100, 1000, 10000, 100000, 500000, 1000000];
  const WIDTHS = [8, 16, 32, 64, 128, 256, 512];
  const baseText = (b) => thousands(String(b));

  // --- the registry ------------------------------------------------------
  //
  // A figure is {controls, compute, draw}:
  // * controls: sliders, each {name, label, value} and either min, max, step
  //   (optionally maxFrom(params), a maximum that follows other settings) or
  //   values (a list; the slider moves over its indices), and optionally
  //   text(value), the value as shown and spoken;
  // * compute(params) -> the numbers (what PosencWidgets.values returns, so
  //   what the browser test compares with posenc);
  // * draw(params, values, width) -> {svg, alt, summary}.

  const WIDGETS = {};

  function register(name, widget) {
    if (WIDGETS[name]) throw new Error(`figure ${name} is registered twice`);
    for (const key of ["controls", "compute", "draw"]) {
      if (!widget[key]) throw new Error(`figure ${name} has no ${key}`);
    }
    WIDGETS[name] = widget;
    if (started) attachAll();  // a figure file that runs after the page is ready
  }

  // --- markup, settings and the figure in the page ----------------------------

  function controlValue(spec, index) {
    return spec.values ? spec.values[index] : index;
  }

  function controlText(spec, value) {
    return (spec.text || num)(value);
  }

  function defaults(name) {
    const params = {};
    for (const c of WIDGETS[name].controls) params[c.name] = c.value;
    return params;
  }

  function render(name, params, width) {
    const widget = WIDGETS[name];
    const values = widget.compute(params);
    return {values, ...widget.draw(params, values, width)};
  }

  const STATIC_WIDTH = 640;

  // The figure's inner HTML at its default settings (built into the page).
  function markup(name, id) {
    const widget = WIDGETS[name];
    if (!widget) throw new Error(`unknown widget ${name}; known: ${Object.keys(WIDGETS)}`);
    const params = defaults(name);
    const out = render(name, params, STATIC_WIDTH);
    const controls = widget.controls.map((c) => {
      const value = c.value;
      const index = c.values ? c.values.indexOf(value) : value;
      const [min, max, step] = c.values ? [0, c.values.length - 1, 1] :
        [c.min, c.maxFrom ? c.maxFrom(params) : c.max, c.step];
      const text = controlText(c, value);
      return `<div class="pw-control"><label for="${id}-${c.name}">${esc(c.label)}</label>` +
        `<output id="${id}-${c.name}-out" for="${id}-${c.name}" aria-live="off">${esc(text)}</output>` +
        `<input type="range" id="${id}-${c.name}" name="${c.name}" min="${min}" max="${max}" ` +
        `step="${step}" value="${index}" aria-valuetext="${esc(text)}"></div>`;
    }).join("");
    return `<div class="pw-controls" role="group" aria-label="Settings of the figure">` +
      `${controls}</div>` +
      `<div class="pw-figure" role="img" aria-label="${esc(out.alt)}">${out.svg}</div>` +
      `<p class="pw-summary" aria-live="polite">${esc(out.summary)}</p>`;
  }

  const live = new Map();

  function read(figure, widget) {
    const params = {};
    for (const c of widget.controls) {
      const input = figure.querySelector(`input[name="${c.name}"]`);
      params[c.name] = controlValue(c, Number(input.value));
    }
    return params;
  }

  // The summary line is a polite live region. So that a screen reader does
  // not read all of it after every arrow press (the slider speaks its own
  // new value, and its <output> is aria-live="off"), the summary changes
  // once the reader has stopped moving a slider for summaryDelay ms.
  const pending = new Map();  // figure -> {timer, text} of its next summary

  function setSummary(figure, text, now) {
    const waiting = pending.get(figure);
    if (waiting) clearTimeout(waiting.timer);
    pending.delete(figure);
    const line = figure.querySelector(".pw-summary");
    if (now) {
      line.textContent = text;
      return;
    }
    const timer = setTimeout(() => setSummary(figure, text, true), api.summaryDelay);
    pending.set(figure, {timer, text});
  }

  // Every summary that waits, written now (the browser test reads them).
  function settle() {
    for (const [figure, {text}] of [...pending]) setSummary(figure, text, true);
  }

  function update(figure, now = false) {
    const name = figure.dataset.widget;
    const widget = WIDGETS[name];
    const params = read(figure, widget);
    for (const c of widget.controls) {  // a slider whose range depends on another
      if (!c.maxFrom) continue;
      const input = figure.querySelector(`input[name="${c.name}"]`);
      const max = c.maxFrom(params);
      input.max = String(max);
      if (Number(input.value) > max) input.value = String(max);
      params[c.name] = controlValue(c, Number(input.value));
    }
    for (const c of widget.controls) {
      const input = figure.querySelector(`input[name="${c.name}"]`);
      const text = controlText(c, params[c.name]);
      input.setAttribute("aria-valuetext", text);
      figure.querySelector(`output[for="${input.id}"]`).textContent = text;
    }
    const box = figure.querySelector(".pw-figure");
    const width = Math.round(Math.max(260, Math.min(760, box.clientWidth || STATIC_WIDTH)));
    const out = render(name, params, width);
    box.innerHTML = out.svg;
    box.setAttribute("aria-label", out.alt);
    setSummary(figure, out.summary, now);
    live.set(figure, {name, params, width, ...out.values});
  }

  // A figure is wired (its sliders shown and listened to) as soon as its
  // file has run, which costs no layout; it is measured and drawn at the
  // column's width only when it nears the screen. Until then the page shows
  // the static figure that the build drew (the same drawing at 640 px,
  // scaled to the column). The site's sections are content-visibility: auto
  // (posenc-site.css): a section off the screen is not laid out at all, and
  // measuring a figure in it would force its layout, hundreds of ms on a
  // phone for chapter 2's three figures at load.
  const wired = new Set(), awake = new Set();
  const NEAR = "50% 0px";  // about the margin at which Chromium lays out such a section
  const nearing = typeof IntersectionObserver === "function" ?
    new IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) wake(entry.target);
    }, {rootMargin: NEAR}) : null;

  function attach(figure) {
    if (!WIDGETS[figure.dataset.widget] || wired.has(figure)) return;
    wired.add(figure);
    // a slider moved before the figure came near (by a script, or a reader
    // faster than the observer) draws it at once
    figure.addEventListener("input", () => { wake(figure, false); update(figure); });
    figure.classList.add("pw-live");
    if (nearing) nearing.observe(figure);
    else wake(figure);
  }

  // The figure nears the screen: draw it for the column, and again whenever
  // the column's width changes.
  function wake(figure, draw = true) {
    if (awake.has(figure)) return;
    awake.add(figure);
    if (nearing) nearing.unobserve(figure);
    if (draw) update(figure, true);
    figure.classList.add("pw-drawn");
    if (typeof ResizeObserver === "function") {
      const box = figure.querySelector(".pw-figure");
      let last = null;
      new ResizeObserver((entries) => {
        const now = entries[entries.length - 1].contentRect.width;
        if (now === 0) return;  // not laid out (a section off the screen, print)
        if (last !== null && Math.abs(now - last) > 1) update(figure, !pending.has(figure));
        last = now;
      }).observe(box);
    }
  }

  // Figures whose file has run are wired; the others wait for theirs.
  let started = false;
  function attachAll() {
    document.querySelectorAll("figure.posenc-widget").forEach(attach);
  }

  const kit = {TWO_PI, range, thousands, fmt, num, esc, r1, niceStep, linearTicks, logTicks,
               Panel, titleText, powerOf2Text, legend, stroke, svgDoc, RDBU_R, colourMap,
               heatmapURL, BASES, WIDTHS, baseText};
  const api = {
    widgets: WIDGETS, register, render, markup, defaults, kit, settle,
    summaryDelay: 600,  // ms
    values: (figure) => live.get(figure) || null,
    // the shared formulas; each figure file adds its chapter's own
    formulas: {frequencies, peRow, dot, rope, softmax},
  };
  root.PosencWidgets = api;

  if (typeof document !== "undefined") {
    const start = () => { started = true; attachAll(); };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : globalThis);
